/* AVX-512F versions of the ViT's exp-based kernels (16 lanes, masked tails). */
#include <math.h>

#include "ops/exp_kernels.h"

#if defined(__x86_64__) && defined(__AVX512F__)
#include <immintrin.h>

/* e^x of k vectors (k a constant after inlining), stage by stage across
 * them: one exp is a chain of about 15 dependent steps (some 50 cycles), and
 * a loop that takes one vector at a time fills the core's schedulers with
 * steps still waiting on their inputs before both FMA pipes are busy.
 * Eight independent chains side by side keep them busy (Zen 5, one core:
 * softmax's exp pass 0.17 -> 0.12 ns an element). Each lane goes through
 * the same operations either way: the same results. */
#define BATCH 8
static inline __attribute__((always_inline)) void exp16_n(__m512 *x, int k) {
    __m512 n[BATCH], r[BATCH], p[BATCH];
#pragma GCC unroll 8
    for (int j = 0; j < k; j++) {
        x[j] = _mm512_min_ps(_mm512_max_ps(x[j], _mm512_set1_ps(SEER_EXP_LO)), _mm512_set1_ps(SEER_EXP_HI));
        n[j] = _mm512_roundscale_ps(_mm512_mul_ps(x[j], _mm512_set1_ps(SEER_LOG2E)), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    }
#pragma GCC unroll 8
    for (int j = 0; j < k; j++) r[j] = _mm512_fnmadd_ps(n[j], _mm512_set1_ps(SEER_LN2_HI), x[j]);
#pragma GCC unroll 8
    for (int j = 0; j < k; j++) r[j] = _mm512_fnmadd_ps(n[j], _mm512_set1_ps(SEER_LN2_LO), r[j]);
#pragma GCC unroll 8
    for (int j = 0; j < k; j++) p[j] = _mm512_fmadd_ps(_mm512_set1_ps(SEER_EXP_P0), r[j], _mm512_set1_ps(SEER_EXP_P1));
#pragma GCC unroll 8
    for (int j = 0; j < k; j++) p[j] = _mm512_fmadd_ps(p[j], r[j], _mm512_set1_ps(SEER_EXP_P2));
#pragma GCC unroll 8
    for (int j = 0; j < k; j++) p[j] = _mm512_fmadd_ps(p[j], r[j], _mm512_set1_ps(SEER_EXP_P3));
#pragma GCC unroll 8
    for (int j = 0; j < k; j++) p[j] = _mm512_fmadd_ps(p[j], r[j], _mm512_set1_ps(SEER_EXP_P4));
#pragma GCC unroll 8
    for (int j = 0; j < k; j++) p[j] = _mm512_fmadd_ps(p[j], r[j], _mm512_set1_ps(SEER_EXP_P5));
#pragma GCC unroll 8
    for (int j = 0; j < k; j++) {
        __m512 y = _mm512_add_ps(_mm512_fmadd_ps(p[j], _mm512_mul_ps(r[j], r[j]), r[j]), _mm512_set1_ps(1.0f));
        __m512i e = _mm512_slli_epi32(_mm512_add_epi32(_mm512_cvtps_epi32(n[j]), _mm512_set1_epi32(127)), 23);
        x[j] = _mm512_mul_ps(y, _mm512_castsi512_ps(e));
    }
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

/* One element-wise pass over a row, in batches of BATCH vectors, then one
 * vector at a time (the last one masked). */
typedef enum row_kind { ROW_EXP, ROW_GATE, ROW_SOFTCAP, ROW_SOFTMAX_EXP } row_kind;
typedef struct row_pass {
    row_kind kind;
    seer_gate_kind gate; /* ROW_GATE */
    const float *mul;    /* ROW_GATE: multiplies the result, or NULL */
    float cap;           /* ROW_SOFTCAP */
    float max;           /* ROW_SOFTMAX_EXP: e^(x - max), summed */
} row_pass;

static inline __attribute__((always_inline)) void pass_n(const row_pass *ps, __m512 *v, int64_t i, __mmask16 m, int k) {
    __m512 a[BATCH];
    switch (ps->kind) {
    case ROW_EXP: exp16_n(v, k); return;
    case ROW_SOFTMAX_EXP:
#pragma GCC unroll 8
        for (int j = 0; j < k; j++) v[j] = _mm512_sub_ps(v[j], _mm512_set1_ps(ps->max));
        exp16_n(v, k);
        return;
    case ROW_SOFTCAP: /* cap - 2cap / (e^(2x/cap) + 1) */
#pragma GCC unroll 8
        for (int j = 0; j < k; j++) a[j] = _mm512_mul_ps(v[j], _mm512_set1_ps(2.0f / ps->cap));
        exp16_n(a, k);
#pragma GCC unroll 8
        for (int j = 0; j < k; j++)
            v[j] = _mm512_sub_ps(_mm512_set1_ps(ps->cap),
                                 _mm512_div_ps(_mm512_set1_ps(2.0f * ps->cap), _mm512_add_ps(a[j], _mm512_set1_ps(1.0f))));
        return;
    case ROW_GATE: /* x / (1 + e^-g(x)), times mul */
#pragma GCC unroll 8
        for (int j = 0; j < k; j++) {
            __m512 g = v[j];
            if (ps->gate == SEER_GATE_QUICK_GELU) g = _mm512_mul_ps(v[j], _mm512_set1_ps(1.702f));
            if (ps->gate == SEER_GATE_GELU_TANH) {
                __m512 v3 = _mm512_mul_ps(_mm512_mul_ps(v[j], v[j]), v[j]);
                g = _mm512_mul_ps(_mm512_fmadd_ps(v3, _mm512_set1_ps(0.044715f), v[j]), _mm512_set1_ps(2.0f * SEER_GELU_K));
            }
            a[j] = _mm512_sub_ps(_mm512_setzero_ps(), g);
        }
        exp16_n(a, k);
#pragma GCC unroll 8
        for (int j = 0; j < k; j++) {
            v[j] = _mm512_div_ps(v[j], _mm512_add_ps(_mm512_set1_ps(1.0f), a[j]));
            if (ps->mul) v[j] = _mm512_mul_ps(v[j], load16(ps->mul + i + 16 * j, m));
        }
        return;
    }
}

/* Returns the lanes' sums of the results (in element order) for softmax. */
static inline __attribute__((always_inline)) __m512 run_row(const row_pass *ps, float *x, int64_t n) {
    __m512 sum = _mm512_setzero_ps();
    int64_t i = 0;
    for (; i + 16 * BATCH <= n; i += 16 * BATCH) {
        __m512 v[BATCH];
#pragma GCC unroll 8
        for (int j = 0; j < BATCH; j++) v[j] = _mm512_loadu_ps(x + i + 16 * j);
        pass_n(ps, v, i, 0xFFFF, BATCH);
#pragma GCC unroll 8
        for (int j = 0; j < BATCH; j++) {
            _mm512_storeu_ps(x + i + 16 * j, v[j]);
            if (ps->kind == ROW_SOFTMAX_EXP) sum = _mm512_add_ps(sum, v[j]);
        }
    }
    for (; i < n; i += 16) {
        __mmask16 m = tail_mask(n - i);
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
    float sum = _mm512_reduce_add_ps(run_row(&(row_pass){.kind = ROW_SOFTMAX_EXP, .max = max}, x, n));
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
float seer_exp_softmax_avx512(float *x, int64_t n) { return seer_exp_softmax_scalar(x, n); }
#endif
