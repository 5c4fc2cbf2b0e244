/* GLM-4V's merger (GLM-4.1V, 4.5V, 4.6V, GLM-OCR): the 4 patches of each
 * 2×2 cell (consecutive sequence rows, after the post-LN) go through a
 * stride-2 convolution, i.e. one matrix over the cell's features ordered
 * (channel, ky, kx); then fc, LayerNorm (eps 1e-5), GELU (erf) and a SwiGLU
 * MLP down(silu(gate·x) ⊙ up·x). Rows come out in the sequence's cell order
 * and are put back in raster order of the merged grid. */
#include <stdlib.h>
#include <string.h>

#include "seer/ops.h"
#include "vision/vision_internal.h"

/* Cells per pass: the work rows of a pass stay a few MB. */
#define GLM4V_CELLS_PER_PASS 256
#define GLM4V_POST_NORM_EPS 1e-5f

/* The 4 rows of each cell [k][channel] → one row [channel][k] (the conv's input order). */
static void gather_cells(const float *x, int64_t n_cells, int64_t d, float *out) {
    for (int64_t c = 0; c < n_cells; c++)
        for (int k = 0; k < 4; k++) {
            const float *row = x + (4 * c + k) * d;
            float *dst = out + c * 4 * d + k;
            for (int64_t ch = 0; ch < d; ch++) dst[4 * ch] = row[ch];
        }
}

int vit_project_glm4v(const seer_vision *v, seer_pool *pool, const float *x, const vit_layout *l, float *out,
                      double *flops, seer_error *err) {
    const int64_t d = v->hp.n_embd, t = v->hp.n_embd_text, ctx = v->mm_gate.w.n_out, n_cells = l->n_patches / 4;
    const int64_t rows = n_cells < GLM4V_CELLS_PER_PASS ? n_cells : GLM4V_CELLS_PER_PASS;
    float *cells = calloc((size_t)(rows * 4 * d), sizeof(float));
    float *a = malloc((size_t)(rows * t) * sizeof(float)), *b = malloc((size_t)(rows * t) * sizeof(float));
    float *gate = malloc((size_t)(rows * ctx) * sizeof(float)), *up = malloc((size_t)(rows * ctx) * sizeof(float));
    int rc = -1;
    if (!cells || !a || !b || !gate || !up) {
        seer_error_set(err, "vision: out of memory (projector)");
        goto done;
    }
    for (int64_t c0 = 0; c0 < n_cells; c0 += rows) {
        const int64_t n = n_cells - c0 < rows ? n_cells - c0 : rows;
        gather_cells(x + c0 * 4 * d, n, d, cells);
        vit_linear_apply(v, pool, &v->merger, cells, n, a, flops);
        vit_linear_apply(v, pool, &v->mm0, a, n, b, flops);
        vit_norm_rows(pool, VIT_NORM_LAYER, b, b, &v->mm_ln1, n, t, GLM4V_POST_NORM_EPS);
        seer_gelu_erf(b, n * t);
        vit_linear_apply(v, pool, &v->mm_gate, b, n, gate, flops);
        vit_linear_apply(v, pool, &v->mm_up, b, n, up, flops);
        vit_swiglu_rows(pool, gate, up, n * ctx);
        vit_linear_apply(v, pool, &v->mm2, gate, n, a, flops);
        for (int64_t c = 0; c < n; c++)
            memcpy(out + (int64_t)l->cell_raster[c0 + c] * v->hp.n_embd_out, a + c * t, (size_t)t * sizeof(float));
    }
    rc = 0;
done:
    free(cells);
    free(a);
    free(b);
    free(gate);
    free(up);
    return rc;
}
