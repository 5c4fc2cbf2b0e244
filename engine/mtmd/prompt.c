/* The chunk list of a multimodal prompt: appending text and image chunks,
 * totals, freeing. */
#include <stdlib.h>
#include <string.h>

#include "mtmd/mtmd_internal.h"

static seer_chunk *new_chunk(mtmd_builder *b) {
    seer_mm_prompt *p = b->p;
    if (p->n_chunks == b->cap) {
        int cap = b->cap ? b->cap * 2 : 8;
        seer_chunk *grown = realloc(p->chunks, sizeof *grown * (size_t)cap);
        if (!grown) {
            seer_error_set(b->err, "out of memory building the prompt");
            return NULL;
        }
        p->chunks = grown;
        b->cap = cap;
    }
    seer_chunk *c = &p->chunks[p->n_chunks++];
    memset(c, 0, sizeof *c);
    c->image_index = -1;
    return c;
}

int mtmd_push_tokens(mtmd_builder *b, const int32_t *ids, int n) {
    if (n <= 0) return 0;
    seer_mm_prompt *p = b->p;
    seer_chunk *c = p->n_chunks > 0 && p->chunks[p->n_chunks - 1].type == SEER_CHUNK_TEXT ? &p->chunks[p->n_chunks - 1]
                                                                                           : new_chunk(b);
    if (!c) return -1;
    int32_t *grown = realloc(c->tokens, sizeof *grown * (size_t)(c->n_tokens + n));
    if (!grown) {
        seer_error_set(b->err, "out of memory building the prompt");
        return -1;
    }
    memcpy(grown + c->n_tokens, ids, sizeof *ids * (size_t)n);
    c->tokens = grown;
    c->n_tokens += n;
    c->n_pos += n;
    p->n_tokens += n;
    p->n_pos += n;
    return 0;
}

int mtmd_push_text(mtmd_builder *b, const char *text, size_t len) {
    if (len == 0) return 0;
    if (len > (size_t)INT32_MAX / 2) {
        seer_error_set(b->err, "prompt text too long (%zu bytes)", len);
        return -1;
    }
    int64_t n = 0;
    int32_t *ids = seer_tokenize_new(b->vocab, text, len, false, true, 0, &n);
    if (!ids) {
        seer_error_set(b->err, "tokenizing the prompt failed (or out of memory)");
        return -1;
    }
    int rc = n > INT32_MAX ? -1 : mtmd_push_tokens(b, ids, (int)n);
    if (n > INT32_MAX) seer_error_set(b->err, "prompt text too long (%lld tokens)", (long long)n);
    free(ids);
    return rc;
}

int mtmd_push_image(mtmd_builder *b, seer_pixels *px, const mtmd_image_shape *shape, int image_index) {
    const int64_t n = shape->n_tokens;
    if (shape->nx <= 0 || shape->ny <= 0 || n <= 0 || shape->n_pos <= 0) {
        seer_error_set(b->err, "image %d: the vision model gives no tokens for a %d×%d input", image_index + 1, px->w,
                       px->h);
        return -1;
    }
    b->n_image_tokens += n;
    if (b->n_image_tokens > SEER_MTMD_MAX_IMAGE_TOKENS) {
        seer_error_set(b->err,
                       "the images of this prompt need at least %lld tokens, over the limit of %d: "
                       "use fewer or smaller images",
                       (long long)b->n_image_tokens, SEER_MTMD_MAX_IMAGE_TOKENS);
        return -1;
    }
    seer_chunk *c = new_chunk(b);
    if (!c) return -1;
    c->type = SEER_CHUNK_IMAGE;
    c->n_tokens = (int)n;
    c->n_pos = shape->n_pos;
    c->non_causal = shape->non_causal;
    c->xd_pos = shape->xd_pos;
    c->nx = shape->nx;
    c->ny = shape->ny;
    c->image_index = image_index;
    c->pixels = *px;
    px->data = NULL;
    px->rgb = NULL;
    px->source = NULL;
    b->p->n_tokens += (int)n;
    b->p->n_pos += shape->n_pos;
    return 0;
}

void seer_mm_prompt_free(seer_mm_prompt *p) {
    if (!p) return;
    for (int i = 0; i < p->n_chunks; i++) {
        free(p->chunks[i].tokens);
        seer_pixels_free(&p->chunks[i].pixels);
        free(p->chunks[i].embd);
    }
    free(p->chunks);
    memset(p, 0, sizeof *p);
}
