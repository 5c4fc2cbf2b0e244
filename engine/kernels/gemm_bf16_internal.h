/* GEMM with BF16 products (the vision encoder's reduced-precision path,
 * --vision-precision bf16): weights (F16, F32 or BF16) and activations
 * rounded to BF16 (round to nearest even), VDPBF16PS multiplying pairs and
 * summing in FP32. Not what llama.cpp computes: each product loses the
 * low bits of both operands (8 significant bits instead of F16's 11), so
 * results differ from the exact path by about 2^-9 relative per product.
 *
 * Layout (the same pair layout as the AMX B tiles of gemm_f16_internal.h,
 * hi parts only): a panel is 16 weight rows; for each pair of K values
 * (2i, 2i + 1) one 64-byte vector of 16 words, word c holding row c's two
 * BF16 values (k = 2i low half). An activation row is its K values as BF16
 * pairs, one 32-bit word per pair, broadcast against a panel vector. */
#ifndef SEER_GEMM_BF16_INTERNAL_H
#define SEER_GEMM_BF16_INTERNAL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct seer_weight;

/* The CPU has AVX512-BF16 and SEER_SIMD allows AVX-512. */
bool seer_bf16_gemm_ready(void);

/* Rows per block of the kernel, panels (of 16 weight rows) per block. */
#define SEER_BF16_ROWS 6
#define SEER_BF16_PANELS 4

static inline int64_t seer_bf16_pairs(int64_t n_in) { return (n_in + 1) / 2; }
static inline size_t seer_bf16_panel_bytes(int64_t n_in) { return (size_t)seer_bf16_pairs(n_in) * 64; }

/* One f32 row (n_in values) as BF16 pairs (a zero after an odd n_in). */
void seer_bf16_act_row(const float *x, int64_t n_in, uint32_t *pairs);
/* Rows [o0, o0 + 16) of w into `panel` (rows past n_out are zero); tmp:
 * 16 × n_in floats of the caller's. */
void seer_bf16_panel_pack(const struct seer_weight *w, int64_t o0, uint8_t *panel, float *tmp);
/* y[r·ld + 16·j + c] = Σ_k a[r][k]·w_j[c][k] (+ bias[16·j + c]) for nr
 * (1..SEER_BF16_ROWS) activation rows `a_stride` words apart and np
 * (1..SEER_BF16_PANELS) panels `panel_stride` bytes apart; only the first
 * n_cols columns are written. */
void seer_bf16_block(int64_t n_pairs, const uint32_t *a, size_t a_stride, int nr, const uint8_t *panel,
                     size_t panel_stride, int np, float *y, int64_t ld, const float *bias, int64_t n_cols);

#endif
