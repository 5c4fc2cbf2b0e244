/* Quantizers for the activation types of the dot products (Q8_0, Q8_1,
 * Q8_K). They reproduce llama.cpp's rounding so quantized matmuls give its
 * numbers: Q8_0/Q8_1 scale by 127/max|x| and round to nearest even (its
 * AVX2 path), Q8_K scales by -127/x_at_max (its reference path). */
#include <math.h>

#include "tensor/blocks.h"
#include "tensor/quantize_internal.h"

/* max|x| of a block; a plain comparison (fmaxf is a libm call at -O2) */
static inline float block_absmax(const float *x, int n) {
    float amax = 0;
    for (int j = 0; j < n; j++) {
        float a = fabsf(x[j]);
        amax = a > amax ? a : amax;
    }
    return amax;
}

void seer_quantize_q8_0(const float *x, void *dst, int64_t n) {
    block_q8_0 *y = dst;
    for (int64_t i = 0; i < n / QK8_0; i++, x += QK8_0) {
        float amax = block_absmax(x, QK8_0);
        float d = amax / 127.f, id = amax != 0 ? 127.f / amax : 0.f;
        y[i].d = seer_f32_to_fp16(d);
        for (int j = 0; j < QK8_0; j++) {
            float v = x[j] * id;
            y[i].qs[j] = (int8_t)seer_round_nearest(v);
        }
    }
}

void seer_quantize_q8_1(const float *x, void *dst, int64_t n) {
    block_q8_1 *y = dst;
    for (int64_t i = 0; i < n / QK8_1; i++, x += QK8_1) {
        float amax = block_absmax(x, QK8_1);
        float d = amax / 127.f, id = amax != 0 ? 127.f / amax : 0.f;
        int sum = 0;
        for (int j = 0; j < QK8_1; j++) {
            float v = x[j] * id;
            y[i].qs[j] = (int8_t)seer_round_nearest(v);
            sum += y[i].qs[j];
        }
        y[i].d = seer_f32_to_fp16(d);
        y[i].s = seer_f32_to_fp16(d * (float)sum);
    }
}

void seer_quantize_q8_K(const float *x, void *dst, int64_t n) {
    block_q8_K *y = dst;
    for (int64_t i = 0; i < n / QK_K; i++, x += QK_K) {
        float amax = 0, max = 0;
        for (int j = 0; j < QK_K; j++) {
            float ax = fabsf(x[j]);
            if (ax > amax) { amax = ax; max = x[j]; }
        }
        if (amax == 0) {
            y[i].d = 0;
            for (int j = 0; j < QK_K; j++) y[i].qs[j] = 0;
            for (int j = 0; j < QK_K / 16; j++) y[i].bsums[j] = 0;
            continue;
        }
        /* Signed scale: the element of largest magnitude maps to -127. */
        float iscale = -127.f / max;
        for (int j = 0; j < QK_K; j++) {
            float f = iscale * x[j];
            int v = seer_round_nearest(f);
            y[i].qs[j] = (int8_t)(v < 127 ? v : 127);
        }
        for (int j = 0; j < QK_K / 16; j++) {
            int sum = 0;
            for (int l = 0; l < 16; l++) sum += y[i].qs[16 * j + l];
            y[i].bsums[j] = (int16_t)sum;
        }
        y[i].d = 1 / iscale;
    }
}
