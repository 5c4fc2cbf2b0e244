/* The FP32 GEMM's AVX2+FMA block (gemm_f32_block.inc): 6 rows × 1 panel
 * of two ymm, 12 accumulators + 2 weight vectors + 1 broadcast of 16;
 * and the AVX2 transpose of a weight panel's pack. */
#include "kernels/gemm_f32_internal.h"

#include <stdlib.h>

#if defined(__x86_64__) && defined(__FMA__)
#include <immintrin.h>

#define VEC __m256
#define LANES 8
#define VZERO() _mm256_setzero_ps()
#define VLOAD(p) _mm256_loadu_ps(p)
#define VSTORE(p, v) _mm256_storeu_ps(p, v)
#define VBCAST(p) _mm256_broadcast_ss(p)
#define VFMA(acc, a, b) _mm256_fmadd_ps(a, b, acc)
#define VADD(a, b) _mm256_add_ps(a, b)
#define ROWS 6
#define PANELS 1
#define BLOCK_FN seer_f32_block_avx2
#include "kernels/gemm_f32_block.inc"

/* Eight rows' runs of 8 (from src[c] + k0) into dst[16 k + c] for k, c < 8:
 * pairs of rows interleaved by 32 bits, then by 64, then the 128-bit
 * halves exchanged. Unrolled and inlined with f16 a constant: as a call
 * with loops GCC kept r and t on the stack, a store and a load more for
 * every vector (the transpose was 4% of a LLaVA-1.5 encode). */
static inline __attribute__((always_inline)) void transpose8(const void *const src[8], bool f16, int k0, float *dst) {
    __m256 r[8], t[8];
#pragma GCC unroll 8
    for (int i = 0; i < 8; i++)
        r[i] = f16 ? _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)((const uint16_t *)src[i] + k0)))
                   : _mm256_loadu_ps((const float *)src[i] + k0);
#pragma GCC unroll 4
    for (int i = 0; i < 8; i += 2) {
        t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);
        t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
    }
    /* r[4q + h + 2m]: rows 4q..4q+3 of columns (2h + m) and 4 + (2h + m) */
#pragma GCC unroll 2
    for (int q = 0; q < 8; q += 4)
#pragma GCC unroll 2
        for (int h = 0; h < 2; h++) {
            r[q + h] = _mm256_shuffle_ps(t[q + h], t[q + h + 2], 0x44);
            r[q + h + 2] = _mm256_shuffle_ps(t[q + h], t[q + h + 2], 0xEE);
        }
#pragma GCC unroll 4
    for (int j = 0; j < 4; j++) { /* column j and 4 + j: rows 0..3 from r[j], 4..7 from r[4 + j] */
        const int col = (j & 1) * 2 + (j >> 1); /* r[h + 2m] holds column 2h + m */
        _mm256_storeu_ps(dst + 16 * col, _mm256_permute2f128_ps(r[j], r[4 + j], 0x20));
        _mm256_storeu_ps(dst + 16 * (4 + col), _mm256_permute2f128_ps(r[j], r[4 + j], 0x31));
    }
}

static inline __attribute__((always_inline)) void transpose16(const void *const src[16], bool f16, float *dst) {
#pragma GCC unroll 2
    for (int k0 = 0; k0 < 16; k0 += 8)
#pragma GCC unroll 2
        for (int c0 = 0; c0 < 16; c0 += 8) transpose8(src + c0, f16, k0, dst + 16 * k0 + c0);
}

void seer_f32_transpose16_avx2(const void *const src[16], bool f16, float *dst) {
    if (f16) transpose16(src, true, dst);
    else transpose16(src, false, dst);
}
#endif
