/* Repacking of weight rows into the panels of the int8 GEMM: each block of
 * 32 becomes 32 signed quants, a scale and a min such that the block's
 * values are scale·q − min (exactly the dequantized values' factors). */
#include <string.h>

#include "kernels/gemm_q8_internal.h"
#include "kernels/interleave_internal.h"
#include "kernels/vec_dot_internal.h"
#include "seer/matmul.h"
#include "seer/tensor.h"
#include "tensor/blocks.h"

bool seer_int8_gemm_supports(int type) {
    return type == SEER_TYPE_Q8_0 || type == SEER_TYPE_Q4_0 || type == SEER_TYPE_Q5_0 || type == SEER_TYPE_Q4_K ||
           type == SEER_TYPE_Q5_K || type == SEER_TYPE_Q6_K;
}

/* Blocks [b0, b0 + nblk) (nblk <= 8, within one K-quant super-block) of a
 * row: quants in q[32·i + k], scales and mins per block. */
static void unpack_blocks(int type, const void *row, int64_t b0, int nblk, int8_t *q, float *scale, float *min) {
    for (int i = 0; i < nblk; i++) min[i] = 0;
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
            for (int k = 0; k < 16; k++) {
                q[32 * i + k] = (int8_t)((x->qs[k] & 0xF) - 8);
                q[32 * i + k + 16] = (int8_t)((x->qs[k] >> 4) - 8);
            }
            scale[i] = seer_fp16_to_f32(x->d);
        }
        break;
    case SEER_TYPE_Q5_0:
        for (int i = 0; i < nblk; i++) {
            const block_q5_0 *x = (const block_q5_0 *)row + b0 + i;
            uint32_t qh;
            memcpy(&qh, x->qh, 4);
            for (int k = 0; k < 16; k++) {
                q[32 * i + k] = (int8_t)(((x->qs[k] & 0xF) | (((qh >> k) & 1) << 4)) - 16);
                q[32 * i + k + 16] = (int8_t)(((x->qs[k] >> 4) | (((qh >> (k + 16)) & 1) << 4)) - 16);
            }
            scale[i] = seer_fp16_to_f32(x->d);
        }
        break;
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
        }
        break;
    }
    default:
        memset(q, 0, (size_t)nblk * 32);
        for (int i = 0; i < nblk; i++) scale[i] = 0;
        break;
    }
}

/* The parts of a panel of n_blocks blocks (gemm_q8_internal.h). */
typedef struct panel_parts {
    uint8_t *q;     /* block b, vector g, row j: bytes at 512·b + 64·g + 4·j */
    float *d;       /* [block][row] */
    int32_t *corr;  /* [block][row]: 128 · Σ q */
    float *mins;    /* [block][row] */
} panel_parts;

static panel_parts panel_parts_of(uint8_t *panel, int64_t n_blocks) {
    const int R = SEER_Q8_PANEL_ROWS;
    return (panel_parts){panel, (float *)(panel + (size_t)n_blocks * 32 * R),
                         (int32_t *)(panel + (size_t)n_blocks * 36 * R), (float *)(panel + (size_t)n_blocks * 40 * R)};
}

/* An interleaved group already holds bytes 4g..4g+3 of its 16 rows side by
 * side, the panel's order: Q8_0's quants are copied as they are, Q4_K's
 * split into low nibbles (sub-block 2c) and high nibbles (2c + 1). Same
 * panel, byte for byte, as unpacking each row from the file's layout, for
 * a fraction of the work (which, per prompt batch, took a third as long as
 * the products themselves). */
_Static_assert(SEER_ILV_ROWS == SEER_Q8_PANEL_ROWS, "a group is a panel");

/* A vector of a group (bytes 4g..4g+3 of 16 rows) as one value: GCC's
 * vector types become whatever SIMD the target has (SSE2 at least on
 * x86-64). A row's sum is then its 4 byte lanes'. */
typedef uint8_t u8x64 __attribute__((vector_size(64)));
typedef int8_t i8x64 __attribute__((vector_size(64)));
typedef int16_t i16x64 __attribute__((vector_size(128)));

static void pack_group_q8_0(const block_q8_0x16 *x, int64_t n_blocks, panel_parts pp) {
    const int R = SEER_Q8_PANEL_ROWS;
    for (int64_t b = 0; b < n_blocks; b++) {
        const block_q8_0x16 *u = x + b / 2;
        const int s = (int)(b % 2);
        memcpy(pp.q + 512 * b, u->qs[s], 512);
        i16x64 acc = {0}; /* 8 quants of at most 128 in magnitude per lane */
        for (int g = 0; g < 8; g++) {
            i8x64 v;
            memcpy(&v, u->qs[s][g], 64);
            acc += __builtin_convertvector(v, i16x64);
        }
        for (int j = 0; j < R; j++) {
            pp.d[b * R + j] = seer_fp16_to_f32(u->d[s][j]);
            pp.corr[b * R + j] = 128 * (acc[4 * j] + acc[4 * j + 1] + acc[4 * j + 2] + acc[4 * j + 3]);
            pp.mins[b * R + j] = 0;
        }
    }
}

static void pack_group_q4_K(const block_q4_Kx16 *x, int64_t n_blocks, panel_parts pp) {
    const int R = SEER_Q8_PANEL_ROWS;
    for (int64_t sb = 0; sb < n_blocks / 8; sb++) {
        const block_q4_Kx16 *u = x + sb;
        float d[SEER_Q8_PANEL_ROWS], dmin[SEER_Q8_PANEL_ROWS];
        for (int j = 0; j < R; j++) d[j] = seer_fp16_to_f32(u->d[j]), dmin[j] = seer_fp16_to_f32(u->dmin[j]);
        for (int c = 0; c < 4; c++) {
            const int64_t lo = 8 * sb + 2 * c, hi = lo + 1;
            u8x64 acc_lo = {0}, acc_hi = {0}; /* 8 nibbles of at most 15 per lane */
            for (int g = 0; g < 8; g++) {
                u8x64 v;
                memcpy(&v, u->qs[c][g], 64);
                const u8x64 l = v & 0xF, h = v >> 4;
                memcpy(pp.q + 512 * lo + 64 * g, &l, 64);
                memcpy(pp.q + 512 * hi + 64 * g, &h, 64);
                acc_lo += l;
                acc_hi += h;
            }
            for (int j = 0; j < R; j++) {
                pp.d[lo * R + j] = d[j] * u->scales[2 * c][j];
                pp.d[hi * R + j] = d[j] * u->scales[2 * c + 1][j];
                pp.corr[lo * R + j] = 128 * (acc_lo[4 * j] + acc_lo[4 * j + 1] + acc_lo[4 * j + 2] + acc_lo[4 * j + 3]);
                pp.corr[hi * R + j] = 128 * (acc_hi[4 * j] + acc_hi[4 * j + 1] + acc_hi[4 * j + 2] + acc_hi[4 * j + 3]);
                pp.mins[lo * R + j] = dmin[j] * u->mins[c][j][0];
                pp.mins[hi * R + j] = dmin[j] * u->mins[c][j][1];
            }
        }
    }
}

/* Q6_K: panels in halves (a scale per 16 quants). Quants as signed values
 * q − 32; the half-block scales d · scale[16-weight group]. */
typedef struct halves_parts {
    uint8_t *q;     /* as in panel_parts */
    float *d;       /* [block][half][row] */
    int32_t *corr;  /* [block][half][row]: 128 · Σ q over the half */
} halves_parts;

static halves_parts halves_parts_of(uint8_t *panel, int64_t n_blocks) {
    return (halves_parts){panel, (float *)(panel + (size_t)n_blocks * 512),
                          (int32_t *)(panel + (size_t)n_blocks * (512 + 128))};
}

/* One row of the file's layout, super-block by super-block, into lane j
 * (rows past the end: zeros). */
static void pack_row_q6_K(const seer_weight *w, int64_t o, int j, halves_parts hp) {
    const int R = SEER_Q8_PANEL_ROWS;
    const bool real = o < w->n_out;
    for (int64_t sb = 0; sb < w->n_in / QK_K; sb++) {
        block_q6_K blk;
        memset(&blk, 0, sizeof blk);
        if (real) seer_weight_read_block(w, o, sb, &blk);
        int8_t q[QK_K];
        seer_unpack_q6_K(&blk, q);
        if (!real) memset(q, 0, sizeof q);
        const float d = seer_fp16_to_f32(blk.d);
        for (int i = 0; i < 8; i++) {
            const int64_t b = 8 * sb + i;
            for (int half = 0; half < 2; half++) {
                int sum = 0;
                for (int k = 16 * half; k < 16 * half + 16; k++) sum += q[32 * i + k];
                hp.d[(2 * b + half) * R + j] = d * blk.scales[2 * i + half];
                hp.corr[(2 * b + half) * R + j] = 128 * sum;
            }
            for (int g = 0; g < 8; g++) memcpy(hp.q + 512 * b + 64 * g + 4 * j, q + 32 * i + 4 * g, 4);
        }
    }
}

/* From a Q6_Kx16 group: its 192 bytes (two ql vectors and one qh) at
 * q[h][g] give vector g of the four blocks 4h + t, t = 0..3 (the decode
 * kernel's runs). */
static void pack_group_q6_K(const block_q6_Kx16 *x, int64_t n_blocks, halves_parts hp) {
    const int R = SEER_Q8_PANEL_ROWS;
    for (int64_t sb = 0; sb < n_blocks / 8; sb++) {
        const block_q6_Kx16 *u = x + sb;
        float d[SEER_Q8_PANEL_ROWS];
        for (int j = 0; j < R; j++) d[j] = seer_fp16_to_f32(u->d[j]);
        for (int h = 0; h < 2; h++) {
            i16x64 acc[4][2] = {{{0}}};
            for (int g = 0; g < 8; g++) {
                u8x64 ql0, ql1, qh;
                memcpy(&ql0, u->q[h][g][0], 64);
                memcpy(&ql1, u->q[h][g][1], 64);
                memcpy(&qh, u->q[h][g][2], 64);
                const u8x64 t[4] = {(ql0 & 0xF) | ((qh << 4) & 0x30), (ql1 & 0xF) | ((qh << 2) & 0x30),
                                    (ql0 >> 4) | (qh & 0x30), (ql1 >> 4) | ((qh >> 2) & 0x30)};
                for (int k = 0; k < 4; k++) {
                    const i8x64 v = (i8x64)(t[k] - 32);
                    memcpy(hp.q + 512 * (8 * sb + 4 * h + k) + 64 * g, &v, 64);
                    acc[k][g >= 4] += __builtin_convertvector(v, i16x64);
                }
            }
            for (int k = 0; k < 4; k++) {
                const int64_t b = 8 * sb + 4 * h + k;
                for (int half = 0; half < 2; half++)
                    for (int j = 0; j < R; j++) {
                        const i16x64 a = acc[k][half];
                        hp.d[(2 * b + half) * R + j] = d[j] * u->scales[2 * (4 * h + k) + half][j];
                        hp.corr[(2 * b + half) * R + j] = 128 * (a[4 * j] + a[4 * j + 1] + a[4 * j + 2] + a[4 * j + 3]);
                    }
            }
        }
    }
}

/* Packs from the interleaved group holding rows [o0, o0 + 16), if there is
 * one of a type packed this way; false otherwise. */
static bool pack_from_group(const seer_weight *w, int64_t o0, uint8_t *panel) {
    const int64_t n_blocks = w->n_in / 32;
    const size_t group_bytes = seer_interleave_group_bytes(w->type, w->n_in);
    if (!w->interleaved || !group_bytes || o0 % SEER_ILV_ROWS || o0 + SEER_ILV_ROWS > w->n_out) return false;
    const void *group = (const char *)w->interleaved + (size_t)(o0 / SEER_ILV_ROWS) * group_bytes;
    if (w->type == SEER_TYPE_Q8_0) pack_group_q8_0(group, n_blocks, panel_parts_of(panel, n_blocks));
    else if (w->type == SEER_TYPE_Q6_K) pack_group_q6_K(group, n_blocks, halves_parts_of(panel, n_blocks));
    else if (w->type == SEER_TYPE_Q4_K) pack_group_q4_K(group, n_blocks, panel_parts_of(panel, n_blocks));
    else return false;
    return true;
}

void seer_q8_panel_pack(const seer_weight *w, int64_t o0, uint8_t *panel) {
    if (pack_from_group(w, o0, panel)) return;
    const int R = SEER_Q8_PANEL_ROWS;
    if (seer_q8_panel_halves(w->type)) {
        for (int j = 0; j < R; j++) pack_row_q6_K(w, o0 + j, j, halves_parts_of(panel, w->n_in / 32));
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
            float scale[8], min[8];
            if (row && w->interleaved) { /* the file blocks holding these 8 back in the file's layout */
                seer_file_blocks blocks;
                const seer_type_info *ti = seer_type_get(type);
                int64_t per = ti->block_size / 32, first = b0 / per;
                for (int64_t k = 0; k * per < nblk; k++)
                    seer_weight_read_block(w, o, first + k, (char *)&blocks + k * ti->block_bytes);
                unpack_blocks(type, &blocks, b0 - first * per, nblk, q, scale, min);
            } else if (row) unpack_blocks(type, row, b0, nblk, q, scale, min);
            else {
                memset(q, 0, sizeof q);
                for (int i = 0; i < 8; i++) scale[i] = min[i] = 0;
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
