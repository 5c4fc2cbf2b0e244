/* GEMM on AMX-BF16 tiles for the vision encoders' weights, in parts:
 * - two parts (exact, F16 weights): an F16 value v is exactly hi + lo with
 *   hi and lo BF16 (hi keeps 8 of its 11 significant bits, lo the other 3),
 *   and TDPBF16PS multiplies BF16 pairs exactly in FP32; so a·w = ah·wh +
 *   ah·wl + al·wh + al·wl, four tile products, is the exact product of the
 *   F16 values that llama.cpp's CPU backend multiplies (activations rounded
 *   to F16), summed in FP32 in another order.
 * - one part (--vision-precision bf16): weights and activations rounded to
 *   BF16, one product; the panels are gemm_bf16.c's (the same pair-major
 *   16-column words a B tile reads), padded to whole steps. */
#ifndef SEER_GEMM_F16_INTERNAL_H
#define SEER_GEMM_F16_INTERNAL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct seer_weight;

/* AMX-BF16 usable (CPU, OS permission, SEER_AMX not 0; gemm_q8_amx.c). */
bool seer_amx_bf16_ready(void);

/* K (n_in) padded to whole tile steps of 32. */
static inline int64_t seer_f16_k_padded(int64_t n_in) { return (n_in + 31) / 32 * 32; }
/* A panel: 16 weight rows, per step of 32 K its parts' B tiles, hi then lo
 * (16 rows of K pairs × 16 columns, 1 KiB each). */
static inline size_t seer_tile_panel_bytes(int64_t n_in, int parts) {
    return (size_t)(seer_f16_k_padded(n_in) / 32) * 1024 * (size_t)parts;
}

/* Rows [o0, o0 + 16) of an F16 weight into `panel` (rows past n_out and
 * K past n_in are zero). */
void seer_f16_panel_pack(const struct seer_weight *w, int64_t o0, uint8_t *panel);
/* The activations in tile blocks: 16 rows per block, and per step of 32 K
 * the block's part tiles, hi then lo (16 rows × 32 BF16 each), so that a
 * tile is 1 KiB in one piece (rows 64 bytes apart, not a whole row apart:
 * read that way 1600 x 3424 x 1280 ran at 324 against 342 GFLOP/s on one
 * Sapphire Rapids core). */
static inline size_t seer_tile_act_block_elems(int64_t n_in, int parts) {
    return (size_t)seer_f16_k_padded(n_in) * 16 * (size_t)parts;
}
/* Where activation row r starts: its block, then its row in each tile. */
static inline size_t seer_tile_act_row_offset(int64_t n_in, int parts, int64_t r) {
    return (size_t)(r / 16) * seer_tile_act_block_elems(n_in, parts) + (size_t)(r % 16) * 32;
}
/* One activation row already rounded to F16 (n_in values) split into its
 * BF16 hi and lo parts at `row` (seer_tile_act_row_offset, two parts; zero
 * past n_in). */
void seer_f16_act_split(const uint16_t *f16, int64_t n_in, uint16_t *row);
/* out[t·256 + i·16 + c] = Σ_k a[16·(t / 2) + i][k]·w[c][k] of panel t % 2:
 * nr (1..32) activation rows from the tile block `act` (and the one after
 * it when nr > 16) times panels 0 and 1 (panel1 NULL: panel 0 stands in
 * for it, and out's panel-1 blocks mean nothing), in `parts` (1, 2). */
void seer_tile_panels_amx(int64_t k_padded, int parts, const uint8_t *panel0, const uint8_t *panel1,
                          const uint16_t *act, int nr, float *out);
#endif
