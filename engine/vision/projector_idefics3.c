/* Idefics3 (SmolVLM) projector: pixel shuffle by s (vit_pixel_unshuffle),
 * then one linear layer. */
#include <stdlib.h>
#include <string.h>

#include "vision/vision_internal.h"

void vit_pixel_unshuffle(const float *x, int gw, int gh, int64_t d, int s, float *out) {
    int ow = gw / s, oh = gh / s;
    for (int i = 0; i < oh; i++)
        for (int j = 0; j < ow; j++) {
            float *dst = out + ((int64_t)i * ow + j) * d * s * s;
            for (int dy = 0; dy < s; dy++)
                for (int dx = 0; dx < s; dx++, dst += d)
                    memcpy(dst, x + ((int64_t)(s * i + dy) * gw + s * j + dx) * d, (size_t)d * sizeof(float));
        }
}

int vit_project_idefics3(const seer_vision *v, seer_pool *pool, const float *x, const vit_layout *l, float *out,
                         double *flops, seer_error *err) {
    int s = v->hp.scale_factor, ow = l->gw / s, oh = l->gh / s;
    int64_t d = v->hp.n_embd, n_tok = (int64_t)ow * oh;
    float *shuffled = malloc((size_t)(n_tok * d * s * s) * sizeof(float));
    if (!shuffled) {
        seer_error_set(err, "vision: out of memory (projector)");
        return -1;
    }
    vit_pixel_unshuffle(x, l->gw, l->gh, d, s, shuffled);
    vit_linear_apply(v, pool, &v->mm0, shuffled, n_tok, out, flops);
    free(shuffled);
    return 0;
}
