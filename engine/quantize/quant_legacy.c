/* The 32-element block quantizers llama.cpp writes weights with (its
 * reference rounding): Q8_0 rounds half away from zero with 1/d, Q4_1 and
 * Q5_1 span [min, max]. Q4_0 and Q5_0 are engine/tensor's, which already
 * round as llama.cpp does. */
#include <float.h>
#include <math.h>

#include "quantize/quant_internal.h"
#include "tensor/blocks.h"
#include "tensor/quantize_internal.h"

void seer_quant_q8_0(const float *x, void *dst, int64_t n) {
    block_q8_0 *y = dst;
    for (int64_t i = 0; i < n / QK8_0; i++, x += QK8_0) {
        float amax = 0;
        for (int j = 0; j < QK8_0; j++) amax = fabsf(x[j]) > amax ? fabsf(x[j]) : amax;
        const float d = amax / 127, id = d ? 1.0f / d : 0.0f;
        y[i].d = seer_f32_to_fp16(d);
        for (int j = 0; j < QK8_0; j++) y[i].qs[j] = (int8_t)roundf(x[j] * id);
    }
}

/* min and max of a block, and its step for `levels` levels */
static float block_range(const float *x, int levels, float *min_out) {
    float min = FLT_MAX, max = -FLT_MAX;
    for (int j = 0; j < 32; j++) {
        if (x[j] < min) min = x[j];
        if (x[j] > max) max = x[j];
    }
    *min_out = min;
    return (max - min) / (levels - 1);
}

void seer_quant_q4_1(const float *x, void *dst, int64_t n) {
    block_q4_1 *y = dst;
    for (int64_t i = 0; i < n / 32; i++, x += 32) {
        float min, d = block_range(x, 16, &min), id = d ? 1.0f / d : 0.0f;
        y[i].d = seer_f32_to_fp16(d);
        y[i].m = seer_f32_to_fp16(min);
        for (int j = 0; j < 16; j++) {
            int lo = (int)((x[j] - min) * id + 0.5f), hi = (int)((x[j + 16] - min) * id + 0.5f);
            y[i].qs[j] = (uint8_t)((lo < 15 ? lo : 15) | ((hi < 15 ? hi : 15) << 4));
        }
    }
}

void seer_quant_q5_1(const float *x, void *dst, int64_t n) {
    block_q5_1 *y = dst;
    for (int64_t i = 0; i < n / 32; i++, x += 32) {
        float min, d = block_range(x, 32, &min), id = d ? 1.0f / d : 0.0f;
        y[i].d = seer_f32_to_fp16(d);
        y[i].m = seer_f32_to_fp16(min);
        uint32_t qh = 0;
        for (int j = 0; j < 16; j++) {
            unsigned lo = (uint8_t)((x[j] - min) * id + 0.5f), hi = (uint8_t)((x[j + 16] - min) * id + 0.5f);
            y[i].qs[j] = (uint8_t)((lo & 15) | ((hi & 15) << 4));
            qh |= ((lo >> 4) & 1u) << j;
            qh |= ((hi >> 4) & 1u) << (j + 16);
        }
        memcpy(y[i].qh, &qh, 4);
    }
}
