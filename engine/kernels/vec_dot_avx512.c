/* AVX-512 (VL/BW + VNNI) dot products: the shared x86 kernels with VPDPBUSD
 * doing the byte products and their 4-way sums in one instruction. */
#include "kernels/vec_dot_internal.h"

#if defined(__x86_64__) && defined(__AVX512VNNI__) && defined(__AVX512VL__) && defined(__F16C__)
#include <immintrin.h>

#define KERNEL(name) name##_avx512
static inline __m256i dot_u8s8(__m256i u, __m256i s) {
    return _mm256_dpbusd_epi32(_mm256_setzero_si256(), u, s);
}
#include "kernels/vec_dot_x86.inc"

void seer_vec_dot_fill_avx512(seer_vec_dot_fn t[SEER_TYPE_COUNT], seer_vec_dot4_fn t4[SEER_TYPE_COUNT]) {
    fill_avx512(t);
    fill4_avx512(t4);
}
#else
void seer_vec_dot_fill_avx512(seer_vec_dot_fn t[SEER_TYPE_COUNT], seer_vec_dot4_fn t4[SEER_TYPE_COUNT]) {
    (void)t;
    (void)t4;
}
#endif
