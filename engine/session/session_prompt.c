/* From rendered text to decoder input: text pieces are tokenized, each image
 * marker is replaced by that image's already-encoded chunks. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "session/session_internal.h"

static int push_chunk(seer_mm_prompt *p, int *cap, const seer_chunk *c) {
    if (p->n_chunks == *cap) {
        int nc = *cap ? *cap * 2 : 8;
        seer_chunk *q = realloc(p->chunks, sizeof *q * (size_t)nc);
        if (!q) return -1;
        p->chunks = q;
        *cap = nc;
    }
    p->chunks[p->n_chunks++] = *c;
    p->n_tokens += c->n_tokens;
    p->n_pos += c->n_pos;
    return 0;
}

int32_t *session_tokenize(const seer_session *s, const char *text, size_t len, bool bos, int *n_out,
                          seer_error *err) {
    int64_t n = 0;
    int32_t *ids = seer_tokenize_new(s->vocab, text, len, false, true, bos ? 1 : 0, &n);
    if (!ids || n > INT32_MAX - 1) {
        free(ids);
        seer_error_set(err, "cannot tokenize the prompt");
        return NULL;
    }
    if (bos) ids[0] = seer_vocab_bos(s->vocab);
    *n_out = (int)n + (bos ? 1 : 0);
    return ids;
}

/* A text chunk owning its token array (marked by image_index == -1). */
static int push_text(const seer_session *s, seer_mm_prompt *p, int *cap, const char *text, size_t len, bool bos,
                     seer_error *err) {
    int total = 0;
    int32_t *ids = session_tokenize(s, text, len, bos, &total, err);
    if (!ids) return -1;
    if (total == 0) {
        free(ids);
        return 0;
    }
    seer_chunk c = {.type = SEER_CHUNK_TEXT, .tokens = ids, .n_tokens = total, .n_pos = total, .image_index = -1};
    if (push_chunk(p, cap, &c) != 0) {
        free(ids);
        seer_error_set(err, "out of memory");
        return -1;
    }
    return 0;
}

int session_chunk_image(const seer_chunk *c) {
    if (c->type == SEER_CHUNK_IMAGE) return c->image_index;
    return c->image_index <= -2 ? -2 - c->image_index : -1;
}

int session_build_prompt(const seer_session *s, const char *text, const int *images, int n_images, bool bos,
                         seer_mm_prompt *out, seer_error *err) {
    memset(out, 0, sizeof *out);
    const seer_llm_info *info = seer_llm_get_info(s->llm);
    out->n_embd = info ? info->n_embd : 0;
    out->mrope = s->mrope;
    int cap = 0, used_images = 0;
    const size_t mlen = strlen(SEER_MTMD_MARKER);
    const char *p = text;
    if (bos && seer_vocab_bos(s->vocab) < 0) bos = false;
    for (;;) {
        const char *m = strstr(p, SEER_MTMD_MARKER);
        size_t len = m ? (size_t)(m - p) : strlen(p);
        if (push_text(s, out, &cap, p, len, bos, err) != 0) goto fail;
        bos = false;
        if (!m) break;
        if (used_images >= n_images) {
            seer_error_set(err, "the prompt has more image markers than attached images");
            goto fail;
        }
        const int idx = images[used_images++];
        const session_image *im = &s->images[idx];
        for (int i = 0; i < im->mm.n_chunks; i++) {
            seer_chunk c = im->mm.chunks[i];
            if (c.n_tokens == 0) continue;
            /* which image the chunk is of (session_chunk_image); wrapper
             * tokens are borrowed, never freed here */
            c.image_index = c.type == SEER_CHUNK_TEXT ? -2 - idx : idx;
            if (c.type == SEER_CHUNK_IMAGE) out->n_embd = im->mm.n_embd;
            if (push_chunk(out, &cap, &c) != 0) {
                seer_error_set(err, "out of memory");
                goto fail;
            }
        }
        p = m + mlen;
    }
    return 0;
fail:
    session_prompt_free(out);
    return -1;
}

void session_prompt_drop_rows(seer_mm_prompt *p, int rows) {
    int k = 0;
    while (rows > 0 && k < p->n_chunks) {
        seer_chunk *c = &p->chunks[k];
        if (c->n_tokens > rows && c->type == SEER_CHUNK_TEXT && c->image_index == -1) {
            memmove(c->tokens, c->tokens + rows, sizeof *c->tokens * (size_t)(c->n_tokens - rows));
            c->n_tokens -= rows;
            c->n_pos -= rows;
            p->n_tokens -= rows;
            p->n_pos -= rows;
            break;
        }
        rows -= c->n_tokens; /* a whole chunk (the caller never cuts an image's) */
        p->n_tokens -= c->n_tokens;
        p->n_pos -= c->n_pos;
        if (c->type == SEER_CHUNK_TEXT && c->image_index == -1) free(c->tokens);
        k++;
    }
    memmove(p->chunks, p->chunks + k, sizeof *p->chunks * (size_t)(p->n_chunks - k));
    p->n_chunks -= k;
}

void session_prompt_free(seer_mm_prompt *p) {
    for (int i = 0; i < p->n_chunks; i++)
        if (p->chunks[i].type == SEER_CHUNK_TEXT && p->chunks[i].image_index == -1) free(p->chunks[i].tokens);
    free(p->chunks);
    memset(p, 0, sizeof *p);
}
