/* Packing from interleaved groups (seer_weight_interleave), compiled with
 * AVX-512 like the int8 GEMM kernels that use the panels (below that level
 * there is no int8 GEMM; gemm_q8_pack.c's row-by-row packing, which gives
 * the same bytes, stays the fallback): Qwen2.5-VL's 128-token prompt on
 * one core 2.76-2.80 -> 2.63-2.70 s in one sitting (three pairs), within
 * the noise in another. */
#include <stdbool.h>
#include <string.h>
#if defined(__AVX512BW__)
#include <immintrin.h>
#endif

#include "kernels/gemm_q8_internal.h"
#include "kernels/interleave_internal.h"
#include "kernels/transpose16.h"
#include "seer/matmul.h"
#include "seer/tensor.h"
#include "tensor/blocks.h"
#include "tensor/iq_unpack.h"

/* An interleaved group already holds bytes 4g..4g+3 of its 16 rows side by
 * side, the panel's order: Q8_0's quants are copied as they are, Q4_K's
 * split into low nibbles (sub-block 2c) and high nibbles (2c + 1), Q4_0's
 * and Q5_0's into a block's first and second 16 values. Same
 * panel, byte for byte, as unpacking each row from the file's layout, for
 * a fraction of the work (which, per prompt batch, took a third as long as
 * the products themselves). */
_Static_assert(SEER_ILV_ROWS == SEER_Q8_PANEL_ROWS, "a group is a panel");

/* A vector of a group (bytes 4g..4g+3 of 16 rows) as one value: GCC's
 * vector types become 512-bit operations in this file (SSE2 ones where
 * it was compiled for any x86-64: a sixth of a Q4_K prompt went to this
 * byte shuffling). A row's sum is then its 4 byte lanes'. */
typedef uint8_t u8x64 __attribute__((vector_size(64)));
typedef int8_t i8x64 __attribute__((vector_size(64)));
typedef int16_t i16x64 __attribute__((vector_size(128)));

typedef uint8_t u8x16 __attribute__((vector_size(16)));
typedef int8_t i8x16 __attribute__((vector_size(16)));
typedef int64_t i64x16 __attribute__((vector_size(128)));
typedef uint32_t u32x16 __attribute__((vector_size(64)));
typedef int32_t i32x16 __attribute__((vector_size(64)));
typedef float f32x16 __attribute__((vector_size(64)));

/* Lane j: the sum of bytes 4j..4j+3 (one row's share of a vector). */
static inline i32x16 row_sums(u8x64 v) {
    u32x16 x;
    memcpy(&x, &v, 64);
    return (i32x16)((x & 0xFF) + ((x >> 8) & 0xFF) + ((x >> 16) & 0xFF) + (x >> 24));
}

/* Lane j: the sum of 16-bit lanes 4j..4j+3 (one row's share of a
 * vector's sums), each sign-extended from its place in a 64-bit lane. */
static inline i32x16 row_sums16(i16x64 v) {
    i64x16 x;
    memcpy(&x, &v, 128);
    return __builtin_convertvector(((x << 48) >> 48) + ((x << 32) >> 48) + ((x << 16) >> 48) + (x >> 48), i32x16);
}

/* A block's pack correction, 128 x each row's sum of its quants (the
 * kernels take the quants as unsigned, q + 128), from the 16-bit sums. */
static inline void store_corr(int32_t *corr, i16x64 sums) {
    const i32x16 c = 128 * row_sums16(sums);
    memcpy(corr, &c, 64);
}

static inline f32x16 signed_bytes_to_f32(const int8_t b[16]) {
    i8x16 v;
    memcpy(&v, b, 16);
    return __builtin_convertvector(v, f32x16);
}

/* A group's 16 F16 scales as floats, in one conversion (16 calls of the
 * scalar one were 7% of a Q6_K pack). */
static inline void fp16x16_to_f32(const uint16_t h[16], float *out) {
#if defined(__AVX512F__)
    _mm512_storeu_ps(out, _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)h)));
#else
    for (int j = 0; j < 16; j++) out[j] = seer_fp16_to_f32(h[j]);
#endif
}

/* Step `step` of asking for the next super-block's lines while this one
 * is packed, `lines` a step: the groups are read cold, and a pack reads a
 * super-block's scales before its quants (Q6_K: at its end; Q5_K: its
 * fifth bits first), jumps the prefetchers do not follow. */
static inline void prefetch_next(const void *next, int step, int lines) {
    for (int i = 0; i < lines; i++) __builtin_prefetch((const char *)next + 64 * (lines * step + i));
}

static inline f32x16 bytes_to_f32(const uint8_t b[16]) {
    u8x16 v;
    memcpy(&v, b, 16);
    return __builtin_convertvector(v, f32x16);
}

static void pack_group_q8_0(const block_q8_0x16 *x, int64_t n_blocks, panel_parts pp) {
    const int R = SEER_Q8_PANEL_ROWS;
    for (int64_t b = 0; b < n_blocks; b++) {
        const block_q8_0x16 *u = x + b / 2;
        const int s = (int)(b % 2);
        prefetch_next(u + 1, s, 9); /* 2 steps: 18 of its 17 lines */
        memcpy(pp.q + 512 * b, u->qs[s], 512);
        i16x64 acc = {0}; /* 8 quants of at most 128 in magnitude per lane */
        for (int g = 0; g < 8; g++) {
            i8x64 v;
            memcpy(&v, u->qs[s][g], 64);
            acc += __builtin_convertvector(v, i16x64);
        }
        fp16x16_to_f32(u->d[s], pp.d + b * R);
        store_corr(pp.corr + b * R, acc);
        memset(pp.mins + b * R, 0, R * sizeof *pp.mins);
    }
}

/* 64 IQ4 nibbles (one per byte) as their signed values. */
static inline i8x64 iq4_lookup(u8x64 nibbles) {
#if defined(__AVX512BW__)
    const __m512i table = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)seer_iq4_values));
    __m512i idx, v;
    memcpy(&idx, &nibbles, 64);
    v = _mm512_shuffle_epi8(table, idx);
    i8x64 r;
    memcpy(&r, &v, 64);
    return r;
#else
    i8x64 r;
    for (int k = 0; k < 64; k++) r[k] = seer_iq4_values[nibbles[k]];
    return r;
#endif
}

/* From a Q5_0x16 group (q5) or a Q4_0x16 one: run g's low nibbles are
 * the panel block's vector g, its high nibbles vector 4 + g (plus the
 * fifth bits from the regrouped qh for Q5_0), less 16 (Q4_0: 8); IQ4_NL
 * rows in Q4_0's layout (nl): the nibbles' table values; Q5_1 / Q4_1 rows
 * (min): the values as they are, and -m as the block's mins (taken off). */
static void pack_group_q450(const void *x, bool q5, bool nl, bool min, int64_t n_blocks, panel_parts pp) {
    const int R = SEER_Q8_PANEL_ROWS;
    const int8_t offset = min ? 0 : q5 ? 16 : 8;
    for (int64_t b = 0; b < n_blocks; b++) {
        const seer_q450_block u = seer_q450_block_at(x, b, q5, min);
        u8x64 qh = {0};
        if (q5) memcpy(&qh, u.qh, 64);
        i16x64 acc = {0}; /* 8 quants of at most 127 in magnitude per lane */
        for (int g = 0; g < 4; g++) {
            u8x64 v;
            memcpy(&v, u.qs[g], 64);
            u8x64 lo = v & 0xF, hi = v >> 4;
            if (q5) {
                lo |= ((qh >> g) & 1) << 4;
                hi |= ((qh >> (4 + g)) & 1) << 4;
            }
            const i8x64 slo = nl ? iq4_lookup(lo) : (i8x64)lo - offset, shi = nl ? iq4_lookup(hi) : (i8x64)hi - offset;
            memcpy(pp.q + 512 * b + 64 * g, &slo, 64);
            memcpy(pp.q + 512 * b + 64 * (4 + g), &shi, 64);
            acc += __builtin_convertvector(slo, i16x64) + __builtin_convertvector(shi, i16x64);
        }
        fp16x16_to_f32(u.d, pp.d + b * R);
        store_corr(pp.corr + b * R, acc);
        for (int j = 0; j < R; j++) {
            pp.mins[b * R + j] = min ? -seer_fp16_to_f32(u.m[j]) : 0;
        }
    }
}

/* From a Q4_Kx16 group, or a Q5_Kx16 one (q5: each nibble's fifth bit
 * added as 16, so a block's 8 values still fit a byte lane's sum). */
static void pack_group_q45_K(const void *x, bool q5, int64_t n_blocks, panel_parts pp) {
    const int R = SEER_Q8_PANEL_ROWS;
    for (int64_t sb = 0; sb < n_blocks / 8; sb++) {
        const block_q4_Kx16 *u = q5 ? &((const block_q5_Kx16 *)x)[sb].low : (const block_q4_Kx16 *)x + sb;
        const uint8_t(*qh)[SEER_ILV_ROWS][4] = q5 ? ((const block_q5_Kx16 *)x)[sb].qh : NULL;
        const void *next = q5 ? (const void *)((const block_q5_Kx16 *)x + sb + 1) : (const void *)(u + 1);
        float d[SEER_Q8_PANEL_ROWS], *dmin = seer_panel_sb_dmin(pp.q, n_blocks, sb);
        fp16x16_to_f32(u->d, d);
        fp16x16_to_f32(u->dmin, dmin);
        /* the group's mins are already in pairs of blocks per row: widened */
        int16_t *m = seer_panel_sb_mins(pp.q, n_blocks, sb);
        for (int i = 0; i < 4 * R * 2; i++) m[i] = (&u->mins[0][0][0])[i];
        for (int c = 0; c < 4; c++) {
            const int64_t lo = 8 * sb + 2 * c, hi = lo + 1;
            u8x64 acc_lo = {0}, acc_hi = {0}; /* 8 values of at most 31 per lane */
            for (int g = 0; g < 8; g++) {
                prefetch_next(next, 8 * c + g, 2); /* 32 steps: 64 of Q5_K's 45 lines */
                u8x64 v;
                memcpy(&v, u->qs[c][g], 64);
                u8x64 l = v & 0xF, h = v >> 4;
                if (qh) {
                    u8x64 bits;
                    memcpy(&bits, qh[g], 64);
                    l |= ((bits >> (2 * c)) & 1) << 4;
                    h |= ((bits >> (2 * c + 1)) & 1) << 4;
                }
                memcpy(pp.q + 512 * lo + 64 * g, &l, 64);
                memcpy(pp.q + 512 * hi + 64 * g, &h, 64);
                acc_lo += l;
                acc_hi += h;
            }
            /* the 16 rows' scales, corrections and mins as vectors (the
             * same products as row by row: a sixth of the packing went to
             * those scalar loops) */
            f32x16 dv, dminv;
            memcpy(&dv, d, 64);
            memcpy(&dminv, dmin, 64);
            const i32x16 c_lo = 128 * row_sums(acc_lo), c_hi = 128 * row_sums(acc_hi);
            const f32x16 d_lo = dv * bytes_to_f32(u->scales[2 * c]), d_hi = dv * bytes_to_f32(u->scales[2 * c + 1]);
            u8x16 m_lo, m_hi;
            for (int j = 0; j < R; j++) m_lo[j] = u->mins[c][j][0], m_hi[j] = u->mins[c][j][1];
            const f32x16 min_lo = dminv * __builtin_convertvector(m_lo, f32x16);
            const f32x16 min_hi = dminv * __builtin_convertvector(m_hi, f32x16);
            memcpy(pp.d + lo * R, &d_lo, 64), memcpy(pp.d + hi * R, &d_hi, 64);
            memcpy(pp.corr + lo * R, &c_lo, 64), memcpy(pp.corr + hi * R, &c_hi, 64);
            memcpy(pp.mins + lo * R, &min_lo, 64), memcpy(pp.mins + hi * R, &min_hi, 64);
        }
    }
}

/* From a Q6_Kx16 group (bits 6): its 192 bytes (two ql vectors and one
 * qh) at q[h][g] give vector g of the four blocks 4h + t, t = 0..3 (the
 * decode kernel's runs); from a Q3_Kx16 group (bits 3) its qs[h][g] and
 * hmask[g]; from a Q2_Kx16 group (bits 2) its qs[h][g], with the scale
 * bytes' high nibbles as the super-block's mins. */
static void pack_group_k16(const void *x, int bits, int64_t n_blocks, halves_parts hp) {
    const int R = SEER_Q8_PANEL_ROWS;
    const bool q3 = bits == 3;
    for (int64_t sb = 0; sb < n_blocks / 8; sb++) {
        const block_q6_Kx16 *u6 = (const block_q6_Kx16 *)x + sb;
        const block_q3_Kx16 *u3 = (const block_q3_Kx16 *)x + sb;
        const block_q2_Kx16 *u2 = (const block_q2_Kx16 *)x + sb;
        const void *next = bits == 2 ? (const void *)(u2 + 1) : q3 ? (const void *)(u3 + 1) : (const void *)(u6 + 1);
        int8_t q2_scales[16][SEER_ILV_ROWS]; /* Q2_K's scale nibbles, unpacked */
        const int8_t(*scales)[SEER_ILV_ROWS] = bits == 2 ? q2_scales : q3 ? u3->scales : u6->scales;
        float d[SEER_Q8_PANEL_ROWS];
        if (bits == 2) {
            int16_t *m = seer_panel_sb_mins16(hp.q, n_blocks, sb);
            float *dmin = seer_panel_sb_dmin16(hp.q, n_blocks, sb);
            fp16x16_to_f32(u2->d, d);
            fp16x16_to_f32(u2->dmin, dmin);
            for (int j = 0; j < R; j++) {
                for (int grp = 0; grp < 16; grp++) {
                    q2_scales[grp][j] = (int8_t)(u2->scales[grp][j] & 0xF);
                    m[(grp / 2) * 2 * R + 2 * j + grp % 2] = (int16_t)(u2->scales[grp][j] >> 4);
                }
            }
        } else {
            fp16x16_to_f32(q3 ? u3->d : u6->d, d);
        }
        f32x16 dv;
        memcpy(&dv, d, 64);
        for (int h = 0; h < 2; h++) {
            for (int half = 0; half < 2; half++) {
                i16x64 acc[4] = {{0}}; /* per row, the sums of its 16 values in each block's half */
#pragma GCC unroll 4
                for (int g = 4 * half; g < 4 * half + 4; g++) {
                    prefetch_next(next, 8 * h + g, 4); /* 16 steps: 64 of Q6_K's 53 lines */
                    i8x64 v[4];
                    if (bits == 2) {
                        u8x64 qs;
                        memcpy(&qs, u2->qs[h][g], 64);
#pragma GCC unroll 4
                        for (int k = 0; k < 4; k++) v[k] = (i8x64)((qs >> (2 * k)) & 3);
                    } else if (q3) {
                        u8x64 qs, hm;
                        memcpy(&qs, u3->qs[h][g], 64);
                        memcpy(&hm, u3->hmask[g], 64);
#pragma GCC unroll 4
                        for (int k = 0; k < 4; k++)
                            v[k] = (i8x64)((((qs >> (2 * k)) & 3) | (((hm >> (4 * h + k)) & 1) << 2)) - 4);
                    } else {
                        u8x64 ql0, ql1, qh;
                        memcpy(&ql0, u6->q[h][g][0], 64);
                        memcpy(&ql1, u6->q[h][g][1], 64);
                        memcpy(&qh, u6->q[h][g][2], 64);
                        const u8x64 t[4] = {(ql0 & 0xF) | ((qh << 4) & 0x30), (ql1 & 0xF) | ((qh << 2) & 0x30),
                                            (ql0 >> 4) | (qh & 0x30), (ql1 >> 4) | ((qh >> 2) & 0x30)};
#pragma GCC unroll 4
                        for (int k = 0; k < 4; k++) v[k] = (i8x64)(t[k] - 32);
                    }
#pragma GCC unroll 4
                    for (int k = 0; k < 4; k++) {
                        memcpy(hp.q + 512 * (8 * sb + 4 * h + k) + 64 * g, &v[k], 64);
                        acc[k] += __builtin_convertvector(v[k], i16x64);
                    }
                }
                /* the 16 rows' scales and corrections as vectors (the
                 * same products as row by row, which took 60% of this
                 * packing) */
#pragma GCC unroll 4
                for (int k = 0; k < 4; k++) {
                    const int64_t b = 8 * sb + 4 * h + k;
                    const f32x16 dh = dv * signed_bytes_to_f32(scales[2 * (4 * h + k) + half]);
                    memcpy(hp.d + (2 * b + half) * R, &dh, 64);
                    store_corr(hp.corr + (2 * b + half) * R, acc[k]);
                }
            }
        }
    }
}

/* From an IQ4_XSx16 group: run g of sub-block ib (64 bytes) gives the
 * panel's vector g (low nibbles: weights 4g..4g+3) and vector 4 + g (high
 * nibbles: 16 + 4g..) of block 8·sb + ib, looked up in the table; the
 * sub-block scale goes into the block's scale. No mins. */
static void pack_group_iq4_xs(const block_iq4_xsx16 *x, int64_t n_blocks, panel_parts pp) {
    const int R = SEER_Q8_PANEL_ROWS;
    for (int64_t sb = 0; sb < n_blocks / 8; sb++) {
        const block_iq4_xsx16 *u = x + sb;
        memset(seer_panel_sb_mins(pp.q, n_blocks, sb), 0, 4 * R * 2 * sizeof(int16_t));
        float d[SEER_Q8_PANEL_ROWS], *dmin = seer_panel_sb_dmin(pp.q, n_blocks, sb);
        fp16x16_to_f32(u->d, d);
        memset(dmin, 0, R * sizeof *dmin);
        f32x16 dv;
        memcpy(&dv, d, 64);
        for (int ib = 0; ib < 8; ib++) {
            const int64_t b = 8 * sb + ib;
            i16x64 acc = {0}; /* 8 values of at most 127 in magnitude per lane */
            for (int g = 0; g < 4; g++) {
                prefetch_next(u + 1, 4 * ib + g, 2); /* 32 steps: 64 of its 35 lines */
                u8x64 v;
                memcpy(&v, u->qs[ib][g], 64);
                const i8x64 lo = iq4_lookup(v & 0xF), hi = iq4_lookup(v >> 4);
                memcpy(pp.q + 512 * b + 64 * g, &lo, 64);
                memcpy(pp.q + 512 * b + 64 * (4 + g), &hi, 64);
                acc += __builtin_convertvector(lo, i16x64) + __builtin_convertvector(hi, i16x64);
            }
            const f32x16 db = dv * signed_bytes_to_f32(u->scales[ib]);
            memcpy(pp.d + b * R, &db, 64);
            store_corr(pp.corr + b * R, acc);
            memset(pp.mins + b * R, 0, R * sizeof *pp.mins);
        }
    }
}

/* Rows [o0, o0 + 16) of a low-bit i-quant (never interleaved: their
 * codebook points are gathered once, here, by the AVX2 unpacking): each
 * row's super-block as 256 bytes and 16 scales (iq_unpack.h), then every
 * 64 bytes of the 16 rows transposed word by word into the panel's 16
 * vectors (two blocks), the per-16 scales the same way. The same bytes as
 * the row-by-row packing (gemm_q8_pack.c), whose scattered 4-byte stores
 * and scalar sums were 40% of an IQ2_XXS prompt pass: 128 rows of 2048 x
 * 2048 on one Zen 5 core 1.18-1.29x faster for every i-quant (IQ2_XXS
 * 372 -> 458 GOP/s), and the int8 GEMM wins from 3 rows (matmul.c). */
bool seer_q8_pack_iq_rows(const seer_weight *w, int64_t o0, uint8_t *panel) {
#if defined(__AVX512BW__) && defined(__AVX512VNNI__)
    const int R = SEER_Q8_PANEL_ROWS;
    const seer_iq_unpack_fn unpack = seer_iq_unpacker_fast(w->type);
    if (!unpack) return false;
    const int64_t n_blocks = w->n_in / 32;
    const size_t block_bytes = seer_type_get(w->type)->block_bytes;
    const halves_parts hp = seer_halves_parts_of(panel, n_blocks);
    const int rows = w->n_out - o0 < R ? (int)(w->n_out - o0) : R;
    seer_iq_block u[SEER_Q8_PANEL_ROWS];
    memset(u + rows, 0, (size_t)(R - rows) * sizeof *u); /* rows past the end: zeros */
    const __m512i ones = _mm512_set1_epi8(1);
    for (int64_t sb = 0; sb < n_blocks / 8; sb++) {
        const char *x = (const char *)w->data + (size_t)o0 * w->row_bytes + (size_t)sb * block_bytes;
        for (int j = 0; j < rows; j++) unpack(x + (size_t)j * w->row_bytes, &u[j]);
        __m512i r[16], t[16];
        /* group g's scales, 16-weight group g of the super-block: half g % 2 of block g / 2 */
        float d[SEER_Q8_PANEL_ROWS];
        for (int j = 0; j < R; j++) {
            d[j] = u[j].d;
            r[j] = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)u[j].ls));
        }
        seer_transpose16_epi32(r, t);
        const __m512 dv = _mm512_loadu_ps(d);
        for (int g = 0; g < 16; g++)
            _mm512_storeu_ps(hp.d + (16 * sb + g) * R, _mm512_mul_ps(dv, _mm512_cvtepi32_ps(t[g])));
        /* quants: part p holds blocks 8·sb + 2p and 2p + 1, words 0-7 and 8-15 */
        for (int p = 0; p < 4; p++) {
            for (int j = 0; j < R; j++) r[j] = _mm512_loadu_si512(u[j].q + 64 * p);
            seer_transpose16_epi32(r, t);
            for (int h = 0; h < 4; h++) { /* half h % 2 of block 8·sb + 2p + h / 2 */
                __m512i sum = _mm512_setzero_si512();
                for (int k = 4 * h; k < 4 * h + 4; k++) {
                    _mm512_storeu_si512(hp.q + 512 * (8 * sb + 2 * p + k / 8) + 64 * (k % 8), t[k]);
                    sum = _mm512_dpbusd_epi32(sum, ones, t[k]);
                }
                _mm512_storeu_si512(hp.corr + (16 * sb + 4 * p + h) * R, _mm512_slli_epi32(sum, 7));
            }
        }
    }
    return true;
#else
    (void)w, (void)o0, (void)panel;
    return false;
#endif
}

bool seer_q8_pack_group(int type, const void *group, int64_t n_blocks, uint8_t *panel) {
    if (type == SEER_TYPE_Q8_0) pack_group_q8_0(group, n_blocks, seer_panel_parts_of(panel, n_blocks));
    else if (type == SEER_TYPE_Q6_K) pack_group_k16(group, 6, n_blocks, seer_halves_parts_of(panel, n_blocks));
    else if (type == SEER_TYPE_Q3_K) pack_group_k16(group, 3, n_blocks, seer_halves_parts_of(panel, n_blocks));
    else if (type == SEER_TYPE_Q2_K) pack_group_k16(group, 2, n_blocks, seer_halves_parts_of(panel, n_blocks));
    else if (type == SEER_TYPE_Q4_K) pack_group_q45_K(group, false, n_blocks, seer_panel_parts_of(panel, n_blocks));
    else if (type == SEER_TYPE_Q5_K) pack_group_q45_K(group, true, n_blocks, seer_panel_parts_of(panel, n_blocks));
    else if (type == SEER_TYPE_IQ4_XS) pack_group_iq4_xs(group, n_blocks, seer_panel_parts_of(panel, n_blocks));
    else if (type == SEER_TYPE_Q5_0) pack_group_q450(group, true, false, false, n_blocks, seer_panel_parts_of(panel, n_blocks));
    else if (type == SEER_TYPE_Q4_0) pack_group_q450(group, false, false, false, n_blocks, seer_panel_parts_of(panel, n_blocks));
    else if (type == SEER_TYPE_IQ4_NL) pack_group_q450(group, false, true, false, n_blocks, seer_panel_parts_of(panel, n_blocks));
    else if (type == SEER_TYPE_Q5_1) pack_group_q450(group, true, false, true, n_blocks, seer_panel_parts_of(panel, n_blocks));
    else if (type == SEER_TYPE_Q4_1) pack_group_q450(group, false, false, true, n_blocks, seer_panel_parts_of(panel, n_blocks));
    else return false;
    return true;
}
