/* Int8 GEMM for batches (prefill) with weights whose blocks of 32 are
 * integer quants times one scale, minus an optional min: Q8_0, Q4_0, Q5_0
 * (Q8_0 activations) and Q4_K, Q5_K (Q8_K activations); and Q6_K, Q3_K
 * and Q2_K, whose scales (and Q2_K's mins) go by 16 quants (a block's two
 * halves each have their own).
 * Weights are repacked in panels of 16 output rows so one VNNI instruction
 * feeds 16 outputs at once. */
#ifndef SEER_GEMM_Q8_INTERNAL_H
#define SEER_GEMM_Q8_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "seer/tensor.h"
#include "tensor/iq_unpack.h"

#define SEER_Q8_PANEL_ROWS 16
/* Activation rows per call of the AVX-512 kernels (gemm_q8_avx512.c). */
#define SEER_Q8_PANEL_MAX_ROWS 6
/* Bytes of one repacked panel of 16 rows with n_blocks blocks of 32: per
 * block 8 vectors of 64 bytes (vector g: bytes 4g..4g+3 of each row's int8
 * quants), then 16 float scales, 16 int32 corrections (128·Σq, for the
 * +128 offset of the activations) and 16 float mins. */
#define SEER_Q8_PANEL_BYTES(n_blocks) ((size_t)(n_blocks) * (512 + 64 + 64 + 64) + (size_t)(n_blocks) / 8 * SEER_Q8_SB_MINS_BYTES)
/* Then, for weights with mins in super-blocks of 8 blocks (Q4_K, Q5_K),
 * per super-block the integer mins as 16-bit pairs (vector i: blocks 2i
 * and 2i + 1 of the 16 rows, lane j = row j) and the rows' float dmin, so
 * the super-block kernel takes the mins' term as one integer dot product
 * per super-block (gemm_q8_avx512.c). */
#define SEER_Q8_SB_MINS_BYTES (4 * 64 + 64)
static inline int16_t *seer_panel_sb_mins(uint8_t *panel, int64_t n_blocks, int64_t sb) {
    return (int16_t *)(panel + (size_t)n_blocks * (512 + 64 + 64 + 64) + (size_t)sb * SEER_Q8_SB_MINS_BYTES);
}
static inline float *seer_panel_sb_dmin(uint8_t *panel, int64_t n_blocks, int64_t sb) {
    return (float *)(seer_panel_sb_mins(panel, n_blocks, sb) + 4 * 32);
}

/* Panels in halves (Q6_K, Q3_K, Q2_K, the low-bit i-quants): per block the 8 vectors, then [block][half][16]
 * float scales and [block][half][16] int32 corrections. */
#define SEER_Q8_PANEL_HALVES_BYTES(n_blocks) ((size_t)(n_blocks) * (512 + 128 + 128))
/* Q2_K's mins go by 16 weights: after the halves, per super-block its 16
 * groups' integer mins as 16-bit pairs (vector i: groups 2i and 2i + 1 of
 * the 16 rows, lane j = row j) and the rows' float dmin, for the
 * super-block kernel as Q4_K's per-block mins above. */
#define SEER_Q8_SB_MINS16_BYTES (8 * 64 + 64)
static inline int16_t *seer_panel_sb_mins16(uint8_t *panel, int64_t n_blocks, int64_t sb) {
    return (int16_t *)(panel + SEER_Q8_PANEL_HALVES_BYTES(n_blocks) + (size_t)sb * SEER_Q8_SB_MINS16_BYTES);
}
static inline float *seer_panel_sb_dmin16(uint8_t *panel, int64_t n_blocks, int64_t sb) {
    return (float *)(seer_panel_sb_mins16(panel, n_blocks, sb) + 8 * 32);
}

/* Packs interleaved group `group` of a weight of `type` (n_blocks blocks
 * of 32 per row) into `panel`; false for types not packed from groups.
 * AVX-512 code (gemm_q8_pack_avx512.c): call only at that SIMD level. */
bool seer_q8_pack_group(int type, const void *group, int64_t n_blocks, uint8_t *panel);
/* Packs rows [o0, o0 + 16) of a low-bit i-quant weight into `panel`; false
 * for other types and in builds without AVX-512 VNNI. The same SIMD level. */
struct seer_weight;
bool seer_q8_pack_iq_rows(const struct seer_weight *w, int64_t o0, uint8_t *panel);

/* The parts of a panel of n_blocks blocks (gemm_q8_internal.h). */
typedef struct panel_parts {
    uint8_t *q;     /* block b, vector g, row j: bytes at 512·b + 64·g + 4·j */
    float *d;       /* [block][row] */
    int32_t *corr;  /* [block][row]: 128 · Σ q */
    float *mins;    /* [block][row] */
} panel_parts;

static inline panel_parts seer_panel_parts_of(uint8_t *panel, int64_t n_blocks) {
    const int R = SEER_Q8_PANEL_ROWS;
    return (panel_parts){panel, (float *)(panel + (size_t)n_blocks * 32 * R),
                         (int32_t *)(panel + (size_t)n_blocks * 36 * R), (float *)(panel + (size_t)n_blocks * 40 * R)};
}

/* Q6_K, Q3_K: panels in halves (a scale per 16 quants). Quants as signed
 * values (Q6_K: q − 32); the half-block scales d · scale[16-weight group]. */
typedef struct halves_parts {
    uint8_t *q;     /* as in panel_parts */
    float *d;       /* [block][half][row] */
    int32_t *corr;  /* [block][half][row]: 128 · Σ q over the half */
} halves_parts;

static inline halves_parts seer_halves_parts_of(uint8_t *panel, int64_t n_blocks) {
    return (halves_parts){panel, (float *)(panel + (size_t)n_blocks * 512),
                          (int32_t *)(panel + (size_t)n_blocks * (512 + 128))};
}


/* Whether `type`'s panels come in halves, and the bytes of its panels. */
static inline bool seer_q8_panel_halves(int type) {
    return type == SEER_TYPE_Q6_K || type == SEER_TYPE_Q3_K || type == SEER_TYPE_Q2_K || seer_iq_unpacker(type);
}
static inline size_t seer_q8_panel_bytes(int type, int64_t n_blocks) {
    if (type == SEER_TYPE_Q2_K) return SEER_Q8_PANEL_HALVES_BYTES(n_blocks) + (size_t)(n_blocks / 8) * SEER_Q8_SB_MINS16_BYTES;
    return seer_q8_panel_halves(type) ? SEER_Q8_PANEL_HALVES_BYTES(n_blocks) : SEER_Q8_PANEL_BYTES(n_blocks);
}

/* Whether weights of `type` can go through the int8 GEMM (Q2_K: only
 * where the super-block kernel runs, the one kernel that takes its mins). */
bool seer_int8_gemm_supports(int type);

/* Repacks rows [o0, o0+16) of w (rows past n_out become zero) into
 * `panel` (64-byte aligned). */
void seer_q8_panel_pack(const struct seer_weight *w, int64_t o0, uint8_t *panel);

/* out[r*16 + j] = Σ over blocks b of
 *   wd[b][j]·act_d[r][b]·Σ_k q[j][k]·a[r][k]  −  wmin[b][j]·act_s[r][b]
 * for r < nr (1..SEER_Q8_PANEL_MAX_ROWS): activations as unsigned bytes q+128 (row stride
 * act_stride), block scales act_d and scaled block sums act_s (row stride
 * d_stride; act_s may be NULL when the weights have no mins). */
typedef void (*seer_q8_panel_fn)(int64_t n_blocks, const uint8_t *panel, const uint8_t *act, size_t act_stride,
                                 const float *act_d, const float *act_s, size_t d_stride, int nr, float *out);
/* Two panels at once: out0 for panel0, out1 for panel1. */
typedef void (*seer_q8_panel2_fn)(int64_t n_blocks, const uint8_t *panel0, const uint8_t *panel1, const uint8_t *act,
                                  size_t act_stride, const float *act_d, const float *act_s, size_t d_stride, int nr,
                                  float *out0, float *out1);

/* The kernel for this CPU, or NULL (no VNNI, or scalar forced): then the
 * caller uses the dequantize + sgemm path. */
seer_q8_panel_fn seer_q8_panel_get(void);
/* Present whenever the CPU can run it, whatever the scalar switch. */
seer_q8_panel_fn seer_q8_panel_kernel(void);

/* The AVX-512 VNNI kernels (gemm_q8_avx512.c) and whether this build has
 * them (internal). */
void seer_q8_panel_avx512(int64_t n_blocks, const uint8_t *panel, const uint8_t *act, size_t act_stride,
                          const float *act_d, const float *act_s, size_t d_stride, int nr, float *out);
/* Two panels at once (sharing activation broadcasts); same results as two
 * calls of the one-panel kernel. */
void seer_q8_panel2_avx512(int64_t n_blocks, const uint8_t *panel0, const uint8_t *panel1, const uint8_t *act,
                           size_t act_stride, const float *act_d, const float *act_s, size_t d_stride, int nr,
                           float *out0, float *out1);
/* The same for panels in halves (act_s unused). */
void seer_q8_panel_halves_avx512(int64_t n_blocks, const uint8_t *panel, const uint8_t *act, size_t act_stride,
                                 const float *act_d, const float *act_s, size_t d_stride, int nr, float *out);
void seer_q8_panel2_halves_avx512(int64_t n_blocks, const uint8_t *panel0, const uint8_t *panel1, const uint8_t *act,
                                  size_t act_stride, const float *act_d, const float *act_s, size_t d_stride, int nr,
                                  float *out0, float *out1);
bool seer_q8_panel_avx512_built(void);

/* The super-block kernel for weights in K-quant super-blocks of 8 blocks
 * (Q4_K, Q5_K: mins; Q6_K, Q3_K: halves, no mins; Q2_K: halves and mins
 * by 16, act_sums then two per block, row stride 2 · d_stride) with Q8_K activations, whose
 * scale is one per super-block: each block's int32 sums are scaled by the
 * weight scale alone, the activation scale applied once per super-block,
 * and the mins' term is an integer dot product of the panel's int16 mins
 * with act_sums (per row: the activations' block sums, int16, row stride
 * d_stride) once per super-block. Same results as the panel kernels up to
 * the order of float operations. Two panels at once when panel1 is set. */
void seer_q8_panels_sb_avx512(int64_t n_blocks, const uint8_t *panel0, const uint8_t *panel1, const uint8_t *act,
                              size_t act_stride, const float *act_d, const int16_t *act_sums, size_t d_stride, int nr,
                              float *out0, float *out1, bool halves);
/* The same products for Q4_K (or q5: Q5_K) weights read in place from
 * interleaved groups (block_q4_Kx16, block_q5_Kx16;
 * gemm_q45_K_groups_avx512.c), one group or two (group1 NULL: one), with
 * the activations as signed Q8_K quants (no +128) and act_sums as above:
 * bit-identical results. ahead: the call is the first pass over these
 * groups, whose bytes come from memory (seer_prefetch_group_line). */
void seer_q8_groups_q45_K_avx512(bool q5, int64_t n_blocks, const uint8_t *group0, const uint8_t *group1,
                                 const int8_t *act, size_t act_stride, const float *act_d, const int16_t *act_sums,
                                 size_t d_stride, int nr, float *out0, float *out1, bool ahead);
/* The panel kernel's products for Q4_0, Q5_0, Q4_1 and Q5_1 (`type`) read
 * in place from their interleaved groups (gemm_q450_groups_avx512.c),
 * with signed activations: bit-identical results. act_corr (Q4_0, Q5_0,
 * Q8_0): per row and block minus the weights' offset (8, 16, 128) times
 * the activation block's sum; act_s (Q4_1, Q5_1): the activation blocks' scaled sums.
 * ahead: as for seer_q8_groups_q45_K_avx512. */
void seer_q8_groups_q450_avx512(int type, int64_t n_blocks, const uint8_t *group0, const uint8_t *group1,
                                const int8_t *act, size_t act_stride, const float *act_d, const int32_t *act_corr,
                                const float *act_s, size_t d_stride, int nr, float *out0, float *out1, bool ahead);
/* Whether the CPU and the OS offer AMX-INT8 to this process (and SEER_AMX
 * is not 0): the tile kernels below and seer_q8_panel_amx. */
bool seer_q8_panel_amx_ready(void);
/* Q4_K and Q5_K on AMX tiles (gemm_q45_K_amx.c): per call the interleaved
 * groups are unpacked (seer_q45_K_amx_pack: n_sb super-blocks of one group
 * into SEER_Q45_K_AMX_SB_BYTES each), then seer_q45_K_amx multiplies nr
 * (1..32) rows of signed Q8_K activations (act_d, act_sums as for
 * seer_q8_groups_q45_K_avx512) by np (1..SEER_K_AMX_PANELS) packed
 * groups, panel_stride bytes apart, into out: panel i's at out + i ·
 * SEER_Q45_K_AMX_ROWS · 16, 16 floats a row. Only called where
 * seer_q8_panel_amx_ready(). */
#define SEER_Q45_K_AMX_SB_BYTES 8576
#define SEER_Q45_K_AMX_ROWS 32
#define SEER_K_AMX_PANELS 4 /* groups a call, Q6_K's kernel too */
/* Whether a product of `type` weights (interleaved, Q8_K activations) and
 * n_rows rows takes the K-quant tile kernels: Q4_K, Q5_K and Q6_K where
 * AMX is ready (seer_q8_panel_amx_ready), from as many rows as the
 * tiles beat the AVX-512 kernels at. kernel-bench, 2560 x 10240,
 * one Intel AMX core, two alternated rounds, GOP/s AVX-512 -> tiles: Q4_K
 * 16 rows 497-503 -> 444-448, 20 rows 476-493 -> 418-489, 24 rows
 * 456-508 -> 529-536, 28 rows 505-511 -> 584-597; Q5_K 16 rows 391-392 ->
 * 418-421, 20 rows 381-382 -> 466-470, 24 rows 398-409 -> 508-519 (2816 x
 * 1408, an expert's gate and up: the same order). Q6_K's GEMM starts at 32
 * rows (seer_matmul_gemm_min_rows). */
static inline bool seer_k_amx_takes(int type, int64_t n_rows) {
    const int64_t from = type == SEER_TYPE_Q5_K ? 16 : type == SEER_TYPE_Q4_K ? 24 : SEER_Q45_K_AMX_ROWS;
    return (type == SEER_TYPE_Q4_K || type == SEER_TYPE_Q5_K || type == SEER_TYPE_Q6_K) && n_rows >= from &&
           seer_q8_panel_amx_ready();
}
void seer_q45_K_amx_pack(bool q5, const uint8_t *group, int64_t n_sb, uint8_t *panel);
void seer_q45_K_amx(int64_t n_sb, const uint8_t *panel, size_t panel_stride, int np, const int8_t *act,
                    size_t act_stride, const float *act_d, const int16_t *act_sums, size_t d_stride, int nr,
                    float *out);
/* Q6_K the same way (gemm_q6_K_amx.c): nr up to 16 rows, no mins; panel
 * i's results at out + i · SEER_Q6_K_AMX_ROWS · 16. */
#define SEER_Q6_K_AMX_SB_BYTES 12352
#define SEER_Q6_K_AMX_ROWS 16
void seer_q6_K_amx_pack(const uint8_t *group, int64_t n_sb, uint8_t *panel);
void seer_q6_K_amx(int64_t n_sb, const uint8_t *panel, size_t panel_stride, int np, const int8_t *act,
                   size_t act_stride, const float *act_d, size_t d_stride, int nr, float *out);
/* Whether the two above are built (AVX-512 VNNI compilers on x86-64). */
bool seer_q8_groups_avx512_built(void);
/* Whether weights of `type` go through seer_q8_panels_sb_avx512 (IQ4_XS:
 * Q8_K activations, a scale per block, no mins; act_sums NULL). */
static inline bool seer_q8_sb_kernel_takes(int type) {
    return type == SEER_TYPE_Q4_K || type == SEER_TYPE_Q5_K || type == SEER_TYPE_Q6_K || type == SEER_TYPE_Q3_K ||
           type == SEER_TYPE_Q2_K || type == SEER_TYPE_IQ4_XS || seer_iq_unpacker(type);
}

/* TILERELEASE where this thread's tiles are configured (amx_tiles.h's
 * seer_tile_config_use); a no-op elsewhere and without AMX. */
void seer_amx_tiles_release(void);
bool seer_q8_panel_amx_supported(void); /* whatever SEER_AMX says */
/* The kernel on AMX tiles (gemm_q8_amx.c): nr up to 16 activation rows at
 * once, bit-identical to the AVX-512 kernel; where seer_q8_panel_amx_ready. */
void seer_q8_panel_amx(int64_t n_blocks, const uint8_t *panel, const uint8_t *act, size_t act_stride,
                       const float *act_d, const float *act_s, size_t d_stride, int nr, float *out);
/* The AMX kernel on an interleaved Q8_0 group read in place (no panel:
 * the group's quants are already the B tiles) with activations as signed
 * bytes q (not q+128); same results as packing the group and calling
 * seer_q8_panel_amx with unsigned activations. */
void seer_q8_0_group_amx(int64_t n_blocks, const uint8_t *group, const uint8_t *act, size_t act_stride,
                         const float *act_d, const float *act_s, size_t d_stride, int nr, float *out);

/* CALL(NR, ...) for the kernels' row count nr (1..6), one instance of
 * the inlined kernel per count (nr past 6 is 6). */
#define SEER_Q8_ROWS_DISPATCH(nr, CALL, ...)                                                                          \
    switch (nr) {                                                                                                    \
    case 1: CALL(1, __VA_ARGS__); break;                                                                             \
    case 2: CALL(2, __VA_ARGS__); break;                                                                             \
    case 3: CALL(3, __VA_ARGS__); break;                                                                             \
    case 4: CALL(4, __VA_ARGS__); break;                                                                             \
    case 5: CALL(5, __VA_ARGS__); break;                                                                             \
    default: CALL(6, __VA_ARGS__); break;                                                                            \
    }

/* Four activation bytes as the int32 the kernels broadcast. */
static inline int32_t seer_load_i32(const void *p) {
    int32_t v;
    memcpy(&v, p, 4);
    return v;
}

#if defined(__x86_64__) && defined(__AVX512F__)
#include <immintrin.h>
/* The super-block kernels' last step for super-block sb: row r's float
 * accumulator (16 outputs) times its activation scale, stored in out + 16r
 * or, past the first super-block, added to what is there. */
static inline __attribute__((always_inline)) void seer_q8_sb_scale_out(const __m512 *acc, const int nr,
                                                                      const float *act_d, size_t d_stride,
                                                                      int64_t sb, float *out) {
#pragma GCC unroll 6
    for (int r = 0; r < nr; r++) {
        const __m512 ad = _mm512_set1_ps(act_d[r * d_stride + 8 * sb]);
        float *o = out + 16 * r;
        _mm512_storeu_ps(o, sb ? _mm512_fmadd_ps(acc[r], ad, _mm512_loadu_ps(o)) : _mm512_mul_ps(acc[r], ad));
    }
}
#endif

#endif
