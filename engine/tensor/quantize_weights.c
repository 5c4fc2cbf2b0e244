/* Quantizers for weight types (GGUF writer, benchmark models). The legacy
 * types follow llama.cpp's reference rounding; the K-quants use a simpler
 * scale choice (absmax per sub-block, then a least-squares refit) that gives
 * valid blocks of comparable quality. */
#include <math.h>
#include <string.h>

#include "tensor/blocks.h"
#include "tensor/quantize_internal.h"

static inline int nearest(float f) { return (int)nearbyintf(f); }
static inline int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

/* The element of largest magnitude, with its sign. */
static float signed_absmax(const float *x, int n) {
    float amax = 0, max = 0;
    for (int j = 0; j < n; j++)
        if (fabsf(x[j]) > amax) { amax = fabsf(x[j]); max = x[j]; }
    return max;
}

void seer_quantize_q4_0(const float *x, void *dst, int64_t n) {
    block_q4_0 *y = dst;
    for (int64_t i = 0; i < n / 32; i++, x += 32) {
        float d = signed_absmax(x, 32) / -8, id = d != 0 ? 1.0f / d : 0.0f;
        y[i].d = seer_f32_to_fp16(d);
        for (int j = 0; j < 16; j++) {
            int lo = clampi((int)(x[j] * id + 8.5f), 0, 15);
            int hi = clampi((int)(x[j + 16] * id + 8.5f), 0, 15);
            y[i].qs[j] = (uint8_t)(lo | (hi << 4));
        }
    }
}

void seer_quantize_q5_0(const float *x, void *dst, int64_t n) {
    block_q5_0 *y = dst;
    for (int64_t i = 0; i < n / 32; i++, x += 32) {
        float d = signed_absmax(x, 32) / -16, id = d != 0 ? 1.0f / d : 0.0f;
        y[i].d = seer_f32_to_fp16(d);
        uint32_t qh = 0;
        for (int j = 0; j < 16; j++) {
            int lo = clampi((int)(x[j] * id + 16.5f), 0, 31);
            int hi = clampi((int)(x[j + 16] * id + 16.5f), 0, 31);
            y[i].qs[j] = (uint8_t)((lo & 15) | ((hi & 15) << 4));
            qh |= (uint32_t)(lo >> 4) << j;
            qh |= (uint32_t)(hi >> 4) << (j + 16);
        }
        for (int k = 0; k < 4; k++) y[i].qh[k] = (uint8_t)(qh >> (8 * k));
    }
}

/* Scale (and min for the asymmetric case) of one sub-block: start from the
 * range, then refit by least squares on the chosen integer levels. */
static float fit_asym(const float *x, int n, int nmax, float *min_out) {
    float mn = x[0], mx = x[0];
    for (int j = 1; j < n; j++) { mn = fminf(mn, x[j]); mx = fmaxf(mx, x[j]); }
    if (mn > 0) mn = 0;
    if (mx == mn) { *min_out = -mn; return 0; }
    float scale = (mx - mn) / (float)nmax;
    for (int iter = 0; iter < 2; iter++) {
        /* levels for the current (scale, mn), then solve for scale and mn */
        double sl = 0, sll = 0, sx = 0, sxl = 0;
        for (int j = 0; j < n; j++) {
            int l = clampi(nearest((x[j] - mn) / scale), 0, nmax);
            sl += l; sll += (double)l * l; sx += x[j]; sxl += (double)x[j] * l;
        }
        double det = n * sll - sl * sl;
        if (det <= 0) break;
        double s = (n * sxl - sl * sx) / det, m = (sx - s * sl) / n;
        if (s <= 0 || m > 0) break;
        scale = (float)s;
        mn = (float)m;
    }
    *min_out = -mn;
    return scale;
}

void seer_quantize_q4_K(const float *x, void *dst, int64_t n) {
    block_q4_K *y = dst;
    for (int64_t i = 0; i < n / QK_K; i++, x += QK_K) {
        float scales[8], mins[8], max_scale = 0, max_min = 0;
        for (int j = 0; j < 8; j++) {
            scales[j] = fit_asym(x + 32 * j, 32, 15, &mins[j]);
            max_scale = fmaxf(max_scale, scales[j]);
            max_min = fmaxf(max_min, mins[j]);
        }
        float d = max_scale / 63, dmin = max_min / 63;
        y[i].d = seer_f32_to_fp16(d);
        y[i].dmin = seer_f32_to_fp16(dmin);
        d = seer_fp16_to_f32(y[i].d);
        dmin = seer_fp16_to_f32(y[i].dmin);
        uint8_t sc[8], mn[8];
        for (int j = 0; j < 8; j++) {
            sc[j] = (uint8_t)(d > 0 ? clampi(nearest(scales[j] / d), 0, 63) : 0);
            mn[j] = (uint8_t)(dmin > 0 ? clampi(nearest(mins[j] / dmin), 0, 63) : 0);
        }
        for (int j = 0; j < 4; j++) {
            y[i].scales[j] = (uint8_t)(sc[j] | ((sc[j + 4] >> 4) << 6));
            y[i].scales[j + 4] = (uint8_t)(mn[j] | ((mn[j + 4] >> 4) << 6));
            y[i].scales[j + 8] = (uint8_t)((sc[j + 4] & 15) | ((mn[j + 4] & 15) << 4));
        }
        memset(y[i].qs, 0, sizeof y[i].qs);
        for (int j = 0; j < 8; j++) {
            float ds = d * sc[j], dm = dmin * mn[j];
            for (int l = 0; l < 32; l++) {
                int q = ds > 0 ? clampi(nearest((x[32 * j + l] + dm) / ds), 0, 15) : 0;
                y[i].qs[32 * (j / 2) + l] |= (uint8_t)(q << (4 * (j & 1)));
            }
        }
    }
}

void seer_quantize_q6_K(const float *x, void *dst, int64_t n) {
    block_q6_K *y = dst;
    for (int64_t i = 0; i < n / QK_K; i++, x += QK_K) {
        /* Signed sub-block scales: the largest magnitude maps to -32. */
        float scales[16], max_scale = 0, amax_scale = 0;
        for (int g = 0; g < 16; g++) {
            float m = signed_absmax(x + 16 * g, 16);
            scales[g] = m / -32;
            if (fabsf(scales[g]) > amax_scale) { amax_scale = fabsf(scales[g]); max_scale = scales[g]; }
        }
        memset(y[i].ql, 0, sizeof y[i].ql);
        memset(y[i].qh, 0, sizeof y[i].qh);
        if (amax_scale == 0) { /* all zero: d = 0 makes every value 0 */
            memset(y[i].scales, 0, sizeof y[i].scales);
            y[i].d = 0;
            continue;
        }
        float iscale = -128.f / max_scale;
        y[i].d = seer_f32_to_fp16(1 / iscale);
        float d = seer_fp16_to_f32(y[i].d);
        for (int g = 0; g < 16; g++) y[i].scales[g] = (int8_t)clampi(nearest(iscale * scales[g]), -128, 127);
        for (int e = 0; e < QK_K; e++) {
            float ds = d * y[i].scales[e / 16];
            int q = ds != 0 ? clampi(nearest(x[e] / ds), -32, 31) : 0;
            int u = q + 32, nn = e / 128, k = (e % 128) / 32, l = e % 32;
            y[i].ql[64 * nn + l + 32 * (k & 1)] |= (uint8_t)((u & 15) << (k >= 2 ? 4 : 0));
            y[i].qh[32 * nn + l] |= (uint8_t)((u >> 4) << (2 * k));
        }
    }
}
