/* Qwen3-VL's DeepStack mergers, each fed by the output of one intermediate
 * block (the main merger is Qwen2-VL's, vit_project_qwen). Every output row is
 * [main | DeepStack of the lowest block | … ], n_embd_text wide each: the
 * LLM adds the extra slices to its hidden state after its first layers. */
#include "vision/vision_internal.h"

int vit_deepstack_after_block(const seer_vision *v, seer_pool *pool, int il, const float *x, const vit_layout *l,
                              float *out, double *flops, seer_error *err) {
    const seer_vision_hparams *hp = &v->hp;
    for (int i = 0; i < hp->n_deepstack; i++) {
        const vit_deepstack *ds = &v->deepstack[i];
        if (ds->layer != il) continue;
        return vit_merge_cells(v, pool, &ds->norm, hp->eps, &ds->fc1, &ds->fc2, x, l,
                               out + (int64_t)(1 + i) * hp->n_embd_text, hp->n_embd_out, flops, err);
    }
    return 0;
}
