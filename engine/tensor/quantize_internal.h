/* Per-type quantizers behind seer_quantize_row. n is a multiple of the
 * type's block size. */
#ifndef SEER_QUANTIZE_INTERNAL_H
#define SEER_QUANTIZE_INTERNAL_H

#include "seer/tensor.h"

void seer_quantize_q8_0(const float *x, void *dst, int64_t n);
void seer_quantize_q8_1(const float *x, void *dst, int64_t n);
void seer_quantize_q8_K(const float *x, void *dst, int64_t n);
void seer_quantize_q4_0(const float *x, void *dst, int64_t n);
void seer_quantize_q5_0(const float *x, void *dst, int64_t n);
void seer_quantize_q4_K(const float *x, void *dst, int64_t n);
void seer_quantize_q6_K(const float *x, void *dst, int64_t n);

#endif
