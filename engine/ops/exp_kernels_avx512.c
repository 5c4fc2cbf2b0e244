/* AVX-512F versions of the ViT's exp-based kernels (16 lanes, masked tails). */
#include <math.h>

#include "ops/exp_kernels.h"

#if defined(__x86_64__) && defined(__AVX512F__)
#include <immintrin.h>

static inline __mmask16 tail_mask(int64_t left) { return left >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << left) - 1); }

/* Whole vectors plainly, only a row's tail masked: masked loads and stores
 * cost far more than plain ones on Zen 5 (one core, bit-identical
 * results: the SiLU gate times its multiplier over 1024 x 3072 1.46-1.73
 * -> 0.63-0.64 ms, the GELU gate 1.03-1.09 -> 0.83, softmax over 1024
 * scores 0.31 -> 0.27 us). */
static inline __m512 load16(const float *p, __mmask16 m) { return m == 0xFFFF ? _mm512_loadu_ps(p) : _mm512_maskz_loadu_ps(m, p); }
static inline void store16(float *p, __mmask16 m, __m512 v) {
    if (m == 0xFFFF) _mm512_storeu_ps(p, v);
    else _mm512_mask_storeu_ps(p, m, v);
}

#define VEC __m512
#define VECI __m512i
#define LANES 16
#define BATCH 8
#define MASK __mmask16
#define V_SET1 _mm512_set1_ps
#define V_ZERO _mm512_setzero_ps
#define V_LOAD _mm512_loadu_ps
#define V_STORE _mm512_storeu_ps
#define V_LOAD_MASKED load16
#define V_ADD _mm512_add_ps
#define V_SUB _mm512_sub_ps
#define V_MUL _mm512_mul_ps
#define V_DIV _mm512_div_ps
#define V_MIN _mm512_min_ps
#define V_MAX _mm512_max_ps
#define V_FMADD _mm512_fmadd_ps
#define V_FNMADD _mm512_fnmadd_ps
#define V_ROUND(x) _mm512_roundscale_ps(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)
#define V_CVT _mm512_cvtps_epi32
#define V_IADD _mm512_add_epi32
#define V_ISET1 _mm512_set1_epi32
#define V_SLLI _mm512_slli_epi32
#define V_AS_FLOAT _mm512_castsi512_ps
#include "ops/exp_kernels_simd.inc"

/* The pass over the whole row: whole vectors, then the last one masked. */
static inline __attribute__((always_inline)) __m512 run_row(const row_pass *ps, float *x, int64_t n) {
    __m512 sum = _mm512_setzero_ps();
    const int64_t i = whole_vectors(ps, x, n, &sum);
    if (i < n) {
        const __mmask16 m = tail_mask(n - i);
        __m512 v = load16(x + i, m);
        pass_n(ps, &v, i, m, 1);
        store16(x + i, m, v);
        if (ps->kind == ROW_SOFTMAX_EXP) sum = _mm512_mask_add_ps(sum, m, sum, v);
    }
    return sum;
}

void seer_exp_gate_avx512(seer_gate_kind kind, float *x, const float *mul, int64_t n) {
    switch (kind) { /* a loop per kind, its branches folded away */
    case SEER_GATE_QUICK_GELU: run_row(&(row_pass){.kind = ROW_GATE, .gate = SEER_GATE_QUICK_GELU, .mul = mul}, x, n); return;
    case SEER_GATE_GELU_TANH: run_row(&(row_pass){.kind = ROW_GATE, .gate = SEER_GATE_GELU_TANH, .mul = mul}, x, n); return;
    case SEER_GATE_SILU: run_row(&(row_pass){.kind = ROW_GATE, .gate = SEER_GATE_SILU, .mul = mul}, x, n); return;
    case SEER_GATE_SIGMOID: run_row(&(row_pass){.kind = ROW_GATE, .gate = SEER_GATE_SIGMOID, .mul = mul}, x, n); return;
    }
}

float seer_exp_softmax_avx512(float *x, int64_t n, float scale) {
    if (n <= 0) return -INFINITY;
    __m512 vmax = _mm512_set1_ps(-INFINITY), vmin = _mm512_set1_ps(INFINITY);
    for (int64_t i = 0; i < n; i += 16) {
        __mmask16 m = tail_mask(n - i);
        const __m512 v = load16(x + i, m);
        vmax = _mm512_mask_max_ps(vmax, m, vmax, v);
        vmin = _mm512_mask_min_ps(vmin, m, vmin, v);
    }
    const float max = seer_exp_scaled_max(_mm512_reduce_max_ps(vmax), _mm512_reduce_min_ps(vmin), scale);
    float sum = _mm512_reduce_add_ps(run_row(&(row_pass){.kind = ROW_SOFTMAX_EXP, .scale = scale, .max = max}, x, n));
    __m512 inv = _mm512_set1_ps(1.0f / sum);
    for (int64_t i = 0; i < n; i += 16) {
        __mmask16 m = tail_mask(n - i);
        store16(x + i, m, _mm512_mul_ps(load16(x + i, m), inv));
    }
    return max + logf(sum);
}
void seer_exp_row_avx512(float *x, int64_t n) { run_row(&(row_pass){.kind = ROW_EXP}, x, n); }
void seer_exp_softcap_avx512(float *x, int64_t n, float cap) { run_row(&(row_pass){.kind = ROW_SOFTCAP, .cap = cap}, x, n); }
#else
void seer_exp_row_avx512(float *x, int64_t n) { seer_exp_row_scalar(x, n); }
void seer_exp_softcap_avx512(float *x, int64_t n, float cap) { seer_exp_softcap_scalar(x, n, cap); }
void seer_exp_gate_avx512(seer_gate_kind kind, float *x, const float *mul, int64_t n) { seer_exp_gate_scalar(kind, x, mul, n); }
float seer_exp_softmax_avx512(float *x, int64_t n, float scale) { return seer_exp_softmax_scalar(x, n, scale); }
#endif
