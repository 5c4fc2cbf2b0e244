/* F16C row conversions f32 -> f16 and f32 -> f16 -> f32 (round to nearest
 * even, like the scalar seer_f32_to_fp16 for every non-NaN input). */
#include "tensor/dequantize_internal.h"

#if defined(__x86_64__) && defined(__F16C__) && defined(__AVX__)
#include <immintrin.h>

void seer_f32_to_fp16_row_avx2(const float *src, uint16_t *dst, int64_t n) {
    int64_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm_storeu_si128((__m128i *)(dst + i), _mm256_cvtps_ph(_mm256_loadu_ps(src + i), _MM_FROUND_TO_NEAREST_INT));
    for (; i < n; i++) dst[i] = seer_f32_to_fp16(src[i]);
}

void seer_f32_round_fp16_row_avx2(const float *src, float *dst, int64_t n) {
    int64_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(_mm256_cvtps_ph(_mm256_loadu_ps(src + i), _MM_FROUND_TO_NEAREST_INT)));
    for (; i < n; i++) dst[i] = seer_fp16_to_f32(seer_f32_to_fp16(src[i]));
}
#else
void seer_f32_to_fp16_row_avx2(const float *src, uint16_t *dst, int64_t n) {
    for (int64_t i = 0; i < n; i++) dst[i] = seer_f32_to_fp16(src[i]);
}

void seer_f32_round_fp16_row_avx2(const float *src, float *dst, int64_t n) {
    for (int64_t i = 0; i < n; i++) dst[i] = seer_fp16_to_f32(seer_f32_to_fp16(src[i]));
}
#endif
