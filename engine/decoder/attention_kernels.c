/* Scalar attention loops (four partial sums so the compiler can pipeline
 * them), for an F32 and an F16 cache, and the run-time choice of the SIMD
 * versions. */
#include <stdint.h>

#include "decoder/attention_kernels.h"
#include "seer/cpu.h"
#include "seer/tensor.h"

static inline float kv_at(const void *p, long i, bool f16) {
    return f16 ? seer_fp16_to_f32(((const uint16_t *)p)[i]) : ((const float *)p)[i];
}

static inline float dot(const float *a, const void *b, int n, bool f16) {
    float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    int i = 0;
    for (; i + 4 <= n; i += 4) {
        s0 += a[i] * kv_at(b, i, f16);
        s1 += a[i + 1] * kv_at(b, i + 1, f16);
        s2 += a[i + 2] * kv_at(b, i + 2, f16);
        s3 += a[i + 3] * kv_at(b, i + 3, f16);
    }
    for (; i < n; i++) s0 += a[i] * kv_at(b, i, f16);
    return (s0 + s1) + (s2 + s3);
}

static inline void scores(const float *q, int group, const void *K, int nk, int hd, float scale, float *s, bool f16) {
    const long esize = f16 ? 2 : 4;
    for (int r = 0; r < nk; r++)
        for (int g = 0; g < group; g++)
            s[(long)g * nk + r] = dot(q + (long)g * hd, (const char *)K + (long)r * hd * esize, hd, f16) * scale;
}

static void scores_scalar(const float *q, int group, const void *K, int nk, int hd, float scale, float *s) {
    scores(q, group, K, nk, hd, scale, s, false);
}

static void scores_f16_scalar(const float *q, int group, const void *K, int nk, int hd, float scale, float *s) {
    scores(q, group, K, nk, hd, scale, s, true);
}

static void axpy_scalar(float *y, float a, const float *x, int n) {
    for (int i = 0; i < n; i++) y[i] += a * x[i];
}

static inline void mix(float *out, int ldo, const float *p, int group, int nk, const void *V, int hd, bool f16) {
    for (int g = 0; g < group; g++)
        for (int d = 0; d < hd; d++) out[(long)g * ldo + d] = 0.0f;
    for (int r = 0; r < nk; r++)
        for (int g = 0; g < group; g++) {
            const float w = p[(long)g * nk + r];
            for (int d = 0; d < hd; d++) out[(long)g * ldo + d] += w * kv_at(V, (long)r * hd + d, f16);
        }
}

static void mix_scalar(float *out, int ldo, const float *p, int group, int nk, const void *V, int hd) {
    mix(out, ldo, p, group, nk, V, hd, false);
}

static void mix_f16_scalar(float *out, int ldo, const float *p, int group, int nk, const void *V, int hd) {
    mix(out, ldo, p, group, nk, V, hd, true);
}

attn_kernels attn_kernels_for(int level, bool f16) {
    attn_kernels k = {f16 ? scores_f16_scalar : scores_scalar, f16 ? mix_f16_scalar : mix_scalar, axpy_scalar};
#if defined(__x86_64__)
    if (level >= SEER_SIMD_AVX2)
        k = (attn_kernels){f16 ? attn_scores_f16_avx2 : attn_scores_avx2, f16 ? attn_mix_f16_avx2 : attn_mix_avx2,
                           attn_axpy_avx2};
    if (level >= SEER_SIMD_AVX512)
        k = (attn_kernels){f16 ? attn_scores_f16_avx512 : attn_scores_avx512,
                           f16 ? attn_mix_f16_avx512 : attn_mix_avx512, attn_axpy_avx2};
#endif
    return k;
}

attn_kernels attn_kernels_select(bool f16) { return attn_kernels_for(seer_simd_level(), f16); }
