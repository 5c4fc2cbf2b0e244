/* Repacking of weight rows into the panels of the int8 GEMM: each block of
 * 32 becomes 32 signed quants, a scale and a min such that the block's
 * values are scale·q − min (exactly the dequantized values' factors). */
#include <string.h>

#include "kernels/gemm_q8_internal.h"
#include "seer/tensor.h"
#include "tensor/blocks.h"

bool seer_int8_gemm_supports(int type) {
    return type == SEER_TYPE_Q8_0 || type == SEER_TYPE_Q4_0 || type == SEER_TYPE_Q5_0 || type == SEER_TYPE_Q4_K ||
           type == SEER_TYPE_Q5_K;
}

/* Block b (of 32 values) of a row: quants, scale, min. */
static void unpack_block(int type, const void *row, int64_t b, int8_t q[32], float *scale, float *min) {
    *min = 0;
    switch (type) {
    case SEER_TYPE_Q8_0: {
        const block_q8_0 *x = (const block_q8_0 *)row + b;
        memcpy(q, x->qs, 32);
        *scale = seer_fp16_to_f32(x->d);
        break;
    }
    case SEER_TYPE_Q4_0: {
        const block_q4_0 *x = (const block_q4_0 *)row + b;
        for (int k = 0; k < 16; k++) {
            q[k] = (int8_t)((x->qs[k] & 0xF) - 8);
            q[k + 16] = (int8_t)((x->qs[k] >> 4) - 8);
        }
        *scale = seer_fp16_to_f32(x->d);
        break;
    }
    case SEER_TYPE_Q5_0: {
        const block_q5_0 *x = (const block_q5_0 *)row + b;
        uint32_t qh;
        memcpy(&qh, x->qh, 4);
        for (int k = 0; k < 16; k++) {
            q[k] = (int8_t)(((x->qs[k] & 0xF) | (((qh >> k) & 1) << 4)) - 16);
            q[k + 16] = (int8_t)(((x->qs[k] >> 4) | (((qh >> (k + 16)) & 1) << 4)) - 16);
        }
        *scale = seer_fp16_to_f32(x->d);
        break;
    }
    case SEER_TYPE_Q4_K: case SEER_TYPE_Q5_K: {
        /* sub-block j of super-block s; chunk c = j/2 holds j (low nibbles) and j+1 (high) */
        int64_t s = b / 8;
        int j = (int)(b % 8), c = j / 2, hi = j & 1;
        const uint8_t *scales, *qs, *qh = NULL;
        uint16_t d, dmin;
        if (type == SEER_TYPE_Q4_K) {
            const block_q4_K *x = (const block_q4_K *)row + s;
            scales = x->scales; qs = x->qs; d = x->d; dmin = x->dmin;
        } else {
            const block_q5_K *x = (const block_q5_K *)row + s;
            scales = x->scales; qs = x->qs; qh = x->qh; d = x->d; dmin = x->dmin;
        }
        for (int k = 0; k < 32; k++) {
            int v = hi ? qs[32 * c + k] >> 4 : qs[32 * c + k] & 0xF;
            if (qh) v |= ((qh[k] >> j) & 1) << 4;
            q[k] = (int8_t)v;
        }
        uint8_t sc, m;
        seer_k4_scale_min(j, scales, &sc, &m);
        *scale = seer_fp16_to_f32(d) * sc;
        *min = seer_fp16_to_f32(dmin) * m;
        break;
    }
    default:
        memset(q, 0, 32);
        *scale = 0;
        break;
    }
}

void seer_q8_panel_pack(int type, const void *w, size_t row_bytes, int64_t n_out, int64_t o0, int64_t n_blocks,
                        uint8_t *panel) {
    const int R = SEER_Q8_PANEL_ROWS;
    float *d = (float *)(panel + (size_t)n_blocks * 32 * R);
    int32_t *corr = (int32_t *)(panel + (size_t)n_blocks * 36 * R);
    float *mins = (float *)(panel + (size_t)n_blocks * 40 * R);
    for (int j = 0; j < R; j++) {
        int64_t o = o0 + j;
        const void *row = o < n_out ? (const char *)w + (size_t)o * row_bytes : NULL;
        for (int64_t b = 0; b < n_blocks; b++) {
            int8_t q[32];
            float scale = 0, min = 0;
            if (row) unpack_block(type, row, b, q, &scale, &min);
            else memset(q, 0, sizeof q);
            uint8_t *dst = panel + b * 32 * R + 4 * j;
            int sum = 0;
            for (int g = 0; g < 8; g++) memcpy(dst + 4 * R * g, q + 4 * g, 4);
            for (int k = 0; k < 32; k++) sum += q[k];
            d[b * R + j] = scale;
            corr[b * R + j] = 128 * sum; /* activations carry +128 */
            mins[b * R + j] = min;
        }
    }
}
