/* Qwen2-VL / Qwen2.5-VL patch merger: the 4 patches of each 2×2 cell are
 * consecutive sequence rows (after ln_q, applied as the tower's post-LN), so
 * the cell's 4C-wide input is just the next 4 rows; mm.2 · gelu(mm.0 · x).
 * Rows come out in the sequence's cell order and are put back in raster
 * order of the merged grid. Qwen3-VL's mergers are the same MLP (its
 * DeepStack ones with a LayerNorm over the 4C features first). */
#include <stdlib.h>
#include <string.h>

#include "vision/vision_internal.h"

/* Cells per pass: the norm / hidden / output rows of a pass stay a few MB
 * (a 4096-cell Qwen3-VL image would need ~170 MB for all cells at once). */
#define MERGE_CELLS_PER_PASS 256

int vit_merge_cells(const seer_vision *v, seer_pool *pool, const vit_norm_params *norm, float eps, const vit_linear *fc1,
                    const vit_linear *fc2, const float *x, const vit_layout *l, float *out, int64_t out_stride,
                    double *flops, seer_error *err) {
    int64_t n_cells = l->n_patches / 4, width = fc1->w.n_in, mid = fc1->w.n_out, d_out = fc2->w.n_out;
    int64_t rows = n_cells < MERGE_CELLS_PER_PASS ? n_cells : MERGE_CELLS_PER_PASS;
    float *normed = norm ? malloc((size_t)(rows * width) * sizeof(float)) : NULL;
    float *h = malloc((size_t)(rows * mid) * sizeof(float));
    float *y = malloc((size_t)(rows * d_out) * sizeof(float));
    if (!h || !y || (norm && !normed)) {
        free(normed);
        free(h);
        free(y);
        seer_error_set(err, "vision: out of memory (projector)");
        return -1;
    }
    for (int64_t c0 = 0; c0 < n_cells; c0 += rows) {
        int64_t n = n_cells - c0 < rows ? n_cells - c0 : rows;
        const float *in = x + c0 * width;
        if (norm) {
            vit_norm_rows(pool, VIT_NORM_LAYER, in, normed, norm, n, width, eps);
            in = normed;
        }
        vit_linear_apply(v, pool, fc1, in, n, h, flops);
        vit_act_rows(pool, VIT_ACT_GELU_TANH, h, n * mid);
        vit_linear_apply(v, pool, fc2, h, n, y, flops);
        for (int64_t c = 0; c < n; c++)
            memcpy(out + (int64_t)l->cell_raster[c0 + c] * out_stride, y + c * d_out, (size_t)d_out * sizeof(float));
    }
    free(normed);
    free(h);
    free(y);
    return 0;
}

int vit_project_qwen(const seer_vision *v, seer_pool *pool, const float *x, const vit_layout *l, float *out,
                     double *flops, seer_error *err) {
    return vit_merge_cells(v, pool, NULL, v->hp.eps, &v->mm0, &v->mm2, x, l, out, v->hp.n_embd_out, flops, err);
}
