/* seer_quantize_row: floats -> blocks of a type, for the types we can write. */
#include <string.h>

#include "seer/cpu.h"

#include "tensor/dequantize_internal.h"
#include "tensor/quantize_internal.h"

typedef void (*quantize_fn)(const float *x, void *dst, int64_t n);

static quantize_fn quantizer(int type) {
    switch (type) {
    case SEER_TYPE_Q8_0: return seer_quantize_q8_0;
    case SEER_TYPE_Q8_1: return seer_quantize_q8_1;
    case SEER_TYPE_Q8_K: return seer_quantize_q8_K;
    case SEER_TYPE_Q4_0: return seer_quantize_q4_0;
    case SEER_TYPE_Q5_0: return seer_quantize_q5_0;
    case SEER_TYPE_Q4_K: return seer_quantize_q4_K;
    case SEER_TYPE_Q6_K: return seer_quantize_q6_K;
    default: return NULL;
    }
}

void seer_f32_round_fp16_row(const float *src, float *dst, int64_t n) {
    if (seer_tensor_have_avx2()) {
        seer_f32_round_fp16_row_avx2(src, dst, n);
        return;
    }
    for (int64_t i = 0; i < n; i++) dst[i] = seer_fp16_to_f32(seer_f32_to_fp16(src[i]));
}

bool seer_can_quantize(int type) {
    return type == SEER_TYPE_F32 || type == SEER_TYPE_F16 || type == SEER_TYPE_BF16 || quantizer(type) != NULL;
}

size_t seer_quantize_row(int type, const float *src, void *dst, int64_t n) {
    const seer_type_info *ti = seer_type_get(type);
    if (!ti || n < 0 || n % ti->block_size != 0 || !seer_can_quantize(type)) return 0;
    switch (type) {
    case SEER_TYPE_F32: memcpy(dst, src, (size_t)n * sizeof(float)); break;
    case SEER_TYPE_F16: {
        uint16_t *h = dst;
        if (seer_tensor_have_avx2()) seer_f32_to_fp16_row_avx2(src, h, n);
        else
            for (int64_t i = 0; i < n; i++) h[i] = seer_f32_to_fp16(src[i]);
        break;
    }
    case SEER_TYPE_BF16: {
        uint16_t *h = dst;
        for (int64_t i = 0; i < n; i++) h[i] = seer_f32_to_bf16(src[i]);
        break;
    }
    default:
        if (seer_simd_level() >= SEER_SIMD_AVX512 && seer_quantize_act_avx512(type, src, dst, n)) break;
        if (!(seer_tensor_have_avx2() && seer_quantize_act_avx2(type, src, dst, n))) quantizer(type)(src, dst, n);
        break;
    }
    return seer_row_bytes(type, n);
}
