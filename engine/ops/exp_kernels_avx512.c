/* AVX-512F versions of the ViT's exp-based kernels (16 lanes, masked tails). */
#include <math.h>

#include "ops/exp_kernels.h"

#if defined(__x86_64__) && defined(__AVX512F__)
#include <immintrin.h>

static inline __m512 exp16(__m512 x) {
    x = _mm512_min_ps(_mm512_max_ps(x, _mm512_set1_ps(SEER_EXP_LO)), _mm512_set1_ps(SEER_EXP_HI));
    __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(SEER_LOG2E)), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(SEER_LN2_HI), x);
    r = _mm512_fnmadd_ps(n, _mm512_set1_ps(SEER_LN2_LO), r);
    __m512 p = _mm512_set1_ps(SEER_EXP_P0);
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(SEER_EXP_P1));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(SEER_EXP_P2));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(SEER_EXP_P3));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(SEER_EXP_P4));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(SEER_EXP_P5));
    __m512 y = _mm512_add_ps(_mm512_fmadd_ps(p, _mm512_mul_ps(r, r), r), _mm512_set1_ps(1.0f));
    __m512i e = _mm512_slli_epi32(_mm512_add_epi32(_mm512_cvtps_epi32(n), _mm512_set1_epi32(127)), 23);
    return _mm512_mul_ps(y, _mm512_castsi512_ps(e));
}

static inline __m512 gate16(seer_gate_kind kind, __m512 v) {
    __m512 g;
    switch (kind) {
    case SEER_GATE_QUICK_GELU: g = _mm512_mul_ps(v, _mm512_set1_ps(1.702f)); break;
    case SEER_GATE_GELU_TANH: {
        __m512 v3 = _mm512_mul_ps(_mm512_mul_ps(v, v), v);
        g = _mm512_mul_ps(_mm512_fmadd_ps(v3, _mm512_set1_ps(0.044715f), v), _mm512_set1_ps(2.0f * SEER_GELU_K));
        break;
    }
    default: g = v; break;
    }
    __m512 den = _mm512_add_ps(_mm512_set1_ps(1.0f), exp16(_mm512_sub_ps(_mm512_setzero_ps(), g)));
    return _mm512_div_ps(v, den);
}

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

void seer_exp_gate_avx512(seer_gate_kind kind, float *x, const float *mul, int64_t n) {
    for (int64_t i = 0; i < n; i += 16) {
        __mmask16 m = tail_mask(n - i);
        __m512 y = gate16(kind, load16(x + i, m));
        if (mul) y = _mm512_mul_ps(y, load16(mul + i, m));
        store16(x + i, m, y);
    }
}

float seer_exp_softmax_avx512(float *x, int64_t n) {
    if (n <= 0) return -INFINITY;
    __m512 vmax = _mm512_set1_ps(-INFINITY);
    for (int64_t i = 0; i < n; i += 16) {
        __mmask16 m = tail_mask(n - i);
        vmax = _mm512_mask_max_ps(vmax, m, vmax, load16(x + i, m));
    }
    const float max = _mm512_reduce_max_ps(vmax);
    __m512 vm = _mm512_set1_ps(max), vsum = _mm512_setzero_ps();
    for (int64_t i = 0; i < n; i += 16) {
        __mmask16 m = tail_mask(n - i);
        __m512 e = exp16(_mm512_sub_ps(load16(x + i, m), vm));
        store16(x + i, m, e);
        vsum = _mm512_mask_add_ps(vsum, m, vsum, e);
    }
    float sum = _mm512_reduce_add_ps(vsum);
    __m512 inv = _mm512_set1_ps(1.0f / sum);
    for (int64_t i = 0; i < n; i += 16) {
        __mmask16 m = tail_mask(n - i);
        store16(x + i, m, _mm512_mul_ps(load16(x + i, m), inv));
    }
    return max + logf(sum);
}
void seer_exp_row_avx512(float *x, int64_t n) {
    for (int64_t i = 0; i < n; i += 16) {
        __mmask16 m = tail_mask(n - i);
        store16(x + i, m, exp16(load16(x + i, m)));
    }
}
void seer_exp_softcap_avx512(float *x, int64_t n, float cap) {
    const __m512 two_over = _mm512_set1_ps(2.0f / cap), vcap = _mm512_set1_ps(cap), two_cap = _mm512_set1_ps(2.0f * cap);
    for (int64_t i = 0; i < n; i += 16) {
        __mmask16 m = tail_mask(n - i);
        __m512 den = _mm512_add_ps(exp16(_mm512_mul_ps(load16(x + i, m), two_over)), _mm512_set1_ps(1.0f));
        store16(x + i, m, _mm512_sub_ps(vcap, _mm512_div_ps(two_cap, den)));
    }
}
#else
void seer_exp_row_avx512(float *x, int64_t n) { seer_exp_row_scalar(x, n); }
void seer_exp_softcap_avx512(float *x, int64_t n, float cap) { seer_exp_softcap_scalar(x, n, cap); }
void seer_exp_gate_avx512(seer_gate_kind kind, float *x, const float *mul, int64_t n) { seer_exp_gate_scalar(kind, x, mul, n); }
float seer_exp_softmax_avx512(float *x, int64_t n) { return seer_exp_softmax_scalar(x, n); }
#endif
