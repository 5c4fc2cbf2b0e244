/* Image chunks of several prompts encoded a few per vision pass: small
 * images leave most of a pass's matrix products short, so grouping them
 * until a pass holds max_patches patches gives fewer, larger products (the
 * result is the same: attention stays within each image). The prompts may
 * belong to different requests: embedding inputs, or the chats a server
 * admits together. */
#include <stdlib.h>

#include "seer/mtmd.h"

typedef struct pending {
    seer_chunk *chunk[SEER_VISION_MAX_BATCH];
    seer_pixels pixels[SEER_VISION_MAX_BATCH];
    float *out[SEER_VISION_MAX_BATCH];
    int n, patches;
} pending;

/* Encodes the group (or, with vision NULL, drops it) and empties it. */
static int flush(seer_vision *vision, seer_pool *pool, pending *g, seer_mtmd_passes *passes,
                 const volatile int *cancel, seer_error *err) {
    const double t0 = seer_time_ms();
    int rc = vision && g->n ? seer_vision_encode_batch(vision, pool, g->pixels, g->n, g->out, cancel, NULL, err) : 0;
    const double each = g->n ? (seer_time_ms() - t0) / g->n : 0;
    if (vision && g->n && passes) {
        passes->calls++;
        passes->images += g->n;
    }
    for (int i = 0; i < g->n; i++) {
        if (vision && rc == 0) {
            g->chunk[i]->embd = g->out[i];
            g->chunk[i]->encode_ms = each; /* its share of the pass */
            seer_pixels_free(&g->chunk[i]->pixels);
        } else {
            free(g->out[i]);
        }
    }
    g->n = g->patches = 0;
    return rc;
}

int seer_mtmd_encode_many(seer_vision *vision, seer_pool *pool, seer_mm_prompt *const *prompts, int n, int max_patches,
                          seer_mtmd_passes *passes, const volatile int *cancel, seer_error *err) {
    const seer_vision_hparams *hp = vision ? seer_vision_get_hparams(vision) : NULL;
    if (!seer_vision_batchable(vision)) max_patches = 0; /* one pass an input: group none (passes counts them) */
    pending g = {.n = 0};
    int rc = 0;
    for (int i = 0; rc == 0 && i < n; i++) {
        for (int k = 0; rc == 0 && k < prompts[i]->n_chunks; k++) {
            seer_chunk *c = &prompts[i]->chunks[k];
            if (c->type != SEER_CHUNK_IMAGE || c->embd) continue;
            if (!hp || !seer_pixels_present(&c->pixels)) {
                seer_error_set(err, "image %d: nothing to encode (no vision model or pixels)", c->image_index + 1);
                rc = -1;
                break;
            }
            const int patches = (c->pixels.w / hp->patch_size) * (c->pixels.h / hp->patch_size);
            if (g.n == SEER_VISION_MAX_BATCH || (g.n > 0 && g.patches + patches > max_patches))
                if ((rc = flush(vision, pool, &g, passes, cancel, err)) != 0) break;
            float *out = malloc(sizeof(float) * (size_t)c->n_tokens * (size_t)hp->n_embd_out);
            if (!out) {
                seer_error_set(err, "out of memory for %d image embeddings", c->n_tokens);
                rc = -1;
                break;
            }
            g.chunk[g.n] = c;
            g.pixels[g.n] = c->pixels;
            g.out[g.n++] = out;
            g.patches += patches;
            prompts[i]->n_embd = hp->n_embd_out;
        }
    }
    if (rc == 0) return flush(vision, pool, &g, passes, cancel, err);
    flush(NULL, NULL, &g, NULL, NULL, NULL);
    return rc;
}
