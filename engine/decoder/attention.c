/* Causal attention over the KV cache. Each (head, row) task reads its KV
 * head's keys and values as contiguous rows; tasks are spread over the pool,
 * so single-token decode is parallel over heads. */
#include <math.h>

#include "decoder/llm_internal.h"
#include "seer/ops.h"

typedef struct attn_job {
    seer_ctx *c;
    int layer, n;
} attn_job;

static void attn_task(void *ctx, int ith, int nth) {
    const attn_job *j = ctx;
    seer_ctx *c = j->c;
    const seer_llm_info *in = &c->m->info;
    const int hd = in->head_dim, group = in->n_head / in->n_head_kv;
    const float scale = 1.0f / sqrtf((float)hd);
    float *scores = c->scores + (size_t)ith * (size_t)c->n_ctx;
    int64_t t0, t1;
    seer_pool_range((int64_t)in->n_head * j->n, ith, nth, &t0, &t1);
    for (int64_t t = t0; t < t1; t++) {
        const int h = (int)(t % in->n_head), i = (int)(t / in->n_head);
        const int kvh = h / group;
        const size_t base = ((size_t)j->layer * in->n_head_kv + kvh) * c->kv_head_stride;
        const float *K = c->k_cache + base, *V = c->v_cache + base;
        const float *q = c->q + ((size_t)i * in->n_head + h) * hd;
        const int len = c->n_used + i + 1;
        for (int r = 0; r < len; r++) scores[r] = c->attn_k.dot(q, K + (size_t)r * hd, hd) * scale;
        seer_softmax(scores, len);
        float *out = c->attn + ((size_t)i * in->n_head + h) * hd;
        for (int d = 0; d < hd; d++) out[d] = 0.0f;
        for (int r = 0; r < len; r++) c->attn_k.axpy(out, scores[r], V + (size_t)r * hd, hd);
    }
}

void llm_attention(seer_ctx *c, int layer, int n) {
    attn_job j = {.c = c, .layer = layer, .n = n};
    seer_pool_run(c->pool, attn_task, &j);
}
