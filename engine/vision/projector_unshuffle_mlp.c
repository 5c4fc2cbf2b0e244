/* PaddleOCR-VL's projector (mlp_AR) and dots.ocr's merger: a LayerNorm
 * over the tower's width (mm.input_norm), the s×s pixel unshuffle of the
 * raster grid, then linear, activation, linear. PaddleOCR-VL: eps 1e-5,
 * s = 2, mm.1 / mm.2, the tower's GELU (tanh); dots.ocr: eps 1e-6, s from
 * the file, mm.0 / mm.2, exact GELU (erf), as llama.cpp's graphs fix them.
 * Unlike InternVL's the norm comes before the unshuffle, so each patch is
 * normed on its own. */
#include <stdlib.h>

#include "seer/ops.h"
#include "vision/vision_internal.h"

#define PADDLEOCR_PROJ_LN_EPS 1e-5f
#define DOTS_OCR_PROJ_LN_EPS 1e-6f

int vit_project_unshuffle_mlp(const seer_vision *v, seer_pool *pool, const float *x, const vit_layout *l, float *out,
                              double *flops, seer_error *err) {
    const bool dots = v->hp.projector == SEER_PROJ_DOTS_OCR;
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
    vit_norm_rows(pool, VIT_NORM_LAYER, x, normed, &v->mm_ln1, n_patch, d,
                  dots ? DOTS_OCR_PROJ_LN_EPS : PADDLEOCR_PROJ_LN_EPS);
    vit_pixel_unshuffle(normed, l->gw, l->gh, d, s, shuffled);
    vit_linear_apply(v, pool, &v->mm0, shuffled, n_tok, hidden, flops);
    if (dots) seer_gelu_erf(hidden, n_tok * mid);
    else vit_act_rows(pool, v->cfg.act, hidden, n_tok * mid);
    vit_linear_apply(v, pool, &v->mm2, hidden, n_tok, out, flops);
    free(normed);
    free(shuffled);
    free(hidden);
    return 0;
}
