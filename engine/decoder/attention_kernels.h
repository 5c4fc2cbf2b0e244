/* The inner loops of decode attention over the cache, scalar, AVX2+FMA and
 * AVX-512, for an F32 or an F16 cache, picked once per context. A query
 * group (the heads sharing one KV head) goes through each key and value row
 * together, so a row is read once. */
#ifndef SEER_DECODER_ATTENTION_KERNELS_H
#define SEER_DECODER_ATTENTION_KERNELS_H

#include <stdbool.h>

/* s[g·nk + r] = scale · q[g·hd ..] · K[r·hd ..], g < group, r < nk; K's
 * elements are the cache's type. */
typedef void (*attn_scores_fn)(const float *q, int group, const void *K, int nk, int hd, float scale, float *s);
/* out[g·ldo + d] = Σ_r p[g·nk + r] · V[r·hd + d] (overwrites out). */
typedef void (*attn_mix_fn)(float *out, int ldo, const float *p, int group, int nk, const void *V, int hd);
/* y += a·x */
typedef void (*attn_axpy_fn)(float *y, float a, const float *x, int n);

typedef struct attn_kernels {
    attn_scores_fn scores;
    attn_mix_fn mix;
    attn_axpy_fn axpy;
} attn_kernels;

/* The kernels of a SIMD level (SEER_SIMD_*; the CPU must have it) for an
 * F16 (f16) or F32 cache, and those of the level this process uses. */
attn_kernels attn_kernels_for(int level, bool f16);
attn_kernels attn_kernels_select(bool f16);

#if defined(__x86_64__)
/* The score loops read key rows eight at a time, each step one vector of
 * all eight rows: the hardware prefetchers do not follow that, and from
 * memory those loops ran at half the value loop's rate (one Zen 5 core,
 * F16 cache, 200 keys of one 128-wide head a call: 17 against 27 GB/s).
 * Each block of eight rows (`bytes` long) asks for the block
 * ATTN_PREFETCH_BLOCKS ahead (measured 2, 4 and 8: 28, 29 and 29 GB/s;
 * 3-head groups of 64 wide 18, 19, 21). Past a call's last key it
 * fetches the next chunk's first keys, the same head's next rows: kept, as
 * stopping at the call's end lost most of the gain (30 -> 23 GB/s); a
 * head's last chunk then reads up to 64 rows nobody uses (SmolVLM-256M and
 * LLaVA-1.5: 0.5% of a token's bytes). A prefetch never faults. */
#define ATTN_PREFETCH_BLOCKS 8
static inline void attn_prefetch_block(const char *block, long bytes) {
    const char *ahead = block + ATTN_PREFETCH_BLOCKS * bytes;
    for (long at = 0; at < bytes; at += 64) __builtin_prefetch(ahead + at, 0, 3);
}

void attn_scores_avx2(const float *q, int group, const void *K, int nk, int hd, float scale, float *s);
void attn_scores_f16_avx2(const float *q, int group, const void *K, int nk, int hd, float scale, float *s);
void attn_mix_avx2(float *out, int ldo, const float *p, int group, int nk, const void *V, int hd);
void attn_mix_f16_avx2(float *out, int ldo, const float *p, int group, int nk, const void *V, int hd);
void attn_axpy_avx2(float *y, float a, const float *x, int n);
void attn_scores_avx512(const float *q, int group, const void *K, int nk, int hd, float scale, float *s);
void attn_scores_f16_avx512(const float *q, int group, const void *K, int nk, int hd, float scale, float *s);
void attn_mix_avx512(float *out, int ldo, const float *p, int group, int nk, const void *V, int hd);
void attn_mix_f16_avx512(float *out, int ldo, const float *p, int group, int nk, const void *V, int hd);
#endif

#endif
