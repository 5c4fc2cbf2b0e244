/* AVX2/FMA versions of the ViT's exp-based kernels (built with -mavx2 -mfma). */
#include "ops/exp_kernels.h"

#if defined(__x86_64__) && defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#include <math.h>

/* e^x of k vectors stage by stage across them, as in exp_kernels_avx512.c
 * (independent chains side by side keep both FMA pipes busy; each lane
 * goes through the same operations: the same results). Six, not eight:
 * AVX2 has 16 registers (Zen 5 at this level: six the fastest of 2/4/6/8,
 * the SiLU gate 0.81 -> 0.37 ns an element). */
#define BATCH 6
static inline __attribute__((always_inline)) void exp8_n(__m256 *x, int k) {
    __m256 n[BATCH], r[BATCH], p[BATCH];
#pragma GCC unroll 8
    for (int j = 0; j < k; j++) {
        x[j] = _mm256_min_ps(_mm256_max_ps(x[j], _mm256_set1_ps(SEER_EXP_LO)), _mm256_set1_ps(SEER_EXP_HI));
        n[j] = _mm256_round_ps(_mm256_mul_ps(x[j], _mm256_set1_ps(SEER_LOG2E)), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    }
#pragma GCC unroll 8
    for (int j = 0; j < k; j++) r[j] = _mm256_fnmadd_ps(n[j], _mm256_set1_ps(SEER_LN2_HI), x[j]);
#pragma GCC unroll 8
    for (int j = 0; j < k; j++) r[j] = _mm256_fnmadd_ps(n[j], _mm256_set1_ps(SEER_LN2_LO), r[j]);
#pragma GCC unroll 8
    for (int j = 0; j < k; j++) p[j] = _mm256_fmadd_ps(_mm256_set1_ps(SEER_EXP_P0), r[j], _mm256_set1_ps(SEER_EXP_P1));
#pragma GCC unroll 8
    for (int j = 0; j < k; j++) p[j] = _mm256_fmadd_ps(p[j], r[j], _mm256_set1_ps(SEER_EXP_P2));
#pragma GCC unroll 8
    for (int j = 0; j < k; j++) p[j] = _mm256_fmadd_ps(p[j], r[j], _mm256_set1_ps(SEER_EXP_P3));
#pragma GCC unroll 8
    for (int j = 0; j < k; j++) p[j] = _mm256_fmadd_ps(p[j], r[j], _mm256_set1_ps(SEER_EXP_P4));
#pragma GCC unroll 8
    for (int j = 0; j < k; j++) p[j] = _mm256_fmadd_ps(p[j], r[j], _mm256_set1_ps(SEER_EXP_P5));
#pragma GCC unroll 8
    for (int j = 0; j < k; j++) {
        __m256 y = _mm256_add_ps(_mm256_fmadd_ps(p[j], _mm256_mul_ps(r[j], r[j]), r[j]), _mm256_set1_ps(1.0f));
        __m256i e = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n[j]), _mm256_set1_epi32(127)), 23);
        x[j] = _mm256_mul_ps(y, _mm256_castsi256_ps(e));
    }
}
static inline __m256 exp8(__m256 x) {
    exp8_n(&x, 1);
    return x;
}

/* One element-wise pass over a row's whole vectors, in batches of BATCH,
 * then one at a time; returns how many elements it did (the callers finish
 * the rest their own way). */
typedef enum row_kind { ROW_EXP, ROW_GATE, ROW_SOFTCAP, ROW_SOFTMAX_EXP } row_kind;
typedef struct row_pass {
    row_kind kind;
    seer_gate_kind gate; /* ROW_GATE */
    const float *mul;    /* ROW_GATE: multiplies the result, or NULL */
    float cap;           /* ROW_SOFTCAP */
    float max;           /* ROW_SOFTMAX_EXP: e^(x - max), summed into *sum */
} row_pass;

static inline __attribute__((always_inline)) void pass_n(const row_pass *ps, __m256 *v, int64_t i, int k) {
    __m256 a[BATCH];
    switch (ps->kind) {
    case ROW_EXP: exp8_n(v, k); return;
    case ROW_SOFTMAX_EXP:
#pragma GCC unroll 8
        for (int j = 0; j < k; j++) v[j] = _mm256_sub_ps(v[j], _mm256_set1_ps(ps->max));
        exp8_n(v, k);
        return;
    case ROW_SOFTCAP: /* cap - 2cap / (e^(2x/cap) + 1) */
#pragma GCC unroll 8
        for (int j = 0; j < k; j++) a[j] = _mm256_mul_ps(v[j], _mm256_set1_ps(2.0f / ps->cap));
        exp8_n(a, k);
#pragma GCC unroll 8
        for (int j = 0; j < k; j++)
            v[j] = _mm256_sub_ps(_mm256_set1_ps(ps->cap),
                                 _mm256_div_ps(_mm256_set1_ps(2.0f * ps->cap), _mm256_add_ps(a[j], _mm256_set1_ps(1.0f))));
        return;
    case ROW_GATE: /* x / (1 + e^-g(x)), times mul */
#pragma GCC unroll 8
        for (int j = 0; j < k; j++) {
            __m256 g = v[j];
            if (ps->gate == SEER_GATE_QUICK_GELU) g = _mm256_mul_ps(v[j], _mm256_set1_ps(1.702f));
            if (ps->gate == SEER_GATE_GELU_TANH) {
                __m256 v3 = _mm256_mul_ps(_mm256_mul_ps(v[j], v[j]), v[j]);
                g = _mm256_mul_ps(_mm256_fmadd_ps(v3, _mm256_set1_ps(0.044715f), v[j]), _mm256_set1_ps(2.0f * SEER_GELU_K));
            }
            a[j] = _mm256_sub_ps(_mm256_setzero_ps(), g);
        }
        exp8_n(a, k);
#pragma GCC unroll 8
        for (int j = 0; j < k; j++) {
            v[j] = _mm256_div_ps(v[j], _mm256_add_ps(_mm256_set1_ps(1.0f), a[j]));
            if (ps->mul) v[j] = _mm256_mul_ps(v[j], _mm256_loadu_ps(ps->mul + i + 8 * j));
        }
        return;
    }
}

static inline __attribute__((always_inline)) int64_t run_row(const row_pass *ps, float *x, int64_t n, __m256 *sum) {
    int64_t i = 0;
    for (; i + 8 * BATCH <= n; i += 8 * BATCH) {
        __m256 v[BATCH];
#pragma GCC unroll 8
        for (int j = 0; j < BATCH; j++) v[j] = _mm256_loadu_ps(x + i + 8 * j);
        pass_n(ps, v, i, BATCH);
#pragma GCC unroll 8
        for (int j = 0; j < BATCH; j++) {
            _mm256_storeu_ps(x + i + 8 * j, v[j]);
            if (ps->kind == ROW_SOFTMAX_EXP) *sum = _mm256_add_ps(*sum, v[j]);
        }
    }
    for (; i + 8 <= n; i += 8) {
        __m256 v = _mm256_loadu_ps(x + i);
        pass_n(ps, &v, i, 1);
        _mm256_storeu_ps(x + i, v);
        if (ps->kind == ROW_SOFTMAX_EXP) *sum = _mm256_add_ps(*sum, v);
    }
    return i;
}

void seer_exp_gate_avx2(seer_gate_kind kind, float *x, const float *mul, int64_t n) {
    int64_t i = 0;
    switch (kind) { /* a loop per kind, its branches folded away */
    case SEER_GATE_QUICK_GELU: i = run_row(&(row_pass){.kind = ROW_GATE, .gate = SEER_GATE_QUICK_GELU, .mul = mul}, x, n, NULL); break;
    case SEER_GATE_GELU_TANH: i = run_row(&(row_pass){.kind = ROW_GATE, .gate = SEER_GATE_GELU_TANH, .mul = mul}, x, n, NULL); break;
    case SEER_GATE_SILU: i = run_row(&(row_pass){.kind = ROW_GATE, .gate = SEER_GATE_SILU, .mul = mul}, x, n, NULL); break;
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
    __m256 vsum = _mm256_setzero_ps();
    i = run_row(&(row_pass){.kind = ROW_SOFTMAX_EXP, .max = max}, x, n, &vsum);
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
    int64_t i = run_row(&(row_pass){.kind = ROW_EXP}, x, n, NULL);
    for (; i < n; i++) x[i] = _mm256_cvtss_f32(exp8(_mm256_set1_ps(x[i])));
}
void seer_exp_softcap_avx2(float *x, int64_t n, float cap) {
    int64_t i = run_row(&(row_pass){.kind = ROW_SOFTCAP, .cap = cap}, x, n, NULL);
    if (i < n) seer_exp_softcap_scalar(x + i, n - i, cap);
}
#else
void seer_exp_row_avx2(float *x, int64_t n) { seer_exp_row_scalar(x, n); }
void seer_exp_softcap_avx2(float *x, int64_t n, float cap) { seer_exp_softcap_scalar(x, n, cap); }
void seer_exp_gate_avx2(seer_gate_kind kind, float *x, const float *mul, int64_t n) { seer_exp_gate_scalar(kind, x, mul, n); }
float seer_exp_softmax_avx2(float *x, int64_t n) { return seer_exp_softmax_scalar(x, n); }
#endif
