/* The decoder's forward pass over a batch of rows: pre-norm blocks with
 * RMSNorm, rotary attention over the KV cache, SwiGLU FFN, then the output
 * head for the rows whose logits are wanted. Matmuls run batched over all
 * rows through seer_matmul (quantized dot products for one row, GEMM for
 * many). */
#include <string.h>

#include "decoder/llm_internal.h"
#include "seer/ops.h"

static void embed_rows(seer_ctx *c, int n, const int32_t *tokens, const float *embd) {
    const int E = c->m->info.n_embd;
    if (embd) {
        memcpy(c->x, embd, sizeof(float) * (size_t)n * (size_t)E);
        return;
    }
    for (int i = 0; i < n; i++) seer_weight_get_row(&c->m->tok_embd, tokens[i], c->x + (size_t)i * E);
}

static void rope_tables(seer_ctx *c, int n, const float *rows_pos) {
    const seer_llm *m = c->m;
    for (int i = 0; i < n; i++)
        seer_rope_table(c->rope_cs + (size_t)i * m->n_rot, m->n_rot, m->rope_base,
                        m->rope == LLM_ROPE_MULTI ? m->sections : NULL, rows_pos + 4 * i);
}

/* Rotates every head of n rows of width n_heads*head_dim. */
static void rope_rows(const seer_ctx *c, float *x, int n, int n_heads) {
    const seer_llm *m = c->m;
    const int hd = m->info.head_dim;
    for (int i = 0; i < n; i++) {
        const float *cs = c->rope_cs + (size_t)i * m->n_rot;
        for (int h = 0; h < n_heads; h++) {
            float *v = x + ((size_t)i * n_heads + h) * hd;
            if (m->rope == LLM_ROPE_NORMAL) seer_rope_apply_normal(v, m->n_rot, cs);
            else seer_rope_apply_neox(v, m->n_rot, cs);
        }
    }
}

/* Copies the batch's K and V rows into the cache at rows n_used… */
static void store_kv(seer_ctx *c, int layer, int n) {
    const seer_llm_info *in = &c->m->info;
    const int hd = in->head_dim;
    for (int h = 0; h < in->n_head_kv; h++) {
        const size_t base = ((size_t)layer * in->n_head_kv + h) * c->kv_head_stride;
        for (int i = 0; i < n; i++) {
            const size_t dst = base + (size_t)(c->n_used + i) * hd;
            const size_t src = ((size_t)i * in->n_head_kv + h) * hd;
            memcpy(c->k_cache + dst, c->k + src, sizeof(float) * (size_t)hd);
            memcpy(c->v_cache + dst, c->v + src, sizeof(float) * (size_t)hd);
        }
    }
}

static void rmsnorm_rows(const float *src, float *dst, const float *w, int n, int E, float eps) {
    memcpy(dst, src, sizeof(float) * (size_t)n * (size_t)E);
    seer_rmsnorm(dst, w, n, E, eps);
}

static void block(seer_ctx *c, int l, int n) {
    const seer_llm *m = c->m;
    const llm_layer *L = &m->layers[l];
    const int E = m->info.n_embd, F = m->info.n_ff;
    const int64_t Dq = (int64_t)m->info.n_head * m->info.head_dim;
    rmsnorm_rows(c->x, c->xn, L->attn_norm, n, E, m->norm_eps);
    const seer_weight *qkv[3] = {&L->wq, &L->wk, &L->wv};
    seer_matmul_multi(c->pool, 3, qkv, c->xn, n, (float *const[]){c->q, c->k, c->v},
                      (const float *const[]){L->bq, L->bk, L->bv});
    rope_rows(c, c->q, n, m->info.n_head);
    rope_rows(c, c->k, n, m->info.n_head_kv);
    store_kv(c, l, n);
    llm_attention(c, l, n);
    seer_matmul(c->pool, &L->wo, c->attn, n, c->xn, NULL);
    seer_add(c->x, c->xn, (int64_t)n * E);
    (void)Dq;
    rmsnorm_rows(c->x, c->xn, L->ffn_norm, n, E, m->norm_eps);
    const seer_weight *gate_up[2] = {&L->w_gate, &L->w_up};
    seer_matmul_multi(c->pool, 2, gate_up, c->xn, n, (float *const[]){c->ffn_a, c->ffn_b}, NULL);
    seer_swiglu(c->ffn_a, c->ffn_b, (int64_t)n * F);
    seer_matmul(c->pool, &L->w_down, c->ffn_a, n, c->xn, NULL);
    seer_add(c->x, c->xn, (int64_t)n * E);
}

int llm_forward(seer_ctx *c, int n, const int32_t *tokens, const float *embd, const float *rows_pos,
                llm_logits want, int logits_row0, const volatile int *cancel) {
    const seer_llm *m = c->m;
    const int E = m->info.n_embd;
    embed_rows(c, n, tokens, embd);
    rope_tables(c, n, rows_pos);
    for (int l = 0; l < m->info.n_layer; l++) {
        if (cancel && *cancel) return -1;
        block(c, l, n);
    }
    if (cancel && *cancel) return -1;
    if (want == LLM_LOGITS_NONE) return 0;
    const int first = want == LLM_LOGITS_ALL ? 0 : n - 1;
    const int rows = n - first;
    rmsnorm_rows(c->x + (size_t)first * E, c->xn, m->output_norm, rows, E, m->norm_eps);
    float *dst = c->logits + (want == LLM_LOGITS_ALL ? (size_t)logits_row0 * (size_t)m->info.n_vocab : 0);
    seer_matmul(c->pool, &m->output, c->xn, rows, dst, NULL);
    return 0;
}
