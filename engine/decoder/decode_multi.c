/* One decode step for several conversations at once (continuous batching):
 * the next token of each context is a row of the lead context's scratch, so
 * forward.c reads every weight matrix once for all of them; the parts that
 * belong to one sequence (its positions and RoPE, its KV cache, attention
 * over it, its recurrent short-convolution state) run per row against that
 * row's own context; a Gated DeltaNet layer (gated_delta.c) reads each
 * row's conv and delta-rule state from that row's context itself. A step of one row per context costs about what one
 * context's step costs while the matmuls are bound by reading the weights. */
#include <string.h>

#include "decoder/llm_internal.h"

void llm_multi_attention(seer_ctx *lead, int l) {
    const llm_multi *mj = lead->multi;
    const llm_layer *L = &lead->m->layers[l];
    const size_t Dq = (size_t)lead->m->info.n_head * (size_t)L->head_dim;
    const size_t Dkv = (size_t)L->n_head_kv * (size_t)L->head_dim;
    for (int i = 0; i < mj->n; i++) {
        seer_ctx *c = mj->ctx[i]; /* ctx[0] is the lead: its row 0 is in place */
        if (i > 0) {
            memcpy(c->q, lead->q + (size_t)i * Dq, sizeof(float) * Dq);
            if (!L->kv_shared) memcpy(c->k, lead->k + (size_t)i * Dkv, sizeof(float) * Dkv);
            if (!L->kv_shared && !L->v_from_k) memcpy(c->v, lead->v + (size_t)i * Dkv, sizeof(float) * Dkv);
        }
        llm_rope_store_rows(c, l, 0, 1);
        llm_attention(c, l, 1);
        if (i > 0) memcpy(lead->attn + (size_t)i * Dq, c->attn, sizeof(float) * Dq);
    }
}

void llm_multi_shortconv(seer_ctx *lead, int l) {
    const llm_multi *mj = lead->multi;
    const size_t E = (size_t)lead->m->info.n_embd;
    for (int i = 0; i < mj->n; i++) {
        seer_ctx *c = mj->ctx[i];
        if (i > 0) memcpy(c->conv_bcx, lead->conv_bcx + (size_t)i * 3 * E, sizeof(float) * 3 * E);
        llm_shortconv(c, l, 1);
        if (i > 0) memcpy(lead->attn + (size_t)i * E, c->attn, sizeof(float) * E);
    }
}

/* Rows ctx[0..n) through one forward pass on ctx[0]'s scratch; each
 * context's logits land in its own row 0. */
static void step_group(seer_ctx *const *ctx, const int32_t *tokens, int n) {
    seer_ctx *lead = ctx[0];
    const size_t V = (size_t)lead->m->info.n_vocab;
    int32_t pos[SEER_DECODE_MULTI_MAX];
    for (int i = 0; i < n; i++) {
        seer_ctx *c = ctx[i];
        pos[i] = c->next_pos;
        int32_t p[4];
        llm_row_pos(c->m, pos[i], true, p);
        const float rows_pos[4] = {(float)p[0], (float)p[1], (float)p[2], (float)p[3]};
        llm_rope_tables(c, 1, rows_pos);
        c->non_causal = false;
        c->embd_inp = NULL;
    }
    const llm_multi mj = {.ctx = ctx, .n = n};
    lead->multi = &mj;
    llm_forward(lead, n, tokens, NULL, NULL, false, LLM_LOGITS_ALL, 0, NULL, NULL);
    lead->multi = NULL;
    for (int i = 0; i < n; i++) {
        seer_ctx *c = ctx[i];
        if (i > 0) memcpy(c->logits, lead->logits + (size_t)i * V, sizeof(float) * V);
        c->n_used++;
        c->next_pos = pos[i] + 1;
        c->logits_all = false;
        c->logits_rows = 1;
    }
}

static int check_step(seer_ctx *const *ctx, const int32_t *tokens, int n, seer_error *err) {
    if (!ctx || !tokens || n <= 0 || n > SEER_DECODE_MULTI_MAX) {
        seer_error_set(err, "a multi-sequence step takes 1 to %d contexts", SEER_DECODE_MULTI_MAX);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        if (!ctx[i] || ctx[i]->m != ctx[0]->m) {
            seer_error_set(err, "context %d of a multi-sequence step is missing or of another model", i);
            return -1;
        }
        for (int k = 0; k < i; k++)
            if (ctx[k] == ctx[i]) {
                seer_error_set(err, "context %d appears twice in one multi-sequence step", i);
                return -1;
            }
        if (ctx[i]->n_used + 1 > ctx[i]->n_ctx) {
            seer_error_set(err, "context %d is full: %d tokens used of %d", i, ctx[i]->n_used, ctx[i]->n_ctx);
            return -1;
        }
        if (seer_ctx_reserve(ctx[i], ctx[i]->n_used + 1, err) != 0) return -1;
        if (tokens[i] < 0 || tokens[i] >= ctx[0]->m->info.n_vocab) {
            seer_error_set(err, "token id %d is outside the vocabulary (0…%d)", tokens[i], ctx[0]->m->info.n_vocab - 1);
            return -1;
        }
    }
    return 0;
}

int seer_ctx_decode_multi(seer_ctx *const *ctx, const int32_t *tokens, int n, seer_error *err) {
    if (check_step(ctx, tokens, n, err) != 0) return -1;
    if (n == 1) { /* the one-row kernels, as a seer_ctx_decode of one token */
        const seer_batch b = {.n = 1, .tokens = tokens};
        return seer_ctx_decode(ctx[0], &b, NULL, err) == 0 ? 0 : -1;
    }
    /* a group's lead keeps all its rows' logits at once */
    for (int g0 = 0; g0 < n;) {
        const seer_ctx *lead = ctx[g0];
        int k = n - g0;
        if (k > lead->n_batch) k = lead->n_batch;
        if (k > lead->logits_cap) k = lead->logits_cap;
        step_group(ctx + g0, tokens + g0, k);
        g0 += k;
    }
    return 0;
}
