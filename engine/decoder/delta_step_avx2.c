/* The gated delta step with AVX2+FMA (built with the AVX2 flags, called only
 * when the CPU has them; see delta_step.h): blocks of 32, 16 or 8 value
 * columns, each taken through both passes over the key rows while it is in
 * L1. Head sizes that are not a multiple of 8 take the scalar step. */
#include "decoder/delta_step.h"

#if defined(__x86_64__)
#include <immintrin.h>
#include <stddef.h>

/* Columns [j0, j0 + 8·nv) of the step; nv is a constant where it is inlined. */
static inline __attribute__((always_inline)) void columns(float *S, int d, int j0, int nv, const float *q,
                                                          const float *k, const float *v, __m256 decay, __m256 beta,
                                                          __m256 qk, float *o, float *u) {
    __m256 su[4], so[4];
#pragma GCC unroll 4
    for (int n = 0; n < nv; n++) su[n] = so[n] = _mm256_setzero_ps();
    for (int i = 0; i < d; i++) {
        const float *Si = S + (size_t)i * d + j0;
        const __m256 ki = _mm256_set1_ps(k[i]), qi = _mm256_set1_ps(q[i]);
#pragma GCC unroll 4
        for (int n = 0; n < nv; n++) {
            const __m256 s = _mm256_loadu_ps(Si + 8 * n);
            su[n] = _mm256_fmadd_ps(s, ki, su[n]);
            so[n] = _mm256_fmadd_ps(s, qi, so[n]);
        }
    }
#pragma GCC unroll 4
    for (int n = 0; n < nv; n++) {
        const int j = j0 + 8 * n;
        su[n] = _mm256_mul_ps(beta, _mm256_fnmadd_ps(decay, su[n], _mm256_loadu_ps(v + j)));
        _mm256_storeu_ps(u + j, su[n]);
        _mm256_storeu_ps(o + j, _mm256_fmadd_ps(decay, so[n], _mm256_mul_ps(qk, su[n])));
    }
    for (int i = 0; i < d; i++) {
        float *Si = S + (size_t)i * d + j0;
        const __m256 ki = _mm256_set1_ps(k[i]);
#pragma GCC unroll 4
        for (int n = 0; n < nv; n++)
            _mm256_storeu_ps(Si + 8 * n, _mm256_fmadd_ps(ki, su[n], _mm256_mul_ps(decay, _mm256_loadu_ps(Si + 8 * n))));
    }
}

void delta_step_avx2(float *S, int d, const float *q, const float *k, const float *v, float decay, float beta,
                     float *o, float *u) {
    if (d % 8) {
        delta_step_scalar(S, d, q, k, v, decay, beta, o, u);
        return;
    }
    __m256 dot = _mm256_setzero_ps();
    for (int i = 0; i < d; i += 8) dot = _mm256_fmadd_ps(_mm256_loadu_ps(q + i), _mm256_loadu_ps(k + i), dot);
    const __m128 h = _mm_add_ps(_mm256_castps256_ps128(dot), _mm256_extractf128_ps(dot, 1));
    const __m128 h2 = _mm_add_ps(h, _mm_movehl_ps(h, h));
    const __m256 qk = _mm256_set1_ps(_mm_cvtss_f32(_mm_add_ss(h2, _mm_shuffle_ps(h2, h2, 1))));
    const __m256 vdecay = _mm256_set1_ps(decay), vbeta = _mm256_set1_ps(beta);
    int j0 = 0;
    for (; j0 + 32 <= d; j0 += 32) columns(S, d, j0, 4, q, k, v, vdecay, vbeta, qk, o, u);
    if (j0 + 16 <= d) {
        columns(S, d, j0, 2, q, k, v, vdecay, vbeta, qk, o, u);
        j0 += 16;
    }
    if (j0 < d) columns(S, d, j0, 1, q, k, v, vdecay, vbeta, qk, o, u);
}
#endif
