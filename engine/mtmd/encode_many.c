/* Image chunks of one or several prompts encoded a few per vision pass
 * (seer_vision_encode_passes): a tiled image's tiles, or the images of the
 * requests a server admits together. Small inputs leave most of a pass's
 * matrix products short and pack the same weights again for each; grouped,
 * the products are fewer and larger and the result is the same. */
#include <stdlib.h>

#include "seer/mtmd.h"

static bool todo(const seer_chunk *c) { return c->type == SEER_CHUNK_IMAGE && !c->embd; }

int seer_mtmd_encode_many(seer_vision *vision, seer_pool *pool, seer_mm_prompt *const *prompts, int n, int max_patches,
                          seer_vision_passes *passes, const volatile int *cancel, seer_error *err) {
    const seer_vision_hparams *hp = vision ? seer_vision_get_hparams(vision) : NULL;
    int n_todo = 0;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < prompts[i]->n_chunks; k++) {
            const seer_chunk *c = &prompts[i]->chunks[k];
            if (!todo(c)) continue;
            if (!hp || !seer_pixels_present(&c->pixels)) {
                seer_error_set(err, "image %d: nothing to encode (no vision model or pixels)", c->image_index + 1);
                return -1;
            }
            n_todo++;
        }
    if (n_todo == 0) return 0;
    seer_chunk **chunk = calloc((size_t)n_todo, sizeof *chunk);
    seer_pixels *pixels = calloc((size_t)n_todo, sizeof *pixels);
    float **out = calloc((size_t)n_todo, sizeof *out);
    double *ms = calloc((size_t)n_todo, sizeof *ms);
    int rc = chunk && pixels && out && ms ? 0 : -1, m = 0;
    for (int i = 0; rc == 0 && i < n; i++)
        for (int k = 0; rc == 0 && k < prompts[i]->n_chunks; k++) {
            seer_chunk *c = &prompts[i]->chunks[k];
            if (!todo(c)) continue;
            prompts[i]->n_embd = hp->n_embd_out;
            chunk[m] = c;
            pixels[m] = c->pixels;
            out[m] = malloc(sizeof(float) * (size_t)c->n_tokens * (size_t)hp->n_embd_out);
            if (!out[m++]) rc = -1;
        }
    if (rc != 0) seer_error_set(err, "out of memory for the embeddings of %d image inputs", n_todo);
    else rc = seer_vision_encode_passes(vision, pool, pixels, n_todo, out, max_patches, ms, passes, cancel, NULL, err);
    for (int i = 0; i < m; i++) {
        if (rc == 0) {
            chunk[i]->embd = out[i];
            chunk[i]->encode_ms = ms[i];
            seer_pixels_free(&chunk[i]->pixels);
        } else {
            free(out[i]);
        }
    }
    free(chunk);
    free(pixels);
    free(out);
    free(ms);
    return rc;
}
