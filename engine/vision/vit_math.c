/* Scalar kernels (libm) and the run-time choice of the SIMD ones (seer_simd_level). */
#include <math.h>

#include "seer/cpu.h"
#include "vision/vit_math.h"

static float gate_arg(vit_gate_kind kind, float v) {
    switch (kind) {
    case VIT_GATE_QUICK_GELU: return 1.702f * v;
    case VIT_GATE_GELU_TANH: return 2.0f * VIT_GELU_K * (v + 0.044715f * v * v * v);
    case VIT_GATE_SILU: return v;
    }
    return v;
}

void vit_gate_scalar(vit_gate_kind kind, float *x, const float *mul, int64_t n) {
    for (int64_t i = 0; i < n; i++) {
        float g = gate_arg(kind, x[i]);
        float y = x[i] / (1.0f + expf(-g));
        x[i] = mul ? y * mul[i] : y;
    }
}

void vit_softmax_row_scalar(float *x, int64_t n) {
    if (n <= 0) return;
    float max = x[0], sum = 0;
    for (int64_t i = 1; i < n; i++) max = x[i] > max ? x[i] : max;
    for (int64_t i = 0; i < n; i++) sum += x[i] = expf(x[i] - max);
    float inv = 1.0f / sum;
    for (int64_t i = 0; i < n; i++) x[i] *= inv;
}

void vit_gate(vit_gate_kind kind, float *x, const float *mul, int64_t n) {
    switch (seer_simd_level()) {
#if defined(__x86_64__)
    case SEER_SIMD_AVX512: vit_gate_avx512(kind, x, mul, n); return;
    case SEER_SIMD_AVX2: vit_gate_avx2(kind, x, mul, n); return;
#endif
    default: vit_gate_scalar(kind, x, mul, n); return;
    }
}

void vit_softmax_row(float *x, int64_t n) {
    switch (seer_simd_level()) {
#if defined(__x86_64__)
    case SEER_SIMD_AVX512: vit_softmax_row_avx512(x, n); return;
    case SEER_SIMD_AVX2: vit_softmax_row_avx2(x, n); return;
#endif
    default: vit_softmax_row_scalar(x, n); return;
    }
}
