/* SIMD conversions behind seer_dequantize_row and seer_quantize_row. */
#ifndef SEER_DEQUANTIZE_INTERNAL_H
#define SEER_DEQUANTIZE_INTERNAL_H

#include "seer/tensor.h"

/* Returns false when the type has no AVX2 version (or the build has none);
 * call only when the CPU has AVX2+F16C. */
bool seer_dequantize_row_avx2(int type, const void *src, float *dst, int64_t n);
/* f32 -> f16 for a row with F16C (call only when seer_tensor_have_avx2). */
void seer_f32_to_fp16_row_avx2(const float *src, uint16_t *dst, int64_t n);
/* f32 -> f16 -> f32 for a row with F16C (call only when seer_tensor_have_avx2). */
void seer_f32_round_fp16_row_avx2(const float *src, float *dst, int64_t n);
/* Whether this CPU runs the *_avx2 conversions (AVX2, FMA, F16C). */
bool seer_tensor_have_avx2(void);
/* The portable version (reference for tests). */
void seer_dequantize_row_scalar(int type, const void *src, float *dst, int64_t n);

#endif
