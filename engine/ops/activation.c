/* Element-wise activations in exact float math (the conformance tolerances
 * are set for exact math; llama.cpp's FP16 lookup tables are not emulated),
 * except SwiGLU, which goes to the SIMD exp kernels: the decoder runs it on
 * the FFN width of one row between two matrix products, alone on one core
 * while the others wait (libm's expf there cost 5% of a decode step). */
#include <math.h>

#include "ops/exp_kernels.h"
#include "seer/ops.h"

static inline float sigmoid(float x) { return 1.0f / (1.0f + expf(-x)); }

void seer_silu(float *x, int64_t n) {
    for (int64_t i = 0; i < n; i++) x[i] = x[i] * sigmoid(x[i]);
}

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

void seer_add(float *dst, const float *src, int64_t n) {
    for (int64_t i = 0; i < n; i++) dst[i] += src[i];
}
