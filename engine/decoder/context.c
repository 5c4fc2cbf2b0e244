/* A conversation's context: the KV cache (F16 or F32) and every scratch buffer the
 * forward pass needs, sized once here (the token loop never allocates). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "decoder/llm_internal.h"
#include "kernels/matmul_internal.h"

/* Rows per forward pass; longer batches are split (same result: attention is
 * causal in token order; a non-causal batch must fit one pass). */
#define CTX_BATCH 512
/* Memory for logits of every row of a batch (logits_all), at most. */
#define LOGITS_ALL_BYTES (64u << 20)
/* A call of fewer rows on a model with a recurrent state is not cancelled
 * midway (seer_ctx_decode), so it keeps no copy of the state. */
#define CTX_STATE_UNDO_MIN_ROWS 4
#define CTX_MAX 1048576

static double mb(double bytes) { return bytes / (1024.0 * 1024.0); }

static double physical_memory_bytes(void) {
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (double)pages * (double)page : 0.0;
}

/* The batch buffers are first touched by the first prompt (tens of MB for
 * 512 rows; a MoE layer's weighted expert outputs alone 46 MB for Gemma 4
 * 26B): seer_buffer_alloc puts the large ones on huge pages. */
static float *alloc_floats(size_t n, double *total) {
    *total += (double)n * sizeof(float);
    return seer_buffer_alloc(n * sizeof(float));
}

const char *seer_kv_type_name(seer_kv_type t) { return t == SEER_KV_F32 ? "f32" : "f16"; }

bool seer_kv_type_parse(const char *name, seer_kv_type *out) {
    if (!name) return false;
    if (strcmp(name, "f16") == 0) *out = SEER_KV_F16;
    else if (strcmp(name, "f32") == 0) *out = SEER_KV_F32;
    else return false;
    return true;
}

double seer_kv_cache_bytes(const seer_llm_info *in, int n_ctx, seer_kv_type kv) {
    return 2.0 * (double)in->n_kv_floats * (double)n_ctx * (double)llm_kv_elt_bytes(kv);
}

double seer_llm_kv_read_bytes(const seer_llm *m, int n_rows, seer_kv_type kv) {
    const int n_swa = m->info.n_swa;
    double floats = 0;
    for (int l = 0; l < m->info.n_layer; l++) {
        const llm_layer *L = &m->layers[l];
        if (L->conv || L->gdn) continue; /* no attention: a recurrent state, not rows */
        /* as the decode attention reads them: a window's rows (attention.c), a shared cache again */
        const int rows = L->swa && n_swa > 0 && n_rows > n_swa ? n_swa : n_rows;
        floats += (double)L->n_head_kv * (double)L->head_dim * (double)rows;
    }
    return 2.0 * floats * (double)llm_kv_elt_bytes(kv);
}

/* Each thread's scratch for seer_matmul_rows when every layer weight is
 * one it takes, for the most rows seer_pool_split gives a thread of a
 * batch; else 0 (the forward pass then dispatches product by product). */
static size_t rows_scratch_bytes(const seer_llm *m, int n_batch, int n_threads) {
    int64_t max_in = 0;
    if (m->moe) return 0; /* the experts' products group rows by expert, across threads' rows */
    if (m->n_gdn_layers) return 0; /* the one-dispatch pass assumes plain attention in every layer */
    for (int l = 0; l < m->info.n_layer; l++) {
        const llm_layer *L = &m->layers[l];
        const seer_weight *w[] = {&L->wq, &L->wk, &L->wv, &L->wo, &L->w_gate, &L->w_up, &L->w_down};
        for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) {
            if (!w[i]->data) continue; /* a layer without it (shared KV, V from K) */
            if (!seer_matmul_rows_supported(w[i])) return 0;
            if (w[i]->n_in > max_in) max_in = w[i]->n_in;
        }
    }
    int64_t rows = 0;
    for (int t = 0; t < n_threads; t++) {
        int64_t b, e;
        seer_pool_split_range(n_batch, SEER_MATMUL_ROW_GRAIN, t, n_threads, &b, &e);
        if (e - b > rows) rows = e - b;
    }
    return seer_matmul_rows_scratch_bytes(rows, max_in);
}

/* KV cache rows a context starts with. */
#define KV_FIRST_ROWS 64

/* A cache (K or V) of `rows` rows per head; pages resident once touched. */
static void *kv_alloc(const seer_ctx *c, int rows) {
    const size_t elts = c->m->kv_row_floats * (size_t)rows;
    return seer_huge_alloc((elts ? elts : 1) * llm_kv_elt_bytes(c->kv_type));
}

/* Each head's first n_used rows from a cache of old_cap rows a head into one of c->kv_cap. */
static void kv_copy(const seer_ctx *c, void *dst, const void *src, int old_cap) {
    const size_t elt = llm_kv_elt_bytes(c->kv_type);
    for (int l = 0; l < c->m->info.n_layer; l++) {
        const llm_layer *L = &c->m->layers[l];
        if (L->conv || L->gdn || L->kv_shared) continue;
        for (int h = 0; h < L->n_head_kv; h++) {
            const size_t region = L->kv_offset + (size_t)h * (size_t)L->head_dim;
            memcpy((char *)dst + region * (size_t)c->kv_cap * elt, (const char *)src + region * (size_t)old_cap * elt,
                   (size_t)c->n_used * (size_t)L->head_dim * elt);
        }
    }
}

/* Room in the KV cache for `rows` rows (at most n_ctx): grown by doubling,
 * the rows in use copied over. 0, or -1 when out of memory. */
static int kv_reserve(seer_ctx *c, int rows) {
    if (rows <= c->kv_cap) return 0;
    int cap = c->kv_cap;
    while (cap < rows) cap = cap > c->n_ctx / 2 ? c->n_ctx : 2 * cap;
    void *k = kv_alloc(c, cap), *v = kv_alloc(c, cap);
    if (!k || !v) {
        free(k);
        free(v);
        return -1;
    }
    const int old_cap = c->kv_cap;
    c->kv_cap = cap;
    kv_copy(c, k, c->k_cache, old_cap);
    kv_copy(c, v, c->v_cache, old_cap);
    free(c->k_cache);
    free(c->v_cache);
    c->k_cache = k;
    c->v_cache = v;
    return 0;
}

int seer_ctx_reserve(seer_ctx *c, int n_tokens, seer_error *err) {
    if (!c) return -1;
    if (kv_reserve(c, n_tokens < c->n_ctx ? n_tokens : c->n_ctx) == 0) return 0;
    seer_error_set(err, "out of memory growing the KV cache to %d tokens", n_tokens);
    return -1;
}

seer_ctx *seer_ctx_new(const seer_llm *m, int n_ctx, seer_kv_type kv, seer_pool *pool, seer_error *err) {
    if (!m) {
        seer_error_set(err, "no model");
        return NULL;
    }
    if (kv != SEER_KV_F16 && kv != SEER_KV_F32) {
        seer_error_set(err, "unknown KV cache type %d", (int)kv);
        return NULL;
    }
    const seer_llm_info *in = &m->info;
    if (n_ctx <= 0) n_ctx = in->n_ctx_train > 0 && in->n_ctx_train < 4096 ? in->n_ctx_train : 4096;
    if (n_ctx > CTX_MAX) {
        seer_error_set(err, "context of %d tokens is too large (at most %d)", n_ctx, CTX_MAX);
        return NULL;
    }
    const size_t kv_dim = (size_t)m->max_kv_dim;
    const double kv_bytes = seer_kv_cache_bytes(in, n_ctx, kv);
    const double ram = physical_memory_bytes();
    if (ram > 0 && kv_bytes > ram * 0.9) {
        seer_error_set(err, "a context of %d tokens needs a %.0f MB KV cache, more than this machine's %.0f MB of RAM; "
                       "use a smaller context (-c)", n_ctx, mb(kv_bytes), mb(ram));
        return NULL;
    }
    seer_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        seer_error_set(err, "out of memory");
        return NULL;
    }
    c->m = m;
    c->pool = pool;
    c->n_ctx = n_ctx;
    c->n_batch = n_ctx < CTX_BATCH ? n_ctx : CTX_BATCH;
    c->n_threads = seer_pool_size(pool);
    c->kv_type = kv;
    c->attn_k = attn_kernels_select(kv == SEER_KV_F16);
    c->delta_step = delta_step_select();
    const size_t B = (size_t)c->n_batch, E = (size_t)in->n_embd, Dq = (size_t)m->max_q_dim;
    size_t cap = LOGITS_ALL_BYTES / (sizeof(float) * (size_t)in->n_vocab);
    c->logits_cap = cap < 1 ? 1 : cap > B ? (int)B : (int)cap;
    double total = 0;
    /* A few rows to begin with, grown as the context fills (seer_ctx_reserve):
     * each head's rows lie kv_cap apart, so on 2 MiB pages the first token
     * made a whole n_ctx-row cache resident (LLaVA-1.5-7B at 4096 tokens:
     * 2 GB for a "hi"). */
    c->kv_cap = n_ctx < KV_FIRST_ROWS ? n_ctx : KV_FIRST_ROWS;
    c->k_cache = kv_alloc(c, c->kv_cap);
    c->v_cache = kv_alloc(c, c->kv_cap);
    total += kv_bytes;
    c->x = alloc_floats(B * E, &total);
    c->xn = alloc_floats(B * E, &total);
    c->q = alloc_floats(B * Dq, &total);
    c->k = alloc_floats(B * kv_dim, &total);
    c->v = alloc_floats(B * kv_dim, &total);
    /* a conv or Gated DeltaNet layer's output too */
    const size_t gdn_vd = m->n_gdn_layers ? (size_t)m->gdn.n_v * (size_t)m->gdn.d : 0;
    size_t attn_w = m->n_conv_layers && E > Dq ? E : Dq;
    if (gdn_vd > attn_w) attn_w = gdn_vd;
    c->attn = alloc_floats(B * attn_w, &total);
    /* dense rows, an expert's or the shared expert's; a decode step holds all its experts' at once */
    size_t F = (size_t)(in->n_ff > m->n_ff_exp ? in->n_ff : m->n_ff_exp); /* n_ff: the widest layer's */
    if ((size_t)m->n_ff_shexp > F) F = (size_t)m->n_ff_shexp;
    size_t ffn_floats = (B > (size_t)in->n_expert_used ? B : (size_t)in->n_expert_used) * F;
    if (m->moe && B * (size_t)in->n_expert_used * (size_t)m->n_ff_exp > ffn_floats) /* every pick's row */
        ffn_floats = B * (size_t)in->n_expert_used * (size_t)m->n_ff_exp;
    c->ffn_a = alloc_floats(ffn_floats, &total);
    c->ffn_b = alloc_floats(ffn_floats, &total);
    c->rope_cs = alloc_floats(B * (size_t)m->n_rot, &total);
    bool any_swa = false;
    for (int l = 0; l < in->n_layer; l++) any_swa |= m->layers[l].swa;
    if (any_swa) c->rope_cs_swa = alloc_floats(B * (size_t)m->n_rot_swa, &total);
    c->kv_pos = (int32_t *)alloc_floats((size_t)n_ctx, &total);
    if (m->attn_temp_scale != 0.0f) c->q_temp = alloc_floats(B, &total);
    bool moe_ok = true;
    if (m->moe) {
        const size_t K = (size_t)in->n_expert_used;
        c->moe_probs = alloc_floats(B * (size_t)in->n_expert, &total);
        c->moe_weights = alloc_floats(B * K, &total);
        c->moe_chosen = (int32_t *)alloc_floats(B * K, &total);
        c->moe_rows = (int32_t *)alloc_floats(B * K, &total);
        c->moe_pos = (int32_t *)alloc_floats(B * K, &total);
        c->moe_x = alloc_floats(E, &total);
        c->moe_y = alloc_floats(B * K * E, &total);
        moe_ok = c->moe_probs && c->moe_weights && c->moe_chosen && c->moe_rows && c->moe_pos && c->moe_x && c->moe_y;
        if (m->moe_dense) {
            c->moe_router_in = alloc_floats(B * E, &total);
            c->moe_dense_out = alloc_floats(B * E, &total);
            moe_ok = moe_ok && c->moe_router_in && c->moe_dense_out;
        }
    }
    c->embd_row = alloc_floats(m->tok_embd.row_bytes / sizeof(float) + 1, &total);
    bool ple_ok = true;
    if (m->ple_dim) {
        const size_t W = (size_t)m->ple_dim * (size_t)in->n_layer;
        c->ple_in = alloc_floats(B * W, &total);
        c->ple_act = alloc_floats(B * (size_t)m->ple_dim, &total);
        c->ple_tok_f32 = alloc_floats(W, &total);
        c->ple_row = alloc_floats(m->ple_tok.row_bytes / sizeof(float) + 1, &total);
        ple_ok = c->ple_in && c->ple_act && c->ple_tok_f32 && c->ple_row;
    }
    c->scores = alloc_floats((size_t)c->n_threads * (size_t)m->max_group * (size_t)n_ctx, &total);
    c->tile_scores = alloc_floats((size_t)c->n_threads * LLM_ATTN_TILE * (size_t)n_ctx, &total);
    c->tile_kv = alloc_floats((size_t)c->n_threads * llm_tile_kv_floats(n_ctx, m->max_head_dim), &total);
    c->attn_parts = alloc_floats((size_t)LLM_ATTN_TILE_MIN_ROWS * (size_t)in->n_head * LLM_ATTN_CHUNKS_MAX *
                                     (size_t)(m->max_head_dim + 1), &total);
    c->logits = alloc_floats((size_t)c->logits_cap * (size_t)in->n_vocab, &total);
    bool state_ok = true;
    if (m->rec_state_floats) {
        const size_t S = c->rec_state_floats = m->rec_state_floats;
        if (m->n_conv_layers) c->conv_bcx = alloc_floats(B * 3 * E, &total);
        if (m->n_gdn_layers) {
            const size_t ch = (size_t)llm_gdn_channels(&m->gdn), nv = (size_t)m->gdn.n_v;
            c->gdn_work_floats = llm_gated_delta_work_floats(m);
            c->gdn_mix = alloc_floats(B * ch, &total);
            c->gdn_qkv = alloc_floats(B * ch, &total);
            c->gdn_z = alloc_floats(B * gdn_vd, &total);
            c->gdn_beta = alloc_floats(B * nv, &total);
            c->gdn_g = alloc_floats(B * nv, &total);
            c->gdn_work = alloc_floats((size_t)c->n_threads * c->gdn_work_floats, &total);
            c->q_gated = alloc_floats(B * 2 * Dq, &total);
            state_ok = c->gdn_mix && c->gdn_qkv && c->gdn_z && c->gdn_beta && c->gdn_g && c->gdn_work && c->q_gated;
        }
        if (m->n_ff_shexp) {
            c->shexp_out = alloc_floats(B * E, &total);
            state_ok = state_ok && c->shexp_out;
        }
        c->rec_state = alloc_floats(S, &total);
        c->rec_undo = alloc_floats(S, &total);
        state_ok = state_ok && (!m->n_conv_layers || c->conv_bcx) && c->rec_state && c->rec_undo;
        for (int i = 0; i < LLM_STATE_MARKS; i++) {
            c->rec_marks[i].row = -1;
            c->rec_marks[i].state = alloc_floats(S, &total);
            state_ok = state_ok && c->rec_marks[i].state;
        }
        if (state_ok) memset(c->rec_state, 0, sizeof(float) * S);
    }
    c->rows_scratch_bytes = rows_scratch_bytes(m, c->n_batch, c->n_threads);
    bool rows_ok = true;
    if (c->rows_scratch_bytes) {
        c->rows_scratch = (char *)alloc_floats(c->rows_scratch_bytes * (size_t)c->n_threads / sizeof(float), &total);
        rows_ok = c->rows_scratch != NULL;
    }
    if (!c->k_cache || !c->v_cache || !c->x || !c->xn || !c->q || !c->k || !c->v || !c->attn || !c->ffn_a ||
        !c->ffn_b || !c->rope_cs || !c->embd_row || !c->scores || !c->tile_scores ||
        !c->tile_kv || !c->attn_parts || !c->logits || !rows_ok ||
        (any_swa && !c->rope_cs_swa) || !c->kv_pos || (m->attn_temp_scale != 0.0f && !c->q_temp) || !moe_ok || !state_ok || !ple_ok) {
        seer_error_set(err, "cannot allocate %.0f MB for a context of %d tokens (KV cache %.0f MB); use a smaller "
                       "context (-c)", mb(total), n_ctx, mb(kv_bytes));
        seer_ctx_free(c);
        return NULL;
    }
    memset(c->logits, 0, (size_t)in->n_vocab * sizeof(float));
    return c;
}

void seer_ctx_free(seer_ctx *c) {
    if (!c) return;
    free(c->k_cache);
    free(c->v_cache);
    free(c->x);
    free(c->xn);
    free(c->q);
    free(c->k);
    free(c->v);
    free(c->attn);
    free(c->ffn_a);
    free(c->ffn_b);
    free(c->rope_cs);
    free(c->rope_cs_swa);
    free(c->kv_pos);
    free(c->q_temp);
    free(c->moe_probs);
    free(c->moe_weights);
    free(c->moe_chosen);
    free(c->moe_rows);
    free(c->moe_pos);
    free(c->moe_x);
    free(c->moe_y);
    free(c->moe_router_in);
    free(c->moe_dense_out);
    free(c->embd_row);
    free(c->ple_in);
    free(c->ple_act);
    free(c->ple_tok_f32);
    free(c->ple_row);
    free(c->scores);
    free(c->tile_scores);
    free(c->tile_kv);
    free(c->attn_parts);
    free(c->logits);
    free(c->rows_scratch);
    free(c->conv_bcx);
    free(c->gdn_mix);
    free(c->gdn_qkv);
    free(c->gdn_z);
    free(c->gdn_beta);
    free(c->gdn_g);
    free(c->gdn_work);
    free(c->q_gated);
    free(c->shexp_out);
    free(c->rec_state);
    free(c->rec_undo);
    for (int i = 0; i < LLM_STATE_MARKS; i++) free(c->rec_marks[i].state);
    free(c);
}

int seer_ctx_size(const seer_ctx *c) { return c ? c->n_ctx : 0; }
const seer_llm *seer_ctx_model(const seer_ctx *c) { return c ? c->m : NULL; }
seer_kv_type seer_ctx_kv_type(const seer_ctx *c) { return c ? c->kv_type : SEER_KV_F16; }
int seer_ctx_used(const seer_ctx *c) { return c ? c->n_used : 0; }
int32_t seer_ctx_next_pos(const seer_ctx *c) { return c ? c->next_pos : 0; }

static void state_copy(const seer_ctx *c, float *dst, const float *src) {
    memcpy(dst, src, sizeof(float) * c->rec_state_floats);
}

void seer_ctx_mark(seer_ctx *c) {
    if (!c || !c->rec_state_floats) return;
    int slot = c->rec_mark_next;
    for (int i = 0; i < LLM_STATE_MARKS; i++)
        if (c->rec_marks[i].row == c->n_used) slot = i; /* marked already: refresh that one */
    if (slot == c->rec_mark_next) c->rec_mark_next = (slot + 1) % LLM_STATE_MARKS;
    c->rec_marks[slot].row = c->n_used;
    state_copy(c, c->rec_marks[slot].state, c->rec_state);
}

int seer_ctx_mark_floor(const seer_ctx *c, int rows) {
    if (!c || rows <= 0) return 0;
    if (rows > c->n_used) rows = c->n_used;
    if (!c->rec_state_floats) return rows;
    int best = 0;
    for (int i = 0; i < LLM_STATE_MARKS; i++)
        if (c->rec_marks[i].row <= rows && c->rec_marks[i].row > best) best = c->rec_marks[i].row;
    return best;
}

/* The conv state at row n_keep < n_used: zeros at 0, else a mark's; when
 * there is none the cache is emptied. Marks past n_keep are dropped: the
 * rows after it will be written anew. */
static int state_rewind(seer_ctx *c, int n_keep) {
    int found = -1;
    for (int i = 0; i < LLM_STATE_MARKS; i++) {
        if (c->rec_marks[i].row == n_keep) found = i;
        if (c->rec_marks[i].row > n_keep) c->rec_marks[i].row = -1;
    }
    if (n_keep > 0 && found >= 0) {
        state_copy(c, c->rec_state, c->rec_marks[found].state);
        return n_keep;
    }
    memset(c->rec_state, 0, sizeof(float) * c->rec_state_floats);
    return 0;
}

void seer_ctx_truncate(seer_ctx *c, int n_keep, int32_t next_pos) {
    if (!c) return;
    if (n_keep < 0) n_keep = 0;
    if (n_keep < c->n_used) c->n_used = c->rec_state_floats ? state_rewind(c, n_keep) : n_keep;
    c->next_pos = next_pos < 0 ? 0 : next_pos;
}

const float *seer_ctx_logits(const seer_ctx *c, int i) {
    if (!c) return NULL;
    if (!c->logits_all) return c->logits;
    if (i < 0 || i >= c->logits_rows) return NULL;
    return c->logits + (size_t)i * (size_t)c->m->info.n_vocab;
}

/* Row positions [n][4] of the batch: explicit (1-D or section-major M-RoPE)
 * or consecutive from next_pos. A token row's 1-D position on an M-RoPE
 * model goes to the first three sections and 0 to the fourth, as llama.cpp
 * widens text positions (it shows where the fourth has pairs: HunyuanVL's
 * image index). */
static void batch_positions(const seer_ctx *c, const seer_batch *b, int r0, int n, float *out, int32_t *max_pos) {
    const bool mrope = c->m->info.mrope;
    for (int i = 0; i < n; i++) {
        const int r = r0 + i;
        int32_t p[4];
        if (!b->pos) {
            llm_row_pos(c->m, c->next_pos + r, b->tokens != NULL, p);
        } else if (mrope) {
            for (int s = 0; s < 4; s++) p[s] = b->pos[(size_t)s * (size_t)b->n + (size_t)r];
        } else {
            p[0] = p[1] = p[2] = p[3] = b->pos[r];
        }
        for (int s = 0; s < 4; s++) out[i * 4 + s] = (float)p[s];
        for (int s = 0; s < 3; s++)
            if (p[s] > *max_pos) *max_pos = p[s];
    }
}

int seer_ctx_decode(seer_ctx *c, const seer_batch *b, const volatile int *cancel, seer_error *err) {
    if (!c || !b || b->n <= 0 || (!b->tokens == !b->embd)) {
        seer_error_set(err, "invalid batch (needs rows, and either tokens or embeddings)");
        return -1;
    }
    const seer_llm_info *in = &c->m->info;
    if (c->n_used + b->n > c->n_ctx) {
        seer_error_set(err, "context full: %d tokens used, %d more do not fit in %d", c->n_used, b->n, c->n_ctx);
        return -1;
    }
    if (b->non_causal && b->n > c->n_batch) {
        seer_error_set(err, "a non-causal batch of %d rows does not fit one pass of %d rows", b->n, c->n_batch);
        return -1;
    }
    if (b->logits_all && b->n > c->logits_cap) {
        seer_error_set(err, "logits for %d rows requested, this context keeps at most %d", b->n, c->logits_cap);
        return -1;
    }
    if (b->tokens)
        for (int i = 0; i < b->n; i++)
            if (b->tokens[i] < 0 || b->tokens[i] >= in->n_vocab) {
                seer_error_set(err, "token id %d is outside the vocabulary (0…%d)", b->tokens[i], in->n_vocab - 1);
                return -1;
            }
    if (seer_ctx_reserve(c, c->n_used + b->n, err) != 0) return -1;
    const int used0 = c->n_used;
    const int32_t pos0 = c->next_pos;
    int32_t max_pos = -1;
    if (c->rec_state_floats && b->n < CTX_STATE_UNDO_MIN_ROWS) {
        /* a few rows (a generated token) take about one token's time: such a
         * call, once begun, runs to its end rather than copy the whole
         * recurrent state (tens of MB at 4B) to roll back to on every token */
        if (cancel && *cancel) {
            seer_error_set(err, "cancelled");
            return -1;
        }
        cancel = NULL;
    } else if (c->rec_state_floats) {
        state_copy(c, c->rec_undo, c->rec_state);
    }
    float rows_pos[4 * CTX_BATCH];
    for (int r0 = 0; r0 < b->n; r0 += c->n_batch) {
        const int n = b->n - r0 < c->n_batch ? b->n - r0 : c->n_batch;
        batch_positions(c, b, r0, n, rows_pos, &max_pos);
        const int32_t *tokens = b->tokens ? b->tokens + r0 : NULL;
        const float *embd = b->embd ? b->embd + (size_t)r0 * (size_t)in->n_embd_inp : NULL;
        const bool last = r0 + n == b->n;
        const llm_logits want = b->logits_all ? LLM_LOGITS_ALL : last ? LLM_LOGITS_LAST : LLM_LOGITS_NONE;
        float *hidden = b->hidden ? b->hidden + (size_t)r0 * (size_t)in->n_embd : NULL;
        if (llm_forward(c, n, tokens, embd, rows_pos, b->non_causal, want, r0, hidden, cancel) != 0) {
            c->n_used = used0; /* rows written past n_used are simply unused */
            c->next_pos = pos0;
            if (c->rec_state_floats) state_copy(c, c->rec_state, c->rec_undo);
            seer_error_set(err, "cancelled");
            return -1;
        }
        c->n_used += n;
    }
    c->next_pos = max_pos + 1;
    c->logits_all = b->logits_all;
    c->logits_rows = b->logits_all ? b->n : 1;
    return 0;
}
