/* Runs the vision encoder over every image chunk still without embeddings.
 * Pixels are released once encoded: embeddings are what the prompt keeps. */
#include <stdlib.h>

#include "seer/mtmd.h"

static int encode_chunks(seer_vision *vision, seer_pool *pool, seer_mm_prompt *p, const volatile int *cancel,
                         seer_error *err) {
    if (!p) return -1;
    int n_todo = 0, n_done = 0; /* chunks to encode: each gets its share of the progress */
    for (int i = 0; i < p->n_chunks; i++) n_todo += p->chunks[i].type == SEER_CHUNK_IMAGE && !p->chunks[i].embd;
    for (int i = 0; i < p->n_chunks; i++) {
        seer_chunk *c = &p->chunks[i];
        if (c->type != SEER_CHUNK_IMAGE || c->embd) continue;
        if (!vision) {
            seer_error_set(err, "images need a vision model (mmproj) and none is loaded");
            return -1;
        }
        if (!seer_pixels_present(&c->pixels)) {
            seer_error_set(err, "image %d: no pixels to encode", c->image_index + 1);
            return -1;
        }
        if (cancel && *cancel) {
            seer_error_set(err, "cancelled");
            return -1;
        }
        const seer_vision_hparams *hp = seer_vision_get_hparams(vision);
        int n_embd = hp ? hp->n_embd_out : 0;
        if (n_embd <= 0) {
            seer_error_set(err, "the vision model reports no output width");
            return -1;
        }
        float *embd = malloc(sizeof *embd * (size_t)c->n_tokens * (size_t)n_embd);
        if (!embd) {
            seer_error_set(err, "out of memory for %d image embeddings of width %d", c->n_tokens, n_embd);
            return -1;
        }
        double t0 = seer_time_ms();
        seer_vision_set_progress_span(vision, (float)n_done / (float)n_todo, 1.0f / (float)n_todo);
        n_done++;
        if (seer_vision_encode(vision, pool, &c->pixels, embd, cancel, NULL, err) != 0) {
            free(embd);
            return -1;
        }
        c->encode_ms = seer_time_ms() - t0;
        c->embd = embd;
        p->n_embd = n_embd;
        seer_pixels_free(&c->pixels);
    }
    return 0;
}

int seer_mtmd_encode(seer_vision *vision, seer_pool *pool, seer_mm_prompt *p, const volatile int *cancel,
                     seer_error *err) {
    const int rc = encode_chunks(vision, pool, p, cancel, err);
    if (vision) seer_vision_set_progress_span(vision, 0, 1); /* a later lone encode reports over [0, 1] */
    return rc;
}
