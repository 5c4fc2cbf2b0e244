/* The K-quant quantizers as llama.cpp writes them without an importance
 * matrix (ggml's reference rounding, so `seer quantize` output is byte for
 * byte llama-quantize's). Every sum keeps ggml's order and operand grouping:
 * float addition is not associative, and one ulp moves a scale. */
#include <math.h>
#include <string.h>

#include "quantize/quant_internal.h"
#include "tensor/blocks.h"
#include "tensor/quantize_internal.h"

#define GROUP_EPS 1e-15f

static inline int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

/* The value of largest magnitude (its sign kept); 0 when every |x| is
 * below GROUP_EPS. */
static float signed_max(int n, const float *x) {
    float max = 0, amax = 0;
    for (int i = 0; i < n; i++) {
        float ax = fabsf(x[i]);
        if (ax > amax) { amax = ax; max = x[i]; }
    }
    return amax < GROUP_EPS ? 0.f : max;
}

/* Levels round(iscale·x) in [-nmax, nmax-1] with their x²-weighted sums
 * Σw·x·l and Σw·l²; the levels go to L (plus `offset`) unless L is NULL. */
static void weighted_levels(int n, int nmax, float iscale, const float *x, int8_t *L, int offset, float *sumlx,
                            float *suml2) {
    float slx = 0, sl2 = 0;
    for (int i = 0; i < n; i++) {
        int l = clampi(seer_round_nearest(iscale * x[i]), -nmax, nmax - 1);
        if (L) L[i] = (int8_t)(l + offset);
        float w = x[i] * x[i];
        slx += w * x[i] * l;
        sl2 += w * l * l;
    }
    *sumlx = slx;
    *suml2 = sl2;
}

/* Signed levels in [-nmax, nmax-1] for n values (stored offset by nmax),
 * weighted by x² (ggml's rmse_type 1); tries 18 scales around -nmax/max
 * and keeps the best least-squares fit. */
static float fit_signed(int n, int nmax, const float *x, int8_t *L) {
    const float max = signed_max(n, x);
    if (max == 0.f) {
        memset(L, 0, (size_t)n);
        return 0.f;
    }
    float sumlx, suml2;
    weighted_levels(n, nmax, -nmax / max, x, L, nmax, &sumlx, &suml2);
    float scale = suml2 ? sumlx / suml2 : 0.0f, best = scale * sumlx;
    for (int is = -9; is <= 9; is++) {
        if (is == 0) continue;
        const float iscale = -(nmax + 0.1f * is) / max;
        weighted_levels(n, nmax, iscale, x, NULL, 0, &sumlx, &suml2);
        if (suml2 > 0 && sumlx * sumlx > best * suml2) {
            for (int i = 0; i < n; i++)
                L[i] = (int8_t)(nmax + clampi(seer_round_nearest(iscale * x[i]), -nmax, nmax - 1));
            scale = sumlx / suml2;
            best = scale * sumlx;
        }
    }
    return scale;
}

/* Q3_K's sub-block fit: levels from -nmax/max, then up to five passes that
 * move single levels while the weighted fit improves. */
static float fit_q3(int n, int nmax, const float *x, int8_t *L) {
    const float max = signed_max(n, x);
    if (max == 0.f) {
        memset(L, 0, (size_t)n);
        return 0.f;
    }
    float sumlx, suml2;
    weighted_levels(n, nmax, -nmax / max, x, L, 0, &sumlx, &suml2);
    for (int pass = 0; pass < 5; pass++) {
        int changed = 0;
        for (int i = 0; i < n; i++) {
            float w = x[i] * x[i];
            float slx = sumlx - w * x[i] * L[i];
            if (slx <= 0) continue;
            float sl2 = suml2 - w * L[i] * L[i];
            int nl = clampi(seer_round_nearest(x[i] * sl2 / slx), -nmax, nmax - 1);
            if (nl == L[i]) continue;
            slx += w * x[i] * nl;
            sl2 += w * nl * nl;
            if (sl2 > 0 && slx * slx * suml2 > sumlx * sumlx * sl2) {
                L[i] = (int8_t)nl;
                sumlx = slx;
                suml2 = sl2;
                changed++;
            }
        }
        if (!changed) break;
    }
    for (int i = 0; i < n; i++) L[i] = (int8_t)(L[i] + nmax);
    return suml2 > 0.0f ? sumlx / suml2 : 0.0f;
}

/* Asymmetric sub-block fit (scale and min, levels 0..nmax): start from the
 * range, then try nstep+1 widened scales, each refit by weighted least
 * squares, keeping the smallest weighted error (|e| if use_mad, else e²). */
static float fit_asym(int n, int nmax, const float *x, const float *w, uint8_t *L, float *the_min, float rmin,
                      float rdelta, int nstep, bool use_mad) {
    uint8_t Laux[32];
    float min = x[0], max = x[0], sum_w = w[0], sum_x = sum_w * x[0];
    for (int i = 1; i < n; i++) {
        if (x[i] < min) min = x[i];
        if (x[i] > max) max = x[i];
        sum_w += w[i];
        sum_x += w[i] * x[i];
    }
    if (min > 0) min = 0;
    if (max == min) {
        memset(L, 0, (size_t)n);
        *the_min = -min;
        return 0.f;
    }
    float iscale = nmax / (max - min), scale = 1 / iscale, best_error = 0;
    for (int i = 0; i < n; i++) {
        L[i] = (uint8_t)clampi(seer_round_nearest(iscale * (x[i] - min)), 0, nmax);
        float diff = scale * L[i] + min - x[i];
        diff = use_mad ? fabsf(diff) : diff * diff;
        best_error += w[i] * diff;
    }
    for (int is = 0; is <= nstep; is++) {
        iscale = (rmin + rdelta * is + nmax) / (max - min);
        float sum_l = 0, sum_l2 = 0, sum_xl = 0;
        for (int i = 0; i < n; i++) {
            int l = clampi(seer_round_nearest(iscale * (x[i] - min)), 0, nmax);
            Laux[i] = (uint8_t)l;
            sum_l += w[i] * l;
            sum_l2 += w[i] * l * l;
            sum_xl += w[i] * l * x[i];
        }
        float D = sum_w * sum_l2 - sum_l * sum_l;
        if (D <= 0) continue;
        float this_scale = (sum_w * sum_xl - sum_x * sum_l) / D;
        float this_min = (sum_l2 * sum_x - sum_l * sum_xl) / D;
        if (this_min > 0) {
            this_min = 0;
            this_scale = sum_xl / sum_l2;
        }
        float cur_error = 0;
        for (int i = 0; i < n; i++) {
            float diff = this_scale * Laux[i] + this_min - x[i];
            diff = use_mad ? fabsf(diff) : diff * diff;
            cur_error += w[i] * diff;
        }
        if (cur_error < best_error) {
            memcpy(L, Laux, (size_t)n);
            best_error = cur_error;
            scale = this_scale;
            min = this_min;
        }
    }
    *the_min = -min;
    return scale;
}

/* Four 2-bit levels per byte: byte l of each 32-byte group holds elements
 * l, l+32, l+64, l+96 of its 128. */
static void pack_2bit(const uint8_t *L, uint8_t *qs) {
    for (int j = 0; j < QK_K; j += 128)
        for (int l = 0; l < 32; l++)
            qs[j / 4 + l] = (uint8_t)(L[j + l] | (L[j + l + 32] << 2) | (L[j + l + 64] << 4) | (L[j + l + 96] << 6));
}

void seer_quant_q2_K(const float *x, void *dst, int64_t n) {
    block_q2_K *y = dst;
    uint8_t L[QK_K];
    float weights[16], mins[16], scales[16];
    for (int64_t i = 0; i < n / QK_K; i++, x += QK_K) {
        float max_scale = 0, max_min = 0;
        for (int j = 0; j < 16; j++) {
            for (int l = 0; l < 16; l++) weights[l] = fabsf(x[16 * j + l]);
            scales[j] = fit_asym(16, 3, x + 16 * j, weights, L + 16 * j, &mins[j], -0.5f, 0.1f, 15, true);
            if (scales[j] > max_scale) max_scale = scales[j];
            if (mins[j] > max_min) max_min = mins[j];
        }
        if (max_scale > 0) {
            float iscale = 15.f / max_scale;
            for (int j = 0; j < 16; j++) y[i].scales[j] = (uint8_t)seer_round_nearest(iscale * scales[j]);
            y[i].d = seer_f32_to_fp16(max_scale / 15.f);
        } else {
            memset(y[i].scales, 0, 16);
            y[i].d = seer_f32_to_fp16(0.f);
        }
        if (max_min > 0) {
            float iscale = 15.f / max_min;
            for (int j = 0; j < 16; j++) y[i].scales[j] |= (uint8_t)(seer_round_nearest(iscale * mins[j]) << 4);
            y[i].dmin = seer_f32_to_fp16(max_min / 15.f);
        } else {
            y[i].dmin = seer_f32_to_fp16(0.f);
        }
        for (int j = 0; j < 16; j++) {
            const float d = seer_fp16_to_f32(y[i].d) * (y[i].scales[j] & 0xF);
            if (!d) continue;
            const float dm = seer_fp16_to_f32(y[i].dmin) * (y[i].scales[j] >> 4);
            for (int e = 0; e < 16; e++)
                L[16 * j + e] = (uint8_t)clampi(seer_round_nearest((x[16 * j + e] + dm) / d), 0, 3);
        }
        pack_2bit(L, y[i].qs);
    }
}

void seer_quant_q3_K(const float *x, void *dst, int64_t n) {
    block_q3_K *y = dst;
    int8_t L[QK_K];
    float scales[16];
    for (int64_t i = 0; i < n / QK_K; i++, x += QK_K) {
        float max_scale = 0, amax = 0;
        for (int j = 0; j < 16; j++) {
            scales[j] = fit_q3(16, 4, x + 16 * j, L + 16 * j);
            if (fabsf(scales[j]) > amax) { amax = fabsf(scales[j]); max_scale = scales[j]; }
        }
        int8_t sc[16];
        const float iscale = max_scale ? -32.f / max_scale : 0.f;
        for (int j = 0; j < 16; j++) sc[j] = (int8_t)(max_scale ? clampi(seer_round_nearest(iscale * scales[j]), -32, 31) : -32);
        seer_q3k_pack_scales(sc, y[i].scales);
        y[i].d = seer_f32_to_fp16(max_scale ? 1 / iscale : 0.f);
        for (int j = 0; j < 16; j++) {
            float d = seer_fp16_to_f32(y[i].d) * sc[j];
            if (!d) continue;
            for (int e = 0; e < 16; e++)
                L[16 * j + e] = (int8_t)(clampi(seer_round_nearest(x[16 * j + e] / d), -4, 3) + 4);
        }
        /* high bit of element j goes to hmask[j % 32], bit j / 32 */
        memset(y[i].hmask, 0, QK_K / 8);
        uint8_t low[QK_K];
        for (int j = 0; j < QK_K; j++) {
            if (L[j] > 3) y[i].hmask[j % 32] |= (uint8_t)(1u << (j / 32));
            low[j] = (uint8_t)(L[j] > 3 ? L[j] - 4 : L[j]);
        }
        pack_2bit(low, y[i].qs);
    }
}

/* Q4_K and Q5_K share everything but the level count, the search range and
 * the packing of the levels. */
static void quant_k4(const float *x, uint16_t *dd, uint16_t *dmin, uint8_t *packed_scales, uint8_t *L, int nmax,
                     float rmin, int nstep) {
    float weights[32], mins[8], scales[8], max_scale = 0, max_min = 0;
    for (int j = 0; j < 8; j++) {
        float sum_x2 = 0;
        for (int l = 0; l < 32; l++) sum_x2 += x[32 * j + l] * x[32 * j + l];
        float av_x = sqrtf(sum_x2 / 32);
        for (int l = 0; l < 32; l++) weights[l] = av_x + fabsf(x[32 * j + l]);
        scales[j] = fit_asym(32, nmax, x + 32 * j, weights, L + 32 * j, &mins[j], rmin, 0.1f, nstep, false);
        if (scales[j] > max_scale) max_scale = scales[j];
        if (mins[j] > max_min) max_min = mins[j];
    }
    float inv_scale = max_scale > 0 ? 63.f / max_scale : 0.f;
    float inv_min = max_min > 0 ? 63.f / max_min : 0.f;
    uint8_t *q = packed_scales;
    for (int j = 0; j < 8; j++) {
        uint8_t ls = (uint8_t)seer_round_nearest(inv_scale * scales[j]);
        uint8_t lm = (uint8_t)seer_round_nearest(inv_min * mins[j]);
        ls = ls < 63 ? ls : 63;
        lm = lm < 63 ? lm : 63;
        if (j < 4) {
            q[j] = ls;
            q[j + 4] = lm;
        } else {
            q[j + 4] = (uint8_t)((ls & 0xF) | ((lm & 0xF) << 4));
            q[j - 4] |= (uint8_t)((ls >> 4) << 6);
            q[j] |= (uint8_t)((lm >> 4) << 6);
        }
    }
    *dd = seer_f32_to_fp16(max_scale / 63.f);
    *dmin = seer_f32_to_fp16(max_min / 63.f);
    for (int j = 0; j < 8; j++) {
        uint8_t sc, m;
        seer_k4_scale_min(j, q, &sc, &m);
        const float d = seer_fp16_to_f32(*dd) * sc;
        if (!d) continue;
        const float dm = seer_fp16_to_f32(*dmin) * m;
        for (int e = 0; e < 32; e++)
            L[32 * j + e] = (uint8_t)clampi(seer_round_nearest((x[32 * j + e] + dm) / d), 0, nmax);
    }
}

void seer_quant_q4_K(const float *x, void *dst, int64_t n) {
    block_q4_K *y = dst;
    uint8_t L[QK_K];
    for (int64_t i = 0; i < n / QK_K; i++, x += QK_K) {
        memset(y[i].scales, 0, 12);
        quant_k4(x, &y[i].d, &y[i].dmin, y[i].scales, L, 15, -1.f, 20);
        for (int j = 0; j < QK_K; j += 64)
            for (int l = 0; l < 32; l++) y[i].qs[j / 2 + l] = (uint8_t)(L[j + l] | (L[j + l + 32] << 4));
    }
}

void seer_quant_q5_K(const float *x, void *dst, int64_t n) {
    block_q5_K *y = dst;
    uint8_t L[QK_K];
    for (int64_t i = 0; i < n / QK_K; i++, x += QK_K) {
        memset(y[i].scales, 0, 12);
        quant_k4(x, &y[i].d, &y[i].dmin, y[i].scales, L, 31, -0.5f, 15);
        memset(y[i].qh, 0, QK_K / 8);
        /* element n+j of each 64: low nibble in qs, fifth bit in qh[j] at bit
         * 2·(n/64) (first 32) or 2·(n/64)+1 (second 32) */
        for (int g = 0; g < QK_K; g += 64) {
            for (int j = 0; j < 32; j++) {
                int l1 = L[g + j], l2 = L[g + j + 32];
                if (l1 > 15) y[i].qh[j] |= (uint8_t)(1u << (g / 32));
                if (l2 > 15) y[i].qh[j] |= (uint8_t)(2u << (g / 32));
                y[i].qs[g / 2 + j] = (uint8_t)((l1 & 15) | ((l2 & 15) << 4));
            }
        }
    }
}

void seer_quant_q6_K(const float *x, void *dst, int64_t n) {
    block_q6_K *y = dst;
    int8_t L[QK_K];
    float scales[16];
    for (int64_t i = 0; i < n / QK_K; i++, x += QK_K) {
        float max_scale = 0, max_abs_scale = 0;
        for (int ib = 0; ib < 16; ib++) {
            scales[ib] = fit_signed(16, 32, x + 16 * ib, L + 16 * ib);
            if (fabsf(scales[ib]) > max_abs_scale) { max_abs_scale = fabsf(scales[ib]); max_scale = scales[ib]; }
        }
        if (max_abs_scale < GROUP_EPS) {
            memset(&y[i], 0, sizeof y[i]);
            continue;
        }
        float iscale = -128.f / max_scale;
        y[i].d = seer_f32_to_fp16(1 / iscale);
        for (int ib = 0; ib < 16; ib++) {
            int s = seer_round_nearest(iscale * scales[ib]);
            y[i].scales[ib] = (int8_t)(s < 127 ? s : 127);
        }
        for (int j = 0; j < 16; j++) {
            float d = seer_fp16_to_f32(y[i].d) * y[i].scales[j];
            if (!d) continue;
            for (int e = 0; e < 16; e++)
                L[16 * j + e] = (int8_t)(clampi(seer_round_nearest(x[16 * j + e] / d), -32, 31) + 32);
        }
        uint8_t *ql = y[i].ql, *qh = y[i].qh;
        for (int j = 0; j < QK_K; j += 128, ql += 64, qh += 32) {
            for (int l = 0; l < 32; l++) {
                ql[l] = (uint8_t)((L[j + l] & 0xF) | ((L[j + l + 64] & 0xF) << 4));
                ql[l + 32] = (uint8_t)((L[j + l + 32] & 0xF) | ((L[j + l + 96] & 0xF) << 4));
                qh[l] = (uint8_t)((L[j + l] >> 4) | ((L[j + l + 32] >> 4) << 2) | ((L[j + l + 64] >> 4) << 4) |
                                  ((L[j + l + 96] >> 4) << 6));
            }
        }
    }
}
