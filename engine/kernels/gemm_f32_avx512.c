/* The FP32 GEMM's AVX-512 block (gemm_f32_block.inc): 6 rows × 4 panels,
 * 24 zmm accumulators + 4 weight vectors + 1 broadcast of 32. Zen 5 and
 * Intel's server cores retire two 512-bit FMAs a cycle with a latency of
 * 4: 24 independent chains keep both pipes full. */
#include "kernels/gemm_f32_internal.h"

#include <stdlib.h>

#if defined(__x86_64__) && defined(__AVX512F__)
#include <immintrin.h>

#define VEC __m512
#define LANES 16
#define VZERO() _mm512_setzero_ps()
#define VLOAD(p) _mm512_loadu_ps(p)
#define VSTORE(p, v) _mm512_storeu_ps(p, v)
#define VBCAST(p) _mm512_set1_ps(*(p))
#define VFMA(acc, a, b) _mm512_fmadd_ps(a, b, acc)
#define VADD(a, b) _mm512_add_ps(a, b)
#define ROWS 6
#define PANELS 4
#define BLOCK_FN seer_f32_block_avx512
#include "kernels/gemm_f32_block.inc"

/* Three steps of lane shuffles: pairs of rows interleaved by 32 bits,
 * then by 64 (after which 128-bit lane j of r[4q + m] holds rows 4q..4q+3
 * of column 4j + m), then whole 128-bit lanes gathered so that column
 * 4j + m takes lane j of r[m], r[4 + m], r[8 + m] and r[12 + m]. */
/* Unrolled, with f16 a constant: as loops GCC kept r and t on the stack
 * (the AVX2 transpose's same loops cost it half its time). */
static inline __attribute__((always_inline)) void transpose16(const void *const src[16], bool f16, float *dst) {
    __m512 r[16], t[16];
#pragma GCC unroll 16
    for (int i = 0; i < 16; i++)
        r[i] = f16 ? _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)src[i])) : _mm512_loadu_ps(src[i]);
#pragma GCC unroll 8
    for (int i = 0; i < 16; i += 2) {
        t[i] = _mm512_unpacklo_ps(r[i], r[i + 1]);
        t[i + 1] = _mm512_unpackhi_ps(r[i], r[i + 1]);
    }
#pragma GCC unroll 4
    for (int i = 0; i < 16; i += 4)
#pragma GCC unroll 2
        for (int h = 0; h < 2; h++) {
            const __m512d a = _mm512_castps_pd(t[i + h]), b = _mm512_castps_pd(t[i + h + 2]);
            r[i + 2 * h] = _mm512_castpd_ps(_mm512_unpacklo_pd(a, b));
            r[i + 2 * h + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(a, b));
        }
#pragma GCC unroll 4
    for (int m = 0; m < 4; m++)
#pragma GCC unroll 2
        for (int h = 0; h < 2; h++) { /* columns 4j + m for j = 2h, 2h + 1 */
            const __m512 ab = h ? _mm512_shuffle_f32x4(r[m], r[4 + m], 0xEE) : _mm512_shuffle_f32x4(r[m], r[4 + m], 0x44);
            const __m512 cd = h ? _mm512_shuffle_f32x4(r[8 + m], r[12 + m], 0xEE)
                                : _mm512_shuffle_f32x4(r[8 + m], r[12 + m], 0x44);
            _mm512_storeu_ps(dst + 16 * (4 * (2 * h) + m), _mm512_shuffle_f32x4(ab, cd, 0x88));
            _mm512_storeu_ps(dst + 16 * (4 * (2 * h + 1) + m), _mm512_shuffle_f32x4(ab, cd, 0xDD));
        }
}

void seer_f32_transpose16_avx512(const void *const src[16], bool f16, float *dst) {
    if (f16) transpose16(src, true, dst);
    else transpose16(src, false, dst);
}
#endif
