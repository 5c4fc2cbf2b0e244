/* norm.c's steps at AVX-512 (norm_avx512.c): call only when
 * seer_simd_level() is SEER_SIMD_AVX512. */
#ifndef SEER_OPS_NORM_AVX512_H
#define SEER_OPS_NORM_AVX512_H

#include <stdint.h>

/* Σ (x - c)² (pow 2) or Σ x - c (pow 1) over n floats, in double. */
double seer_norm_sum_avx512(const float *x, int64_t n, double c, int pow);
/* LayerNorm's output row, ((x - mean)·inv)·w + b (w, b may be NULL), for
 * its first n - n % 8 elements: returns how many it wrote. */
int64_t seer_layernorm_out_avx512(const float *x, float *out, const float *w, const float *b, int64_t n, double mean,
                                  double inv);
/* RMSNorm's output in place, (x·scale)·w (w may be NULL), for the first
 * n - n % 16 elements: returns how many it wrote. */
int64_t seer_rmsnorm_out_avx512(float *x, const float *w, float scale, int64_t n);

#endif
