/* Tensor element types (ggml numbering), conversion, (de)quantization and
 * fused dot products. */
#ifndef SEER_TENSOR_H
#define SEER_TENSOR_H

#include "seer/common.h"
#include "seer/cpu.h" /* the SIMD switch (seer_simd_force_scalar for tests) */

typedef enum seer_type {
    SEER_TYPE_F32 = 0, SEER_TYPE_F16 = 1, SEER_TYPE_Q4_0 = 2, SEER_TYPE_Q4_1 = 3,
    SEER_TYPE_Q5_0 = 6, SEER_TYPE_Q5_1 = 7, SEER_TYPE_Q8_0 = 8, SEER_TYPE_Q8_1 = 9,
    SEER_TYPE_Q2_K = 10, SEER_TYPE_Q3_K = 11, SEER_TYPE_Q4_K = 12, SEER_TYPE_Q5_K = 13,
    SEER_TYPE_Q6_K = 14, SEER_TYPE_Q8_K = 15, SEER_TYPE_IQ2_XXS = 16, SEER_TYPE_IQ2_XS = 17,
    SEER_TYPE_IQ3_XXS = 18, SEER_TYPE_IQ1_S = 19, SEER_TYPE_IQ4_NL = 20, SEER_TYPE_IQ3_S = 21,
    SEER_TYPE_IQ2_S = 22, SEER_TYPE_IQ4_XS = 23, SEER_TYPE_IQ1_M = 29,
    SEER_TYPE_BF16 = 30,
    SEER_TYPE_COUNT = 40,
} seer_type;

typedef struct seer_type_info {
    const char *name;      /* "Q4_K" */
    int block_size;        /* elements per block */
    size_t block_bytes;    /* bytes per block */
    int vec_dot_type;      /* type the activation is converted to for seer_vec_dot */
    size_t block_align;    /* alignment a block's fields need in memory */
} seer_type_info;

/* NULL for unknown/unsupported types (the GGUF reader rejects them). */
const seer_type_info *seer_type_get(int type);
const char *seer_type_name(int type); /* "unknown" for bad ids */
/* Bytes of a row of n elements (n must be a multiple of block_size). */
size_t seer_row_bytes(int type, int64_t n);

float seer_fp16_to_f32(uint16_t h);
uint16_t seer_f32_to_fp16(float f);
float seer_bf16_to_f32(uint16_t h);
uint16_t seer_f32_to_bf16(float f);

/* Converts n elements of a row (n multiple of block size). */
void seer_dequantize_row(int type, const void *src, float *dst, int64_t n);
/* Quantizes n floats into type (supported for every type that is a
 * vec_dot_type and for Q8_0, Q4_0, Q4_K, Q5_0, Q6_K, F16, BF16, F32).
 * Returns bytes written, 0 if the type cannot be quantized to. */
size_t seer_quantize_row(int type, const float *src, void *dst, int64_t n);
bool seer_can_quantize(int type);
/* dst[i] = src[i] rounded to F16 and back, as a row through
 * seer_quantize_row(F16) and seer_dequantize_row would be, in one pass
 * (src == dst allowed). */
void seer_f32_round_fp16_row(const float *src, float *dst, int64_t n);

/* Dot product of a weight row of `type` with an activation row already
 * converted to seer_type_get(type)->vec_dot_type. n elements. Dispatches to
 * the best SIMD path for this CPU. */
float seer_vec_dot(int type, int64_t n, const void *w_row, const void *act);

/* Which SIMD level the kernels use now ("avx512-vnni", "avx2", "scalar"; see
 * seer/cpu.h for the switch). */
const char *seer_simd_name(void);

#endif
