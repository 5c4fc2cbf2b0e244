/* Attention over the KV cache, parallel over the pool: per-row dot
 * products for a few rows (decode), GEMM tiles for a prompt. Each query row
 * sees one contiguous range of cache rows (visible_keys): causal or the
 * whole batch, cut below by a sliding window. */
#include <math.h>
#include <string.h>

#include "decoder/llm_internal.h"
#include "kernels/gemm_f32_internal.h"
#include "ops/exp_kernels.h"
#include "seer/ops.h"

typedef struct attn_job {
    seer_ctx *c;
    int layer, n;
    int n_chunks; /* decode: key chunks per row (the most any row has) */
} attn_job;

/* Decode: a row's keys are cut into chunks and a task is one chunk of one
 * KV head for one row ("split-K", as flash-decoding does), so that a model
 * with only 2 or 3 KV heads still keeps every thread busy. Each task reads
 * its key and value rows once for all the query heads that share them and
 * leaves, per head, the output of the softmax over its chunk with the
 * log of the chunk's exp sum; merge_chunks weighs the chunks into the
 * softmax over all keys. The chunk length depends on the context length
 * only, never on the thread count, and neither does the result. */
static int chunk_keys(int len) {
    int per = (len + LLM_ATTN_CHUNKS_MAX - 1) / LLM_ATTN_CHUNKS_MAX;
    return per > LLM_ATTN_CHUNK_MIN ? per : LLM_ATTN_CHUNK_MIN;
}

static int n_chunks(int len) { return (len + chunk_keys(len) - 1) / chunk_keys(len); }

/* Cache rows [*lo, *hi) that row i of an n-row batch sees: up to itself
 * (causal) or to the batch's end (non-causal); on a sliding-window layer,
 * from the first row whose position is less than n_swa before its own
 * (llama.cpp masks a key when p_query - p_key >= n_swa). Rows are written
 * in position order, so that row is found by bisection; the query's own
 * row is always inside the window. */
static void visible_keys(const seer_ctx *c, int layer, int i, int n, int *lo, int *hi) {
    *hi = llm_layer_non_causal(c, layer) ? c->n_used + n : c->n_used + i + 1;
    *lo = 0;
    const int n_swa = c->m->info.n_swa;
    if (!c->m->layers[layer].swa || n_swa <= 0) return;
    const int32_t p = c->kv_pos[c->n_used + i];
    int a = 0, b = c->n_used + i;
    while (a < b) {
        const int mid = a + (b - a) / 2;
        if ((int64_t)p - c->kv_pos[mid] >= n_swa) a = mid + 1;
        else b = mid;
    }
    *lo = a;
}

/* Head h of row i, chunk ch: hd outputs, then the chunk's log Σ exp(score). */
static float *chunk_part(const seer_ctx *c, int hd, int i, int h, int ch) {
    return c->attn_parts + (((size_t)i * c->m->info.n_head + h) * LLM_ATTN_CHUNKS_MAX + ch) * (size_t)(hd + 1);
}

static void attn_chunk_range(void *ctx, int64_t t0, int64_t t1, int ith) {
    const attn_job *j = ctx;
    seer_ctx *c = j->c;
    const seer_llm_info *in = &c->m->info;
    const llm_layer *L = &c->m->layers[j->layer];
    const int hd = L->head_dim, group = in->n_head / L->n_head_kv;
    const float scale = c->m->attn_scale;
    float *scores = c->scores + (size_t)ith * (size_t)group * (size_t)c->n_ctx;
    const int64_t per_row = (int64_t)L->n_head_kv * j->n_chunks;
    for (int64_t t = t0; t < t1; t++) {
        const int i = (int)(t / per_row), kvh = (int)(t % per_row) / j->n_chunks, ch = (int)(t % j->n_chunks);
        int lo, hi;
        visible_keys(c, j->layer, i, j->n, &lo, &hi);
        const int len = hi - lo, keys = chunk_keys(len), r0 = ch * keys;
        if (r0 >= len) continue; /* this row has fewer chunks */
        const int nk = len - r0 < keys ? len - r0 : keys, h0 = kvh * group;
        const size_t base = llm_kv_head_base(c, j->layer, kvh) + (size_t)(lo + r0) * hd;
        const void *K = llm_kv_at(c, c->k_cache, base), *V = llm_kv_at(c, c->v_cache, base);
        const float *q = c->q + ((size_t)i * in->n_head + h0) * hd;
        c->attn_k.scores(q, group, K, nk, hd, scale, scores);
        float *parts = chunk_part(c, hd, i, h0, ch);
        const int ldp = LLM_ATTN_CHUNKS_MAX * (hd + 1); /* from one head's part to the next head's */
        for (int g = 0; g < group; g++) parts[(size_t)g * ldp + hd] = seer_exp_softmax(scores + (size_t)g * nk, nk);
        c->attn_k.mix(parts, ldp, scores, group, nk, V, hd);
    }
}

/* Each head's chunks, weighted by their share of Σ exp(score) over all keys. */
static void merge_chunks(seer_ctx *c, int layer, int n) {
    const seer_llm_info *in = &c->m->info;
    const int hd = c->m->layers[layer].head_dim;
    for (int i = 0; i < n; i++) {
        int lo, hi;
        visible_keys(c, layer, i, n, &lo, &hi);
        const int nc = n_chunks(hi - lo);
        for (int h = 0; h < in->n_head; h++) {
            float *out = c->attn + ((size_t)i * in->n_head + h) * hd;
            if (nc == 1) {
                memcpy(out, chunk_part(c, hd, i, h, 0), sizeof(float) * (size_t)hd);
                continue;
            }
            float max = chunk_part(c, hd, i, h, 0)[hd], w[LLM_ATTN_CHUNKS_MAX], total = 0;
            for (int ch = 1; ch < nc; ch++) max = fmaxf(max, chunk_part(c, hd, i, h, ch)[hd]);
            for (int ch = 0; ch < nc; ch++) total += w[ch] = expf(chunk_part(c, hd, i, h, ch)[hd] - max);
            memset(out, 0, sizeof(float) * (size_t)hd);
            for (int ch = 0; ch < nc; ch++) c->attn_k.axpy(out, w[ch] / total, chunk_part(c, hd, i, h, ch), hd);
        }
    }
}

/* The keys and values a thread has packed as the two GEMMs' panels (in its
 * tile_kv, read from the cache as it is, F32 or F16): KV head kvh's rows
 * [lo, lo + len). A tile that needs the same head's rows from lo, and no
 * more of them, multiplies with these: the keys' panels are the same
 * whatever the length, and the values' are read with the packed length's
 * panel stride. */
typedef struct packed_kv {
    int kvh, lo, len;
    float *K, *V;
} packed_kv;

static void pack_head_kv(seer_ctx *c, int layer, int kvh, int lo, int len, int ith, packed_kv *p) {
    const int hd = c->m->layers[layer].head_dim;
    const bool f16 = c->kv_type == SEER_KV_F16;
    const size_t base = llm_kv_head_base(c, layer, kvh) + (size_t)lo * hd;
    p->K = c->tile_kv + (size_t)ith * llm_tile_kv_floats(c->n_ctx, c->m->max_head_dim);
    p->V = p->K + seer_f32_packed_floats(c->n_ctx, c->m->max_head_dim);
    seer_f32_pack_rows(llm_kv_at(c, c->k_cache, base), f16, (size_t)hd, len, hd, 1.0f, p->K);
    seer_f32_pack_cols(llm_kv_at(c, c->v_cache, base), f16, (size_t)hd, len, hd, p->V);
    p->kvh = kvh;
    p->lo = lo;
    p->len = len;
}

/* Prefill: a task is a tile of query rows and one KV head; each query head
 * sharing that KV head goes through two GEMMs (scores = Q·Kᵀ over every key
 * the tile's last row sees, then P·V); keys a row must not see get
 * probability 0. The scale multiplies the scores after the product, as
 * llama.cpp's softmax does. Tasks go head by head, each head's later tiles
 * (more keys) first: the cheap early ones fill in the gaps at the end, and
 * a run of one head's tiles packs its keys and values once (SmolVLM-256M,
 * 2048 tokens: packed per tile, they were 13% of the attention's time). */
static void attn_tile_range(void *ctx, int64_t t0, int64_t t1, int ith) {
    const attn_job *j = ctx;
    seer_ctx *c = j->c;
    const seer_llm_info *in = &c->m->info;
    const llm_layer *L = &c->m->layers[j->layer];
    const int hd = L->head_dim, group = in->n_head / L->n_head_kv, ld = in->n_head * hd;
    const float scale = c->m->attn_scale;
    const seer_f32_kernel kern = seer_f32_kernel_get();
    float *S = c->tile_scores + (size_t)ith * LLM_ATTN_TILE * (size_t)c->n_ctx;
    const int n_tiles = (j->n + LLM_ATTN_TILE - 1) / LLM_ATTN_TILE;
    packed_kv kv = {.kvh = -1};
    for (int64_t t = t0; t < t1; t++) {
        const int kvh = (int)(t / n_tiles), i0 = (n_tiles - 1 - (int)(t % n_tiles)) * LLM_ATTN_TILE;
        const int rows = j->n - i0 < LLM_ATTN_TILE ? j->n - i0 : LLM_ATTN_TILE;
        int lo, hi, unused;
        visible_keys(c, j->layer, i0, j->n, &lo, &unused);         /* the tile's lowest key */
        visible_keys(c, j->layer, i0 + rows - 1, j->n, &unused, &hi); /* and its highest */
        const int len = hi - lo;
        if (kv.kvh != kvh || kv.lo != lo || kv.len < len) pack_head_kv(c, j->layer, kvh, lo, len, ith, &kv);
        for (int h = kvh * group; h < (kvh + 1) * group; h++) {
            seer_f32_gemm_packed(&kern, rows, len, hd, c->q + (size_t)i0 * ld + (size_t)h * hd, (size_t)ld, kv.K, S,
                                 (size_t)len, false);
            for (int r = 0; r < rows; r++) {
                float *row = S + (size_t)r * len;
                int a, b;
                visible_keys(c, j->layer, i0 + r, j->n, &a, &b);
                a -= lo;
                b -= lo;
                seer_exp_softmax_scaled(row + a, b - a, scale);
                for (int k = 0; k < a; k++) row[k] = 0.0f;
                for (int k = b; k < len; k++) row[k] = 0.0f;
            }
            seer_f32_gemm_packed_prefix(&kern, rows, hd, len, S, (size_t)len, kv.V, kv.len,
                                        c->attn + (size_t)i0 * ld + (size_t)h * hd, (size_t)ld, false);
        }
    }
}

void llm_attention(seer_ctx *c, int layer, int n) {
    const int n_head_kv = c->m->layers[layer].n_head_kv;
    if (n >= LLM_ATTN_TILE_MIN_ROWS) {
        attn_job tj = {.c = c, .layer = layer, .n = n};
        const int64_t n_tiles = (n + LLM_ATTN_TILE - 1) / LLM_ATTN_TILE;
        seer_pool_for(c->pool, (int64_t)n_head_kv * n_tiles, 1, attn_tile_range, &tj);
        return;
    }
    attn_job j = {.c = c, .layer = layer, .n = n};
    for (int i = 0; i < n; i++) {
        int lo, hi;
        visible_keys(c, layer, i, n, &lo, &hi);
        if (n_chunks(hi - lo) > j.n_chunks) j.n_chunks = n_chunks(hi - lo);
    }
    seer_pool_for(c->pool, (int64_t)n * n_head_kv * j.n_chunks, 1, attn_chunk_range, &j);
    merge_chunks(c, layer, n);
}
