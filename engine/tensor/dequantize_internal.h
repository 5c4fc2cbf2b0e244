/* SIMD dequantizers behind seer_dequantize_row. */
#ifndef SEER_DEQUANTIZE_INTERNAL_H
#define SEER_DEQUANTIZE_INTERNAL_H

#include "seer/tensor.h"

/* Returns false when the type has no AVX2 version (or the build has none);
 * call only when the CPU has AVX2+F16C. */
bool seer_dequantize_row_avx2(int type, const void *src, float *dst, int64_t n);
/* The portable version (reference for tests). */
void seer_dequantize_row_scalar(int type, const void *src, float *dst, int64_t n);

#endif
