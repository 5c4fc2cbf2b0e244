/* The FP32 GEMM with activations as the packed operand (gemm_f32_internal.h):
 * the attention's score (Q·Kᵀ) and value (P·V) products of the ViTs and
 * of the decoders' prompts, whose operands are f32 rows (or the F16 KV
 * cache), on the same register blocks as the weight products, so that
 * their speed no longer depends on OpenBLAS. */
#include "kernels/gemm_f32_internal.h"

#include <string.h>

#include "seer/tensor.h"

size_t seer_f32_packed_floats(int64_t n, int64_t k) {
    return (size_t)((n + SEER_F32_PANEL_COLS - 1) / SEER_F32_PANEL_COLS) * seer_f32_panel_floats(k);
}

/* dst[0, n) = src[0, n) as floats (src F16 when f16), in runs the F16
 * conversion's vector code takes. */
static void widen(const void *src, bool f16, int64_t n, float *dst) {
    if (f16) seer_dequantize_row(SEER_TYPE_F16, src, dst, n);
    else memcpy(dst, src, (size_t)n * sizeof(float));
}

/* Up to 16 rows (NULL: zeros) as one panel's columns: 16 x 16 blocks
 * through the vector transpose, each scaled after (the same products as
 * value by value: scale · x), then the last k % 16 values one at a time.
 * Value by value through a run buffer, the ViTs' keys were 9% of
 * SmolVLM-256M's attention on one Zen 5 core (1024 x 64 of 768-float
 * rows: 43 -> 14 us a head; its keys and values' packing 14 -> 3% of the
 * attention's samples in an image encode). */
static void pack_panel_transposed(const char *const rows[SEER_F32_PANEL_COLS], bool f16, int64_t k, float scale,
                                  float *panel, seer_f32_transpose_fn transpose16) {
    static const float zeros[16];
    const size_t elt = f16 ? sizeof(uint16_t) : sizeof(float);
    int64_t k0 = 0;
    for (; k0 + 16 <= k; k0 += 16) {
        const void *src[SEER_F32_PANEL_COLS];
        for (int c = 0; c < SEER_F32_PANEL_COLS; c++) src[c] = rows[c] ? rows[c] + (size_t)k0 * elt : (const void *)zeros;
        float *dst = panel + SEER_F32_PANEL_COLS * k0;
        transpose16(src, f16, dst);
        if (scale != 1.0f)
            for (int i = 0; i < 16 * SEER_F32_PANEL_COLS; i++) dst[i] = scale * dst[i];
    }
    float run[16];
    for (int c = 0; c < SEER_F32_PANEL_COLS && k0 < k; c++) {
        if (rows[c]) widen(rows[c] + (size_t)k0 * elt, f16, k - k0, run);
        for (int64_t kk = k0; kk < k; kk++) panel[SEER_F32_PANEL_COLS * kk + c] = rows[c] ? scale * run[kk - k0] : 0.0f;
    }
}

void seer_f32_pack_rows(const void *b, bool f16, size_t ldb, int64_t n, int64_t k, float scale, float *panels) {
    const size_t elt = f16 ? sizeof(uint16_t) : sizeof(float);
    const seer_f32_transpose_fn transpose16 = seer_f32_transpose16_get();
    float run[SEER_F32_PACK_RUN];
    for (int64_t o0 = 0; o0 < n; o0 += SEER_F32_PANEL_COLS) {
        float *panel = panels + (size_t)(o0 / SEER_F32_PANEL_COLS) * seer_f32_panel_floats(k);
        const int cols = n - o0 < SEER_F32_PANEL_COLS ? (int)(n - o0) : SEER_F32_PANEL_COLS;
        const char *rows[SEER_F32_PANEL_COLS];
        for (int c = 0; c < SEER_F32_PANEL_COLS; c++) rows[c] = c < cols ? (const char *)b + (size_t)(o0 + c) * ldb * elt : NULL;
        if (transpose16) {
            pack_panel_transposed(rows, f16, k, scale, panel, transpose16);
            continue;
        }
        for (int c = 0; c < SEER_F32_PANEL_COLS; c++)
            for (int64_t k0 = 0; k0 < k; k0 += SEER_F32_PACK_RUN) {
                const int64_t kn = k - k0 < SEER_F32_PACK_RUN ? k - k0 : SEER_F32_PACK_RUN;
                if (rows[c]) widen(rows[c] + (size_t)k0 * elt, f16, kn, run);
                for (int64_t kk = 0; kk < kn; kk++) panel[SEER_F32_PANEL_COLS * (k0 + kk) + c] = rows[c] ? scale * run[kk] : 0.0f;
            }
    }
}

void seer_f32_pack_cols(const void *b, bool f16, size_t ldb, int64_t k, int64_t n, float *panels) {
    seer_f32_pack_cols_lines(b, f16, ldb, 0, k, n, panels, k);
}

void seer_f32_pack_cols_lines(const void *b, bool f16, size_t ldb, int64_t k0, int64_t k1, int64_t n, float *panels,
                              int64_t packed_k) {
    const size_t elt = f16 ? sizeof(uint16_t) : sizeof(float), pf = seer_f32_panel_floats(packed_k);
    float run[SEER_F32_PACK_RUN];
    _Static_assert(SEER_F32_PACK_RUN % SEER_F32_PANEL_COLS == 0, "a run fills whole panels' lines");
    for (int64_t kk = k0; kk < k1; kk++)
        for (int64_t c0 = 0; c0 < n; c0 += SEER_F32_PACK_RUN) { /* row kk's columns [c0, c0 + cn) */
            const int64_t cn = n - c0 < SEER_F32_PACK_RUN ? n - c0 : SEER_F32_PACK_RUN;
            const char *src = (const char *)b + ((size_t)kk * ldb + (size_t)c0) * elt;
            /* f32 whole panels straight from the row, not through the run
             * buffer (SmolVLM-256M's values, 1024 x 64 of 768-float rows,
             * one Zen 5 core: 19 -> 6 us a head) */
            const float *from = !f16 && cn % SEER_F32_PANEL_COLS == 0 ? (const float *)src : run;
            if (from == run) {
                widen(src, f16, cn, run);
                for (int64_t c = cn; c < SEER_F32_PACK_RUN; c++) run[c] = 0.0f;
            }
            for (int64_t o0 = c0; o0 < c0 + cn; o0 += SEER_F32_PANEL_COLS)
                memcpy(panels + (size_t)(o0 / SEER_F32_PANEL_COLS) * pf + SEER_F32_PANEL_COLS * (size_t)kk,
                       from + (o0 - c0), sizeof(float) * SEER_F32_PANEL_COLS);
        }
}

/* For each K slice (kern->kc), a block of activation rows (its slice in
 * L2) meets every block of panels (streamed from L2 by each call). Each
 * output is the sum of its runs of SEER_F32_KC_SUM in K order, whatever
 * calls it and however the slices fall: the same floats as one pass per
 * run over every row, the loop before (panels in L1, every row from
 * memory for each, the sums stored and reloaded between runs), which ran
 * at 0.50-0.78 of the FMA peak against 0.77-0.88 now (one Sapphire Rapids
 * core, the ViTs' 768-4096 shapes, 577-1024 rows). */
static void gemm_packed(const seer_f32_kernel *kern, int64_t m, int64_t n, int64_t k, const float *a, size_t lda,
                        const float *panels, size_t pf, float *c, size_t ldc, bool add, const float *bias) {
    const int64_t n_panels = (n + SEER_F32_PANEL_COLS - 1) / SEER_F32_PANEL_COLS;
    for (int64_t k0 = 0; k0 < k; k0 += kern->kc) {
        const int64_t kc = k - k0 < kern->kc ? k - k0 : kern->kc;
        for (int64_t r0 = 0; r0 < m; r0 += kern->row_block) {
            const int64_t r1 = m - r0 < kern->row_block ? m : r0 + kern->row_block;
            for (int64_t p = 0; p < n_panels; p += kern->panels) {
                const int np = n_panels - p < kern->panels ? (int)(n_panels - p) : kern->panels;
                const int64_t o0 = SEER_F32_PANEL_COLS * p;
                const int64_t cols = n - o0 < SEER_F32_PANEL_COLS * np ? n - o0 : SEER_F32_PANEL_COLS * np;
                const float *panel = panels + (size_t)p * pf + SEER_F32_PANEL_COLS * k0;
                for (int64_t r = r0; r < r1; r += kern->rows) {
                    const int nr = r1 - r < kern->rows ? (int)(r1 - r) : kern->rows;
                    seer_f32_block_runs(kern, kc, a + (size_t)r * lda + k0, lda, nr, panel, pf, np,
                                        c + (size_t)r * ldc + o0, ldc, cols, add || k0 > 0,
                                        bias && k0 + kc == k ? bias + o0 : NULL);
                }
            }
        }
    }
}

void seer_f32_gemm_packed(const seer_f32_kernel *kern, int64_t m, int64_t n, int64_t k, const float *a, size_t lda,
                          const float *panels, float *c, size_t ldc, bool add) {
    gemm_packed(kern, m, n, k, a, lda, panels, seer_f32_panel_floats(k), c, ldc, add, NULL);
}

void seer_f32_gemm_packed_prefix(const seer_f32_kernel *kern, int64_t m, int64_t n, int64_t k, const float *a,
                                 size_t lda, const float *panels, int64_t packed_k, float *c, size_t ldc, bool add) {
    gemm_packed(kern, m, n, k, a, lda, panels, seer_f32_panel_floats(packed_k), c, ldc, add, NULL);
}

void seer_f32_gemm_packed_bias(const seer_f32_kernel *kern, int64_t m, int64_t n, int64_t k, const float *a,
                               size_t lda, const float *panels, float *c, size_t ldc, const float *bias) {
    gemm_packed(kern, m, n, k, a, lda, panels, seer_f32_panel_floats(k), c, ldc, false, bias);
}
