/* PaddleOCR-VL projector (mlp_AR): LayerNorm over the tower's width (eps
 * 1e-5, as llama.cpp's graph fixes it), 2×2 pixel unshuffle of the raster
 * grid, then linear, the tower's activation, linear. Unlike InternVL's the
 * norm comes before the unshuffle, so each patch is normed on its own. */
#include <stdlib.h>

#include "vision/vision_internal.h"

#define PADDLEOCR_PROJ_LN_EPS 1e-5f

int vit_project_paddleocr(const seer_vision *v, seer_pool *pool, const float *x, const vit_layout *l, float *out,
                          double *flops, seer_error *err) {
    const int s = v->hp.scale_factor;
    const int64_t d = v->hp.n_embd, n_patch = (int64_t)l->gw * l->gh, n_tok = (int64_t)(l->gw / s) * (l->gh / s);
    const int64_t mid = v->mm0.w.n_out;
    float *normed = malloc((size_t)(n_patch * d) * sizeof(float));
    float *shuffled = malloc((size_t)(n_patch * d) * sizeof(float));
    float *hidden = malloc((size_t)(n_tok * mid) * sizeof(float));
    if (!normed || !shuffled || !hidden) {
        free(normed);
        free(shuffled);
        free(hidden);
        seer_error_set(err, "vision: out of memory (projector)");
        return -1;
    }
    vit_norm_rows(pool, VIT_NORM_LAYER, x, normed, &v->mm_ln1, n_patch, d, PADDLEOCR_PROJ_LN_EPS);
    vit_pixel_unshuffle(normed, l->gw, l->gh, d, s, shuffled);
    vit_linear_apply(pool, &v->mm0, shuffled, n_tok, hidden, flops);
    vit_act_rows(pool, v->cfg.act, hidden, n_tok * mid);
    vit_linear_apply(pool, &v->mm2, hidden, n_tok, out, flops);
    free(normed);
    free(shuffled);
    free(hidden);
    return 0;
}
