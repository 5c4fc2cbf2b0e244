/* The decoder's forward pass over a batch of rows: pre-norm blocks with
 * RMSNorm (and, per architecture, per-head Q/K norms, post-norms, DeepStack
 * additions), rotary attention over the KV cache, a SwiGLU or GeGLU FFN or
 * a mixture of experts (moe.c), then the output head for the rows whose
 * logits are wanted. Matmuls run batched over all
 * rows through seer_matmul (quantized dot products for one row, GEMM for
 * many). */
#include <math.h>
#include <string.h>

#include "decoder/llm_internal.h"
#include "kernels/matmul_internal.h"
#include "ops/exp_kernels.h"
#include "seer/ops.h"

/* x = each row's embedding: a token's (×embd_scale), or the first n_embd
 * of a row the caller passed (its DeepStack slices are added later). */
static void embed_rows(seer_ctx *c, int n, const int32_t *tokens, const float *embd) {
    const seer_llm *m = c->m;
    const int E = m->info.n_embd;
    if (embd) {
        for (int i = 0; i < n; i++)
            memcpy(c->x + (size_t)i * E, embd + (size_t)i * m->info.n_embd_inp, sizeof(float) * (size_t)E);
        return;
    }
    const seer_weight *w = &m->tok_embd;
    for (int i = 0; i < n; i++) {
        float *row = c->x + (size_t)i * E;
        if (w->interleaved) { /* tied to the output head: its copy */
            seer_weight_get_row(w, tokens[i], row);
        } else {
            gguf_read_at(m->gguf, (const char *)w->data + (size_t)tokens[i] * w->row_bytes, c->embd_row, w->row_bytes);
            seer_dequantize_row(w->type, c->embd_row, row, w->n_in);
        }
        if (m->embd_scale != 1.0f)
            for (int k = 0; k < E; k++) row[k] *= m->embd_scale;
    }
}

/* One cos/sin table per row: rope_cs (positions scaled by rope_freq_scale:
 * linear RoPE scaling, or YaRN's; angles divided by rope_freqs where the
 * model has them), and rope_cs_swa for sliding-window layers (their own
 * base and width, unscaled); each row's query temperature where the model
 * has one. */
void llm_rope_tables(seer_ctx *c, int n, const float *rows_pos) {
    const seer_llm *m = c->m;
    for (int i = 0; i < n; i++) {
        const float *p = rows_pos + 4 * i, sc = m->rope_freq_scale;
        const float scaled[4] = {p[0] * sc, p[1] * sc, p[2] * sc, p[3] * sc};
        float *cs = c->rope_cs + (size_t)i * m->n_rot;
        if (m->rope == LLM_ROPE_IMROPE) seer_rope_table_interleaved(cs, m->n_rot, m->rope_base, m->sections, scaled);
        else if (m->rope == LLM_ROPE_MULTI) seer_rope_table(cs, m->n_rot, m->rope_base, m->sections, scaled);
        else if (m->rope_yarn) seer_rope_table_yarn(cs, m->n_rot, m->rope_base, &m->yarn, m->rope_freqs, p[0]);
        else if (m->rope_freqs) seer_rope_table_divided(cs, m->n_rot, m->rope_base, m->rope_freqs, scaled[0]);
        else seer_rope_table(cs, m->n_rot, m->rope_base, NULL, scaled);
        if (c->rope_cs_swa)
            seer_rope_table(c->rope_cs_swa + (size_t)i * m->n_rot_swa, m->n_rot_swa, m->rope_base_swa, NULL, p);
        c->kv_pos[c->n_used + i] = (int32_t)p[0];
        if (c->q_temp) /* as llama.cpp rounds it: the floor in float, the log in double */
            c->q_temp[i] = (float)(log(floorf(p[0] / (float)m->attn_temp_floor) + 1.0) * m->attn_temp_scale + 1.0);
    }
}

/* Row passes between the matmuls (norms, RoPE, SwiGLU, residuals): each
 * works on batch rows [r0, r1) of layer l, so a prompt's rows can be split
 * over the pool; a decode step's single row is not worth a dispatch. Each
 * thread always gets the same rows, the ones it also multiplies where the
 * products split by rows (SEER_MATMUL_ROW_GRAIN): the passes are short and
 * cache-bound, and rows another core wrote cost a transfer each. */
typedef struct rows_job {
    seer_ctx *c;
    int layer;
    llm_rows_fn fn;
} rows_job;

static void rows_range(void *ctx, int64_t r0, int64_t r1, int ith) {
    (void)ith;
    const rows_job *j = ctx;
    j->fn(j->c, j->layer, r0, r1);
}

#define PARALLEL_MIN_ROWS 16
void llm_for_rows(seer_ctx *c, int l, int n, llm_rows_fn fn) {
    if (n < PARALLEL_MIN_ROWS) {
        fn(c, l, 0, n);
        return;
    }
    rows_job j = {.c = c, .layer = l, .fn = fn};
    seer_pool_split(c->pool, n, SEER_MATMUL_ROW_GRAIN, rows_range, &j);
}

static void rmsnorm_into(const seer_ctx *c, const float *w, int64_t r0, int64_t r1) {
    const int E = c->m->info.n_embd;
    const size_t off = (size_t)r0 * E, len = (size_t)(r1 - r0) * E;
    memcpy(c->xn + off, c->x + off, sizeof(float) * len);
    seer_rmsnorm(c->xn + off, w, r1 - r0, E, c->m->norm_eps);
}

static void attn_norm_pass(seer_ctx *c, int l, int64_t r0, int64_t r1) { rmsnorm_into(c, c->m->layers[l].attn_norm, r0, r1); }

/* Per-head RMSNorm (when the model has it) and RoPE, in the model's order
 * (norm first, or RoPE first for hunyuan_vl), on every head of rows
 * [r0, r1) of width n_heads*head_dim. */
static void norm_rope_rows(const seer_ctx *c, int l, float *x, const float *head_norm, int64_t r0, int64_t r1,
                           int n_heads) {
    const seer_llm *m = c->m;
    const int hd = m->layers[l].head_dim;
    const bool swa = m->layers[l].swa && c->rope_cs_swa;
    const float *table = swa ? c->rope_cs_swa : c->rope_cs;
    const int n_rot = swa ? m->n_rot_swa : m->n_rot;
    float *rows = x + (size_t)r0 * n_heads * hd;
    if (head_norm && !m->qk_norm_after_rope) seer_rmsnorm(rows, head_norm, (r1 - r0) * n_heads, hd, m->norm_eps);
    for (int64_t i = r0; i < r1; i++) {
        const float *cs = table + (size_t)i * n_rot;
        for (int h = 0; h < n_heads; h++) {
            float *v = x + ((size_t)i * n_heads + h) * hd;
            if (m->rope == LLM_ROPE_NORMAL) seer_rope_apply_normal(v, n_rot, cs);
            else seer_rope_apply_neox(v, n_rot, cs);
        }
    }
    if (head_norm && m->qk_norm_after_rope) seer_rmsnorm(rows, head_norm, (r1 - r0) * n_heads, hd, m->norm_eps);
}

/* Q/K norms and RoPE, then K and V rows into the cache at rows n_used + i
 * (a layer sharing an earlier one's cache has only its queries). V is K's
 * projection where the layer has none, normed without weight where the
 * family does so. */
void llm_rope_store_rows(seer_ctx *c, int layer, int64_t r0, int64_t r1) {
    const seer_llm_info *in = &c->m->info;
    const llm_layer *L = &c->m->layers[layer];
    const int hd = L->head_dim;
    const size_t kv_dim = (size_t)L->n_head_kv * (size_t)hd;
    norm_rope_rows(c, layer, c->q, L->q_norm, r0, r1, in->n_head);
    if (c->q_temp) {
        const size_t dq = (size_t)in->n_head * (size_t)hd;
        for (int64_t i = r0; i < r1; i++)
            for (size_t k = 0; k < dq; k++) c->q[(size_t)i * dq + k] *= c->q_temp[i];
    }
    if (L->kv_shared) return;
    if (L->v_from_k) memcpy(c->v + (size_t)r0 * kv_dim, c->k + (size_t)r0 * kv_dim, sizeof(float) * (size_t)(r1 - r0) * kv_dim);
    if (L->v_norm) seer_rmsnorm(c->v + (size_t)r0 * kv_dim, NULL, (r1 - r0) * L->n_head_kv, hd, c->m->norm_eps);
    norm_rope_rows(c, layer, c->k, L->k_norm, r0, r1, L->n_head_kv);
    for (int h = 0; h < L->n_head_kv; h++) {
        const size_t base = llm_kv_head_base(c, layer, h);
        for (int64_t i = r0; i < r1; i++) {
            const size_t dst = base + (size_t)(c->n_used + i) * hd;
            const size_t src = ((size_t)i * L->n_head_kv + h) * hd;
            seer_quantize_row(llm_kv_tensor_type(c->kv_type), c->k + src, llm_kv_at(c, c->k_cache, dst), hd);
            seer_quantize_row(llm_kv_tensor_type(c->kv_type), c->v + src, llm_kv_at(c, c->v_cache, dst), hd);
        }
    }
}

/* x += a branch's output (in xn), RMS-normed first when the model has a
 * post-norm for it. */
static void add_branch(seer_ctx *c, const float *post_norm, int64_t r0, int64_t r1) {
    const int E = c->m->info.n_embd;
    float *out = c->xn + (size_t)r0 * E;
    if (post_norm) seer_rmsnorm(out, post_norm, r1 - r0, E, c->m->norm_eps);
    seer_add(c->x + (size_t)r0 * E, out, (r1 - r0) * E);
}

/* x += attention output (in xn); xn = the FFN's input norm of x. */
static void attn_residual_pass(seer_ctx *c, int l, int64_t r0, int64_t r1) {
    add_branch(c, c->m->layers[l].attn_post_norm, r0, r1);
    rmsnorm_into(c, c->m->layers[l].ffn_norm, r0, r1);
}

/* a = act(a) * b: SiLU (SwiGLU) or tanh GELU (GeGLU, as llama.cpp rounds it). */
static void ffn_gate_pass(seer_ctx *c, int l, int64_t r0, int64_t r1) {
    const int F = c->m->layers[l].n_ff;
    float *a = c->ffn_a + (size_t)r0 * F;
    const float *b = c->ffn_b + (size_t)r0 * F;
    if (c->m->ffn_gelu) seer_geglu_f16(a, b, (r1 - r0) * F);
    else seer_swiglu(a, b, (r1 - r0) * F);
}

/* The end of layer l: x ×its output scale, + its DeepStack slice of the
 * input rows (image rows of Qwen3-VL); xn = the next layer's attention norm
 * of x. */
static void layer_end_pass(seer_ctx *c, int l, int64_t r0, int64_t r1) {
    const seer_llm_info *in = &c->m->info;
    const int E = in->n_embd;
    const float out_scale = c->m->layers[l].out_scale;
    if (out_scale != 1.0f)
        seer_scale(c->x + (size_t)r0 * E, c->x + (size_t)r0 * E, out_scale, (r1 - r0) * E);
    if (c->embd_inp && l < in->n_deepstack)
        for (int64_t i = r0; i < r1; i++)
            seer_add(c->x + (size_t)i * E, c->embd_inp + (size_t)i * in->n_embd_inp + (size_t)(l + 1) * E, E);
    if (l + 1 < in->n_layer) attn_norm_pass(c, l + 1, r0, r1);
}

/* x += the FFN's output (in xn), then the layer's end (one pass instead of
 * two) unless per-layer embeddings come between. */
static void ffn_residual_pass(seer_ctx *c, int l, int64_t r0, int64_t r1) {
    add_branch(c, c->m->layers[l].ffn_post_norm, r0, r1);
    if (!c->m->ple_dim) layer_end_pass(c, l, r0, r1);
}

void llm_dense_ffn(seer_ctx *c, int l, int n) {
    const llm_layer *L = &c->m->layers[l];
    const seer_weight *gate_up[2] = {&L->w_gate, &L->w_up};
    seer_matmul_multi(c->pool, 2, gate_up, c->xn, n, (float *const[]){c->ffn_a, c->ffn_b},
                      (const float *const[]){L->b_gate, L->b_up});
    llm_for_rows(c, l, n, ffn_gate_pass);
    seer_matmul(c->pool, &L->w_down, c->ffn_a, n, c->xn, L->b_down);
}

/* Gated attention (qwen35*): attn_q's rows hold [q | gate] per head; the
 * queries go to c->q, the gates stay in q_gated. */
static void split_gate_pass(seer_ctx *c, int l, int64_t r0, int64_t r1) {
    const int hd = c->m->layers[l].head_dim, nh = c->m->info.n_head;
    for (int64_t i = r0; i < r1; i++)
        for (int h = 0; h < nh; h++)
            memcpy(c->q + ((size_t)i * nh + h) * hd, c->q_gated + ((size_t)i * nh + h) * 2 * hd, sizeof(float) * (size_t)hd);
}

/* attention output × sigmoid(gate), element by element, in the SIMD exp
 * kernels: the gate's half of q_gated (not read again) takes σ(gate) · out,
 * which then goes to out (with libm's expf one value at a time this was
 * 0.7% of a Qwen3.5-4B 128-token prompt's samples, now about 0.2%) */
static void apply_gate_pass(seer_ctx *c, int l, int64_t r0, int64_t r1) {
    const int hd = c->m->layers[l].head_dim, nh = c->m->info.n_head;
    for (int64_t i = r0; i < r1; i++)
        for (int h = 0; h < nh; h++) {
            float *out = c->attn + ((size_t)i * nh + h) * hd;
            float *gate = c->q_gated + ((size_t)i * nh + h) * 2 * hd + hd;
            seer_exp_gate(SEER_GATE_SIGMOID, gate, out, hd);
            memcpy(out, gate, sizeof(float) * (size_t)hd);
        }
}

static void attention_mixer(seer_ctx *c, int l, int n) {
    const llm_layer *L = &c->m->layers[l];
    const seer_weight *qkv[3] = {&L->wq, &L->wk, &L->wv};
    seer_matmul_multi(c->pool, llm_qkv_count(L), qkv, c->xn, n, (float *const[]){L->q_gate ? c->q_gated : c->q, c->k, c->v},
                      (const float *const[]){L->bq, L->bk, L->bv});
    if (L->q_gate) llm_for_rows(c, l, n, split_gate_pass);
    if (c->multi) {
        llm_multi_attention(c, l); /* each row against its own context */
    } else {
        llm_for_rows(c, l, n, llm_rope_store_rows);
        llm_attention(c, l, n);
    }
    if (L->q_gate) llm_for_rows(c, l, n, apply_gate_pass);
    seer_matmul(c->pool, &L->wo, c->attn, n, c->xn, L->bo);
}

static void block(seer_ctx *c, int l, int n) {
    const llm_layer *L = &c->m->layers[l];
    if (l == 0) llm_for_rows(c, l, n, attn_norm_pass); /* later layers': the previous ffn_residual_pass */
    if (L->conv) {
        seer_matmul(c->pool, &L->conv_in, c->xn, n, c->conv_bcx, NULL);
        if (c->multi) llm_multi_shortconv(c, l);
        else llm_shortconv(c, l, n);
        seer_matmul(c->pool, &L->conv_out, c->attn, n, c->xn, NULL);
    } else if (L->gdn) {
        llm_gated_delta(c, l, n);
    } else {
        attention_mixer(c, l, n);
    }
    llm_for_rows(c, l, n, attn_residual_pass);
    if (c->m->moe_dense) llm_moe_beside_dense(c, l, n);
    else if (c->m->moe) llm_moe_ffn(c, l, n, c->xn);
    else llm_dense_ffn(c, l, n);
    llm_for_rows(c, l, n, ffn_residual_pass);
    if (c->m->ple_dim) {
        llm_ple_layer(c, l, n);
        llm_for_rows(c, l, n, layer_end_pass);
    }
}

/* A prompt on a model whose products all go through seer_matmul_rows
 * (c->rows_scratch): each thread takes its rows (split as llm_for_rows) from
 * one attention to the next in one dispatch: the output projection, the
 * FFN and its residuals of layer l, then layer l + 1's Q, K, V and RoPE.
 * Attention is the only step that reads other threads' rows (their keys
 * and values), so a layer costs the pool two waits instead of nine. */
typedef struct layer_rows_job {
    seer_ctx *c;
    int layer; /* the attention before this step, or -1 for the first step */
} layer_rows_job;

static void qkv_rows(seer_ctx *c, int l, int64_t r0, int64_t r1, void *scratch) {
    const llm_layer *L = &c->m->layers[l];
    const seer_llm_info *in = &c->m->info;
    const int64_t E = in->n_embd, Dq = (int64_t)in->n_head * L->head_dim, Dkv = (int64_t)L->n_head_kv * L->head_dim;
    const seer_weight *w[3] = {&L->wq, &L->wk, &L->wv};
    seer_matmul_rows(llm_qkv_count(L), w, c->xn + r0 * E, r1 - r0,
                     (float *const[]){c->q + r0 * Dq, c->k + r0 * Dkv, c->v + r0 * Dkv},
                     (const float *const[]){L->bq, L->bk, L->bv}, scratch);
    llm_rope_store_rows(c, l, r0, r1);
}

static void output_ffn_rows(seer_ctx *c, int l, int64_t r0, int64_t r1, void *scratch) {
    const llm_layer *L = &c->m->layers[l];
    const seer_llm_info *in = &c->m->info;
    const int64_t E = in->n_embd, Dq = (int64_t)in->n_head * L->head_dim, F = L->n_ff;
    const seer_weight *wo = &L->wo, *gate_up[2] = {&L->w_gate, &L->w_up}, *down = &L->w_down;
    seer_matmul_rows(1, &wo, c->attn + r0 * Dq, r1 - r0, (float *const[]){c->xn + r0 * E}, (const float *const[]){L->bo},
                     scratch);
    attn_residual_pass(c, l, r0, r1);
    seer_matmul_rows(2, gate_up, c->xn + r0 * E, r1 - r0, (float *const[]){c->ffn_a + r0 * F, c->ffn_b + r0 * F},
                     (const float *const[]){L->b_gate, L->b_up}, scratch);
    ffn_gate_pass(c, l, r0, r1);
    seer_matmul_rows(1, &down, c->ffn_a + r0 * F, r1 - r0, (float *const[]){c->xn + r0 * E},
                     (const float *const[]){L->b_down}, scratch);
    ffn_residual_pass(c, l, r0, r1);
}

static void between_attentions_range(void *ctx, int64_t r0, int64_t r1, int ith) {
    const layer_rows_job *j = ctx;
    seer_ctx *c = j->c;
    void *scratch = c->rows_scratch + (size_t)ith * c->rows_scratch_bytes;
    if (j->layer < 0) attn_norm_pass(c, 0, r0, r1);
    else output_ffn_rows(c, j->layer, r0, r1, scratch);
    if (j->layer + 1 < c->m->info.n_layer) qkv_rows(c, j->layer + 1, r0, r1, scratch);
}

static bool layers_by_rows(const seer_ctx *c, int n) {
    /* the per-thread pass assumes attention in every layer; it shares the
     * rows out SEER_MATMUL_ROW_GRAIN at a time */
    return c->rows_scratch && !c->multi && !c->m->n_conv_layers && !c->m->ple_dim && n >= SEER_MATMUL_ROW_GRAIN;
}

static int layers(seer_ctx *c, int n, const volatile int *cancel) {
    const int n_layer = c->m->info.n_layer;
    if (!layers_by_rows(c, n)) {
        for (int l = 0; l < n_layer; l++) {
            if (cancel && *cancel) return -1;
            block(c, l, n);
        }
        return 0;
    }
    layer_rows_job j = {.c = c, .layer = -1};
    seer_pool_split(c->pool, n, SEER_MATMUL_ROW_GRAIN, between_attentions_range, &j);
    for (int l = 0; l < n_layer; l++) {
        if (cancel && *cancel) return -1;
        llm_attention(c, l, n);
        j.layer = l;
        seer_pool_split(c->pool, n, SEER_MATMUL_ROW_GRAIN, between_attentions_range, &j);
    }
    return 0;
}

/* The final logit soft-cap over every logit wanted (Gemma: 262k per row),
 * in SIMD on all threads (one thread running libm tanhf over them was about
 * 2% of a one-thread Gemma 4 E4B decode step). */
typedef struct softcap_job {
    float *logits;
    float cap;
} softcap_job;
#define SOFTCAP_GRAIN 4096

static void softcap_range(void *ctx, int64_t begin, int64_t end, int ith) {
    (void)ith;
    const softcap_job *j = ctx;
    seer_softcap(j->logits + begin, end - begin, j->cap);
}

int llm_forward(seer_ctx *c, int n, const int32_t *tokens, const float *embd, const float *rows_pos,
                bool non_causal, llm_logits want, int logits_row0, float *hidden, const volatile int *cancel) {
    const seer_llm *m = c->m;
    const int E = m->info.n_embd;
    c->embd_inp = embd;
    c->non_causal = non_causal;
    embed_rows(c, n, tokens, embd);
    if (m->ple_dim) llm_ple_inputs(c, n, embd ? NULL : tokens);
    if (!c->multi) llm_rope_tables(c, n, rows_pos); /* else each context's own, set by decode_multi.c */
    if (layers(c, n, cancel) != 0 || (cancel && *cancel)) return -1;
    if (hidden) { /* embeddings: the normed states are the output, no head */
        memcpy(hidden, c->x, sizeof(float) * (size_t)n * (size_t)E);
        seer_rmsnorm(hidden, m->output_norm, n, E, m->norm_eps);
        return 0;
    }
    if (want == LLM_LOGITS_NONE) return 0;
    const int first = want == LLM_LOGITS_ALL ? 0 : n - 1;
    const int rows = n - first;
    memcpy(c->xn, c->x + (size_t)first * E, sizeof(float) * (size_t)rows * (size_t)E);
    seer_rmsnorm(c->xn, m->output_norm, rows, E, m->norm_eps);
    float *dst = c->logits + (want == LLM_LOGITS_ALL ? (size_t)logits_row0 * (size_t)m->info.n_vocab : 0);
    seer_matmul(c->pool, &m->output, c->xn, rows, dst, NULL);
    if (m->logit_softcap > 0.0f) {
        softcap_job j = {dst, m->logit_softcap};
        seer_pool_split(c->pool, (int64_t)rows * m->info.n_vocab, SOFTCAP_GRAIN, softcap_range, &j);
    }
    return 0;
}
