/* Weights interleaved in groups of 16 rows for decode. A weight row read
 * one at a time costs a K-quant kernel its per-super-block bookkeeping
 * (unpacking 6-bit scales, one horizontal sum) for only 256 products, and
 * on a fast memory that bookkeeping, not memory, sets the pace. With 16
 * rows side by side, one vector lane per row, the same instructions serve
 * 16 rows, and the group is still one stream through memory (the
 * prefetchers see a single sequential read). */
#ifndef SEER_KERNELS_INTERLEAVE_INTERNAL_H
#define SEER_KERNELS_INTERLEAVE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "seer/tensor.h"
#include "tensor/blocks.h"

#define SEER_ILV_ROWS 16

/* One Q4_K super-block of 16 rows (256 weights each). Row r's byte k of
 * its quants chunk c (qs[32c + k] of block_q4_K: low nibble weight
 * 64c + k, high nibble 64c + 32 + k) sits at qs[c][k / 4][r][k % 4], so a
 * 32-byte load holds bytes 4g..4g+3 of 8 rows. Scales and mins are stored
 * unpacked (one byte each); mins in pairs of sub-blocks (2p, 2p+1) per row,
 * so they widen to 16-bit pairs for one multiply-add. 2368 bytes against
 * 16 · 144: 2.8% more than the file. */
typedef struct {
    uint16_t d[SEER_ILV_ROWS], dmin[SEER_ILV_ROWS];
    uint8_t scales[8][SEER_ILV_ROWS];
    uint8_t mins[4][SEER_ILV_ROWS][2];
    uint8_t qs[4][8][SEER_ILV_ROWS][4];
} block_q4_Kx16;

_Static_assert(sizeof(block_q4_Kx16) == 2368 && sizeof(block_q4_Kx16) % 64 == 0, "q4_Kx16");

/* One Q5_K super-block of 16 rows: the fifth bits, then the Q4_K layout of
 * its scales, mins and nibbles. Row r's qh byte k (bit 2c: weight 64c + k,
 * bit 2c + 1: weight 64c + 32 + k) sits at qh[k / 4][r][k % 4], so the 64
 * bytes of qh[g] serve the nibbles of qs[c][g] for every chunk c. The bits
 * come first: a kernel reads them with chunk 0, in the order of the stream
 * (placed after the nibbles, the jump back made a Zen 4 core stream at
 * 10 GB/s instead of 24). 2880 bytes against 16 · 176: 2.3% more than the
 * file. */
typedef struct {
    uint8_t qh[8][SEER_ILV_ROWS][4];
    block_q4_Kx16 low;
} block_q5_Kx16;

_Static_assert(sizeof(block_q5_Kx16) == 2880 && sizeof(block_q5_Kx16) % 64 == 0, "q5_Kx16");

/* One Q6_K super-block of 16 rows. Row r's byte k of ql chunk c
 * (ql[32c + k]; c = 2h + s: low nibble weight 128h + 32s + k, high nibble
 * weight 128h + 64 + 32s + k) sits at q[h][k / 4][s][r][k % 4]; byte l of
 * its qh half h (bit pairs t = 0..3 top off weights 128h + 32t + l) at
 * q[h][l / 4][2][r][l % 4]. So 192 consecutive bytes (two ql loads and
 * one qh load of 64) give four runs of 4 weights of all 16 rows, and the
 * group is read as one sequential stream. Scales as scales[group][row].
 * 3360 bytes of data (16 · 210) padded to a whole number of cache lines. */
typedef struct {
    uint8_t q[2][8][3][SEER_ILV_ROWS][4];
    int8_t scales[16][SEER_ILV_ROWS];
    uint16_t d[SEER_ILV_ROWS];
    uint8_t pad[32];
} block_q6_Kx16;

_Static_assert(sizeof(block_q6_Kx16) == 3392 && sizeof(block_q6_Kx16) % 64 == 0, "q6_Kx16");

/* One Q3_K super-block of 16 rows. Row r's byte k of its low-bit chunk c
 * (qs[32c + k] of block_q3_K; bits 2j, 2j + 1 of weight 128c + 32j + k)
 * sits at qs[c][k / 4][r][k % 4], its hmask byte k (bit 4c + j: the third
 * bit of that weight) at hmask[k / 4][r][k % 4]. So a 64-byte load of
 * qs[c][g] and one of hmask[g] give four runs of 4 weights of all 16 rows,
 * the runs (and groups of 16) of block_q6_Kx16's q[c][g], and one kernel
 * serves both. Scales unpacked, offset removed (-32..31), as
 * scales[group][row]. Read front to back: d, scales, then for chunk 0 the
 * third bits beside the low bits, which chunk 1 reads again from L1. 1856
 * bytes against 16 · 110: 5.5% more than the file (scales as bytes: packed
 * six-bit scales cost the kernel more than the 64 bytes they save). */
typedef struct {
    uint16_t d[SEER_ILV_ROWS];
    uint8_t pad[32];
    int8_t scales[16][SEER_ILV_ROWS];
    uint8_t hmask[8][SEER_ILV_ROWS][4];
    uint8_t qs[2][8][SEER_ILV_ROWS][4];
} block_q3_Kx16;

_Static_assert(sizeof(block_q3_Kx16) == 1856 && sizeof(block_q3_Kx16) % 64 == 0, "q3_Kx16");

/* One Q2_K super-block of 16 rows: block_q3_Kx16's low bits without the
 * third bits, and the file's scale bytes (low nibble scale, high nibble
 * min) as scales[group][row]. 1344 bytes, the file's 16 · 84. */
typedef struct {
    uint16_t d[SEER_ILV_ROWS], dmin[SEER_ILV_ROWS];
    uint8_t scales[16][SEER_ILV_ROWS];
    uint8_t qs[2][8][SEER_ILV_ROWS][4];
} block_q2_Kx16;

_Static_assert(sizeof(block_q2_Kx16) == 1344 && sizeof(block_q2_Kx16) % 64 == 0, "q2_Kx16");

/* Two Q8_0 blocks (64 weights) of 16 rows: row r's quants 4g..4g+3 of
 * block b at qs[b][g][r]; 16 · 68 bytes, two blocks so that a group is
 * whole cache lines. */
typedef struct {
    uint16_t d[2][SEER_ILV_ROWS];
    int8_t qs[2][8][SEER_ILV_ROWS][4];
} block_q8_0x16;

_Static_assert(sizeof(block_q8_0x16) == 1088 && sizeof(block_q8_0x16) % 64 == 0, "q8_0x16");

/* Two Q5_0 blocks (64 weights) of 16 rows, in the file's 16 · 44 bytes:
 * scales, then fifth bits, then nibbles. Row r's qs byte 4g + j of block
 * b (low nibble weight 4g + j, high nibble weight 16 + 4g + j) at
 * qs[b][g][r][j]. Its 32 fifth bits regrouped so that one shift puts a
 * run's bits at bit 4 of their bytes: byte j of qh[b][r] holds at bit g
 * the bit of weight 4g + j and at bit 4 + g that of weight 16 + 4g + j. */
typedef struct {
    uint16_t d[2][SEER_ILV_ROWS];
    uint32_t qh[2][SEER_ILV_ROWS];
    uint8_t qs[2][4][SEER_ILV_ROWS][4];
} block_q5_0x16;

_Static_assert(sizeof(block_q5_0x16) == 704 && sizeof(block_q5_0x16) % 64 == 0, "q5_0x16");

/* Two Q4_0 blocks of 16 rows: block_q5_0x16 without the fifth bits (576
 * bytes, the file's 16 · 36). IQ4_NL blocks (a scale and 16 bytes of
 * nibbles, as Q4_0's: the nibbles index seer_iq4_values) use it too. */
typedef struct {
    uint16_t d[2][SEER_ILV_ROWS];
    uint8_t qs[2][4][SEER_ILV_ROWS][4];
} block_q4_0x16;

_Static_assert(sizeof(block_q4_0x16) == 576 && sizeof(block_q4_0x16) % 64 == 0, "q4_0x16");
_Static_assert(sizeof(block_iq4_nl) == sizeof(block_q4_0) && offsetof(block_iq4_nl, qs) == offsetof(block_q4_0, qs),
               "IQ4_NL blocks are laid out as Q4_0's");

/* Two Q5_1 / Q4_1 blocks of 16 rows: Q5_0's / Q4_0's layout with the
 * rows' mins after their scales (768 / 640 bytes, the file's 16 · 48 /
 * 16 · 40). */
typedef struct {
    uint16_t d[2][SEER_ILV_ROWS], m[2][SEER_ILV_ROWS];
    uint32_t qh[2][SEER_ILV_ROWS];
    uint8_t qs[2][4][SEER_ILV_ROWS][4];
} block_q5_1x16;

typedef struct {
    uint16_t d[2][SEER_ILV_ROWS], m[2][SEER_ILV_ROWS];
    uint8_t qs[2][4][SEER_ILV_ROWS][4];
} block_q4_1x16;

_Static_assert(sizeof(block_q5_1x16) == 768 && sizeof(block_q4_1x16) == 640, "q5_1x16, q4_1x16");

/* Block b's parts in a group of 16 Q5_0 rows (q5), Q4_0 rows, or with
 * mins (min) Q5_1 / Q4_1 rows, which one kernel per level reads: scales,
 * fifth bits (NULL for Q4_x), nibbles, mins (NULL for Q5_0 / Q4_0). */
typedef struct {
    const uint16_t *d;
    const uint32_t *qh;
    const uint8_t (*qs)[SEER_ILV_ROWS][4];
    const uint16_t *m;
} seer_q450_block;

static inline seer_q450_block seer_q450_block_at(const void *group, int64_t b, bool q5, bool min) {
    const int s = (int)(b % 2);
    if (q5 && min) {
        const block_q5_1x16 *u = (const block_q5_1x16 *)group + b / 2;
        return (seer_q450_block){u->d[s], u->qh[s], u->qs[s], u->m[s]};
    }
    if (min) {
        const block_q4_1x16 *u = (const block_q4_1x16 *)group + b / 2;
        return (seer_q450_block){u->d[s], NULL, u->qs[s], u->m[s]};
    }
    if (q5) {
        const block_q5_0x16 *u = (const block_q5_0x16 *)group + b / 2;
        return (seer_q450_block){u->d[s], u->qh[s], u->qs[s], NULL};
    }
    const block_q4_0x16 *u = (const block_q4_0x16 *)group + b / 2;
    return (seer_q450_block){u->d[s], NULL, u->qs[s], NULL};
}

/* Cache lines before a pair of those blocks' nibbles (the kernels'
 * prefetch of a pair's head). */
static inline int seer_q450_head_lines(bool q5, bool min) {
    const size_t head = q5 && min ? offsetof(block_q5_1x16, qs)
                        : min    ? offsetof(block_q4_1x16, qs)
                        : q5     ? offsetof(block_q5_0x16, qs)
                                 : offsetof(block_q4_0x16, qs);
    return (int)(head / 64);
}

/* Activation block b of a row for those kernels: Q8_0 (d, quants), or
 * Q8_1 for the types with mins (q8_1: d, s = d · Σ quants, quants). */
typedef struct {
    uint16_t d, s;
    const int8_t *qs;
} seer_act32;

static inline seer_act32 seer_act32_at(const void *row, int64_t b, bool q8_1) {
    if (q8_1) {
        const block_q8_1 *y = (const block_q8_1 *)row + b;
        return (seer_act32){y->d, y->s, y->qs};
    }
    const block_q8_0 *y = (const block_q8_0 *)row + b;
    return (seer_act32){y->d, 0, y->qs};
}

/* One IQ4_XS super-block of 16 rows. Row r's byte 4g + j of sub-block
 * ib's 16 bytes of nibbles (low nibble weight 32ib + 4g + j, high nibble
 * weight 32ib + 16 + 4g + j) sits at qs[ib][g][r][j], so a 64-byte load
 * gives two runs of 4 weights of all 16 rows; the 6-bit sub-block scales
 * are stored unpacked with their offset removed (-32..31), scales[ib][r].
 * Scales first, the order a kernel reads them in. 2240 bytes against
 * 16 · 136: 2.9% more than the file. */
typedef struct {
    uint16_t d[SEER_ILV_ROWS];
    int8_t scales[8][SEER_ILV_ROWS];
    uint8_t pad[32];
    uint8_t qs[8][4][SEER_ILV_ROWS][4];
} block_iq4_xsx16;

_Static_assert(sizeof(block_iq4_xsx16) == 2240 && sizeof(block_iq4_xsx16) % 64 == 0, "iq4_xsx16");

/* A Q5_0 block's fifth bits (file order: bit k is weight k's) in
 * block_q5_0x16's order, and back. */
static inline uint32_t seer_q5_0_qh_regroup(uint32_t qh) {
    uint32_t o = 0;
    for (int j = 0; j < 4; j++)
        for (int g = 0; g < 4; g++) {
            o |= ((qh >> (4 * g + j)) & 1u) << (8 * j + g);
            o |= ((qh >> (16 + 4 * g + j)) & 1u) << (8 * j + 4 + g);
        }
    return o;
}
static inline uint32_t seer_q5_0_qh_ungroup(uint32_t o) {
    uint32_t qh = 0;
    for (int j = 0; j < 4; j++)
        for (int g = 0; g < 4; g++) {
            qh |= ((o >> (8 * j + g)) & 1u) << (4 * g + j);
            qh |= ((o >> (8 * j + 4 + g)) & 1u) << (16 + 4 * g + j);
        }
    return qh;
}

/* Room for any file block an interleaved layout holds, or for 8 Q8_0
 * blocks (the int8 GEMM packs 8 blocks of 32 at a time). */
typedef union {
    block_q4_K q4_K;
    block_q5_K q5_K;
    block_q2_K q2_K;
    block_q3_K q3_K;
    block_q6_K q6_K;
    block_q5_0 q5_0;
    block_q4_0 q4_0;
    block_iq4_xs iq4_xs;
    block_q8_0 q8_0[8];
} seer_file_blocks;

/* Sixteen dots of the rows of one group (n weights each) with one
 * activation row of the type's vec_dot type (Q8_K for K-quants, Q8_0 for
 * Q8_0). */
typedef void (*seer_vec_dot16_fn)(int64_t n, const void *group, const void *act, float out[SEER_ILV_ROWS]);

/* The dot16 kernel seer_simd_level() selects (scalar at least). */
seer_vec_dot16_fn seer_vec_dot16_get(int type);
/* The kernel of one level, or NULL when the CPU lacks it. */
seer_vec_dot16_fn seer_vec_dot16_kernel(int level, int type);

/* The same for nr (1..SEER_DOT16_MAX_ROWS) activation rows act_stride
 * bytes apart: out[16·r + k] is row r's dot with weight row k, exactly
 * what the one-row kernel gives (prompts on CPUs without AMX: each weight
 * vector loaded serves every activation row). */
#define SEER_DOT16_MAX_ROWS 6 /* the most of any level's kernel (callers' buffers) */
typedef void (*seer_vec_dot16_rows_fn)(int64_t n, const void *group, const void *act, size_t act_stride, int nr,
                                       float *out);
/* A Q8_0 activation row handed to the several-row kernels (Q8_0, Q4_0,
 * Q5_0 and IQ4_NL weights) is its n/32 blocks followed by each block's sum
 * of quants as an int16, then each block's scale as a float
 * (seer_q8_0_tail_fill), so act_stride is at least seer_q8_0_rows_bytes(n).
 * The kernels that multiply unsigned weights take a multiple of that sum
 * off each block's products, and computed it again for every group of 16
 * weight rows; they converted the F16 scale again for every group too
 * (four instructions a block: a Q8_0 3B model decoded 1-4% faster without
 * them on a Zen 5 core, 2026-12-05). The dot path hands decode's one row
 * to the several-row kernel too, where the type has one; the one-row
 * kernels (seer_vec_dot16_fn) are given plain rows. */
static inline size_t seer_q8_0_rows_bytes(int64_t n) {
    return (size_t)(n / 32) * (sizeof(block_q8_0) + sizeof(int16_t) + sizeof(float));
}
/* Where block b's sum sits in such a row of n activations. */
static inline size_t seer_q8_0_row_sum_at(int64_t n, int64_t b) {
    return (size_t)(n / 32) * sizeof(block_q8_0) + sizeof(int16_t) * (size_t)b;
}
/* Block b's sum in such a row of n activations. */
static inline int seer_q8_0_row_sum(const void *row, int64_t n, int64_t b) {
    int16_t s;
    memcpy(&s, (const char *)row + seer_q8_0_row_sum_at(n, b), sizeof s);
    return s;
}
/* Where block b's scale sits in such a row (4-byte aligned where the row is). */
static inline size_t seer_q8_0_row_scale_at(int64_t n, int64_t b) {
    return (size_t)(n / 32) * (sizeof(block_q8_0) + sizeof(int16_t)) + sizeof(float) * (size_t)b;
}
/* Block b's scale in such a row. */
static inline float seer_q8_0_row_scale(const void *row, int64_t n, int64_t b) {
    float d;
    memcpy(&d, (const char *)row + seer_q8_0_row_scale_at(n, b), sizeof d);
    return d;
}
/* The sum of 32 signed bytes (4 words: a Q8_0 block's quants), a word at
 * a time: each byte + 128 as unsigned, pairs of bytes added into 16-bit
 * lanes (at most 2040 each over the 4 words), the lanes added by one
 * multiply: 4 steps a word instead of 32 byte additions a block. */
static inline int seer_signed_bytes_sum32(const uint64_t words[4]) {
    const uint64_t bytes = 0x00FF00FF00FF00FFu;
    uint64_t lanes = 0;
    for (int k = 0; k < 4; k++) {
        const uint64_t u = words[k] ^ 0x8080808080808080u;
        lanes += (u & bytes) + ((u >> 8) & bytes);
    }
    return (int)((lanes * 0x0001000100010001u) >> 48) - 32 * 128;
}

/* Writes the sums and the scales after a row of n activations quantized to Q8_0. */
void seer_q8_0_tail_fill(void *row, int64_t n);

/* The kernel at seer_simd_level(), or NULL when that level has none for `type`. */
seer_vec_dot16_rows_fn seer_vec_dot16_rows_get(int type);
/* The same at a given level (NULL for a level this CPU lacks). */
seer_vec_dot16_rows_fn seer_vec_dot16_rows_kernel(int level, int type);
/* The most rows seer_vec_dot16_rows_kernel(level, type) takes a call: 6
 * where AVX-512's 32 registers hold six rows' sums (every type but Q3_K
 * and Q2_K), else 4. A batch of 5-15 decoded rows (`seer serve`'s
 * conversations) takes fewer passes over each group: one Zen 5 core,
 * 11008 x 2048 in cache, GOP/s at 6 rows as 4 + 2 against one pass:
 * Q4_K 434-486 -> 517-541, Q6_K 295-298 -> 357-403, Q8_0 310-334 -> 411-422. */
int seer_vec_dot16_rows_most(int level, int type);
/* The AVX-512 (512-bit) and NEON builds' kernels (NULL where they have
 * none; the 256-bit x86 ones: vec_dot_internal.h), and the rows the
 * 512-bit one takes a call. */
seer_vec_dot16_rows_fn seer_vec_dot16_rows_avx512(int type);
int seer_vec_dot16_rows_avx512_most(int type);
seer_vec_dot16_rows_fn seer_vec_dot16_rows_neon(int type);

/* Bytes of one group of 16 rows of n_in weights of `type`, or 0 when such
 * rows have no interleaved layout (their type has none, or n_in is not a
 * whole number of the layout's blocks). */
size_t seer_interleave_group_bytes(int type, int64_t n_in);

/* Writes rows `rows[0..15]` (file layout, n_in weights each) as one group. */
void seer_interleave_group(int type, const void *const rows[SEER_ILV_ROWS], int64_t n_in, void *group);

/* File block b (of the type's block_size weights) of row r (0..15) of a
 * group, back in the file's layout (bit-exact: the interleaving loses
 * nothing). */
void seer_interleave_block(int type, const void *group, int r, int64_t b, void *block);

#endif
