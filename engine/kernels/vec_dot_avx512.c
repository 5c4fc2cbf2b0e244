/* AVX-512 (VL/BW + VNNI) dot products: the shared x86 kernels with VPDPBUSD
 * doing the byte products and their 4-way sums in one instruction. */
#include "kernels/vec_dot_internal.h"
#include "kernels/gemm_q8_internal.h"

#include <string.h>

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

/* Int8 GEMM micro-kernel (see gemm_q8_internal.h): per block, 8 VPDPBUSD of
 * a broadcast of 4 activation bytes against the 8 panel vectors. */
void seer_q8_panel_avx512(int64_t n_blocks, const uint8_t *panel, const uint8_t *act, size_t act_stride,
                          const float *act_d, size_t d_stride, int nr, float *out) {
    const float *wd = (const float *)(panel + (size_t)n_blocks * 256);
    const int32_t *wcorr = (const int32_t *)(panel + (size_t)n_blocks * 288);
    __m256 acc[4] = {_mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps()};
    for (int64_t b = 0; b < n_blocks; b++) {
        const __m256i *wv = (const __m256i *)(panel + b * 256);
        __m256i w[8];
        for (int g = 0; g < 8; g++) w[g] = _mm256_load_si256(wv + g);
        __m256i corr = _mm256_load_si256((const __m256i *)(wcorr + 8 * b));
        __m256 d = _mm256_load_ps(wd + 8 * b);
        for (int r = 0; r < nr; r++) {
            const uint8_t *a = act + r * act_stride + 32 * b;
            __m256i s = _mm256_setzero_si256();
            for (int g = 0; g < 8; g++) {
                int32_t four;
                memcpy(&four, a + 4 * g, 4);
                s = _mm256_dpbusd_epi32(s, _mm256_set1_epi32(four), w[g]);
            }
            s = _mm256_sub_epi32(s, corr);
            __m256 scale = _mm256_mul_ps(d, _mm256_set1_ps(act_d[r * d_stride + b]));
            acc[r] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(s), scale, acc[r]);
        }
    }
    for (int r = 0; r < nr; r++) _mm256_storeu_ps(out + 8 * r, acc[r]);
}
bool seer_q8_panel_avx512_built(void) { return true; }
#else
void seer_vec_dot_fill_avx512(seer_vec_dot_fn t[SEER_TYPE_COUNT], seer_vec_dot4_fn t4[SEER_TYPE_COUNT]) {
    (void)t;
    (void)t4;
}
void seer_q8_panel_avx512(int64_t n_blocks, const uint8_t *panel, const uint8_t *act, size_t act_stride,
                          const float *act_d, size_t d_stride, int nr, float *out) {
    (void)n_blocks; (void)panel; (void)act; (void)act_stride; (void)act_d; (void)d_stride; (void)nr; (void)out;
}
bool seer_q8_panel_avx512_built(void) { return false; }
#endif
