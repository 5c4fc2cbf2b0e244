/* InternVL projector (mlp1): pixel unshuffle by s (the class token already
 * dropped), LayerNorm over the s²·width features (eps 1e-5, PyTorch's
 * default, as llama.cpp uses), linear, GELU, linear. LFM2-VL's is the same
 * (mm.input_norm, mm.1, mm.2), its LayerNorm optional. */
#include <stdlib.h>

#include "vision/vision_internal.h"

#define INTERNVL_PROJ_LN_EPS 1e-5f

int vit_project_internvl(const seer_vision *v, seer_pool *pool, const float *x, const vit_layout *l, float *out,
                         double *flops, seer_error *err) {
    int s = v->hp.scale_factor;
    int64_t m = (int64_t)v->hp.n_embd * s * s, n_tok = (int64_t)(l->gw / s) * (l->gh / s);
    int64_t mid = v->mm0.w.n_out;
    float *shuffled = malloc((size_t)(n_tok * (m > mid ? m : mid) * 2) * sizeof(float));
    if (!shuffled) {
        seer_error_set(err, "vision: out of memory (projector)");
        return -1;
    }
    float *hidden = shuffled + n_tok * (m > mid ? m : mid);
    vit_pixel_unshuffle(x, l->gw, l->gh, v->hp.n_embd, s, shuffled);
    if (v->mm_ln1.w) vit_norm_rows(pool, VIT_NORM_LAYER, shuffled, shuffled, &v->mm_ln1, n_tok, m, INTERNVL_PROJ_LN_EPS);
    vit_linear_apply(v, pool, &v->mm0, shuffled, n_tok, hidden, flops);
    vit_act_rows(pool, VIT_ACT_GELU_TANH, hidden, n_tok * mid);
    vit_linear_apply(v, pool, &v->mm2, hidden, n_tok, out, flops);
    free(shuffled);
    return 0;
}
