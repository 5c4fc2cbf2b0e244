/* LLaVA projectors: "mlp" = mm.2 · gelu(mm.0 · x + b0) + b2, and
 * "mlp_norm" = LN4(mm.3 · gelu(LN1(mm.0 · x + b0)) + b3). One output row per
 * patch (the class token was dropped before). */
#include <stdlib.h>

#include "vision/vision_internal.h"

int vit_project_mlp(const seer_vision *v, seer_pool *pool, const float *x, int64_t n, float *out, double *flops,
                    seer_error *err) {
    int64_t mid = v->mm0.w.n_out;
    float *h = malloc((size_t)(n * mid) * sizeof(float));
    if (!h) {
        seer_error_set(err, "vision: out of memory (projector)");
        return -1;
    }
    vit_linear_apply(v, pool, &v->mm0, x, n, h, flops);
    if (v->cfg.mlp_norm) vit_norm_rows(pool, VIT_NORM_LAYER, h, h, &v->mm_ln1, n, mid, v->hp.eps);
    vit_act_rows(pool, VIT_ACT_GELU_TANH, h, n * mid);
    vit_linear_apply(v, pool, &v->mm2, h, n, out, flops);
    if (v->cfg.mlp_norm) vit_norm_rows(pool, VIT_NORM_LAYER, out, out, &v->mm_ln2, n, v->hp.n_embd_out, v->hp.eps);
    free(h);
    return 0;
}
