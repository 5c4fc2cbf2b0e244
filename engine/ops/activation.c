/* Element-wise activations in exact float math (the conformance tolerances
 * are set for exact math; llama.cpp's FP16 lookup tables are not emulated,
 * but for the decoders' GeGLU, geglu_f16.c), except SiLU and SwiGLU, which go to the SIMD exp kernels: the decoder runs
 * SwiGLU on the FFN width of one row between two matrix products, alone on one core while the others wait (libm's expf
 * there cost 5% of a decode step); Qwen3.5's gated delta runs SiLU on every in_proj channel of a prompt. */
#include <math.h>

#include "ops/exp_kernels.h"
#include "seer/ops.h"

static inline float sigmoid(float x) { return 1.0f / (1.0f + expf(-x)); }

void seer_silu(float *x, int64_t n) { seer_exp_gate(SEER_GATE_SILU, x, NULL, n); }

void seer_gelu_tanh(float *x, int64_t n) {
    const float k = 0.7978845608028654f; /* sqrt(2/pi) */
    for (int64_t i = 0; i < n; i++) {
        const float v = x[i];
        x[i] = 0.5f * v * (1.0f + tanhf(k * (v + 0.044715f * v * v * v)));
    }
}

void seer_gelu_erf(float *x, int64_t n) {
    for (int64_t i = 0; i < n; i++) x[i] = 0.5f * x[i] * (1.0f + erff(x[i] * 0.70710678118654752f));
}

void seer_quick_gelu(float *x, int64_t n) {
    for (int64_t i = 0; i < n; i++) x[i] = x[i] * sigmoid(1.702f * x[i]);
}

void seer_swiglu(float *a, const float *b, int64_t n) { seer_exp_gate(SEER_GATE_SILU, a, b, n); }

void seer_softcap(float *x, int64_t n, float cap) { seer_exp_softcap(x, n, cap); }

/* 4 floats at a time as a GCC vector (SSE or NEON, which every build has):
 * -O2's cost model leaves the plain loop scalar, and the encoders add a
 * bias to every product's output (3% of a Qwen2.5-VL encode). */
typedef float f32x4 __attribute__((vector_size(16), aligned(4)));

void seer_add(float *dst, const float *src, int64_t n) {
    int64_t i = 0;
    for (; i + 16 <= n; i += 16)
        for (int v = 0; v < 16; v += 4) *(f32x4 *)(dst + i + v) += *(const f32x4 *)(src + i + v);
    for (; i < n; i++) dst[i] += src[i];
}

void seer_add_into(float *dst, const float *a, const float *b, int64_t n) {
    int64_t i = 0;
    for (; i + 16 <= n; i += 16)
        for (int v = 0; v < 16; v += 4) *(f32x4 *)(dst + i + v) = *(const f32x4 *)(a + i + v) + *(const f32x4 *)(b + i + v);
    for (; i < n; i++) dst[i] = a[i] + b[i];
}

void seer_scale(float *dst, const float *src, float w, int64_t n) {
    int64_t i = 0;
    for (; i + 16 <= n; i += 16)
        for (int v = 0; v < 16; v += 4) *(f32x4 *)(dst + i + v) = w * *(const f32x4 *)(src + i + v);
    for (; i < n; i++) dst[i] = w * src[i];
}
