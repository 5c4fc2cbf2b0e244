/* Portable dot products, one per weight type, written from each format's
 * math: integer sums inside a block, one float multiply by the scales. They
 * are the reference the SIMD kernels are tested against. */
#include <string.h>

#include "kernels/iq_dot_row.h"
#include "kernels/vec_dot_internal.h"
#include "tensor/blocks.h"
#include "tensor/iq_unpack.h"

#define H2F seer_fp16_to_f32

static float dot_f32(int64_t n, const void *w, const void *a) {
    const float *x = w, *y = a;
    float s[4] = {0, 0, 0, 0};
    int64_t i = 0;
    for (; i + 4 <= n; i += 4)
        for (int k = 0; k < 4; k++) s[k] += x[i + k] * y[i + k];
    for (; i < n; i++) s[0] += x[i] * y[i];
    return (s[0] + s[1]) + (s[2] + s[3]);
}

static float dot_f16(int64_t n, const void *w, const void *a) {
    const uint16_t *x = w, *y = a;
    float s[4] = {0, 0, 0, 0};
    int64_t i = 0;
    for (; i + 4 <= n; i += 4)
        for (int k = 0; k < 4; k++) s[k] += H2F(x[i + k]) * H2F(y[i + k]);
    for (; i < n; i++) s[0] += H2F(x[i]) * H2F(y[i]);
    return (s[0] + s[1]) + (s[2] + s[3]);
}

static float dot_bf16(int64_t n, const void *w, const void *a) {
    const uint16_t *x = w, *y = a;
    float s[4] = {0, 0, 0, 0};
    int64_t i = 0;
    for (; i + 4 <= n; i += 4)
        for (int k = 0; k < 4; k++) s[k] += seer_bf16_to_f32(x[i + k]) * seer_bf16_to_f32(y[i + k]);
    for (; i < n; i++) s[0] += seer_bf16_to_f32(x[i]) * seer_bf16_to_f32(y[i]);
    return (s[0] + s[1]) + (s[2] + s[3]);
}

static inline uint32_t load_u32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static float dot_q4_0(int64_t n, const void *w, const void *a) {
    const block_q4_0 *x = w;
    const block_q8_0 *y = a;
    float sum = 0;
    for (int64_t i = 0; i < n / 32; i++) {
        int sumi = 0;
        for (int j = 0; j < 16; j++)
            sumi += seer_q45_lo(x[i].qs[j], 0, j, 8) * y[i].qs[j] + seer_q45_hi(x[i].qs[j], 0, j, 8) * y[i].qs[j + 16];
        sum += (float)sumi * (H2F(x[i].d) * H2F(y[i].d));
    }
    return sum;
}

static float dot_q4_1(int64_t n, const void *w, const void *a) {
    const block_q4_1 *x = w;
    const block_q8_1 *y = a;
    float sum = 0;
    for (int64_t i = 0; i < n / 32; i++) {
        int sumi = 0;
        for (int j = 0; j < 16; j++)
            sumi += seer_q45_lo(x[i].qs[j], 0, j, 0) * y[i].qs[j] + seer_q45_hi(x[i].qs[j], 0, j, 0) * y[i].qs[j + 16];
        sum += (float)sumi * (H2F(x[i].d) * H2F(y[i].d)) + H2F(x[i].m) * H2F(y[i].s);
    }
    return sum;
}

static float dot_q5_0(int64_t n, const void *w, const void *a) {
    const block_q5_0 *x = w;
    const block_q8_0 *y = a;
    float sum = 0;
    for (int64_t i = 0; i < n / 32; i++) {
        uint32_t qh = load_u32(x[i].qh);
        int sumi = 0;
        for (int j = 0; j < 16; j++)
            sumi += seer_q45_lo(x[i].qs[j], qh, j, 16) * y[i].qs[j] + seer_q45_hi(x[i].qs[j], qh, j, 16) * y[i].qs[j + 16];
        sum += (float)sumi * (H2F(x[i].d) * H2F(y[i].d));
    }
    return sum;
}

static float dot_q5_1(int64_t n, const void *w, const void *a) {
    const block_q5_1 *x = w;
    const block_q8_1 *y = a;
    float sum = 0;
    for (int64_t i = 0; i < n / 32; i++) {
        uint32_t qh = load_u32(x[i].qh);
        int sumi = 0;
        for (int j = 0; j < 16; j++)
            sumi += seer_q45_lo(x[i].qs[j], qh, j, 0) * y[i].qs[j] + seer_q45_hi(x[i].qs[j], qh, j, 0) * y[i].qs[j + 16];
        sum += (float)sumi * (H2F(x[i].d) * H2F(y[i].d)) + H2F(x[i].m) * H2F(y[i].s);
    }
    return sum;
}

static float dot_q8_0(int64_t n, const void *w, const void *a) {
    const block_q8_0 *x = w, *y = a;
    float sum = 0;
    for (int64_t i = 0; i < n / 32; i++) {
        int sumi = 0;
        for (int j = 0; j < 32; j++) sumi += x[i].qs[j] * y[i].qs[j];
        sum += (float)sumi * (H2F(x[i].d) * H2F(y[i].d));
    }
    return sum;
}

static float dot_q8_1(int64_t n, const void *w, const void *a) {
    const block_q8_1 *x = w, *y = a;
    float sum = 0;
    for (int64_t i = 0; i < n / 32; i++) {
        int sumi = 0;
        for (int j = 0; j < 32; j++) sumi += x[i].qs[j] * y[i].qs[j];
        sum += (float)sumi * (H2F(x[i].d) * H2F(y[i].d));
    }
    return sum;
}

/* K-quants: unpack a super-block to its 256 integer quants (element order)
 * so each dot is a plain sum per group of 16 or 32. */
void seer_unpack_q2_K(const block_q2_K *b, int8_t q[256]) {
    int k = 0;
    for (int half = 0; half < 2; half++)
        for (int shift = 0; shift < 8; shift += 2)
            for (int l = 0; l < 32; l++) q[k++] = (int8_t)((b->qs[32 * half + l] >> shift) & 3);
}

void seer_unpack_q3_K(const block_q3_K *b, int8_t q[256]) {
    int k = 0;
    uint8_t m = 1;
    for (int half = 0; half < 2; half++)
        for (int shift = 0; shift < 8; shift += 2, m <<= 1)
            for (int l = 0; l < 32; l++)
                q[k++] = (int8_t)(((b->qs[32 * half + l] >> shift) & 3) - ((b->hmask[l] & m) ? 0 : 4));
}

static void unpack_q4_K(const block_q4_K *b, int8_t q[256]) {
    for (int c = 0; c < 4; c++)
        for (int l = 0; l < 32; l++) {
            q[64 * c + l] = (int8_t)(b->qs[32 * c + l] & 0xF);
            q[64 * c + 32 + l] = (int8_t)(b->qs[32 * c + l] >> 4);
        }
}

static void unpack_q5_K(const block_q5_K *b, int8_t q[256]) {
    for (int c = 0; c < 4; c++)
        for (int l = 0; l < 32; l++) {
            q[64 * c + l] = (int8_t)((b->qs[32 * c + l] & 0xF) | (((b->qh[l] >> (2 * c)) & 1) << 4));
            q[64 * c + 32 + l] = (int8_t)((b->qs[32 * c + l] >> 4) | (((b->qh[l] >> (2 * c + 1)) & 1) << 4));
        }
}

void seer_unpack_q6_K(const block_q6_K *b, int8_t q[256]) {
    for (int n = 0; n < 2; n++) {
        const uint8_t *ql = b->ql + 64 * n, *qh = b->qh + 32 * n;
        int8_t *o = q + 128 * n;
        for (int l = 0; l < 32; l++) {
            o[l] = (int8_t)(((ql[l] & 0xF) | (((qh[l] >> 0) & 3) << 4)) - 32);
            o[l + 32] = (int8_t)(((ql[l + 32] & 0xF) | (((qh[l] >> 2) & 3) << 4)) - 32);
            o[l + 64] = (int8_t)(((ql[l] >> 4) | (((qh[l] >> 4) & 3) << 4)) - 32);
            o[l + 96] = (int8_t)(((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4)) - 32);
        }
    }
}

static int group_dot(const int8_t *q, const int8_t *y, int len) {
    int s = 0;
    for (int l = 0; l < len; l++) s += q[l] * y[l];
    return s;
}

static float dot_q2_K(int64_t n, const void *w, const void *a) {
    const block_q2_K *x = w;
    const block_q8_K *y = a;
    float sum = 0;
    for (int64_t i = 0; i < n / QK_K; i++) {
        int8_t q[256];
        seer_unpack_q2_K(&x[i], q);
        int isum = 0, summ = 0;
        for (int g = 0; g < 16; g++) {
            isum += (x[i].scales[g] & 0xF) * group_dot(q + 16 * g, y[i].qs + 16 * g, 16);
            summ += (x[i].scales[g] >> 4) * y[i].bsums[g];
        }
        sum += y[i].d * H2F(x[i].d) * (float)isum - y[i].d * H2F(x[i].dmin) * (float)summ;
    }
    return sum;
}

static float dot_q3_K(int64_t n, const void *w, const void *a) {
    const block_q3_K *x = w;
    const block_q8_K *y = a;
    float sum = 0;
    for (int64_t i = 0; i < n / QK_K; i++) {
        int8_t q[256], sc[16];
        seer_unpack_q3_K(&x[i], q);
        seer_q3k_scales(x[i].scales, sc);
        int isum = 0;
        for (int g = 0; g < 16; g++) isum += sc[g] * group_dot(q + 16 * g, y[i].qs + 16 * g, 16);
        sum += y[i].d * H2F(x[i].d) * (float)isum;
    }
    return sum;
}

static float dot_q45_K(const uint8_t *scales, uint16_t d, uint16_t dmin, const int8_t *q, const block_q8_K *y) {
    int isum = 0, summ = 0;
    for (int j = 0; j < 8; j++) {
        uint8_t sc, m;
        seer_k4_scale_min(j, scales, &sc, &m);
        isum += sc * group_dot(q + 32 * j, y->qs + 32 * j, 32);
        summ += m * (y->bsums[2 * j] + y->bsums[2 * j + 1]);
    }
    return y->d * H2F(d) * (float)isum - y->d * H2F(dmin) * (float)summ;
}

static float dot_q4_K(int64_t n, const void *w, const void *a) {
    const block_q4_K *x = w;
    const block_q8_K *y = a;
    float sum = 0;
    for (int64_t i = 0; i < n / QK_K; i++) {
        int8_t q[256];
        unpack_q4_K(&x[i], q);
        sum += dot_q45_K(x[i].scales, x[i].d, x[i].dmin, q, &y[i]);
    }
    return sum;
}

static float dot_q5_K(int64_t n, const void *w, const void *a) {
    const block_q5_K *x = w;
    const block_q8_K *y = a;
    float sum = 0;
    for (int64_t i = 0; i < n / QK_K; i++) {
        int8_t q[256];
        unpack_q5_K(&x[i], q);
        sum += dot_q45_K(x[i].scales, x[i].d, x[i].dmin, q, &y[i]);
    }
    return sum;
}

static float dot_q6_K(int64_t n, const void *w, const void *a) {
    const block_q6_K *x = w;
    const block_q8_K *y = a;
    float sum = 0;
    for (int64_t i = 0; i < n / QK_K; i++) {
        int8_t q[256];
        seer_unpack_q6_K(&x[i], q);
        int isum = 0;
        for (int g = 0; g < 16; g++) isum += x[i].scales[g] * group_dot(q + 16 * g, y[i].qs + 16 * g, 16);
        sum += y[i].d * H2F(x[i].d) * (float)isum;
    }
    return sum;
}

static float dot_q8_K(int64_t n, const void *w, const void *a) {
    const block_q8_K *x = w, *y = a;
    float sum = 0;
    for (int64_t i = 0; i < n / QK_K; i++) sum += x[i].d * y[i].d * (float)group_dot(x[i].qs, y[i].qs, QK_K);
    return sum;
}

/* Super-block x of 16 interleaved Q4_K rows, or Q5_K's with their fifth
 * bits qh (NULL for Q4_K), × y, row by row, into acc and acc_mins: the
 * same integer sums as dot_q4_K / dot_q5_K, the reference for the SIMD
 * dot16 kernels. */
static void k45_group_sums(const block_q4_Kx16 *x, const uint8_t (*qh)[SEER_ILV_ROWS][4], const block_q8_K *y,
                           float acc[SEER_ILV_ROWS], float acc_mins[SEER_ILV_ROWS]) {
    int sub_sums[8];
    for (int s = 0; s < 8; s++) sub_sums[s] = y->bsums[2 * s] + y->bsums[2 * s + 1];
    for (int r = 0; r < SEER_ILV_ROWS; r++) {
        int isum = 0, msum = 0;
        for (int c = 0; c < 4; c++) {
            int lo = 0, hi = 0;
            for (int k = 0; k < 32; k++) {
                uint8_t q = x->qs[c][k / 4][r][k % 4], h = qh ? qh[k / 4][r][k % 4] : 0;
                lo += ((q & 0xF) | ((h >> (2 * c)) & 1) << 4) * y->qs[64 * c + k];
                hi += ((q >> 4) | ((h >> (2 * c + 1)) & 1) << 4) * y->qs[64 * c + 32 + k];
            }
            isum += lo * x->scales[2 * c][r] + hi * x->scales[2 * c + 1][r];
            msum += x->mins[c][r][0] * sub_sums[2 * c] + x->mins[c][r][1] * sub_sums[2 * c + 1];
        }
        acc[r] += seer_fp16_to_f32(x->d[r]) * y->d * (float)isum;
        acc_mins[r] += seer_fp16_to_f32(x->dmin[r]) * y->d * (float)msum;
    }
}

static void dot16_q4_K(int64_t n, const void *w, const void *a, float out[SEER_ILV_ROWS]) {
    const block_q4_Kx16 *x = w;
    const block_q8_K *y = a;
    float acc[SEER_ILV_ROWS] = {0}, acc_mins[SEER_ILV_ROWS] = {0};
    for (int64_t i = 0; i < n / QK_K; i++) k45_group_sums(&x[i], NULL, &y[i], acc, acc_mins);
    for (int r = 0; r < SEER_ILV_ROWS; r++) out[r] = acc[r] - acc_mins[r];
}

static void dot16_q5_K(int64_t n, const void *w, const void *a, float out[SEER_ILV_ROWS]) {
    const block_q5_Kx16 *x = w;
    const block_q8_K *y = a;
    float acc[SEER_ILV_ROWS] = {0}, acc_mins[SEER_ILV_ROWS] = {0};
    for (int64_t i = 0; i < n / QK_K; i++) k45_group_sums(&x[i].low, x[i].qh, &y[i], acc, acc_mins);
    for (int r = 0; r < SEER_ILV_ROWS; r++) out[r] = acc[r] - acc_mins[r];
}

/* The K-quants whose super-blocks are 16 groups of 16 weights, interleaved
 * (block_q2_Kx16, block_q3_Kx16, block_q6_Kx16), told apart by their bits
 * per weight. Weight e (0..255) of row r of one super-block as its value:
 * e = 128h + 32t + l. */
static int k16_value(const void *unit, int bits, int r, int e) {
    const int h = e / 128, t = e % 128 / 32, l = e % 32;
    if (bits == 6) { /* ql chunk 2h + t%2 (high nibble for t >= 2), qh bits 2t */
        const block_q6_Kx16 *x = unit;
        const uint8_t ql = x->q[h][l / 4][t % 2][r][l % 4], qh = x->q[h][l / 4][2][r][l % 4];
        return ((t >= 2 ? ql >> 4 : ql & 0xF) | ((qh >> (2 * t)) & 3) << 4) - 32;
    }
    /* low bits 2t, 2t + 1 of qs chunk h; Q3_K's third bit 4h + t of hmask */
    const uint8_t(*qs)[8][SEER_ILV_ROWS][4] = bits == 3 ? ((const block_q3_Kx16 *)unit)->qs : ((const block_q2_Kx16 *)unit)->qs;
    const int low = (qs[h][l / 4][r][l % 4] >> (2 * t)) & 3;
    if (bits == 2) return low;
    const int high = (((const block_q3_Kx16 *)unit)->hmask[l / 4][r][l % 4] >> (4 * h + t)) & 1;
    return (low | high << 2) - 4;
}

/* Sixteen such rows × Q8_K: the sums of dot_q2_K / dot_q3_K / dot_q6_K,
 * read from the interleaved layout. */
static void dot16_k16(int64_t n, const void *w, const void *a, int bits, float out[SEER_ILV_ROWS]) {
    const block_q8_K *y = a;
    const size_t unit_bytes = bits == 2 ? sizeof(block_q2_Kx16) : bits == 3 ? sizeof(block_q3_Kx16) : sizeof(block_q6_Kx16);
    float acc[SEER_ILV_ROWS] = {0};
    for (int64_t i = 0; i < n / QK_K; i++) {
        const void *unit = (const char *)w + (size_t)i * unit_bytes;
        const block_q2_Kx16 *x2 = unit;
        const block_q3_Kx16 *x3 = unit;
        const block_q6_Kx16 *x6 = unit;
        const uint16_t *d = bits == 2 ? x2->d : bits == 3 ? x3->d : x6->d;
        for (int r = 0; r < SEER_ILV_ROWS; r++) {
            int isum = 0, msum = 0;
            for (int g = 0; g < 16; g++) {
                int gsum = 0;
                for (int e = 16 * g; e < 16 * g + 16; e++) gsum += k16_value(unit, bits, r, e) * y[i].qs[e];
                if (bits == 2) { /* scale and min of 4 bits */
                    isum += (x2->scales[g][r] & 0xF) * gsum;
                    msum += (x2->scales[g][r] >> 4) * y[i].bsums[g];
                } else {
                    isum += (bits == 3 ? x3->scales[g][r] : x6->scales[g][r]) * gsum;
                }
            }
            acc[r] += y[i].d * H2F(d[r]) * (float)isum;
            if (bits == 2) acc[r] -= y[i].d * H2F(x2->dmin[r]) * (float)msum;
        }
    }
    memcpy(out, acc, sizeof acc);
}
static void dot16_q2_K(int64_t n, const void *w, const void *a, float out[SEER_ILV_ROWS]) { dot16_k16(n, w, a, 2, out); }
static void dot16_q3_K(int64_t n, const void *w, const void *a, float out[SEER_ILV_ROWS]) { dot16_k16(n, w, a, 3, out); }
static void dot16_q6_K(int64_t n, const void *w, const void *a, float out[SEER_ILV_ROWS]) { dot16_k16(n, w, a, 6, out); }

/* Σ value·activation over one IQ4 block of 32 (16 bytes of nibbles). */
static int iq4_sum32(const uint8_t *qs, const int8_t *q8) {
    int8_t q[32];
    seer_iq4_unpack32(qs, q);
    int sumi = 0;
    for (int j = 0; j < 32; j++) sumi += q[j] * q8[j];
    return sumi;
}

static float dot_iq4_nl(int64_t n, const void *w, const void *a) {
    const block_iq4_nl *x = w;
    const block_q8_0 *y = a;
    float sum = 0;
    for (int64_t i = 0; i < n / 32; i++) sum += (float)iq4_sum32(x[i].qs, y[i].qs) * (H2F(x[i].d) * H2F(y[i].d));
    return sum;
}

static float dot_iq4_xs(int64_t n, const void *w, const void *a) {
    const block_iq4_xs *x = w;
    const block_q8_K *y = a;
    float sum = 0;
    for (int64_t i = 0; i < n / QK_K; i++) {
        int sumi = 0;
        for (int ib = 0; ib < 8; ib++) sumi += seer_iq4_xs_scale(&x[i], ib) * iq4_sum32(x[i].qs + 16 * ib, y[i].qs + 32 * ib);
        sum += (float)sumi * (H2F(x[i].d) * y[i].d);
    }
    return sum;
}

/* A low-bit i-quant super-block's Σ ls·Σ q·q8 (iq_unpack.h), as the
 * format's own dot products sum them; its rows by iq_dot_row.h. */
static int iq_block_sum(const seer_iq_block *u, const int8_t q8[256]) {
    int sumi = 0;
    for (int g = 0; g < 16; g++) {
        int s = 0;
        for (int k = 16 * g; k < 16 * g + 16; k++) s += u->q[k] * q8[k];
        sumi += u->ls[g] * s;
    }
    return sumi;
}
#define IQ_DOT_UNPACKER seer_iq_unpacker
#define IQ_DOT_BLOCK_SUM iq_block_sum
SEER_IQ_TYPES(SEER_IQ_DOT_ROW_KERNEL)

/* Sixteen interleaved Q8_0 rows (block_q8_0x16) × Q8_0: dot_q8_0's sums. */
static void dot16_q8_0(int64_t n, const void *w, const void *a, float out[SEER_ILV_ROWS]) {
    const block_q8_0x16 *x = w;
    const block_q8_0 *y = a;
    float acc[SEER_ILV_ROWS] = {0};
    for (int64_t b = 0; b < n / 32; b++) {
        const block_q8_0x16 *u = x + b / 2;
        int s = (int)(b % 2);
        for (int r = 0; r < SEER_ILV_ROWS; r++) {
            int sumi = 0;
            for (int k = 0; k < 32; k++) sumi += u->qs[s][k / 4][r][k % 4] * y[b].qs[k];
            acc[r] += (float)sumi * (H2F(u->d[s][r]) * H2F(y[b].d));
        }
    }
    memcpy(out, acc, sizeof acc);
}

/* Sixteen interleaved Q5_0 rows (block_q5_0x16, q5), Q4_0 rows
 * (block_q4_0x16), IQ4_NL rows (the same layout, nl: the nibbles index
 * seer_iq4_values) × Q8_0, or with mins (min) Q5_1 / Q4_1 rows × Q8_1:
 * dot_q5_0's / dot_q4_0's / dot_iq4_nl's / dot_q5_1's / dot_q4_1's sums. */
static void dot16_q450(int64_t n, const void *w, const void *a, bool q5, bool nl, bool min, float out[SEER_ILV_ROWS]) {
    float acc[SEER_ILV_ROWS] = {0};
    const int offset = min ? 0 : q5 ? 16 : 8;
    for (int64_t b = 0; b < n / 32; b++) {
        const seer_q450_block u = seer_q450_block_at(w, b, q5, min);
        const seer_act32 y = seer_act32_at(a, b, min);
        for (int r = 0; r < SEER_ILV_ROWS; r++) {
            const uint32_t qh = q5 ? seer_q5_0_qh_ungroup(u.qh[r]) : 0;
            int sumi = 0;
            for (int k = 0; k < 16; k++) {
                const uint8_t q = u.qs[k / 4][r][k % 4];
                int lo = seer_q45_lo(q, qh, k, offset), hi = seer_q45_hi(q, qh, k, offset);
                if (nl) lo = seer_iq4_values[q & 0xF], hi = seer_iq4_values[q >> 4];
                sumi += lo * y.qs[k] + hi * y.qs[k + 16];
            }
            if (min) acc[r] += (float)sumi * (H2F(u.d[r]) * H2F(y.d)) + H2F(u.m[r]) * H2F(y.s);
            else acc[r] += (float)sumi * (H2F(u.d[r]) * H2F(y.d));
        }
    }
    memcpy(out, acc, sizeof acc);
}
static void dot16_q5_0(int64_t n, const void *w, const void *a, float out[SEER_ILV_ROWS]) { dot16_q450(n, w, a, true, false, false, out); }
static void dot16_q4_0(int64_t n, const void *w, const void *a, float out[SEER_ILV_ROWS]) { dot16_q450(n, w, a, false, false, false, out); }
static void dot16_iq4_nl(int64_t n, const void *w, const void *a, float out[SEER_ILV_ROWS]) { dot16_q450(n, w, a, false, true, false, out); }
static void dot16_q5_1(int64_t n, const void *w, const void *a, float out[SEER_ILV_ROWS]) { dot16_q450(n, w, a, true, false, true, out); }
static void dot16_q4_1(int64_t n, const void *w, const void *a, float out[SEER_ILV_ROWS]) { dot16_q450(n, w, a, false, false, true, out); }

/* Sixteen interleaved IQ4_XS rows (block_iq4_xsx16) × Q8_K: dot_iq4_xs's sums. */
static void dot16_iq4_xs(int64_t n, const void *w, const void *a, float out[SEER_ILV_ROWS]) {
    const block_iq4_xsx16 *x = w;
    const block_q8_K *y = a;
    float acc[SEER_ILV_ROWS] = {0};
    for (int64_t i = 0; i < n / QK_K; i++)
        for (int r = 0; r < SEER_ILV_ROWS; r++) {
            int sumi = 0;
            for (int ib = 0; ib < 8; ib++) {
                int s = 0;
                for (int k = 0; k < 16; k++) {
                    const uint8_t q = x[i].qs[ib][k / 4][r][k % 4];
                    s += seer_iq4_values[q & 0xF] * y[i].qs[32 * ib + k] + seer_iq4_values[q >> 4] * y[i].qs[32 * ib + 16 + k];
                }
                sumi += x[i].scales[ib][r] * s;
            }
            acc[r] += (float)sumi * (H2F(x[i].d[r]) * y[i].d);
        }
    memcpy(out, acc, sizeof acc);
}

void seer_vec_dot_fill_scalar(seer_vec_dot_fn t[SEER_TYPE_COUNT], seer_vec_dot16_fn t16[SEER_TYPE_COUNT]) {
    t16[SEER_TYPE_Q4_K] = dot16_q4_K;
    t16[SEER_TYPE_Q5_K] = dot16_q5_K;
    t16[SEER_TYPE_Q6_K] = dot16_q6_K;
    t16[SEER_TYPE_Q3_K] = dot16_q3_K;
    t16[SEER_TYPE_Q2_K] = dot16_q2_K;
    t16[SEER_TYPE_Q8_0] = dot16_q8_0;
    t16[SEER_TYPE_Q5_0] = dot16_q5_0;
    t16[SEER_TYPE_Q4_0] = dot16_q4_0;
    t16[SEER_TYPE_IQ4_NL] = dot16_iq4_nl;
    t16[SEER_TYPE_Q5_1] = dot16_q5_1;
    t16[SEER_TYPE_Q4_1] = dot16_q4_1;
    t16[SEER_TYPE_IQ4_XS] = dot16_iq4_xs;
    t[SEER_TYPE_F32] = dot_f32;
    t[SEER_TYPE_F16] = dot_f16;
    t[SEER_TYPE_BF16] = dot_bf16;
    t[SEER_TYPE_Q4_0] = dot_q4_0;
    t[SEER_TYPE_Q4_1] = dot_q4_1;
    t[SEER_TYPE_Q5_0] = dot_q5_0;
    t[SEER_TYPE_Q5_1] = dot_q5_1;
    t[SEER_TYPE_Q8_0] = dot_q8_0;
    t[SEER_TYPE_Q8_1] = dot_q8_1;
    t[SEER_TYPE_Q2_K] = dot_q2_K;
    t[SEER_TYPE_Q3_K] = dot_q3_K;
    t[SEER_TYPE_Q4_K] = dot_q4_K;
    t[SEER_TYPE_Q5_K] = dot_q5_K;
    t[SEER_TYPE_Q6_K] = dot_q6_K;
    t[SEER_TYPE_Q8_K] = dot_q8_K;
    t[SEER_TYPE_IQ4_NL] = dot_iq4_nl;
    t[SEER_TYPE_IQ4_XS] = dot_iq4_xs;
#define DOT_IQ_ENTRY(name, block, type) t[type] = dot_##name;
    SEER_IQ_TYPES(DOT_IQ_ENTRY)
}
