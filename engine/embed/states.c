/* The prompts embeddings are made from, and the decoder run that keeps every
 * row's final hidden state (jina-embeddings-v4's recipe: text after a role
 * prefix with no template or BOS; an image inside a fixed user turn). */
#include <stdlib.h>
#include <string.h>

#include "seer/embed.h"

bool seer_embed_role_parse(const char *name, seer_embed_role *out) {
    if (!name) return false;
    if (!strcmp(name, "query")) *out = SEER_EMBED_QUERY;
    else if (!strcmp(name, "passage")) *out = SEER_EMBED_PASSAGE;
    else if (!strcmp(name, "none")) *out = SEER_EMBED_PLAIN;
    else return false;
    return true;
}

int seer_embed_text_prompt(const seer_vocab *vocab, seer_embed_role role, const char *text, seer_mm_prompt *out,
                           seer_error *err) {
    const char *prefix = role == SEER_EMBED_QUERY ? "Query: " : role == SEER_EMBED_PASSAGE ? "Passage: " : "";
    size_t len = strlen(prefix) + strlen(text) + 1;
    char *full = malloc(len);
    if (!full) {
        seer_error_set(err, "out of memory for a %zu-byte text", len);
        return -1;
    }
    snprintf(full, len, "%s%s", prefix, text);
    int rc = seer_mtmd_tokenize(vocab, NULL, full, NULL, 0, false, out, err);
    free(full);
    if (rc == 0 && out->n_tokens == 0) {
        seer_mm_prompt_free(out);
        seer_error_set(err, "empty text: nothing to embed");
        return -1;
    }
    return rc;
}

int seer_embed_image_prompt(const seer_vocab *vocab, const seer_vision *vision, const seer_image *img,
                            seer_mm_prompt *out, seer_error *err) {
    return seer_mtmd_tokenize(vocab, vision, SEER_EMBED_IMAGE_PROMPT, img, 1, false, out, err);
}

/* Token ids row by row (image rows as <|image_pad|>) and the pooled rows:
 * an image and the marker on each side of it, else everything. */
static int fill_ids(const seer_vocab *vocab, const seer_mm_prompt *p, seer_embed_states *s, seer_error *err) {
    const int32_t pad = seer_vocab_find(vocab, "<|image_pad|>");
    int row = 0, image_first = -1, image_end = -1;
    for (int i = 0; i < p->n_chunks; i++) {
        const seer_chunk *c = &p->chunks[i];
        if (c->type == SEER_CHUNK_IMAGE) {
            if (image_first >= 0) {
                seer_error_set(err, "an embedding takes one image, this prompt has more");
                return -1;
            }
            image_first = row;
            image_end = row + c->n_tokens;
            for (int k = 0; k < c->n_tokens; k++) s->ids[row + k] = pad;
        } else {
            memcpy(s->ids + row, c->tokens, sizeof(int32_t) * (size_t)c->n_tokens);
        }
        row += c->n_tokens;
    }
    s->pool_begin = 0;
    s->pool_end = s->n_tokens;
    if (image_first >= 0) {
        const int32_t start = seer_vocab_find(vocab, "<|vision_start|>"), end = seer_vocab_find(vocab, "<|vision_end|>");
        if (image_first < 1 || image_end >= s->n_tokens || s->ids[image_first - 1] != start ||
            s->ids[image_end] != end) {
            seer_error_set(err, "the image is not between <|vision_start|> and <|vision_end|> (not a Qwen2-VL layout)");
            return -1;
        }
        s->pool_begin = image_first - 1;
        s->pool_end = image_end + 1;
    }
    return 0;
}

int seer_embed_states_compute(seer_ctx *ctx, seer_vision *vision, seer_pool *pool, seer_mm_prompt *p,
                              seer_embed_states *out, const volatile int *cancel, seer_error *err) {
    memset(out, 0, sizeof *out);
    const seer_llm *m = seer_ctx_model(ctx);
    out->n_tokens = p->n_tokens;
    out->n_embd = seer_llm_get_info(m)->n_embd;
    out->ids = malloc(sizeof(int32_t) * (size_t)p->n_tokens);
    out->hidden = malloc(sizeof(float) * (size_t)p->n_tokens * (size_t)out->n_embd);
    if (!out->ids || !out->hidden) {
        seer_error_set(err, "out of memory for %d rows of hidden states", p->n_tokens);
        seer_embed_states_free(out);
        return -1;
    }
    if (fill_ids(seer_llm_vocab(m), p, out, err) != 0 || seer_mtmd_encode(vision, pool, p, cancel, err) != 0) {
        seer_embed_states_free(out);
        return -1;
    }
    seer_ctx_truncate(ctx, 0, 0); /* each input on its own, from position 0 */
    int rc = seer_mtmd_eval_hidden(ctx, p, out->hidden, cancel, err);
    seer_ctx_truncate(ctx, 0, 0);
    if (rc != 0) seer_embed_states_free(out);
    return rc;
}

void seer_embed_states_free(seer_embed_states *s) {
    if (!s) return;
    free(s->ids);
    free(s->hidden);
    memset(s, 0, sizeof *s);
}
