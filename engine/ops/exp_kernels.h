/* Exp-based element-wise kernels (softmax rows, sigmoid-gated
 * activations), with AVX2 and AVX-512 versions chosen at run time: they are
 * a large share of the encoder's time next to the GEMMs once the image has
 * thousands of patches. */
#ifndef SEER_EXP_KERNELS_H
#define SEER_EXP_KERNELS_H

#include <stdint.h>

/* x·σ(g(x)) with g per kind (σ(x) alone for SEER_GATE_SIGMOID); then
 * ·mul[i] when mul != NULL (SwiGLU, an output gate). */
typedef enum seer_gate_kind {
    SEER_GATE_QUICK_GELU, /* g = 1.702x */
    SEER_GATE_GELU_TANH,  /* g = 2·√(2/π)(x + 0.044715x³): x·σ(g) = 0.5x(1 + tanh(g/2)) */
    SEER_GATE_SILU,       /* g = x */
    SEER_GATE_SIGMOID,    /* σ(x), not times x (Qwen3.5's attention output gate) */
} seer_gate_kind;

void seer_exp_gate(seer_gate_kind kind, float *x, const float *mul, int64_t n);
/* In-place softmax of one row (max subtracted). Returns log Σ exp(x), the
 * log of what it divided by (chunks of a softmax merge with it). */
float seer_exp_softmax(float *x, int64_t n);
/* The same of scale·x, each product rounded as a multiply pass before the
 * softmax would round it (a prompt's attention scores, scaled after the
 * product as llama.cpp does), without that pass over the row. */
float seer_exp_softmax_scaled(float *x, int64_t n, float scale);

/* x = e^x in place (the gated delta's decays within a chunk); below about
 * −87 the result is the smallest normal float's neighbourhood, not 0. */
void seer_exp_row(float *x, int64_t n);

/* x = cap·tanh(x/cap), as cap - 2cap/(exp(2x/cap) + 1) in the SIMD versions
 * (absolute error about cap·2^-24 near 0): the final logit soft-cap, over
 * the whole vocabulary at every step. */
void seer_exp_softcap(float *x, int64_t n, float cap);

/* Per instruction set; the dispatcher picks one. */
void seer_exp_row_scalar(float *x, int64_t n);
void seer_exp_row_avx2(float *x, int64_t n);
void seer_exp_row_avx512(float *x, int64_t n);
void seer_exp_gate_scalar(seer_gate_kind kind, float *x, const float *mul, int64_t n);
float seer_exp_softmax_scalar(float *x, int64_t n, float scale);
void seer_exp_softcap_scalar(float *x, int64_t n, float cap);
void seer_exp_softcap_avx2(float *x, int64_t n, float cap);
void seer_exp_softcap_avx512(float *x, int64_t n, float cap);
void seer_exp_gate_avx2(seer_gate_kind kind, float *x, const float *mul, int64_t n);
float seer_exp_softmax_avx2(float *x, int64_t n, float scale);
void seer_exp_gate_avx512(seer_gate_kind kind, float *x, const float *mul, int64_t n);
float seer_exp_softmax_avx512(float *x, int64_t n, float scale);

/* The largest of scale·x over a row whose largest value is hi and smallest
 * lo: rounding keeps their order, so hi's product for a positive scale, lo's
 * for a negative one (a file's attention scale may be anything). */
static inline float seer_exp_scaled_max(float hi, float lo, float scale) { return scale >= 0.0f ? hi * scale : lo * scale; }

#define SEER_GELU_K 0.7978845608028654f /* √(2/π) */

/* Cephes-style single-precision exp: range reduction by ln 2 (split in two
 * parts), degree-5 polynomial, exponent bits; inputs clamped so the result
 * stays finite and normal. */
#define SEER_EXP_HI 88.3762626647949f
#define SEER_EXP_LO -87.3365447504f
#define SEER_LOG2E 1.44269504088896341f
#define SEER_LN2_HI 0.693359375f
#define SEER_LN2_LO -2.12194440e-4f
#define SEER_EXP_P0 1.9875691500E-4f
#define SEER_EXP_P1 1.3981999507E-3f
#define SEER_EXP_P2 8.3334519073E-3f
#define SEER_EXP_P3 4.1665795894E-2f
#define SEER_EXP_P4 1.6666665459E-1f
#define SEER_EXP_P5 5.0000001201E-1f

#endif
