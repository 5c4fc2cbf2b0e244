/* AVX2/FMA versions of the ViT's exp-based kernels (built with -mavx2 -mfma). */
#include "ops/exp_kernels.h"

#if defined(__x86_64__) && defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#include <math.h>

static inline __m256 exp8(__m256 x) {
    x = _mm256_min_ps(_mm256_max_ps(x, _mm256_set1_ps(SEER_EXP_LO)), _mm256_set1_ps(SEER_EXP_HI));
    __m256 n = _mm256_round_ps(_mm256_mul_ps(x, _mm256_set1_ps(SEER_LOG2E)), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m256 r = _mm256_fnmadd_ps(n, _mm256_set1_ps(SEER_LN2_HI), x);
    r = _mm256_fnmadd_ps(n, _mm256_set1_ps(SEER_LN2_LO), r);
    __m256 p = _mm256_set1_ps(SEER_EXP_P0);
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(SEER_EXP_P1));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(SEER_EXP_P2));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(SEER_EXP_P3));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(SEER_EXP_P4));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(SEER_EXP_P5));
    __m256 y = _mm256_add_ps(_mm256_fmadd_ps(p, _mm256_mul_ps(r, r), r), _mm256_set1_ps(1.0f));
    __m256i e = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23);
    return _mm256_mul_ps(y, _mm256_castsi256_ps(e));
}

static inline __m256 gate8(seer_gate_kind kind, __m256 v) {
    __m256 g;
    switch (kind) {
    case SEER_GATE_QUICK_GELU: g = _mm256_mul_ps(v, _mm256_set1_ps(1.702f)); break;
    case SEER_GATE_GELU_TANH: {
        __m256 v3 = _mm256_mul_ps(_mm256_mul_ps(v, v), v);
        g = _mm256_mul_ps(_mm256_fmadd_ps(v3, _mm256_set1_ps(0.044715f), v), _mm256_set1_ps(2.0f * SEER_GELU_K));
        break;
    }
    default: g = v; break;
    }
    __m256 den = _mm256_add_ps(_mm256_set1_ps(1.0f), exp8(_mm256_sub_ps(_mm256_setzero_ps(), g)));
    return _mm256_div_ps(v, den);
}

void seer_exp_gate_avx2(seer_gate_kind kind, float *x, const float *mul, int64_t n) {
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 y = gate8(kind, _mm256_loadu_ps(x + i));
        if (mul) y = _mm256_mul_ps(y, _mm256_loadu_ps(mul + i));
        _mm256_storeu_ps(x + i, y);
    }
    if (i < n) seer_exp_gate_scalar(kind, x + i, mul ? mul + i : NULL, n - i);
}

static inline float hsum8(__m256 v) {
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_movehdup_ps(s));
    return _mm_cvtss_f32(s);
}

static inline float hmax8(__m256 v) {
    __m128 s = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_max_ps(s, _mm_movehl_ps(s, s));
    s = _mm_max_ss(s, _mm_movehdup_ps(s));
    return _mm_cvtss_f32(s);
}

float seer_exp_softmax_avx2(float *x, int64_t n) {
    if (n < 8) return seer_exp_softmax_scalar(x, n);
    int64_t i;
    __m256 vmax = _mm256_loadu_ps(x);
    for (i = 8; i + 8 <= n; i += 8) vmax = _mm256_max_ps(vmax, _mm256_loadu_ps(x + i));
    float max = hmax8(vmax);
    for (; i < n; i++) max = x[i] > max ? x[i] : max;
    __m256 vm = _mm256_set1_ps(max), vsum = _mm256_setzero_ps();
    for (i = 0; i + 8 <= n; i += 8) {
        __m256 e = exp8(_mm256_sub_ps(_mm256_loadu_ps(x + i), vm));
        _mm256_storeu_ps(x + i, e);
        vsum = _mm256_add_ps(vsum, e);
    }
    float sum = hsum8(vsum);
    for (; i < n; i++) {
        __m256 e = exp8(_mm256_set1_ps(x[i] - max));
        x[i] = _mm256_cvtss_f32(e);
        sum += x[i];
    }
    __m256 inv = _mm256_set1_ps(1.0f / sum);
    for (i = 0; i + 8 <= n; i += 8) _mm256_storeu_ps(x + i, _mm256_mul_ps(_mm256_loadu_ps(x + i), inv));
    for (; i < n; i++) x[i] *= _mm256_cvtss_f32(inv);
    return max + logf(sum);
}
void seer_exp_row_avx2(float *x, int64_t n) {
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) _mm256_storeu_ps(x + i, exp8(_mm256_loadu_ps(x + i)));
    for (; i < n; i++) x[i] = _mm256_cvtss_f32(exp8(_mm256_set1_ps(x[i])));
}
void seer_exp_softcap_avx2(float *x, int64_t n, float cap) {
    const __m256 two_over = _mm256_set1_ps(2.0f / cap), vcap = _mm256_set1_ps(cap), two_cap = _mm256_set1_ps(2.0f * cap);
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 den = _mm256_add_ps(exp8(_mm256_mul_ps(_mm256_loadu_ps(x + i), two_over)), _mm256_set1_ps(1.0f));
        _mm256_storeu_ps(x + i, _mm256_sub_ps(vcap, _mm256_div_ps(two_cap, den)));
    }
    if (i < n) seer_exp_softcap_scalar(x + i, n - i, cap);
}
#else
void seer_exp_row_avx2(float *x, int64_t n) { seer_exp_row_scalar(x, n); }
void seer_exp_softcap_avx2(float *x, int64_t n, float cap) { seer_exp_softcap_scalar(x, n, cap); }
void seer_exp_gate_avx2(seer_gate_kind kind, float *x, const float *mul, int64_t n) { seer_exp_gate_scalar(kind, x, mul, n); }
float seer_exp_softmax_avx2(float *x, int64_t n) { return seer_exp_softmax_scalar(x, n); }
#endif
