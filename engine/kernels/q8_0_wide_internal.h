/* Q8_0 prompts at plain AVX2 (no VNNI) in 16-bit products. There the
 * several-row kernel (vec_dot_x86.inc, dot16xn_q8_0) spends a VPSIGNB on
 * each 32-byte product's signs, then VPMADDUBSW and VPMADDWD: on Zen 4
 * all three share two pipes (tools/kernel-bench/mix-probe.sh), 1.5 cycles
 * a 32-byte product. With both sides sign-extended to 16 bits one
 * VPMADDWD takes 16 products and nothing else needs those pipes: 1 cycle.
 * The widening is paid once per group of 16 weight rows and block of
 * activation rows (matmul.c's dot_groups), and once per activation row.
 * The sums are the same integers, scaled and added in the same order as
 * the several-row kernel's: the same bits. */
#ifndef SEER_Q8_0_WIDE_INTERNAL_H
#define SEER_Q8_0_WIDE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A group of 16 interleaved Q8_0 rows (block_q8_0x16, n inputs, n a
 * multiple of 64) widened: per block of 32 inputs, for each half of 8
 * rows and each pair of inputs, the 8 rows' two values as int16 (one
 * VPMADDWD operand, 512 int16 a block); then every block's 16 weight
 * scales as floats. */
static inline size_t seer_q8_0_wide_group_bytes(int64_t n) { return (size_t)(n / 32) * (1024 + 64); }

/* An activation row widened: its n quants as int16, then its blocks'
 * scales as floats; rows this many bytes apart (whole cache lines). */
static inline size_t seer_q8_0_wide_row_bytes(int64_t n) {
    return ((size_t)n * 2 + (size_t)(n / 32) * 4 + 63) / 64 * 64;
}

/* Whether a weight of `type` takes the 16-bit path at SIMD level `level`
 * with this build and CPU: Q8_0 (not the other types whose activations
 * are Q8_0 rows too), at plain AVX2 (not its VNNI builds), on x86-64. */
bool seer_q8_0_wide_takes(int type, int level);

/* group (block_q8_0x16 units of n inputs) into wide (seer_q8_0_wide_group_bytes). */
void seer_q8_0_wide_group(int64_t n, const void *group, void *wide);

/* A Q8_0 activation row with its blocks' sums and scales after it
 * (seer_q8_0_rows_bytes) into wide (seer_q8_0_wide_row_bytes). */
void seer_q8_0_wide_act_row(int64_t n, const void *row, void *wide);

/* 16 weight rows (a widened group) × nr (1..4) widened activation rows
 * act_stride bytes apart: out[16 r + i] (a seer_vec_dot16_rows_fn). */
void seer_q8_0_wide_rows(int64_t n, const void *group, const void *act, size_t act_stride, int nr, float *out);

#endif
