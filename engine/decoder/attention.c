/* Causal attention over the KV cache. A task is one KV head (or part of its
 * query group) for one batch row: every key and value row is read once,
 * contiguously, for all the query heads that share it. Tasks are spread over
 * the pool, so single-token decode is parallel over heads. */
#include <math.h>

#include "decoder/llm_internal.h"
#include "seer/ops.h"

typedef struct attn_job {
    seer_ctx *c;
    int layer, n;
    int n_split;    /* parts each query group is split into (enough tasks for the threads) */
} attn_job;

static void attn_task(void *ctx, int ith, int nth) {
    const attn_job *j = ctx;
    seer_ctx *c = j->c;
    const seer_llm_info *in = &c->m->info;
    const int hd = in->head_dim, group = in->n_head / in->n_head_kv, gs = group / j->n_split;
    const float scale = 1.0f / sqrtf((float)hd);
    float *scores = c->scores + (size_t)ith * (size_t)group * (size_t)c->n_ctx;
    const int64_t per_row = (int64_t)in->n_head_kv * j->n_split;
    int64_t t0, t1;
    seer_pool_range(per_row * j->n, ith, nth, &t0, &t1);
    for (int64_t t = t0; t < t1; t++) {
        const int i = (int)(t / per_row), kvh = (int)(t % per_row) / j->n_split, part = (int)(t % j->n_split);
        const int h0 = kvh * group + part * gs;
        const size_t base = ((size_t)j->layer * in->n_head_kv + kvh) * c->kv_head_stride;
        const float *K = c->k_cache + base, *V = c->v_cache + base;
        const float *q = c->q + ((size_t)i * in->n_head + h0) * hd;
        float *out = c->attn + ((size_t)i * in->n_head + h0) * hd;
        const int len = c->n_used + i + 1;
        for (int r = 0; r < len; r++) {
            const float *k = K + (size_t)r * hd;
            for (int g = 0; g < gs; g++) scores[(size_t)g * len + r] = c->attn_k.dot(q + (size_t)g * hd, k, hd) * scale;
        }
        for (int g = 0; g < gs; g++) seer_softmax(scores + (size_t)g * len, len);
        for (int d = 0; d < gs * hd; d++) out[d] = 0.0f;
        for (int r = 0; r < len; r++) {
            const float *v = V + (size_t)r * hd;
            for (int g = 0; g < gs; g++) c->attn_k.axpy(out + (size_t)g * hd, scores[(size_t)g * len + r], v, hd);
        }
    }
}

void llm_attention(seer_ctx *c, int layer, int n) {
    const seer_llm_info *in = &c->m->info;
    const int group = in->n_head / in->n_head_kv;
    attn_job j = {.c = c, .layer = layer, .n = n, .n_split = 1};
    /* Split query groups until every thread has a couple of tasks. */
    while ((int64_t)in->n_head_kv * n * j.n_split < 2 * (int64_t)c->n_threads && group % (2 * j.n_split) == 0)
        j.n_split *= 2;
    seer_pool_run(c->pool, attn_task, &j);
}
