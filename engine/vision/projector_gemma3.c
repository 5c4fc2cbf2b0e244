/* Gemma 3 projector: the SigLIP patch grid (raster order, after post-LN)
 * averaged over k×k blocks (64×64 patches → 16×16 tokens at 896 px), each
 * token RMS-normalised with the soft-embedding norm weight, then the input
 * projection to the LLM width (transposed at load). */
#include <stdlib.h>
#include <string.h>

#include "vision/vision_internal.h"

void vit_avg_pool(const float *x, int gw, int gh, int64_t n_embd, int k, float *out) {
    const int ow = gw / k, oh = gh / k;
    const float area = (float)(k * k);
    for (int oy = 0; oy < oh; oy++) {
        for (int ox = 0; ox < ow; ox++) {
            float *o = out + ((int64_t)oy * ow + ox) * n_embd;
            memset(o, 0, (size_t)n_embd * sizeof(float));
            /* rows, then columns, summed in float as ggml's pool does */
            for (int ky = 0; ky < k; ky++)
                for (int kx = 0; kx < k; kx++) {
                    const float *p = x + ((int64_t)(oy * k + ky) * gw + ox * k + kx) * n_embd;
                    for (int64_t c = 0; c < n_embd; c++) o[c] += p[c];
                }
            for (int64_t c = 0; c < n_embd; c++) o[c] /= area;
        }
    }
}

int vit_project_gemma3(const seer_vision *v, seer_pool *pool, const float *x, const vit_layout *l, float *out,
                       double *flops, seer_error *err) {
    const int k = v->hp.scale_factor;
    const int64_t d = v->hp.n_embd, n_tok = (int64_t)(l->gw / k) * (l->gh / k);
    float *pooled = malloc((size_t)(n_tok * d) * sizeof(float));
    if (!pooled) {
        seer_error_set(err, "vision: out of memory (projector)");
        return -1;
    }
    vit_avg_pool(x, l->gw, l->gh, d, k, pooled);
    vit_norm_rows(pool, VIT_NORM_RMS, pooled, pooled, &v->mm_ln1, n_tok, d, v->hp.eps);
    vit_linear_apply(v, pool, &v->mm0, pooled, n_tok, out, flops);
    free(pooled);
    return 0;
}
