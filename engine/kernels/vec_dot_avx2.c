/* AVX2/FMA/F16C dot products, built twice: as vec_dot_avx2.c (plain AVX2,
 * -mavx2 -mfma -mf16c) and as vec_dot_avxvnni.c (the same with AVX-VNNI,
 * -mavxvnni: VEX-encoded VPDPBUSD for the byte products, Intel since Alder
 * Lake, AMD Zen 5). The kernels themselves are in vec_dot_x86.inc, shared
 * with the AVX-512 build. */
#include "kernels/vec_dot_internal.h"

#if defined(SEER_AVXVNNI_BUILD)
#define KERNEL(name) name##_avxvnni
#else
#define KERNEL(name) name##_avx2
#endif

#if defined(SEER_AVXVNNI_BUILD) && !defined(__AVXVNNI__)
#define X86_BUILT 0 /* a compiler or target without AVX-VNNI */
#elif defined(__x86_64__) && defined(__AVX2__) && defined(__FMA__) && defined(__F16C__)
#define X86_BUILT 1
#else
#define X86_BUILT 0
#endif

#if X86_BUILT
#include <immintrin.h>

#define PREFETCH_LEVEL SEER_SIMD_AVX2
#if defined(SEER_AVXVNNI_BUILD)
#define X86_VNNI 1
static inline __m256i dot_u8s8_acc(__m256i acc, __m256i u, __m256i s) { return _mm256_dpbusd_avx_epi32(acc, u, s); }
static inline __m256i dot_u8s8(__m256i u, __m256i s) { return dot_u8s8_acc(_mm256_setzero_si256(), u, s); }
#else
#define X86_VNNI 0
static inline __m256i dot_u8s8(__m256i u, __m256i s) {
    return _mm256_madd_epi16(_mm256_maddubs_epi16(u, s), _mm256_set1_epi16(1));
}
static inline __m256i dot_u8s8_acc(__m256i acc, __m256i u, __m256i s) { return _mm256_add_epi32(acc, dot_u8s8(u, s)); }
#endif
#include "kernels/vec_dot_x86.inc"
#elif defined(SEER_AVXVNNI_BUILD) && defined(__x86_64__)
/* A compiler without AVX-VNNI: its place is taken by the plain AVX2 build. */
void KERNEL(seer_x86_fill)(seer_vec_dot_fn t[SEER_TYPE_COUNT], seer_vec_dot4_fn t4[SEER_TYPE_COUNT],
                           seer_vec_dot16_fn t16[SEER_TYPE_COUNT]) {
    seer_x86_fill_avx2(t, t4, t16);
}
seer_vec_dot16_rows_fn KERNEL(seer_x86_dot16_rows)(int type) { return seer_x86_dot16_rows_avx2(type); }
#else
void KERNEL(seer_x86_fill)(seer_vec_dot_fn t[SEER_TYPE_COUNT], seer_vec_dot4_fn t4[SEER_TYPE_COUNT],
                           seer_vec_dot16_fn t16[SEER_TYPE_COUNT]) {
    (void)t;
    (void)t4;
    (void)t16;
}
seer_vec_dot16_rows_fn KERNEL(seer_x86_dot16_rows)(int type) {
    (void)type;
    return NULL;
}
#endif
