/* Int8 GEMM micro-kernel on AVX-512 VNNI (gemm_q8_internal.h), register
 * blocked: up to SEER_Q8_PANEL_MAX_ROWS activation rows times two panels
 * (32 weight rows), every accumulator in a register. Per vector g of a
 * block the two panels' weight vectors are loaded once and serve every
 * row, whose 4 activation bytes VPDPBUSD takes as a broadcast; the block's
 * int32 sums are then scaled into float accumulators (weight scale ×
 * activation scale, less the +128 correction and the mins), the same float
 * steps per output as the AMX kernel, so results are bit-identical to it.
 * Against the earlier layout (16 weight vectors of a block in registers,
 * four rows each re-reading them) the weights come from L2 once per six
 * rows instead of four and each row's 2 (or 4) chains of 8 VPDPBUSD become
 * 12 independent ones. */
#include <string.h>

#include "kernels/gemm_q8_internal.h"

#if defined(__x86_64__) && defined(__AVX512VNNI__) && defined(__AVX512VL__)
#include <immintrin.h>

static inline int32_t load_i32(const uint8_t *p) {
    int32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* NR rows (1..6) × one panel or TWO. HALVES: vectors 0-3 and 4-7 of a
 * block summed apart, each half scaled into the accumulators with its own
 * scale and correction (Q6_K). MINS: weights with mins
 * (Q4_K, Q5_K), whose term takes the activations' scaled block sums. */
static inline __attribute__((always_inline)) void q8_block(int64_t n_blocks, const uint8_t *panel0,
                                                           const uint8_t *panel1, const uint8_t *act,
                                                           size_t act_stride, const float *act_d,
                                                           const float *act_s, size_t d_stride, float *out0,
                                                           float *out1, const int NR, const int TWO,
                                                           const bool HALVES, const bool MINS) {
    const uint8_t *pan[2] = {panel0, TWO ? panel1 : panel0};
    const int nh = HALVES ? 2 : 1; /* scale factors per block and row */
    __m512 acc[2][SEER_Q8_PANEL_MAX_ROWS];
#pragma GCC unroll 2
    for (int p = 0; p < 2; p++)
#pragma GCC unroll 6
        for (int r = 0; r < SEER_Q8_PANEL_MAX_ROWS; r++) acc[p][r] = _mm512_setzero_ps();
    for (int64_t b = 0; b < n_blocks; b++) {
        const uint8_t *a = act + 32 * b;
#pragma GCC unroll 2
        for (int h = 0; h < nh; h++) { /* vectors [8h/nh, 8(h+1)/nh) */
            __m512i s[2][SEER_Q8_PANEL_MAX_ROWS];
#pragma GCC unroll 2
            for (int p = 0; p < 2; p++)
#pragma GCC unroll 6
                for (int r = 0; r < SEER_Q8_PANEL_MAX_ROWS; r++) s[p][r] = _mm512_setzero_si512();
#pragma GCC unroll 8
            for (int g = 8 * h / nh; g < 8 * (h + 1) / nh; g++) {
                const __m512i w0 = _mm512_load_si512((const void *)(pan[0] + 512 * b + 64 * g));
                const __m512i w1 = TWO ? _mm512_load_si512((const void *)(pan[1] + 512 * b + 64 * g)) : w0;
#pragma GCC unroll 6
                for (int r = 0; r < NR; r++) {
                    const __m512i bc = _mm512_set1_epi32(load_i32(a + r * act_stride + 4 * g));
                    s[0][r] = _mm512_dpbusd_epi32(s[0][r], bc, w0);
                    if (TWO) s[1][r] = _mm512_dpbusd_epi32(s[1][r], bc, w1);
                }
            }
#pragma GCC unroll 2
            for (int p = 0; p < 1 + TWO; p++) {
                const float *dp = (const float *)(pan[p] + (size_t)n_blocks * 512) + 16 * (nh * b + h);
                const int32_t *cp = (const int32_t *)(pan[p] + (size_t)n_blocks * (512 + 64 * nh)) + 16 * (nh * b + h);
                const __m512 d = _mm512_load_ps(dp);
                const __m512i c = _mm512_load_si512((const void *)cp);
#pragma GCC unroll 6
                for (int r = 0; r < NR; r++)
                    acc[p][r] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(_mm512_sub_epi32(s[p][r], c)),
                                                _mm512_mul_ps(d, _mm512_set1_ps(act_d[r * d_stride + b])), acc[p][r]);
            }
        }
        if (MINS) {
#pragma GCC unroll 2
            for (int p = 0; p < 1 + TWO; p++) {
                const __m512 m = _mm512_load_ps((const float *)(pan[p] + (size_t)n_blocks * 640) + 16 * b);
#pragma GCC unroll 6
                for (int r = 0; r < NR; r++)
                    acc[p][r] = _mm512_fnmadd_ps(m, _mm512_set1_ps(act_s[r * d_stride + b]), acc[p][r]);
            }
        }
    }
#pragma GCC unroll 6
    for (int r = 0; r < NR; r++) {
        _mm512_storeu_ps(out0 + 16 * r, acc[0][r]);
        if (TWO) _mm512_storeu_ps(out1 + 16 * r, acc[1][r]);
    }
}

/* One instance per row count for a panel shape. */
#define Q8_BLOCK_CALL(NR, TWO, HALVES, MINS)                                                                          \
    q8_block(n_blocks, panel0, panel1, act, act_stride, act_d, act_s, d_stride, out0, out1, NR, TWO, HALVES, MINS)
#define Q8_BLOCK_DISPATCH(TWO, HALVES, MINS)                                                                          \
    switch (nr) {                                                                                                    \
    case 1: Q8_BLOCK_CALL(1, TWO, HALVES, MINS); break;                                                              \
    case 2: Q8_BLOCK_CALL(2, TWO, HALVES, MINS); break;                                                              \
    case 3: Q8_BLOCK_CALL(3, TWO, HALVES, MINS); break;                                                              \
    case 4: Q8_BLOCK_CALL(4, TWO, HALVES, MINS); break;                                                              \
    case 5: Q8_BLOCK_CALL(5, TWO, HALVES, MINS); break;                                                              \
    default: Q8_BLOCK_CALL(6, TWO, HALVES, MINS); break;                                                             \
    }

static void q8_panels(int64_t n_blocks, const uint8_t *panel0, const uint8_t *panel1, const uint8_t *act,
                      size_t act_stride, const float *act_d, const float *act_s, size_t d_stride, int nr,
                      float *out0, float *out1, bool halves) {
    if (!panel1) {
        if (halves) Q8_BLOCK_DISPATCH(0, true, false)
        else if (act_s) Q8_BLOCK_DISPATCH(0, false, true)
        else Q8_BLOCK_DISPATCH(0, false, false)
    } else {
        if (halves) Q8_BLOCK_DISPATCH(1, true, false)
        else if (act_s) Q8_BLOCK_DISPATCH(1, false, true)
        else Q8_BLOCK_DISPATCH(1, false, false)
    }
}

void seer_q8_panel_avx512(int64_t n_blocks, const uint8_t *panel, const uint8_t *act, size_t act_stride,
                          const float *act_d, const float *act_s, size_t d_stride, int nr, float *out) {
    q8_panels(n_blocks, panel, NULL, act, act_stride, act_d, act_s, d_stride, nr, out, NULL, false);
}

void seer_q8_panel2_avx512(int64_t n_blocks, const uint8_t *panel0, const uint8_t *panel1, const uint8_t *act,
                           size_t act_stride, const float *act_d, const float *act_s, size_t d_stride, int nr,
                           float *out0, float *out1) {
    q8_panels(n_blocks, panel0, panel1, act, act_stride, act_d, act_s, d_stride, nr, out0, out1, false);
}

void seer_q8_panel_halves_avx512(int64_t n_blocks, const uint8_t *panel, const uint8_t *act, size_t act_stride,
                                 const float *act_d, const float *act_s, size_t d_stride, int nr, float *out) {
    (void)act_s;
    q8_panels(n_blocks, panel, NULL, act, act_stride, act_d, NULL, d_stride, nr, out, NULL, true);
}

void seer_q8_panel2_halves_avx512(int64_t n_blocks, const uint8_t *panel0, const uint8_t *panel1, const uint8_t *act,
                                  size_t act_stride, const float *act_d, const float *act_s, size_t d_stride, int nr,
                                  float *out0, float *out1) {
    (void)act_s;
    q8_panels(n_blocks, panel0, panel1, act, act_stride, act_d, NULL, d_stride, nr, out0, out1, true);
}

bool seer_q8_panel_avx512_built(void) { return true; }
#else
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
void seer_q8_panel_halves_avx512(int64_t n_blocks, const uint8_t *panel, const uint8_t *act, size_t act_stride,
                                 const float *act_d, const float *act_s, size_t d_stride, int nr, float *out) {
    seer_q8_panel_avx512(n_blocks, panel, act, act_stride, act_d, act_s, d_stride, nr, out);
}
void seer_q8_panel2_halves_avx512(int64_t n_blocks, const uint8_t *panel0, const uint8_t *panel1, const uint8_t *act,
                                  size_t act_stride, const float *act_d, const float *act_s, size_t d_stride, int nr,
                                  float *out0, float *out1) {
    seer_q8_panel2_avx512(n_blocks, panel0, panel1, act, act_stride, act_d, act_s, d_stride, nr, out0, out1);
}
bool seer_q8_panel_avx512_built(void) { return false; }
#endif
