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

/* Int8 GEMM micro-kernel (see gemm_q8_internal.h): per block, a broadcast
 * of 4 activation bytes feeds VPDPBUSD against the panel vectors of 16 rows;
 * two panels at a time share each broadcast. */
static inline void q8_panels(int64_t n_blocks, const uint8_t *panel0, const uint8_t *panel1, const uint8_t *act,
                             size_t act_stride, const float *act_d, const float *act_s, size_t d_stride, int nr,
                             float *out0, float *out1) {
    const int two = panel1 != NULL;
    const uint8_t *pan[2] = {panel0, panel1 ? panel1 : panel0};
    __m512 acc[2][4];
    for (int p = 0; p < 2; p++)
        for (int r = 0; r < 4; r++) acc[p][r] = _mm512_setzero_ps();
    for (int64_t b = 0; b < n_blocks; b++) {
        __m512i w[2][8], corr[2];
        __m512 d[2], mn[2];
        for (int p = 0; p < 1 + two; p++) {
            const __m512i *wv = (const __m512i *)(pan[p] + b * 512);
            for (int g = 0; g < 8; g++) w[p][g] = _mm512_load_si512(wv + g);
            d[p] = _mm512_load_ps((const float *)(pan[p] + (size_t)n_blocks * 512) + 16 * b);
            corr[p] = _mm512_load_si512((const void *)((const int32_t *)(pan[p] + (size_t)n_blocks * 576) + 16 * b));
            mn[p] = _mm512_load_ps((const float *)(pan[p] + (size_t)n_blocks * 640) + 16 * b);
        }
        for (int r = 0; r < nr; r++) {
            const uint8_t *a = act + r * act_stride + 32 * b;
            __m512i s0 = _mm512_setzero_si512(), s1 = _mm512_setzero_si512();
            for (int g = 0; g < 8; g++) {
                int32_t four;
                memcpy(&four, a + 4 * g, 4);
                __m512i bc = _mm512_set1_epi32(four);
                s0 = _mm512_dpbusd_epi32(s0, bc, w[0][g]);
                if (two) s1 = _mm512_dpbusd_epi32(s1, bc, w[1][g]);
            }
            __m512 ad = _mm512_set1_ps(act_d[r * d_stride + b]);
            acc[0][r] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(_mm512_sub_epi32(s0, corr[0])), _mm512_mul_ps(d[0], ad), acc[0][r]);
            if (two)
                acc[1][r] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(_mm512_sub_epi32(s1, corr[1])), _mm512_mul_ps(d[1], ad), acc[1][r]);
            if (act_s) {
                __m512 as = _mm512_set1_ps(act_s[r * d_stride + b]);
                acc[0][r] = _mm512_fnmadd_ps(mn[0], as, acc[0][r]);
                if (two) acc[1][r] = _mm512_fnmadd_ps(mn[1], as, acc[1][r]);
            }
        }
    }
    for (int r = 0; r < nr; r++) {
        _mm512_storeu_ps(out0 + 16 * r, acc[0][r]);
        if (two) _mm512_storeu_ps(out1 + 16 * r, acc[1][r]);
    }
}

void seer_q8_panel_avx512(int64_t n_blocks, const uint8_t *panel, const uint8_t *act, size_t act_stride,
                          const float *act_d, const float *act_s, size_t d_stride, int nr, float *out) {
    q8_panels(n_blocks, panel, NULL, act, act_stride, act_d, act_s, d_stride, nr, out, NULL);
}

void seer_q8_panel2_avx512(int64_t n_blocks, const uint8_t *panel0, const uint8_t *panel1, const uint8_t *act,
                           size_t act_stride, const float *act_d, const float *act_s, size_t d_stride, int nr,
                           float *out0, float *out1) {
    q8_panels(n_blocks, panel0, panel1, act, act_stride, act_d, act_s, d_stride, nr, out0, out1);
}
bool seer_q8_panel_avx512_built(void) { return true; }
#else
void seer_vec_dot_fill_avx512(seer_vec_dot_fn t[SEER_TYPE_COUNT], seer_vec_dot4_fn t4[SEER_TYPE_COUNT]) {
    (void)t;
    (void)t4;
}
void seer_q8_panel_avx512(int64_t n_blocks, const uint8_t *panel, const uint8_t *act, size_t act_stride,
                          const float *act_d, const float *act_s, size_t d_stride, int nr, float *out) {
    (void)n_blocks; (void)panel; (void)act; (void)act_stride; (void)act_d; (void)act_s; (void)d_stride; (void)nr;
    (void)out;
}
void seer_q8_panel2_avx512(int64_t n_blocks, const uint8_t *panel0, const uint8_t *panel1, const uint8_t *act,
                           size_t act_stride, const float *act_d, const float *act_s, size_t d_stride, int nr,
                           float *out0, float *out1) {
    (void)n_blocks; (void)panel0; (void)panel1; (void)act; (void)act_stride; (void)act_d; (void)act_s; (void)d_stride;
    (void)nr; (void)out0; (void)out1;
}
bool seer_q8_panel_avx512_built(void) { return false; }
#endif
