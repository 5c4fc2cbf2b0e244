/* Causal attention over the KV cache. A task is one KV head (or part of its
 * query group) for one batch row: every key and value row is read once,
 * contiguously, for all the query heads that share it. Tasks are spread over
 * the pool, so single-token decode is parallel over heads. */
#include <cblas.h>
#include <math.h>

#include "decoder/llm_internal.h"
#include "seer/ops.h"

typedef struct attn_job {
    seer_ctx *c;
    int layer, n;
    int n_split;    /* parts each query group is split into (enough tasks for the threads) */
} attn_job;

static void attn_range(void *ctx, int64_t t0, int64_t t1, int ith) {
    const attn_job *j = ctx;
    seer_ctx *c = j->c;
    const seer_llm_info *in = &c->m->info;
    const int hd = in->head_dim, group = in->n_head / in->n_head_kv, gs = group / j->n_split;
    const float scale = 1.0f / sqrtf((float)hd);
    float *scores = c->scores + (size_t)ith * (size_t)group * (size_t)c->n_ctx;
    const int64_t per_row = (int64_t)in->n_head_kv * j->n_split;
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

/* Prefill: tiles of query rows of one head go through two GEMMs (scores =
 * Q·Kᵀ over every key the tile's last row sees, then P·V); keys a row must
 * not see get probability 0. OpenBLAS runs single-threaded inside each task.
 * Later tiles see more keys: they are handed out first, the cheap early
 * ones fill in the gaps. */
static void attn_tile_range(void *ctx, int64_t t0, int64_t t1, int ith) {
    const attn_job *j = ctx;
    seer_ctx *c = j->c;
    const seer_llm_info *in = &c->m->info;
    const int hd = in->head_dim, group = in->n_head / in->n_head_kv, ld = in->n_head * hd;
    const float scale = 1.0f / sqrtf((float)hd);
    float *S = c->tile_scores + (size_t)ith * LLM_ATTN_TILE * (size_t)c->n_ctx;
    const int n_tiles = (j->n + LLM_ATTN_TILE - 1) / LLM_ATTN_TILE;
    for (int64_t t = t0; t < t1; t++) {
        const int h = (int)(t % in->n_head), i0 = (n_tiles - 1 - (int)(t / in->n_head)) * LLM_ATTN_TILE;
        const int rows = j->n - i0 < LLM_ATTN_TILE ? j->n - i0 : LLM_ATTN_TILE;
        const size_t base = ((size_t)j->layer * in->n_head_kv + h / group) * c->kv_head_stride;
        const int len = c->n_used + i0 + rows;
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, rows, len, hd, scale, c->q + (size_t)i0 * ld + (size_t)h * hd,
                    ld, c->k_cache + base, hd, 0.0f, S, len);
        for (int r = 0; r < rows; r++) {
            float *row = S + (size_t)r * len;
            const int visible = c->n_used + i0 + r + 1;
            seer_softmax(row, visible);
            for (int k = visible; k < len; k++) row[k] = 0.0f;
        }
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, rows, hd, len, 1.0f, S, len, c->v_cache + base, hd, 0.0f,
                    c->attn + (size_t)i0 * ld + (size_t)h * hd, ld);
    }
}

void llm_attention(seer_ctx *c, int layer, int n) {
    const seer_llm_info *in = &c->m->info;
    if (n >= LLM_ATTN_TILE_MIN_ROWS) {
        attn_job tj = {.c = c, .layer = layer, .n = n, .n_split = 1};
        const int64_t n_tiles = (n + LLM_ATTN_TILE - 1) / LLM_ATTN_TILE;
        seer_pool_for(c->pool, (int64_t)in->n_head * n_tiles, 1, attn_tile_range, &tj);
        return;
    }
    const int group = in->n_head / in->n_head_kv;
    attn_job j = {.c = c, .layer = layer, .n = n, .n_split = 1};
    /* Split query groups until every thread has a couple of tasks. */
    while ((int64_t)in->n_head_kv * n * j.n_split < 2 * (int64_t)c->n_threads && group % (2 * j.n_split) == 0)
        j.n_split *= 2;
    seer_pool_for(c->pool, (int64_t)in->n_head_kv * j.n_split * n, 1, attn_range, &j);
}
