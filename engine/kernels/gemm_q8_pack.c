/* Repacking of weight rows into the panels of the int8 GEMM: each block of
 * 32 becomes 32 signed quants, a scale and a min such that the block's
 * values are scale·q − min (exactly the dequantized values' factors). */
#include <string.h>

#include "kernels/gemm_q8_internal.h"
#include "kernels/interleave_internal.h"
#include "kernels/vec_dot_internal.h"
#include "seer/cpu.h"
#include "seer/matmul.h"
#include "seer/tensor.h"
#include "tensor/blocks.h"
#include "tensor/iq_unpack.h"

bool seer_int8_gemm_supports(int type) {
    return type == SEER_TYPE_Q8_0 || type == SEER_TYPE_Q4_0 || type == SEER_TYPE_Q5_0 || type == SEER_TYPE_Q4_K ||
           type == SEER_TYPE_Q5_K || type == SEER_TYPE_Q6_K || type == SEER_TYPE_Q3_K || type == SEER_TYPE_IQ4_NL ||
           type == SEER_TYPE_IQ4_XS || type == SEER_TYPE_Q4_1 || type == SEER_TYPE_Q5_1 ||
           ((type == SEER_TYPE_Q2_K || seer_iq_unpacker(type)) && seer_q8_panel_get());
}

/* A 32-weight block's nibbles (low: weights 0-15, high: 16-31), with
 * their fifth bits where qh is given (Q5_0 / Q5_1), less offset. */
static void unpack_q45(const uint8_t qs[16], const uint8_t *qh_bytes, int offset, int8_t q[32]) {
    uint32_t qh = 0;
    if (qh_bytes) memcpy(&qh, qh_bytes, 4);
    for (int k = 0; k < 16; k++) {
        q[k] = (int8_t)seer_q45_lo(qs[k], qh, k, offset);
        q[k + 16] = (int8_t)seer_q45_hi(qs[k], qh, k, offset);
    }
}

/* Blocks [b0, b0 + nblk) (nblk <= 8, within one K-quant super-block) of a
 * row: quants in q[32·i + k], scales and mins per block. */
static void unpack_blocks(int type, const void *row, int64_t b0, int nblk, int8_t *q, float *scale, float *min,
                          int16_t *imin, float *min_scale) {
    for (int i = 0; i < nblk; i++) min[i] = 0, imin[i] = 0;
    *min_scale = 0;
    switch (type) {
    case SEER_TYPE_Q8_0:
        for (int i = 0; i < nblk; i++) {
            const block_q8_0 *x = (const block_q8_0 *)row + b0 + i;
            memcpy(q + 32 * i, x->qs, 32);
            scale[i] = seer_fp16_to_f32(x->d);
        }
        break;
    case SEER_TYPE_Q4_0:
        for (int i = 0; i < nblk; i++) {
            const block_q4_0 *x = (const block_q4_0 *)row + b0 + i;
            unpack_q45(x->qs, NULL, 8, q + 32 * i);
            scale[i] = seer_fp16_to_f32(x->d);
        }
        break;
    case SEER_TYPE_Q5_0:
        for (int i = 0; i < nblk; i++) {
            const block_q5_0 *x = (const block_q5_0 *)row + b0 + i;
            unpack_q45(x->qs, x->qh, 16, q + 32 * i);
            scale[i] = seer_fp16_to_f32(x->d);
        }
        break;
    case SEER_TYPE_Q4_1: /* x = d q + m: the panel's mins are taken off, so -m */
        for (int i = 0; i < nblk; i++) {
            const block_q4_1 *x = (const block_q4_1 *)row + b0 + i;
            unpack_q45(x->qs, NULL, 0, q + 32 * i);
            scale[i] = seer_fp16_to_f32(x->d);
            min[i] = -seer_fp16_to_f32(x->m);
        }
        break;
    case SEER_TYPE_Q5_1:
        for (int i = 0; i < nblk; i++) {
            const block_q5_1 *x = (const block_q5_1 *)row + b0 + i;
            unpack_q45(x->qs, x->qh, 0, q + 32 * i);
            scale[i] = seer_fp16_to_f32(x->d);
            min[i] = -seer_fp16_to_f32(x->m);
        }
        break;
    case SEER_TYPE_IQ4_NL:
        for (int i = 0; i < nblk; i++) {
            const block_iq4_nl *x = (const block_iq4_nl *)row + b0 + i;
            seer_iq4_unpack32(x->qs, q + 32 * i);
            scale[i] = seer_fp16_to_f32(x->d);
        }
        break;
    case SEER_TYPE_IQ4_XS: {
        /* a whole super-block: sub-block j has its own 6-bit scale */
        const block_iq4_xs *x = (const block_iq4_xs *)row + b0 / 8;
        const float d = seer_fp16_to_f32(x->d);
        for (int j = 0; j < 8; j++) {
            seer_iq4_unpack32(x->qs + 16 * j, q + 32 * j);
            scale[j] = d * (float)seer_iq4_xs_scale(x, j);
        }
        break;
    }
    case SEER_TYPE_Q4_K: case SEER_TYPE_Q5_K: {
        /* a whole super-block: sub-block j is chunk j/2, low nibbles for even j */
        const uint8_t *scales, *qs, *qh = NULL;
        uint16_t d, dmin;
        if (type == SEER_TYPE_Q4_K) {
            const block_q4_K *x = (const block_q4_K *)row + b0 / 8;
            scales = x->scales; qs = x->qs; d = x->d; dmin = x->dmin;
        } else {
            const block_q5_K *x = (const block_q5_K *)row + b0 / 8;
            scales = x->scales; qs = x->qs; qh = x->qh; d = x->d; dmin = x->dmin;
        }
        for (int c = 0; c < 4; c++)
            for (int k = 0; k < 32; k++) {
                q[64 * c + k] = (int8_t)(qs[32 * c + k] & 0xF);
                q[64 * c + 32 + k] = (int8_t)(qs[32 * c + k] >> 4);
            }
        if (qh)
            for (int j = 0; j < 8; j++)
                for (int k = 0; k < 32; k++) q[32 * j + k] = (int8_t)(q[32 * j + k] | (((qh[k] >> j) & 1) << 4));
        uint8_t sc[8], m[8];
        seer_k4_unpack(scales, sc, m);
        float df = seer_fp16_to_f32(d), dminf = seer_fp16_to_f32(dmin);
        for (int j = 0; j < 8; j++) {
            scale[j] = df * sc[j];
            min[j] = dminf * m[j];
            imin[j] = m[j];
        }
        *min_scale = dminf;
        break;
    }
    default:
        memset(q, 0, (size_t)nblk * 32);
        for (int i = 0; i < nblk; i++) scale[i] = 0;
        break;
    }
}

/* One row of the file's layout (Q6_K, Q3_K, Q2_K or a low-bit i-quant),
 * super-block by super-block, into lane j (rows past the end: zeros): each
 * 16-weight group's half of a block of 32 takes d · its scale; Q2_K's
 * group mins go to the super-block's mins. */
static void pack_row_halves(const seer_weight *w, int64_t o, int j, halves_parts hp) {
    const int R = SEER_Q8_PANEL_ROWS;
    const int64_t n_blocks = w->n_in / 32;
    const bool real = o < w->n_out;
    /* the i-quants (never interleaved) are unpacked from the row in place */
    const seer_iq_unpack_fn iq_unpack = seer_iq_unpacker_fast(w->type);
    const size_t block_bytes = seer_type_get(w->type)->block_bytes;
    for (int64_t sb = 0; sb < w->n_in / QK_K; sb++) {
        seer_file_blocks blk;
        if (!iq_unpack) {
            memset(&blk, 0, sizeof blk);
            if (real) seer_weight_read_block(w, o, sb, &blk);
        }
        int8_t q[QK_K], sc[16];
        float d = 0;
        if (iq_unpack) { /* values |q| <= 62, scales 1..31 (iq_unpack.h) */
            seer_iq_block u;
            if (real) iq_unpack((const char *)w->data + (size_t)o * w->row_bytes + (size_t)sb * block_bytes, &u);
            else memset(&u, 0, sizeof u);
            memcpy(q, u.q, sizeof q);
            for (int g = 0; g < 16; g++) sc[g] = (int8_t)u.ls[g];
            d = u.d;
        } else if (w->type == SEER_TYPE_Q2_K) {
            seer_unpack_q2_K(&blk.q2_K, q);
            int16_t *m = seer_panel_sb_mins16(hp.q, n_blocks, sb);
            for (int g = 0; g < 16; g++) {
                sc[g] = (int8_t)(blk.q2_K.scales[g] & 0xF);
                m[(g / 2) * 2 * R + 2 * j + g % 2] = (int16_t)(blk.q2_K.scales[g] >> 4);
            }
            d = seer_fp16_to_f32(blk.q2_K.d);
            seer_panel_sb_dmin16(hp.q, n_blocks, sb)[j] = seer_fp16_to_f32(blk.q2_K.dmin);
        } else if (w->type == SEER_TYPE_Q3_K) {
            seer_unpack_q3_K(&blk.q3_K, q);
            seer_q3k_scales(blk.q3_K.scales, sc);
            d = seer_fp16_to_f32(blk.q3_K.d);
        } else {
            seer_unpack_q6_K(&blk.q6_K, q);
            memcpy(sc, blk.q6_K.scales, sizeof sc);
            d = seer_fp16_to_f32(blk.q6_K.d);
        }
        if (!real) memset(q, 0, sizeof q);
        for (int i = 0; i < 8; i++) {
            const int64_t b = 8 * sb + i;
            for (int half = 0; half < 2; half++) {
                int sum = 0;
                for (int k = 16 * half; k < 16 * half + 16; k++) sum += q[32 * i + k];
                hp.d[(2 * b + half) * R + j] = d * sc[2 * i + half];
                hp.corr[(2 * b + half) * R + j] = 128 * sum;
            }
            for (int g = 0; g < 8; g++) memcpy(hp.q + 512 * b + 64 * g + 4 * j, q + 32 * i + 4 * g, 4);
        }
    }
}

/* Packs from the interleaved group holding rows [o0, o0 + 16), if there is
 * one of a type packed this way; false otherwise. */
static bool pack_from_group(const seer_weight *w, int64_t o0, uint8_t *panel) {
    const int64_t n_blocks = w->n_in / 32;
    const size_t group_bytes = seer_interleave_group_bytes(w->type, w->n_in);
    if (!w->interleaved || !group_bytes || o0 % SEER_ILV_ROWS || o0 + SEER_ILV_ROWS > w->n_out) return false;
    if (seer_simd_level() < SEER_SIMD_AVX512) return false; /* AVX-512 code; the row path below gives the same bytes */
    const void *group = (const char *)w->interleaved + (size_t)(o0 / SEER_ILV_ROWS) * group_bytes;
    return seer_q8_pack_group(w->type, group, n_blocks, panel);
}

void seer_q8_panel_pack(const seer_weight *w, int64_t o0, uint8_t *panel) {
    if (pack_from_group(w, o0, panel)) return;
    if (seer_simd_level() >= SEER_SIMD_AVX512 && seer_q8_pack_iq_rows(w, o0, panel)) return;
    const int R = SEER_Q8_PANEL_ROWS;
    if (seer_q8_panel_halves(w->type)) {
        for (int j = 0; j < R; j++) pack_row_halves(w, o0 + j, j, seer_halves_parts_of(panel, w->n_in / 32));
        return;
    }
    int type = w->type;
    int64_t n_out = w->n_out, n_blocks = w->n_in / 32;
    uint32_t *qw = (uint32_t *)panel;
    float *d = (float *)(panel + (size_t)n_blocks * 32 * R);
    int32_t *corr = (int32_t *)(panel + (size_t)n_blocks * 36 * R);
    float *mins = (float *)(panel + (size_t)n_blocks * 40 * R);
    for (int j = 0; j < R; j++) {
        int64_t o = o0 + j;
        const void *row = o < n_out ? (const char *)w->data + (size_t)o * w->row_bytes : NULL;
        for (int64_t b0 = 0; b0 < n_blocks; b0 += 8) {
            int nblk = n_blocks - b0 < 8 ? (int)(n_blocks - b0) : 8;
            int8_t q[256];
            uint32_t words[64];
            float scale[8], min[8], dmin;
            int16_t imin[8];
            if (row && w->interleaved) { /* the file blocks holding these 8 back in the file's layout */
                seer_file_blocks blocks;
                const seer_type_info *ti = seer_type_get(type);
                int64_t per = ti->block_size / 32, first = b0 / per;
                for (int64_t k = 0; k * per < nblk; k++)
                    seer_weight_read_block(w, o, first + k, (char *)&blocks + k * ti->block_bytes);
                unpack_blocks(type, &blocks, b0 - first * per, nblk, q, scale, min, imin, &dmin);
            } else if (row) unpack_blocks(type, row, b0, nblk, q, scale, min, imin, &dmin);
            else {
                memset(q, 0, sizeof q);
                for (int i = 0; i < 8; i++) scale[i] = min[i] = 0, imin[i] = 0;
                dmin = 0;
            }
            if (nblk == 8) { /* a whole super-block: the super-block kernel's mins (zero for types without) */
                int16_t *m = seer_panel_sb_mins(panel, n_blocks, b0 / 8);
                for (int i = 0; i < 8; i++) m[(i / 2) * 2 * R + 2 * j + i % 2] = imin[i];
                seer_panel_sb_dmin(panel, n_blocks, b0 / 8)[j] = dmin;
            }
            memcpy(words, q, (size_t)nblk * 32);
            for (int i = 0; i < nblk; i++) {
                int64_t b = b0 + i;
                int sum = 0;
                for (int k = 0; k < 32; k++) sum += q[32 * i + k];
                /* word g of the block goes to vector g, lane j */
                for (int g = 0; g < 8; g++) qw[b * 8 * R + g * R + j] = words[8 * i + g];
                d[b * R + j] = scale[i];
                corr[b * R + j] = 128 * sum; /* activations carry +128 */
                mins[b * R + j] = min[i];
            }
        }
    }
}
