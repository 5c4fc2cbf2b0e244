/* The gated delta step with AVX-512 (built with the AVX-512 flags, called
 * only when the CPU has them; see delta_step.h): blocks of 64, 32 or 16
 * value columns, each taken through both passes over the key rows while it
 * is in L1 (a block of 64 columns of a 128-row state is 32 KB). Head sizes
 * that are not a multiple of 16 take the scalar step. */
#include "decoder/delta_step.h"

#if defined(__x86_64__)
#include <immintrin.h>
#include <stddef.h>

/* Columns [j0, j0 + 16·nv) of the step; nv is a constant where it is inlined. */
static inline __attribute__((always_inline)) void columns(float *S, int d, int j0, int nv, const float *q,
                                                          const float *k, const float *v, __m512 decay, __m512 beta,
                                                          __m512 qk, float *o, float *u) {
    __m512 su[4], so[4];
#pragma GCC unroll 4
    for (int n = 0; n < nv; n++) su[n] = so[n] = _mm512_setzero_ps();
    for (int i = 0; i < d; i++) {
        const float *Si = S + (size_t)i * d + j0;
        const __m512 ki = _mm512_set1_ps(k[i]), qi = _mm512_set1_ps(q[i]);
#pragma GCC unroll 4
        for (int n = 0; n < nv; n++) {
            const __m512 s = _mm512_loadu_ps(Si + 16 * n);
            su[n] = _mm512_fmadd_ps(s, ki, su[n]);
            so[n] = _mm512_fmadd_ps(s, qi, so[n]);
        }
    }
#pragma GCC unroll 4
    for (int n = 0; n < nv; n++) {
        const int j = j0 + 16 * n;
        su[n] = _mm512_mul_ps(beta, _mm512_fnmadd_ps(decay, su[n], _mm512_loadu_ps(v + j)));
        _mm512_storeu_ps(u + j, su[n]);
        _mm512_storeu_ps(o + j, _mm512_fmadd_ps(decay, so[n], _mm512_mul_ps(qk, su[n])));
    }
    for (int i = 0; i < d; i++) {
        float *Si = S + (size_t)i * d + j0;
        const __m512 ki = _mm512_set1_ps(k[i]);
#pragma GCC unroll 4
        for (int n = 0; n < nv; n++)
            _mm512_storeu_ps(Si + 16 * n, _mm512_fmadd_ps(ki, su[n], _mm512_mul_ps(decay, _mm512_loadu_ps(Si + 16 * n))));
    }
}

void delta_step_avx512(float *S, int d, const float *q, const float *k, const float *v, float decay, float beta,
                       float *o, float *u) {
    if (d % 16) {
        delta_step_scalar(S, d, q, k, v, decay, beta, o, u);
        return;
    }
    __m512 dot = _mm512_setzero_ps();
    for (int i = 0; i < d; i += 16) dot = _mm512_fmadd_ps(_mm512_loadu_ps(q + i), _mm512_loadu_ps(k + i), dot);
    const __m512 qk = _mm512_set1_ps(_mm512_reduce_add_ps(dot));
    const __m512 vdecay = _mm512_set1_ps(decay), vbeta = _mm512_set1_ps(beta);
    int j0 = 0;
    for (; j0 + 64 <= d; j0 += 64) columns(S, d, j0, 4, q, k, v, vdecay, vbeta, qk, o, u);
    if (j0 + 32 <= d) {
        columns(S, d, j0, 2, q, k, v, vdecay, vbeta, qk, o, u);
        j0 += 32;
    }
    if (j0 < d) columns(S, d, j0, 1, q, k, v, vdecay, vbeta, qk, o, u);
}
#endif
