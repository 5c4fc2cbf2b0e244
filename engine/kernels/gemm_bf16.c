/* BF16 GEMM kernels on AVX512-BF16 (gemm_bf16_internal.h). Built with the
 * target attribute rather than for the whole file: only these functions
 * may contain the instructions, and matmul.c enters them only when
 * seer_bf16_gemm_ready() says the CPU runs them. */
#include "kernels/gemm_bf16_internal.h"

#include <stdlib.h>
#include <string.h>

#include "seer/cpu.h"
#include "seer/matmul.h"
#include "seer/tensor.h"

#if defined(__x86_64__)
#include <immintrin.h>

#include "kernels/prefetch.h"
#include "kernels/transpose16.h"

#define BF16_TARGET __attribute__((target("avx2,fma,f16c,avx512f,avx512bw,avx512vl,avx512dq,avx512bf16")))

bool seer_bf16_gemm_ready(void) {
    static int cpu = -1;
    if (cpu < 0) cpu = __builtin_cpu_supports("avx512bf16") ? 1 : 0;
    return cpu && seer_simd_allowed() >= SEER_SIMD_AVX512;
}

static inline __mmask16 first_lanes(int64_t n) { return n >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << n) - 1); }

/* Up to 32 floats from x (`rest` of them; zero after) as 16 words of BF16
 * pairs rounded to nearest even, k = 2i in the low half of word i. */
BF16_TARGET static inline __m512i pairs32(const float *x, int64_t rest) {
    __m512 lo, hi;
    if (rest >= 32) {
        lo = _mm512_loadu_ps(x);
        hi = _mm512_loadu_ps(x + 16);
    } else {
        lo = _mm512_maskz_loadu_ps(first_lanes(rest), x);
        hi = _mm512_maskz_loadu_ps(first_lanes(rest > 16 ? rest - 16 : 0), x + 16);
    }
    return (__m512i)_mm512_cvtne2ps_pbh(hi, lo);
}

BF16_TARGET void seer_bf16_act_row(const float *x, int64_t n_in, uint32_t *pairs) {
    for (int64_t k = 0; k < n_in; k += 32) {
        const int64_t rest = n_in - k;
        if (rest >= 32) _mm512_storeu_si512(pairs + k / 2, pairs32(x + k, rest));
        else _mm512_mask_storeu_epi32(pairs + k / 2, first_lanes((rest + 1) / 2), pairs32(x + k, rest));
    }
}

/* pairs32 of up to 32 F16 values (F16 to F32 is exact: the same words as
 * rounding the row's floats). */
BF16_TARGET static inline __m512i pairs32_f16(const uint16_t *x, int64_t rest) {
    __m256i lo, hi;
    if (rest >= 32) {
        lo = _mm256_loadu_si256((const __m256i *)x);
        hi = _mm256_loadu_si256((const __m256i *)(x + 16));
    } else {
        lo = _mm256_maskz_loadu_epi16(first_lanes(rest), x);
        hi = _mm256_maskz_loadu_epi16(first_lanes(rest > 16 ? rest - 16 : 0), x + 16);
    }
    return (__m512i)_mm512_cvtne2ps_pbh(_mm512_cvtph_ps(hi), _mm512_cvtph_ps(lo));
}

/* Each weight row's 32 K values a step become 16 pair words; sixteen
 * rows' words, transposed, are the step's 16 panel vectors (pair i of
 * every row in vector i). F32 and F16 rows are read in place (a
 * Qwen2.5-VL encode in BF16 spent 8% of its time expanding F16 rows to
 * floats first); other types are expanded into tmp. */
BF16_TARGET void seer_bf16_panel_pack(const seer_weight *w, int64_t o0, uint8_t *panel, float *tmp) {
    const int64_t n_in = w->n_in, n_pairs = seer_bf16_pairs(n_in);
    const bool f16 = w->type == SEER_TYPE_F16 && !w->interleaved;
    const void *rows[16]; /* NULL past the last weight row: zeros */
    for (int c = 0; c < 16; c++) {
        const char *in_place = (const char *)w->data + (size_t)(o0 + c) * w->row_bytes;
        float *t = tmp + (size_t)c * (size_t)n_in;
        if (o0 + c >= w->n_out) rows[c] = NULL;
        else if ((w->type == SEER_TYPE_F32 && !w->interleaved) || f16) rows[c] = in_place;
        else {
            seer_weight_get_row(w, o0 + c, t);
            rows[c] = t;
        }
    }
    for (int64_t k = 0; k < n_in; k += 32) {
        __m512i words[16], vectors[16];
        seer_prefetch_rows_ahead(rows, (size_t)k * (f16 ? 2 : 4), 32 * (f16 ? 2 : 4));
        for (int c = 0; c < 16; c++)
            words[c] = !rows[c] ? _mm512_setzero_si512()
                       : f16    ? pairs32_f16((const uint16_t *)rows[c] + k, n_in - k)
                                : pairs32((const float *)rows[c] + k, n_in - k);
        seer_transpose16_epi32(words, vectors);
        const int64_t n = n_pairs - k / 2 < 16 ? n_pairs - k / 2 : 16;
        for (int64_t i = 0; i < n; i++) _mm512_storeu_si512(panel + (k / 2 + i) * 64, vectors[i]);
    }
}

/* nr × np blocks of 16 lanes, nr and np constants once inlined: the
 * accumulators stay in registers (6 × 4 = 24 of 32), each pair step is np
 * loads, nr broadcasts and nr·np independent VDPBF16PS. */
BF16_TARGET static inline __attribute__((always_inline)) void block(const int nr, const int np, int64_t n_pairs,
                                                                     const uint32_t *a, size_t a_stride,
                                                                     const uint8_t *panel, size_t panel_stride,
                                                                     float *y, int64_t ld, const float *bias,
                                                                     int64_t n_cols) {
    __m512 acc[SEER_BF16_ROWS][SEER_BF16_PANELS];
#pragma GCC unroll 8
    for (int r = 0; r < nr; r++)
#pragma GCC unroll 8
        for (int j = 0; j < np; j++) acc[r][j] = _mm512_setzero_ps();
    for (int64_t i = 0; i < n_pairs; i++) {
        __m512bh wv[SEER_BF16_PANELS];
#pragma GCC unroll 8
        for (int j = 0; j < np; j++) wv[j] = (__m512bh)_mm512_loadu_si512(panel + (size_t)j * panel_stride + 64 * i);
#pragma GCC unroll 8
        for (int r = 0; r < nr; r++) {
            const __m512bh av = (__m512bh)_mm512_set1_epi32((int)a[(size_t)r * a_stride + (size_t)i]);
#pragma GCC unroll 8
            for (int j = 0; j < np; j++) acc[r][j] = _mm512_dpbf16_ps(acc[r][j], av, wv[j]);
        }
    }
#pragma GCC unroll 8
    for (int j = 0; j < np; j++) {
        const int64_t cols = n_cols - 16 * j;
        if (cols <= 0) break;
        const __mmask16 m = first_lanes(cols);
        const __m512 b = bias ? _mm512_maskz_loadu_ps(m, bias + 16 * j) : _mm512_setzero_ps();
#pragma GCC unroll 8
        for (int r = 0; r < nr; r++) _mm512_mask_storeu_ps(y + r * ld + 16 * j, m, _mm512_add_ps(acc[r][j], b));
    }
}

#define BLOCK_CASE(R, P)                                                                                            \
    case (R) * 8 + (P): block(R, P, n_pairs, a, a_stride, panel, panel_stride, y, ld, bias, n_cols); break;
#define BLOCK_ROWS(R) BLOCK_CASE(R, 1) BLOCK_CASE(R, 2) BLOCK_CASE(R, 3) BLOCK_CASE(R, 4)
_Static_assert(SEER_BF16_ROWS == 6 && SEER_BF16_PANELS == 4, "the cases below cover 1..6 rows × 1..4 panels");

BF16_TARGET void seer_bf16_block(int64_t n_pairs, const uint32_t *a, size_t a_stride, int nr, const uint8_t *panel,
                                 size_t panel_stride, int np, float *y, int64_t ld, const float *bias,
                                 int64_t n_cols) {
    switch (nr * 8 + np) {
        BLOCK_ROWS(1)
        BLOCK_ROWS(2)
        BLOCK_ROWS(3)
        BLOCK_ROWS(4)
        BLOCK_ROWS(5)
        BLOCK_ROWS(6)
    default: abort();
    }
}
#else
bool seer_bf16_gemm_ready(void) { return false; }
/* never entered: seer_bf16_gemm_ready() is false */
void seer_bf16_act_row(const float *x, int64_t n_in, uint32_t *pairs) { (void)x, (void)n_in, (void)pairs, abort(); }
void seer_bf16_panel_pack(const struct seer_weight *w, int64_t o0, uint8_t *panel, float *tmp) {
    (void)w, (void)o0, (void)panel, (void)tmp, abort();
}
void seer_bf16_block(int64_t n_pairs, const uint32_t *a, size_t a_stride, int nr, const uint8_t *panel,
                     size_t panel_stride, int np, float *y, int64_t ld, const float *bias, int64_t n_cols) {
    (void)n_pairs, (void)a, (void)a_stride, (void)nr, (void)panel, (void)panel_stride, (void)np, (void)y, (void)ld,
        (void)bias, (void)n_cols, abort();
}
#endif
