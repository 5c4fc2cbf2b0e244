/* Scalar kernels (libm) and the run-time choice of the SIMD ones (seer_simd_level). */
#include <math.h>

#include "seer/cpu.h"
#include "ops/exp_kernels.h"

static float gate_arg(seer_gate_kind kind, float v) {
    switch (kind) {
    case SEER_GATE_QUICK_GELU: return 1.702f * v;
    case SEER_GATE_GELU_TANH: return 2.0f * SEER_GELU_K * (v + 0.044715f * v * v * v);
    case SEER_GATE_SILU:
    case SEER_GATE_SIGMOID: return v;
    }
    return v;
}

void seer_exp_gate_scalar(seer_gate_kind kind, float *x, const float *mul, int64_t n) {
    for (int64_t i = 0; i < n; i++) {
        float g = gate_arg(kind, x[i]);
        float y = (kind == SEER_GATE_SIGMOID ? 1.0f : x[i]) / (1.0f + expf(-g));
        x[i] = mul ? y * mul[i] : y;
    }
}

float seer_exp_softmax_scalar(float *x, int64_t n, float scale) {
    if (n <= 0) return -INFINITY;
    float hi = x[0], lo = x[0], sum = 0;
    for (int64_t i = 1; i < n; i++) {
        hi = x[i] > hi ? x[i] : hi;
        lo = x[i] < lo ? x[i] : lo;
    }
    const float max = seer_exp_scaled_max(hi, lo, scale);
    for (int64_t i = 0; i < n; i++) {
        /* the product rounded in a statement of its own: a compiler that
         * fuses a multiply and a subtraction within one expression (clang
         * by default) would otherwise not round it */
        const float scaled = x[i] * scale;
        sum += x[i] = expf(scaled - max);
    }
    float inv = 1.0f / sum;
    for (int64_t i = 0; i < n; i++) x[i] *= inv;
    return max + logf(sum);
}

void seer_exp_row_scalar(float *x, int64_t n) {
    for (int64_t i = 0; i < n; i++) x[i] = expf(x[i]);
}

void seer_exp_row(float *x, int64_t n) {
    switch (seer_simd_level()) {
#if defined(__x86_64__)
    case SEER_SIMD_AVX512: seer_exp_row_avx512(x, n); return;
    case SEER_SIMD_AVX2: seer_exp_row_avx2(x, n); return;
#endif
    default: seer_exp_row_scalar(x, n); return;
    }
}

void seer_exp_softcap_scalar(float *x, int64_t n, float cap) {
    for (int64_t i = 0; i < n; i++) x[i] = tanhf(x[i] / cap) * cap;
}

void seer_exp_softcap(float *x, int64_t n, float cap) {
    switch (seer_simd_level()) {
#if defined(__x86_64__)
    case SEER_SIMD_AVX512: seer_exp_softcap_avx512(x, n, cap); return;
    case SEER_SIMD_AVX2: seer_exp_softcap_avx2(x, n, cap); return;
#endif
    default: seer_exp_softcap_scalar(x, n, cap); return;
    }
}

void seer_exp_gate(seer_gate_kind kind, float *x, const float *mul, int64_t n) {
    switch (seer_simd_level()) {
#if defined(__x86_64__)
    case SEER_SIMD_AVX512: seer_exp_gate_avx512(kind, x, mul, n); return;
    case SEER_SIMD_AVX2: seer_exp_gate_avx2(kind, x, mul, n); return;
#endif
    default: seer_exp_gate_scalar(kind, x, mul, n); return;
    }
}

float seer_exp_softmax_scaled(float *x, int64_t n, float scale) {
    switch (seer_simd_level()) {
#if defined(__x86_64__)
    case SEER_SIMD_AVX512: return seer_exp_softmax_avx512(x, n, scale);
    case SEER_SIMD_AVX2: return seer_exp_softmax_avx2(x, n, scale);
#endif
    default: return seer_exp_softmax_scalar(x, n, scale);
    }
}

float seer_exp_softmax(float *x, int64_t n) { return seer_exp_softmax_scaled(x, n, 1.0f); }
