/* HunyuanVL's perceiver (HunyuanOCR, HunyuanVL): the tower's raster-ordered
 * patches RMS-normed (pre_norm), a 2×2 stride-2 convolution (mm.0) over each
 * merged cell, i.e. one matrix over the cell's features in (channel, ky, kx)
 * order, GELU (tanh, as ggml_gelu), a 1×1 convolution (mm.2), the learned
 * newline after each line of cells, fc to the LLM width, the learned begin
 * row first and end row last, then the RMS post_norm over every row. The
 * lines go through in passes so that the work rows stay a few MB. */
#include <stdlib.h>
#include <string.h>

#include "seer/ops.h"
#include "vision/vision_internal.h"

/* Rows (cells and newlines) per pass. */
#define HUNYUANVL_ROWS_PER_PASS 256

/* The 2×2 patches of each cell of lines [y0, y0 + n) of the merged grid → one
 * row per cell [channel][ky][kx], cells in raster order. */
static void gather_cells(const float *x, int gw, int y0, int n, int64_t d, float *out) {
    const int ow = gw / 2;
    for (int y = 0; y < n; y++)
        for (int cx = 0; cx < ow; cx++) {
            float *dst = out + ((int64_t)y * ow + cx) * 4 * d;
            for (int k = 0; k < 4; k++) {
                const int py = 2 * (y0 + y) + k / 2, px = 2 * cx + k % 2;
                const float *row = x + ((int64_t)py * gw + px) * d;
                for (int64_t ch = 0; ch < d; ch++) dst[4 * ch + k] = row[ch];
            }
        }
}

int vit_project_hunyuanvl(const seer_vision *v, seer_pool *pool, const float *x, const vit_layout *l, float *out,
                          double *flops, seer_error *err) {
    const int64_t d = v->hp.n_embd, t = v->hp.n_embd_text, c1 = v->merger.w.n_out, c2 = v->mm0.w.n_out;
    const int ow = l->gw / 2, oh = l->gh / 2, line = ow + 1;
    const int lines = line < HUNYUANVL_ROWS_PER_PASS ? HUNYUANVL_ROWS_PER_PASS / line : 1;
    const int64_t n_rows = (int64_t)line * oh + 2, n_patches = (int64_t)l->gw * l->gh;
    float *normed = malloc((size_t)(n_patches * d) * sizeof(float));
    float *cells = malloc((size_t)((int64_t)lines * ow * 4 * d) * sizeof(float));
    float *a = malloc((size_t)((int64_t)lines * ow * c1) * sizeof(float));
    float *b = malloc((size_t)((int64_t)lines * ow * c2) * sizeof(float));
    float *rows = malloc((size_t)((int64_t)lines * line * c2) * sizeof(float));
    int rc = -1;
    if (!normed || !cells || !a || !b || !rows) {
        seer_error_set(err, "vision: out of memory (projector)");
        goto done;
    }
    vit_norm_rows(pool, VIT_NORM_RMS, x, normed, &v->mm_ln1, n_patches, d, v->hp.eps);
    memcpy(out, v->img_begin, (size_t)t * sizeof(float));
    for (int y0 = 0; y0 < oh; y0 += lines) {
        const int n = oh - y0 < lines ? oh - y0 : lines;
        const int64_t n_cells = (int64_t)n * ow;
        gather_cells(normed, l->gw, y0, n, d, cells);
        vit_linear_apply(v, pool, &v->merger, cells, n_cells, a, flops);
        vit_act_rows(pool, VIT_ACT_GELU_TANH, a, n_cells * c1);
        vit_linear_apply(v, pool, &v->mm0, a, n_cells, b, flops);
        for (int y = 0; y < n; y++) { /* the line's cells, then its newline */
            memcpy(rows + (int64_t)y * line * c2, b + (int64_t)y * ow * c2, (size_t)(ow * c2) * sizeof(float));
            memcpy(rows + ((int64_t)y * line + ow) * c2, v->img_newline, (size_t)c2 * sizeof(float));
        }
        vit_linear_apply(v, pool, &v->mm2, rows, (int64_t)n * line, out + (1 + (int64_t)y0 * line) * t, flops);
    }
    memcpy(out + (n_rows - 1) * t, v->img_end, (size_t)t * sizeof(float));
    vit_norm_rows(pool, VIT_NORM_RMS, out, out, &v->mm_ln2, n_rows, t, v->hp.eps);
    rc = 0;
done:
    free(normed);
    free(cells);
    free(a);
    free(b);
    free(rows);
    return rc;
}
