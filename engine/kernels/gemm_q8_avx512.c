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
 * 12 independent ones. Where there is no AMX, K-quants take the
 * super-block kernel below instead (same dot products, fewer float steps
 * per block: 2048 x 2048 x 512 rows on one Zen 5 core, Q4_K 436-443 ->
 * 486-494 GOP/s, Q6_K 409-410 -> 451-470, CPU time). */
#include "kernels/gemm_q8_internal.h"

#if defined(__x86_64__) && defined(__AVX512VNNI__) && defined(__AVX512VL__)
#include <immintrin.h>

/* s[p][r] = the int32 sums over vectors [g0, g1) of block b of panel p
 * (TWO: both panels) with activation row r (NR rows). */
static inline __attribute__((always_inline)) void block_dots(const uint8_t *const pan[2], int64_t b, const uint8_t *a,
                                                             size_t act_stride, const int g0, const int g1,
                                                             __m512i s[2][SEER_Q8_PANEL_MAX_ROWS], const int NR,
                                                             const int TWO) {
#pragma GCC unroll 2
    for (int p = 0; p < 2; p++)
#pragma GCC unroll 6
        for (int r = 0; r < SEER_Q8_PANEL_MAX_ROWS; r++) s[p][r] = _mm512_setzero_si512();
#pragma GCC unroll 8
    for (int g = g0; g < g1; g++) {
        const __m512i w0 = _mm512_load_si512((const void *)(pan[0] + 512 * b + 64 * g));
        const __m512i w1 = TWO ? _mm512_load_si512((const void *)(pan[1] + 512 * b + 64 * g)) : w0;
#pragma GCC unroll 6
        for (int r = 0; r < NR; r++) {
            const __m512i bc = _mm512_set1_epi32(seer_load_i32(a + r * act_stride + 4 * g));
            s[0][r] = _mm512_dpbusd_epi32(s[0][r], bc, w0);
            if (TWO) s[1][r] = _mm512_dpbusd_epi32(s[1][r], bc, w1);
        }
    }
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
            block_dots(pan, b, a, act_stride, 8 * h / nh, 8 * (h + 1) / nh, s, NR, TWO);
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
#define Q8_BLOCK_DISPATCH(TWO, HALVES, MINS) SEER_Q8_ROWS_DISPATCH(nr, Q8_BLOCK_CALL, TWO, HALVES, MINS)

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

/* The super-block kernel (gemm_q8_internal.h): per block only the weight
 * scale's multiply-add; per super-block the mins' integer dot product
 * (VPDPWSSD on 16-bit pairs) and the activation scale, the running sums
 * kept in out0/out1 (L1) so that the registers hold the block's sums and
 * the super-block's accumulators only. Against the panel kernel, one
 * multiply and one multiply-add per row, panel and block fewer on the
 * pipes VPDPBUSD needs. */
static inline __attribute__((always_inline)) void q8_sb_block(int64_t n_blocks, const uint8_t *panel0,
                                                              const uint8_t *panel1, const uint8_t *act,
                                                              size_t act_stride, const float *act_d,
                                                              const int16_t *act_sums, size_t d_stride, float *out0,
                                                              float *out1, const int NR, const int TWO,
                                                              const bool HALVES, const bool MINS) {
    const uint8_t *pan[2] = {panel0, TWO ? panel1 : panel0};
    float *out[2] = {out0, out1};
    const int nh = HALVES ? 2 : 1;
    for (int64_t sb = 0; sb < n_blocks / 8; sb++) {
        __m512 acc[2][SEER_Q8_PANEL_MAX_ROWS];
#pragma GCC unroll 2
        for (int p = 0; p < 2; p++)
#pragma GCC unroll 6
            for (int r = 0; r < SEER_Q8_PANEL_MAX_ROWS; r++) acc[p][r] = _mm512_setzero_ps();
        for (int64_t b = 8 * sb; b < 8 * sb + 8; b++) {
            const uint8_t *a = act + 32 * b;
#pragma GCC unroll 2
            for (int h = 0; h < nh; h++) {
                __m512i s[2][SEER_Q8_PANEL_MAX_ROWS];
                block_dots(pan, b, a, act_stride, 8 * h / nh, 8 * (h + 1) / nh, s, NR, TWO);
#pragma GCC unroll 2
                for (int p = 0; p < 1 + TWO; p++) {
                    const float *dp = (const float *)(pan[p] + (size_t)n_blocks * 512) + 16 * (nh * b + h);
                    const int32_t *cp =
                        (const int32_t *)(pan[p] + (size_t)n_blocks * (512 + 64 * nh)) + 16 * (nh * b + h);
                    const __m512 d = _mm512_load_ps(dp);
                    const __m512i c = _mm512_load_si512((const void *)cp);
#pragma GCC unroll 6
                    for (int r = 0; r < NR; r++)
                        acc[p][r] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(_mm512_sub_epi32(s[p][r], c)), d, acc[p][r]);
                }
            }
        }
#pragma GCC unroll 2
        for (int p = 0; p < 1 + TWO; p++) {
            if (MINS) { /* per block (Q4_K, Q5_K: 4 vectors of pairs) or, in halves, per 16 (Q2_K: 8) */
                const int nm = HALVES ? 8 : 4;
                uint8_t *panel = (uint8_t *)pan[p];
                const int16_t *m = HALVES ? seer_panel_sb_mins16(panel, n_blocks, sb) : seer_panel_sb_mins(panel, n_blocks, sb);
                const __m512 dmin = _mm512_load_ps(HALVES ? seer_panel_sb_dmin16(panel, n_blocks, sb)
                                                          : seer_panel_sb_dmin(panel, n_blocks, sb));
                __m512i mv[8];
#pragma GCC unroll 8
                for (int i = 0; i < nm; i++) mv[i] = _mm512_load_si512((const void *)(m + 32 * i));
#pragma GCC unroll 6
                for (int r = 0; r < NR; r++) {
                    const uint8_t *sums = (const uint8_t *)(act_sums + (r * d_stride + 8 * sb) * (HALVES ? 2 : 1));
                    __m512i t = _mm512_madd_epi16(mv[0], _mm512_set1_epi32(seer_load_i32(sums)));
#pragma GCC unroll 8
                    for (int i = 1; i < nm; i++) t = _mm512_dpwssd_epi32(t, mv[i], _mm512_set1_epi32(seer_load_i32(sums + 4 * i)));
                    acc[p][r] = _mm512_fnmadd_ps(dmin, _mm512_cvtepi32_ps(t), acc[p][r]);
                }
            }
            seer_q8_sb_scale_out(acc[p], NR, act_d, d_stride, sb, out[p]);
        }
    }
}

#define Q8_SB_CALL(NR, TWO, HALVES, MINS)                                                                             \
    q8_sb_block(n_blocks, panel0, panel1, act, act_stride, act_d, act_sums, d_stride, out0, out1, NR, TWO, HALVES, MINS)
#define Q8_SB_DISPATCH(TWO, HALVES, MINS) SEER_Q8_ROWS_DISPATCH(nr, Q8_SB_CALL, TWO, HALVES, MINS)

void seer_q8_panels_sb_avx512(int64_t n_blocks, const uint8_t *panel0, const uint8_t *panel1, const uint8_t *act,
                              size_t act_stride, const float *act_d, const int16_t *act_sums, size_t d_stride, int nr,
                              float *out0, float *out1, bool halves) {
    if (!panel1) {
        if (halves && act_sums) Q8_SB_DISPATCH(0, true, true)
        else if (halves) Q8_SB_DISPATCH(0, true, false)
        else if (act_sums) Q8_SB_DISPATCH(0, false, true)
        else Q8_SB_DISPATCH(0, false, false)
    } else {
        if (halves && act_sums) Q8_SB_DISPATCH(1, true, true)
        else if (halves) Q8_SB_DISPATCH(1, true, false)
        else if (act_sums) Q8_SB_DISPATCH(1, false, true)
        else Q8_SB_DISPATCH(1, false, false)
    }
}

bool seer_q8_panel_avx512_built(void) { return true; }
#else
void seer_q8_panels_sb_avx512(int64_t n_blocks, const uint8_t *panel0, const uint8_t *panel1, const uint8_t *act,
                              size_t act_stride, const float *act_d, const int16_t *act_sums, size_t d_stride, int nr,
                              float *out0, float *out1, bool halves) {
    (void)n_blocks; (void)panel0; (void)panel1; (void)act; (void)act_stride; (void)act_d; (void)act_sums;
    (void)d_stride; (void)nr; (void)out0; (void)out1; (void)halves;
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
