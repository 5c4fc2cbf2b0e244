/* Gemma 4 projector (HF Gemma4VisionPooler + Gemma4MultimodalEmbedder, as
 * llama.cpp's gemma4v graph computes it): the patch grid averaged over k×k
 * blocks and scaled by √n_embd, standardised where the file has std_bias /
 * std_scale, RMS-normalised without weight, then the input projection to the
 * LLM width, its input and output clamped where the file says so. */
#include <math.h>
#include <stdlib.h>

#include "vision/vision_internal.h"

int vit_project_gemma4v(const seer_vision *v, seer_pool *pool, const float *x, const vit_layout *l, float *out,
                        double *flops, seer_error *err) {
    const int k = v->hp.scale_factor;
    const int64_t d = v->hp.n_embd, n_tok = (int64_t)(l->gw / k) * (l->gh / k);
    float *pooled = malloc((size_t)(n_tok * d) * sizeof(float));
    if (!pooled) {
        seer_error_set(err, "vision: out of memory (projector)");
        return -1;
    }
    vit_avg_pool(x, l->gw, l->gh, d, k, pooled);
    vit_scale_rows(pool, pooled, sqrtf((float)d), n_tok * d);
    if (v->std_bias && v->std_scale)
        for (int64_t t = 0; t < n_tok; t++)
            for (int64_t c = 0; c < d; c++) pooled[t * d + c] = (pooled[t * d + c] - v->std_bias[c]) * v->std_scale[c];
    const vit_norm_params plain = {0};
    vit_norm_rows(pool, VIT_NORM_RMS, pooled, pooled, &plain, n_tok, d, v->hp.eps);
    vit_linear_apply(v, pool, &v->mm0, vit_linear_input(&v->mm0, pooled, n_tok, pooled), n_tok, out, flops);
    free(pooled);
    return 0;
}
