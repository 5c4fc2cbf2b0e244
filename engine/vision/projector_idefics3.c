/* Idefics3 (SmolVLM) projector: pixel shuffle by s, then one linear layer.
 * Output token (i, j) of the (gh/s)×(gw/s) grid concatenates, dy outer and
 * dx inner, the features of patch (s·i + dy, s·j + dx). */
#include <stdlib.h>
#include <string.h>

#include "vision/vision_internal.h"

int vit_project_idefics3(const seer_vision *v, seer_pool *pool, const float *x, const vit_layout *l, float *out,
                         double *flops, seer_error *err) {
    int s = v->hp.scale_factor, ow = l->gw / s, oh = l->gh / s;
    int64_t d = v->hp.n_embd, n_tok = (int64_t)ow * oh;
    float *shuffled = malloc((size_t)(n_tok * d * s * s) * sizeof(float));
    if (!shuffled) {
        seer_error_set(err, "vision: out of memory (projector)");
        return -1;
    }
    for (int i = 0; i < oh; i++)
        for (int j = 0; j < ow; j++) {
            float *dst = shuffled + ((int64_t)i * ow + j) * d * s * s;
            for (int dy = 0; dy < s; dy++)
                for (int dx = 0; dx < s; dx++, dst += d)
                    memcpy(dst, x + ((int64_t)(s * i + dy) * l->gw + s * j + dx) * d, (size_t)d * sizeof(float));
        }
    vit_linear_apply(pool, &v->mm0, shuffled, n_tok, out, flops);
    free(shuffled);
    return 0;
}
