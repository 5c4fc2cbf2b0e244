/* AVX-512 attention loops (built with the AVX-512 flags, called only when
 * the CPU has them): half the instructions of the AVX2 ones, head sizes that
 * are not a multiple of 16 handled with masked loads and stores. Each loop
 * is written once and made twice, for an F32 and an F16 cache (rows
 * widened to f32 as they are loaded). */
#include "decoder/attention_kernels.h"

#if defined(__x86_64__)
#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>

static inline __mmask16 tail_mask(int n) { return n >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << n) - 1); }

/* 16 floats from p, masked (m) only where m leaves lanes out: masked loads
 * cost more than plain ones on Zen 5, whatever the mask (one core, F16
 * cache, bit-identical: scores of 2 heads over 4096 keys of 128 32 -> 23
 * us, of 3 heads over 4096 of 64 24.5 -> 19.4). */
static inline __attribute__((always_inline)) __m512 load16(const float *p, __mmask16 m) {
    return m == 0xFFFF ? _mm512_loadu_ps(p) : _mm512_maskz_loadu_ps(m, p);
}

/* 16 (masked: m) cache elements from element i of row p, as floats. */
static inline __attribute__((always_inline)) __m512 load_kv(const void *p, long i, __mmask16 m, bool f16) {
    if (!f16) return load16((const float *)p + i, m);
    const uint16_t *h = (const uint16_t *)p + i;
    return _mm512_cvtph_ps(m == 0xFFFF ? _mm256_loadu_si256((const __m256i *)h) : _mm256_maskz_loadu_epi16(m, h));
}

static inline __attribute__((always_inline)) float dot(const float *a, const void *b, int n, bool f16) {
    __m512 s = _mm512_setzero_ps();
    for (int i = 0; i < n; i += 16) {
        const __mmask16 m = tail_mask(n - i);
        s = _mm512_fmadd_ps(load16(a + i, m), load_kv(b, i, m, f16), s);
    }
    return _mm512_reduce_add_ps(s);
}

/* The horizontal sums of eight vectors, as one 8-float vector. */
static inline __m256 sum8(const __m512 a[8]) {
    __m256 h[8];
#pragma GCC unroll 8
    for (int j = 0; j < 8; j++) h[j] = _mm256_add_ps(_mm512_castps512_ps256(a[j]), _mm512_extractf32x8_ps(a[j], 1));
    const __m256 t0 = _mm256_hadd_ps(_mm256_hadd_ps(h[0], h[1]), _mm256_hadd_ps(h[2], h[3]));
    const __m256 t1 = _mm256_hadd_ps(_mm256_hadd_ps(h[4], h[5]), _mm256_hadd_ps(h[6], h[7]));
    return _mm256_add_ps(_mm256_permute2f128_ps(t0, t1, 0x20), _mm256_permute2f128_ps(t0, t1, 0x31));
}

/* Eight keys' scores for NH (1, 2) query heads from g, one accumulator
 * per head and key: with two heads, sixteen independent sums (eight left
 * each FMA waiting on the one before it in its sum) and each key vector
 * loaded once for both. Every sum adds the same products in the same order
 * as one head at a time. */
static inline __attribute__((always_inline)) void heads_block(const float *q, int g, const char *k, int hd, int nk,
                                                              __m256 vscale, float *s, const int NH, bool f16) {
    __m512 acc[2][8];
#pragma GCC unroll 2
    for (int h = 0; h < NH; h++)
#pragma GCC unroll 8
        for (int j = 0; j < 8; j++) acc[h][j] = _mm512_setzero_ps();
    for (int d = 0; d < hd; d += 16) {
        const __mmask16 m = tail_mask(hd - d);
        __m512 qv[2];
#pragma GCC unroll 2
        for (int h = 0; h < NH; h++) qv[h] = load16(q + (long)(g + h) * hd + d, m);
#pragma GCC unroll 8
        for (int j = 0; j < 8; j++) {
            const __m512 kv = load_kv(k, (long)j * hd + d, m, f16);
#pragma GCC unroll 2
            for (int h = 0; h < NH; h++) acc[h][j] = _mm512_fmadd_ps(qv[h], kv, acc[h][j]);
        }
    }
#pragma GCC unroll 2
    for (int h = 0; h < NH; h++) _mm256_storeu_ps(s + (long)(g + h) * nk, _mm256_mul_ps(sum8(acc[h]), vscale));
}

/* Eight keys at a time, the group's heads two at a time. */
static inline __attribute__((always_inline)) void scores(const float *q, int group, const void *K, int nk, int hd,
                                                         float scale, float *s, bool f16) {
    const long esize = f16 ? 2 : 4;
    const __m256 vscale = _mm256_set1_ps(scale);
    int r = 0;
    for (; r + 8 <= nk; r += 8) {
        const char *k = (const char *)K + (long)r * hd * esize;
        attn_prefetch_block(k, 8 * hd * esize);
        int g = 0;
        for (; g + 2 <= group; g += 2) heads_block(q, g, k, hd, nk, vscale, s + r, 2, f16);
        if (g < group) heads_block(q, g, k, hd, nk, vscale, s + r, 1, f16);
    }
    for (; r < nk; r++)
        for (int g = 0; g < group; g++)
            s[(long)g * nk + r] = dot(q + (long)g * hd, (const char *)K + (long)r * hd * esize, hd, f16) * scale;
}

void attn_scores_avx512(const float *q, int group, const void *K, int nk, int hd, float scale, float *s) {
    scores(q, group, K, nk, hd, scale, s, false);
}

void attn_scores_f16_avx512(const float *q, int group, const void *K, int nk, int hd, float scale, float *s) {
    scores(q, group, K, nk, hd, scale, s, true);
}

/* Up to 16·NV columns (the last vector masked) of G heads' outputs over nk
 * keys, summed in registers, then stored (first key block) or added. */
static inline __attribute__((always_inline)) void mix_cols(float *out, int ldo, const float *p, int ldp, int nk,
                                                           const void *V, int hd, __mmask16 last, bool first,
                                                           const int G, const int NV, bool f16) {
    __m512 acc[4][4];
#pragma GCC unroll 4
    for (int j = 0; j < G; j++)
#pragma GCC unroll 4
        for (int v = 0; v < NV; v++)
            acc[j][v] = first ? _mm512_setzero_ps()
                              : _mm512_maskz_loadu_ps(v == NV - 1 ? last : 0xFFFF, out + (long)j * ldo + 16 * v);
    for (int r = 0; r < nk; r++) {
        __m512 x[4];
#pragma GCC unroll 4
        for (int v = 0; v < NV; v++) x[v] = load_kv(V, (long)r * hd + 16 * v, v == NV - 1 ? last : 0xFFFF, f16);
#pragma GCC unroll 4
        for (int j = 0; j < G; j++) {
            const __m512 w = _mm512_set1_ps(p[(long)j * ldp + r]);
#pragma GCC unroll 4
            for (int v = 0; v < NV; v++) acc[j][v] = _mm512_fmadd_ps(w, x[v], acc[j][v]);
        }
    }
#pragma GCC unroll 4
    for (int j = 0; j < G; j++)
#pragma GCC unroll 4
        for (int v = 0; v < NV; v++) _mm512_mask_storeu_ps(out + (long)j * ldo + 16 * v, v == NV - 1 ? last : 0xFFFF, acc[j][v]);
}

#define MIX_CASE(g, nv)                                                                                                \
    case (g) * 4 + (nv) - 1: mix_cols(out, ldo, p, ldp, nk, V, hd, last, first, g, nv, f16); break

static inline __attribute__((always_inline)) void mix_heads(float *out, int ldo, const float *p, int ldp, int nk,
                                                            const void *V, int hd, __mmask16 last, bool first, int G,
                                                            int NV, bool f16) {
    switch (G * 4 + NV - 1) { /* constant arguments, so each case keeps its sums in registers */
        MIX_CASE(1, 1); MIX_CASE(1, 2); MIX_CASE(1, 3); MIX_CASE(1, 4);
        MIX_CASE(2, 1); MIX_CASE(2, 2); MIX_CASE(2, 3); MIX_CASE(2, 4);
        MIX_CASE(3, 1); MIX_CASE(3, 2); MIX_CASE(3, 3); MIX_CASE(3, 4);
        MIX_CASE(4, 1); MIX_CASE(4, 2); MIX_CASE(4, 3); default: mix_cols(out, ldo, p, ldp, nk, V, hd, last, first, 4, 4, f16);
    }
}

/* Keys in blocks whose value rows stay in L1 across the column passes
 * (one pass for heads up to 64 wide). */
#define MIX_KEY_BLOCK 16

static inline __attribute__((always_inline)) void mix(float *out, int ldo, const float *p, int group, int nk,
                                                      const void *V, int hd, bool f16) {
    const long esize = f16 ? 2 : 4;
    for (int r0 = 0; r0 < nk; r0 += MIX_KEY_BLOCK) {
        const int kb = nk - r0 < MIX_KEY_BLOCK ? nk - r0 : MIX_KEY_BLOCK;
        for (int g0 = 0; g0 < group; g0 += 4) {
            const int G = group - g0 < 4 ? group - g0 : 4;
            for (int d = 0; d < hd; d += 64) {
                const int cols = hd - d < 64 ? hd - d : 64, NV = (cols + 15) / 16;
                mix_heads(out + (long)g0 * ldo + d, ldo, p + (long)g0 * nk + r0, nk, kb,
                          (const char *)V + ((long)r0 * hd + d) * esize, hd, tail_mask(cols - 16 * (NV - 1)), r0 == 0,
                          G, NV, f16);
            }
        }
    }
}

void attn_mix_avx512(float *out, int ldo, const float *p, int group, int nk, const void *V, int hd) {
    mix(out, ldo, p, group, nk, V, hd, false);
}

void attn_mix_f16_avx512(float *out, int ldo, const float *p, int group, int nk, const void *V, int hd) {
    mix(out, ldo, p, group, nk, V, hd, true);
}
#endif
