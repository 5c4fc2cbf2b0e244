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

static void scores_scalar(const float *q, int group, const float *K, int nk, int hd, float scale, float *s) {
    for (int r = 0; r < nk; r++)
        for (int g = 0; g < group; g++) s[(long)g * nk + r] = dot_scalar(q + (long)g * hd, K + (long)r * hd, hd) * scale;
}

static void axpy_scalar(float *y, float a, const float *x, int n) {
    for (int i = 0; i < n; i++) y[i] += a * x[i];
}

static void mix_scalar(float *out, int ldo, const float *p, int group, int nk, const float *V, int hd) {
    for (int g = 0; g < group; g++)
        for (int d = 0; d < hd; d++) out[(long)g * ldo + d] = 0.0f;
    for (int r = 0; r < nk; r++)
        for (int g = 0; g < group; g++) axpy_scalar(out + (long)g * ldo, p[(long)g * nk + r], V + (long)r * hd, hd);
}

attn_kernels attn_kernels_for(int level) {
    attn_kernels k = {scores_scalar, mix_scalar, axpy_scalar};
#if defined(__x86_64__)
    if (level >= SEER_SIMD_AVX2) k = (attn_kernels){attn_scores_avx2, attn_mix_avx2, attn_axpy_avx2};
    if (level >= SEER_SIMD_AVX512) k = (attn_kernels){attn_scores_avx512, attn_mix_avx512, attn_axpy_avx2};
#endif
    return k;
}

attn_kernels attn_kernels_select(void) { return attn_kernels_for(seer_simd_level()); }
