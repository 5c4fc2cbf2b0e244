/* AVX2/FMA/F16C dot products (built with -mavx2 -mfma -mf16c). The kernels
 * themselves are in vec_dot_x86.inc, shared with the AVX-512 build. */
#include "kernels/vec_dot_internal.h"

#if defined(__x86_64__) && defined(__AVX2__) && defined(__FMA__) && defined(__F16C__)
#include <immintrin.h>

#define KERNEL(name) name##_avx2
#define PREFETCH_LEVEL SEER_SIMD_AVX2
static inline __m256i dot_u8s8(__m256i u, __m256i s) {
    return _mm256_madd_epi16(_mm256_maddubs_epi16(u, s), _mm256_set1_epi16(1));
}
#include "kernels/vec_dot_x86.inc"

DOT16_ROWS(dot16_rows_q4_K_avx2, dot16xn_q4_K_avx2)
DOT16_ROWS(dot16_rows_q5_K_avx2, dot16xn_q5_K_avx2)
DOT16_ROWS(dot16_rows_q6_K_avx2, dot16xn_q6_K_avx2)
DOT16_ROWS(dot16_rows_q8_0_avx2, dot16xn_q8_0_avx2)
seer_vec_dot16_rows_fn seer_vec_dot16_rows_avx2(int type) {
    return type == SEER_TYPE_Q4_K   ? dot16_rows_q4_K_avx2
           : type == SEER_TYPE_Q5_K ? dot16_rows_q5_K_avx2
           : type == SEER_TYPE_Q6_K ? dot16_rows_q6_K_avx2
           : type == SEER_TYPE_Q8_0 ? dot16_rows_q8_0_avx2
                                    : NULL;
}

void seer_vec_dot_fill_avx2(seer_vec_dot_fn t[SEER_TYPE_COUNT], seer_vec_dot4_fn t4[SEER_TYPE_COUNT],
                            seer_vec_dot16_fn t16[SEER_TYPE_COUNT]) {
    fill_avx2(t);
    fill4_avx2(t4);
    fill16_avx2(t16);
}
#else
seer_vec_dot16_rows_fn seer_vec_dot16_rows_avx2(int type) {
    (void)type;
    return NULL;
}
void seer_vec_dot_fill_avx2(seer_vec_dot_fn t[SEER_TYPE_COUNT], seer_vec_dot4_fn t4[SEER_TYPE_COUNT],
                          seer_vec_dot16_fn t16[SEER_TYPE_COUNT]) {
    (void)t;
    (void)t4;
    (void)t16;
}
#endif
