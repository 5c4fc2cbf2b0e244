/* Per-type quantizers behind seer_quantize_row. n is a multiple of the
 * type's block size. */
#ifndef SEER_QUANTIZE_INTERNAL_H
#define SEER_QUANTIZE_INTERNAL_H

#include <string.h>

#include "seer/tensor.h"

/* Round to nearest, ties to even, for |f| < 2^22, without a libm call:
 * adding 1.5·2^23 leaves the rounded integer in the low mantissa bits. The
 * caller passes an already rounded product (no fused multiply-add). */
static inline int seer_round_nearest(float f) {
    float v = f + 12582912.f;
    int32_t i;
    memcpy(&i, &v, 4);
    return (i & 0x007FFFFF) - 0x00400000;
}

void seer_quantize_q8_0(const float *x, void *dst, int64_t n);
void seer_quantize_q8_1(const float *x, void *dst, int64_t n);
void seer_quantize_q8_K(const float *x, void *dst, int64_t n);
void seer_quantize_q4_0(const float *x, void *dst, int64_t n);
void seer_quantize_q5_0(const float *x, void *dst, int64_t n);
void seer_quantize_q4_K(const float *x, void *dst, int64_t n);
void seer_quantize_q6_K(const float *x, void *dst, int64_t n);
/* The AVX2 Q8_0 and Q8_K quantizers (bit-identical to the ones above);
 * false for other types or where AVX2 is not built. Call only when
 * seer_tensor_have_avx2(). */
bool seer_quantize_act_avx2(int type, const float *src, void *dst, int64_t n);
/* The same at AVX-512 (F, BW): call only when seer_simd_level() is SEER_SIMD_AVX512. */
bool seer_quantize_act_avx512(int type, const float *src, void *dst, int64_t n);
/* A row of n floats as the int8 GEMM takes Q8_0 activations (matmul.c),
 * without the block format between: each block's quants XOR offset into
 * u8, its scale as the float of its F16 into d, and (corr not NULL)
 * corr_mul times its quants' sum into corr; the same values as
 * seer_quantize_row(SEER_TYPE_Q8_0) then unpacked. AVX-512 only, as above. */
void seer_q8_0_gemm_row_avx512(const float *x, int64_t n, uint8_t offset, uint8_t *u8, float *d, int32_t *corr,
                               int corr_mul);
/* The same for Q8_K (n a multiple of 256): the quants XOR offset into u8,
 * the super-block's scale into d once for each of its blocks of 32, and
 * (sums not NULL) the quants' sums by 16 as int16 (sums_by_16) or by 32;
 * the same values as seer_quantize_row(SEER_TYPE_Q8_K) then unpacked. */
void seer_q8_K_gemm_row_avx512(const float *x, int64_t n, uint8_t offset, uint8_t *u8, float *d, int16_t *sums,
                               bool sums_by_16);

#endif
