/* Scalar attention loops (four partial sums so the compiler can pipeline
 * them) and the run-time choice of the SIMD versions. */
#include "decoder/attention_kernels.h"
#include "seer/cpu.h"

static float dot_scalar(const float *a, const float *b, int n) {
    float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    int i = 0;
    for (; i + 4 <= n; i += 4) {
        s0 += a[i] * b[i];
        s1 += a[i + 1] * b[i + 1];
        s2 += a[i + 2] * b[i + 2];
        s3 += a[i + 3] * b[i + 3];
    }
    for (; i < n; i++) s0 += a[i] * b[i];
    return (s0 + s1) + (s2 + s3);
}

static void axpy_scalar(float *y, float a, const float *x, int n) {
    for (int i = 0; i < n; i++) y[i] += a * x[i];
}

attn_kernels attn_kernels_scalar(void) { return (attn_kernels){dot_scalar, axpy_scalar}; }

attn_kernels attn_kernels_select(void) {
    attn_kernels k = {dot_scalar, axpy_scalar};
#if defined(__x86_64__)
    if (seer_simd_level() >= SEER_SIMD_AVX2) {
        k.dot = attn_dot_avx2;
        k.axpy = attn_axpy_avx2;
    }
#endif
    return k;
}
