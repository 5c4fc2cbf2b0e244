/* AVX2+FMA attention loops (built with the AVX2 flags, called only when the
 * CPU has them). Each loop is written once and made twice, for an F32 and an
 * F16 cache (F16C widens rows as they are loaded). */
#include "decoder/attention_kernels.h"

#if defined(__x86_64__)
#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>

#include "seer/tensor.h"

/* 8 cache elements from element i of row p, as floats; one element. */
static inline __attribute__((always_inline)) __m256 load_kv(const void *p, long i, bool f16) {
    return f16 ? _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)((const uint16_t *)p + i)))
               : _mm256_loadu_ps((const float *)p + i);
}

static inline __attribute__((always_inline)) float kv_at(const void *p, long i, bool f16) {
    return f16 ? seer_fp16_to_f32(((const uint16_t *)p)[i]) : ((const float *)p)[i];
}

static inline __attribute__((always_inline)) float dot(const float *a, const void *b, int n, bool f16) {
    __m256 s0 = _mm256_setzero_ps(), s1 = _mm256_setzero_ps();
    int i = 0;
    for (; i + 16 <= n; i += 16) {
        s0 = _mm256_fmadd_ps(_mm256_loadu_ps(a + i), load_kv(b, i, f16), s0);
        s1 = _mm256_fmadd_ps(_mm256_loadu_ps(a + i + 8), load_kv(b, i + 8, f16), s1);
    }
    for (; i + 8 <= n; i += 8) s0 = _mm256_fmadd_ps(_mm256_loadu_ps(a + i), load_kv(b, i, f16), s0);
    s0 = _mm256_add_ps(s0, s1);
    __m128 h = _mm_add_ps(_mm256_castps256_ps128(s0), _mm256_extractf128_ps(s0, 1));
    h = _mm_add_ps(h, _mm_movehl_ps(h, h));
    h = _mm_add_ss(h, _mm_movehdup_ps(h));
    float s = _mm_cvtss_f32(h);
    for (; i < n; i++) s += a[i] * kv_at(b, i, f16);
    return s;
}

/* The horizontal sums of eight vectors, as one vector. */
static inline __m256 sum8(const __m256 a[8]) {
    const __m256 t0 = _mm256_hadd_ps(_mm256_hadd_ps(a[0], a[1]), _mm256_hadd_ps(a[2], a[3]));
    const __m256 t1 = _mm256_hadd_ps(_mm256_hadd_ps(a[4], a[5]), _mm256_hadd_ps(a[6], a[7]));
    return _mm256_add_ps(_mm256_permute2f128_ps(t0, t1, 0x20), _mm256_permute2f128_ps(t0, t1, 0x31));
}

/* Eight keys at a time per query head: one accumulator per key, so the
 * reduction across lanes is paid once per eight scores. */
static inline __attribute__((always_inline)) void scores(const float *q, int group, const void *K, int nk, int hd,
                                                         float scale, float *s, bool f16) {
    const long esize = f16 ? 2 : 4;
    const __m256 vscale = _mm256_set1_ps(scale);
    const int hd8 = hd & ~7;
    int r = 0;
    for (; r + 8 <= nk; r += 8) {
        const char *k = (const char *)K + (long)r * hd * esize;
        attn_prefetch_block(k, 8 * hd * esize);
        for (int g = 0; g < group; g++) {
            const float *qg = q + (long)g * hd;
            __m256 acc[8];
#pragma GCC unroll 8
            for (int j = 0; j < 8; j++) acc[j] = _mm256_setzero_ps();
            for (int d = 0; d < hd8; d += 8) {
                const __m256 qv = _mm256_loadu_ps(qg + d);
#pragma GCC unroll 8
                for (int j = 0; j < 8; j++) acc[j] = _mm256_fmadd_ps(qv, load_kv(k, (long)j * hd + d, f16), acc[j]);
            }
            __m256 sums = sum8(acc);
            if (hd8 < hd) {
                float tail[8];
                for (int j = 0; j < 8; j++) tail[j] = dot(qg + hd8, k + ((long)j * hd + hd8) * esize, hd - hd8, f16);
                sums = _mm256_add_ps(sums, _mm256_loadu_ps(tail));
            }
            _mm256_storeu_ps(s + (long)g * nk + r, _mm256_mul_ps(sums, vscale));
        }
    }
    for (; r < nk; r++)
        for (int g = 0; g < group; g++)
            s[(long)g * nk + r] = dot(q + (long)g * hd, (const char *)K + (long)r * hd * esize, hd, f16) * scale;
}

void attn_scores_avx2(const float *q, int group, const void *K, int nk, int hd, float scale, float *s) {
    scores(q, group, K, nk, hd, scale, s, false);
}

void attn_scores_f16_avx2(const float *q, int group, const void *K, int nk, int hd, float scale, float *s) {
    scores(q, group, K, nk, hd, scale, s, true);
}

/* NV·8 columns of G heads' outputs over nk keys, summed in registers and
 * then stored (first key block) or added to what is there. */
static inline __attribute__((always_inline)) void mix_cols(float *out, int ldo, const float *p, int ldp, int nk,
                                                           const void *V, int hd, bool first, const int G, const int NV,
                                                           bool f16) {
    __m256 acc[4][2];
#pragma GCC unroll 4
    for (int j = 0; j < G; j++)
#pragma GCC unroll 2
        for (int v = 0; v < NV; v++) acc[j][v] = first ? _mm256_setzero_ps() : _mm256_loadu_ps(out + (long)j * ldo + 8 * v);
    for (int r = 0; r < nk; r++) {
        __m256 x[2];
#pragma GCC unroll 2
        for (int v = 0; v < NV; v++) x[v] = load_kv(V, (long)r * hd + 8 * v, f16);
#pragma GCC unroll 4
        for (int j = 0; j < G; j++) {
            const __m256 w = _mm256_broadcast_ss(p + (long)j * ldp + r);
#pragma GCC unroll 2
            for (int v = 0; v < NV; v++) acc[j][v] = _mm256_fmadd_ps(w, x[v], acc[j][v]);
        }
    }
#pragma GCC unroll 4
    for (int j = 0; j < G; j++)
#pragma GCC unroll 2
        for (int v = 0; v < NV; v++) _mm256_storeu_ps(out + (long)j * ldo + 8 * v, acc[j][v]);
}

static inline __attribute__((always_inline)) void mix_heads(float *out, int ldo, const float *p, int ldp, int nk,
                                                            const void *V, int hd, bool first, int G, int NV, bool f16) {
    switch (G * 2 + NV - 1) { /* constant arguments, so each case keeps its sums in registers */
    case 2: mix_cols(out, ldo, p, ldp, nk, V, hd, first, 1, 1, f16); break;
    case 3: mix_cols(out, ldo, p, ldp, nk, V, hd, first, 1, 2, f16); break;
    case 4: mix_cols(out, ldo, p, ldp, nk, V, hd, first, 2, 1, f16); break;
    case 5: mix_cols(out, ldo, p, ldp, nk, V, hd, first, 2, 2, f16); break;
    case 6: mix_cols(out, ldo, p, ldp, nk, V, hd, first, 3, 1, f16); break;
    case 7: mix_cols(out, ldo, p, ldp, nk, V, hd, first, 3, 2, f16); break;
    case 8: mix_cols(out, ldo, p, ldp, nk, V, hd, first, 4, 1, f16); break;
    default: mix_cols(out, ldo, p, ldp, nk, V, hd, first, 4, 2, f16); break;
    }
}

/* Keys go in blocks small enough that a block's value rows, fetched from
 * memory by the first column pass, are still in L1 for the others. */
#define MIX_KEY_BLOCK 16

static inline __attribute__((always_inline)) void mix(float *out, int ldo, const float *p, int group, int nk,
                                                      const void *V, int hd, bool f16) {
    const long esize = f16 ? 2 : 4;
    for (int r0 = 0; r0 < nk; r0 += MIX_KEY_BLOCK) {
        const int kb = nk - r0 < MIX_KEY_BLOCK ? nk - r0 : MIX_KEY_BLOCK;
        const char *Vb = (const char *)V + (long)r0 * hd * esize;
        for (int g0 = 0; g0 < group; g0 += 4) {
            const int G = group - g0 < 4 ? group - g0 : 4;
            const float *pg = p + (long)g0 * nk + r0;
            float *og = out + (long)g0 * ldo;
            int d = 0;
            for (; d + 16 <= hd; d += 16) mix_heads(og + d, ldo, pg, nk, kb, Vb + d * esize, hd, r0 == 0, G, 2, f16);
            if (d + 8 <= hd) mix_heads(og + d, ldo, pg, nk, kb, Vb + d * esize, hd, r0 == 0, G, 1, f16), d += 8;
            for (; d < hd; d++)
                for (int j = 0; j < G; j++) {
                    float sum = r0 == 0 ? 0.0f : og[(long)j * ldo + d];
                    for (int r = 0; r < kb; r++) sum += pg[(long)j * nk + r] * kv_at(Vb, (long)r * hd + d, f16);
                    og[(long)j * ldo + d] = sum;
                }
        }
    }
}

void attn_mix_avx2(float *out, int ldo, const float *p, int group, int nk, const void *V, int hd) {
    mix(out, ldo, p, group, nk, V, hd, false);
}

void attn_mix_f16_avx2(float *out, int ldo, const float *p, int group, int nk, const void *V, int hd) {
    mix(out, ldo, p, group, nk, V, hd, true);
}

void attn_axpy_avx2(float *y, float a, const float *x, int n) {
    const __m256 va = _mm256_set1_ps(a);
    int i = 0;
    for (; i + 8 <= n; i += 8) _mm256_storeu_ps(y + i, _mm256_fmadd_ps(va, _mm256_loadu_ps(x + i), _mm256_loadu_ps(y + i)));
    for (; i < n; i++) y[i] += a * x[i];
}
#endif
