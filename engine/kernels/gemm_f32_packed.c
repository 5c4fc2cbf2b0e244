/* The FP32 GEMM with activations as the packed operand (gemm_f32_internal.h):
 * the ViT attention's score (Q·Kᵀ) and value (P·V) products, whose
 * operands are both f32 rows, on the same register blocks as the weight
 * products, so that their speed no longer depends on OpenBLAS. */
#include "kernels/gemm_f32_internal.h"

size_t seer_f32_packed_floats(int64_t n, int64_t k) {
    return (size_t)((n + SEER_F32_PANEL_COLS - 1) / SEER_F32_PANEL_COLS) * seer_f32_panel_floats(k);
}

void seer_f32_pack_rows(const float *b, size_t ldb, int64_t n, int64_t k, float scale, float *panels) {
    for (int64_t o0 = 0; o0 < n; o0 += SEER_F32_PANEL_COLS) {
        float *panel = panels + (size_t)(o0 / SEER_F32_PANEL_COLS) * seer_f32_panel_floats(k);
        const int cols = n - o0 < SEER_F32_PANEL_COLS ? (int)(n - o0) : SEER_F32_PANEL_COLS;
        for (int c = 0; c < SEER_F32_PANEL_COLS; c++) {
            const float *row = c < cols ? b + (size_t)(o0 + c) * ldb : NULL;
            for (int64_t kk = 0; kk < k; kk++) panel[SEER_F32_PANEL_COLS * kk + c] = row ? scale * row[kk] : 0.0f;
        }
    }
}

void seer_f32_pack_cols(const float *b, size_t ldb, int64_t k, int64_t n, float *panels) {
    for (int64_t o0 = 0; o0 < n; o0 += SEER_F32_PANEL_COLS) {
        float *panel = panels + (size_t)(o0 / SEER_F32_PANEL_COLS) * seer_f32_panel_floats(k);
        const int cols = n - o0 < SEER_F32_PANEL_COLS ? (int)(n - o0) : SEER_F32_PANEL_COLS;
        for (int64_t kk = 0; kk < k; kk++) {
            const float *src = b + (size_t)kk * ldb + o0;
            float *dst = panel + SEER_F32_PANEL_COLS * kk;
            for (int c = 0; c < cols; c++) dst[c] = src[c];
            for (int c = cols; c < SEER_F32_PANEL_COLS; c++) dst[c] = 0.0f;
        }
    }
}

/* For each K slice every block of panels (its slice in L1) meets every
 * block of rows, as the weight products do; each output's sum runs over
 * the same slices in the same order whatever calls it. */
void seer_f32_gemm_packed(const seer_f32_kernel *kern, int64_t m, int64_t n, int64_t k, const float *a, size_t lda,
                          const float *panels, float *c, size_t ldc) {
    const size_t pf = seer_f32_panel_floats(k);
    const int64_t n_panels = (n + SEER_F32_PANEL_COLS - 1) / SEER_F32_PANEL_COLS;
    for (int64_t k0 = 0; k0 < k; k0 += SEER_F32_KC) {
        const int64_t kc = k - k0 < SEER_F32_KC ? k - k0 : SEER_F32_KC;
        for (int64_t p = 0; p < n_panels; p += kern->panels) {
            const int np = n_panels - p < kern->panels ? (int)(n_panels - p) : kern->panels;
            const int64_t o0 = SEER_F32_PANEL_COLS * p;
            const int64_t cols = n - o0 < SEER_F32_PANEL_COLS * np ? n - o0 : SEER_F32_PANEL_COLS * np;
            const float *panel = panels + (size_t)p * pf + SEER_F32_PANEL_COLS * k0;
            for (int64_t r = 0; r < m; r += kern->rows) {
                const int nr = m - r < kern->rows ? (int)(m - r) : kern->rows;
                seer_f32_block_cols(kern, kc, a + (size_t)r * lda + k0, lda, nr, panel, pf, np,
                                    c + (size_t)r * ldc + o0, ldc, cols, k0 > 0);
            }
        }
    }
}
