/* Runs the vision encoder over every image chunk still without embeddings,
 * a few chunks a pass where the tower allows it (a tiled image's tiles
 * share the passes: seer_mtmd_encode_many). Pixels are released once
 * encoded: embeddings are what the prompt keeps. */
#include "seer/mtmd.h"

int seer_mtmd_encode(seer_vision *vision, seer_pool *pool, seer_mm_prompt *p, const volatile int *cancel,
                     seer_error *err) {
    if (!p) return -1;
    for (int i = 0; i < p->n_chunks; i++) {
        const seer_chunk *c = &p->chunks[i];
        if (c->type != SEER_CHUNK_IMAGE || c->embd) continue;
        if (!vision) {
            seer_error_set(err, "images need a vision model (mmproj) and none is loaded");
            return -1;
        }
        if (!seer_pixels_present(&c->pixels)) {
            seer_error_set(err, "image %d: no pixels to encode", c->image_index + 1);
            return -1;
        }
        const seer_vision_hparams *hp = seer_vision_get_hparams(vision);
        if (!hp || hp->n_embd_out <= 0) {
            seer_error_set(err, "the vision model reports no output width");
            return -1;
        }
    }
    if (cancel && *cancel) {
        seer_error_set(err, "cancelled");
        return -1;
    }
    return seer_mtmd_encode_many(vision, pool, &p, 1, SEER_VISION_PASS_PATCHES, NULL, cancel, err);
}
