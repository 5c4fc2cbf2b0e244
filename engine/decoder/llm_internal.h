/* Internals of the language model: weights bound in place, hyper-parameters,
 * and the context (KV cache + scratch) of one conversation. */
#ifndef SEER_DECODER_LLM_INTERNAL_H
#define SEER_DECODER_LLM_INTERNAL_H

#include "seer/llm.h"
#include "decoder/attention_kernels.h"
#include "decoder/delta_step.h"
#include "kernels/gemm_f32_internal.h"
#include "seer/matmul.h"
#include "seer/ops.h"

/* MULTI: Qwen2-VL's M-RoPE (sections one after another); IMROPE: Qwen3-VL's
 * (sections interleaved, seer_rope_table_interleaved). Both pair as neox. */
typedef enum llm_rope_kind { LLM_ROPE_NORMAL, LLM_ROPE_NEOX, LLM_ROPE_MULTI, LLM_ROPE_IMROPE } llm_rope_kind;

typedef struct llm_layer {
    const float *attn_norm, *ffn_norm;
    seer_weight wq, wk, wv, wo, w_gate, w_up, w_down; /* the FFN's three unset in a MoE model */
    const float *bq, *bk, *bv;   /* NULL when the architecture has none */
    const float *bo, *b_gate, *b_up, *b_down; /* optional output / FFN biases (mistral3), else NULL */
    const float *q_norm, *k_norm; /* per-head RMSNorm of Q and K before RoPE [head_dim] (qwen3*, gemma3; after it: hunyuan_vl), or NULL */
    const float *attn_post_norm, *ffn_post_norm; /* RMSNorm of each branch's output before its residual (gemma3), or NULL */
    bool swa;                    /* attends to the last n_swa positions only (its own RoPE base) */
    /* This layer's geometry: the model's, except where a family varies it
     * per layer (gemma4: sliding and full layers differ in head size and KV
     * heads; E-shapes in FFN width). */
    int head_dim, n_head_kv, n_ff;
    size_t kv_offset;            /* floats before this layer's in a cache row of all layers' keys (kv_row_floats) */
    bool kv_shared;              /* no K/V of its own: attends over an earlier layer's cache (kv_offset is that one's) */
    bool v_from_k;               /* no V projection: V is K's projection before its norm (gemma4) */
    bool v_norm;                 /* V RMS-normed per head without weight (gemma4) */
    float out_scale;             /* the block's output ×this (gemma4 layer_output_scale), else 1 */
    /* Mixture of experts: the router [n_embd → n_expert] and expert 0's
     * matrices of the 3-D tensors, used in place; expert e's rows follow at
     * e·n_out rows (llm_expert). */
    seer_weight router, gate_exps, up_exps, down_exps;
    int64_t gate_up_stride;      /* rows from one expert's gate (or up) matrix to the next's: F, or 2F when fused */
    /* gemma4 (moe_dense): the router's input is rms_norm(x)/√n_embd ⊙
     * router_in_scale, expert e's output ×expert_scale[e] (or NULL); the
     * experts read pre_ffw_norm_2(x), the dense FFN's output is normed by
     * post_ffw_norm_1 and the experts' by post_ffw_norm_2 before their sum. */
    const float *router_in_scale, *expert_scale, *ffn_pre_norm_2, *ffn_post_norm_1, *ffn_post_norm_2;
    /* A short-convolution layer (lfm2: head_count_kv 0) in place of
     * attention: in_proj [n_embd → 3·n_embd], the depthwise kernel
     * [n_embd][conv_len], out_proj. */
    bool conv;
    size_t state_off;            /* a conv or Gated DeltaNet layer's recurrent state in rec_state (floats) */
    const float *conv_kernel;
    seer_weight conv_in, conv_out;
    /* Per-layer embeddings (model ple_dim > 0): gate [n_embd → P], proj [P → n_embd], post_norm [n_embd]. */
    seer_weight ple_gate, ple_out;
    const float *ple_post_norm;
    /* Gated attention (qwen35*): attn_q's rows are [q | gate] per head, the
     * attention output is multiplied by sigmoid(gate) before attn_output. */
    bool q_gate;
    /* A Gated DeltaNet layer (qwen35*, gated_delta.c) in place of attention:
     * in_proj rows [q | k | v] (gdn_qkv), the output gate z (gdn_z), beta
     * and alpha [n_embd → n_v], the causal depthwise kernel [K][channels]
     * (rearranged at load from the file's [channels][K]), dt bias and A (log-decay rate, negative) per value head, the output
     * norm [d_v] and out_proj. */
    bool gdn;
    seer_weight gdn_qkv, gdn_z, gdn_beta, gdn_alpha, gdn_out;
    const float *gdn_conv, *gdn_dt_bias, *gdn_a, *gdn_norm;
    /* A MoE layer's shared expert behind a sigmoid gate (qwen35moe), or unset:
     * gate logit = shexp_inp·x. */
    seer_weight shexp_gate, shexp_up, shexp_down;
    const float *shexp_inp;
} llm_layer;

/* A Gated DeltaNet layer's sizes: n_k key heads and n_v value heads (value
 * head j reads key head j mod n_k), each head d wide (keys and values
 * alike), a K-tap convolution over the 2·n_k·d + n_v·d in_proj channels. */
typedef struct llm_gdn_dims {
    int n_k, n_v, d, conv_len;
} llm_gdn_dims;
static inline int llm_gdn_channels(const llm_gdn_dims *g) { return (2 * g->n_k + g->n_v) * g->d; }
/* Floats of one layer's state: the last K − 1 in_proj rows, then S [n_v][d][d]. */
static inline size_t llm_gdn_state_floats(const llm_gdn_dims *g) {
    return (size_t)(g->conv_len - 1) * (size_t)llm_gdn_channels(g) + (size_t)g->n_v * (size_t)g->d * (size_t)g->d;
}

struct seer_llm {
    gguf_file *gguf;
    seer_vocab *vocab;
    seer_llm_info info;
    char arch[32];
    char *name;
    int head_dim_v;              /* value head size (usually = head_dim) */
    int n_rot, n_rot_swa;        /* rotated dims of full / sliding-window layers */
    float rope_base, norm_eps;
    const float *rope_freqs;     /* full layers' per-pair frequency divisors [n_rot/2] (gemma4 proportional RoPE), or NULL */
    bool swa_only_non_causal;    /* a non-causal batch is so only on sliding-window layers (gemma4) */
    size_t kv_row_floats;        /* one position's keys over every cache-owning layer */
    int max_head_dim, max_kv_dim, max_q_dim, max_group; /* the largest over layers (scratch sizes) */
    llm_rope_kind rope;
    int sections[4];             /* M-RoPE sections in pairs */
    bool qk_norm_after_rope;     /* the per-head Q/K norms follow RoPE instead of preceding it (hunyuan_vl) */
    float rope_freq_scale;       /* positions ×this on non-SWA layers (linear RoPE scaling), else 1 */
    bool rope_yarn;              /* YaRN scaling (rope_yarn.c) in place of the linear one */
    seer_rope_yarn yarn;
    /* Query temperature (mistral3: Llama 4's): a query at position p is
     * ×(1 + attn_temp_scale·ln(1 + floor(p / attn_temp_floor))) after RoPE;
     * attn_temp_scale 0: none. */
    float attn_temp_scale;
    int attn_temp_floor;
    float rope_base_swa;         /* RoPE base of sliding-window layers */
    float attn_scale;            /* scores = scale · q·k */
    float embd_scale;            /* token embeddings ×this (gemma3: sqrt(n_embd)), else 1 */
    float logit_softcap;         /* logits = cap·tanh(logits/cap) when > 0 */
    bool ffn_gelu;               /* GeGLU (tanh GELU) instead of SwiGLU */
    bool ffn_fused_up;           /* one ffn_up [gate | up] rows, no ffn_gate (glm4): w_gate and w_up are its halves */
    bool moe;                    /* the FFN is a mixture of experts (moe.c) */
    bool moe_dense;              /* ... with the dense FFN beside it (gemma4 26B-A4B) */
    int n_ff_exp;                /* an expert's FFN width */
    int n_conv_layers, conv_len; /* short-convolution layers and their kernel length (lfm2), else 0 */
    /* Per-layer embeddings (gemma4 E-shapes; per_layer_embd.c): width P per
     * layer (0: none), the token table [P·n_layer per token] read from the
     * file, the projection of the embedding [n_embd → P·n_layer], its norm [P]. */
    int ple_dim;
    seer_weight ple_tok, ple_proj;
    const float *ple_proj_norm;
    int n_gdn_layers;            /* Gated DeltaNet layers (qwen35*), else 0 */
    llm_gdn_dims gdn;
    int n_ff_shexp;              /* the shared expert's FFN width (qwen35moe), else 0 */
    size_t rec_state_floats;     /* recurrent state of one sequence: every conv and GDN layer's */
    seer_weight tok_embd, output;
    const float *output_norm;
    llm_layer *layers;
    char *arena;                 /* the interleaved matrices (seer_weight_interleave), or NULL */
    size_t arena_bytes;
    float **owned;               /* 1-D tensors converted to f32 */
    int n_owned;
};

/* Recurrent states (short-conv rows, Gated DeltaNet conv rows and matrices)
 * kept where a truncation may land (seer_ctx_mark): prompt starts, so that
 * a cancelled or failed prompt goes back to the last one. */
#define LLM_STATE_MARKS 4
/* The longest short convolution a file may ask for (lfm2's is 3). */
#define LLM_CONV_LEN_MAX 64

struct seer_ctx {
    const seer_llm *m;
    seer_pool *pool;
    int n_ctx, n_used, n_batch, n_threads;
    int32_t next_pos;
    seer_kv_type kv_type;
    void *k_cache, *v_cache;     /* [attention layer][kv head][kv_cap][head_dim]: each head's rows contiguous */
    int kv_cap;                  /* rows per head allocated so far (seer_ctx_reserve grows it up to n_ctx) */
    /* scratch for n_batch rows */
    float *x, *xn, *q, *k, *v, *attn, *ffn_a, *ffn_b;
    float *rope_cs;              /* [n_batch][n_rot]: cos/sin per pair and row */
    float *rope_cs_swa;          /* the same for sliding-window layers [n_batch][n_rot_swa], or NULL (none) */
    int32_t *kv_pos;             /* [n_ctx]: each cache row's position (sliding windows mask by it) */
    float *q_temp;               /* [n_batch]: each row's query temperature factor (attn_temp_scale), or NULL */
    /* The forward pass in progress: its embedding rows (n_embd_inp apart;
     * NULL for tokens), and whether its rows see the whole batch. */
    const float *embd_inp;
    bool non_causal;
    /* MoE scratch (NULL otherwise): router probabilities [n_batch][n_expert],
     * each row's chosen experts and weights [n_batch][n_expert_used], the
     * picks grouped by expert [n_batch·n_expert_used] and where each went,
     * one expert's output row of a decode step [n_embd], every pick's input
     * row and then weighted output [n_batch·n_expert_used][n_embd] (a
     * decode step's by slot, a prompt's grouped by expert). ffn_a / ffn_b
     * hold every pick's row. */
    float *moe_probs, *moe_weights, *moe_x, *moe_y;
    float *moe_router_in, *moe_dense_out; /* gemma4: [n_batch][n_embd] each, else NULL */
    int32_t *moe_chosen, *moe_rows, *moe_pos;
    void *embd_row;              /* one token embedding row as stored, read from the file */
    /* Per-layer embeddings: each row's inputs [n_batch][n_layer][P], a
     * layer's gated activations [n_batch][P], one table row as stored and as f32. */
    float *ple_in, *ple_act, *ple_tok_f32;
    void *ple_row;
    float *scores;               /* [n_threads][query group][n_ctx] */
    float *logits;               /* [logits_cap][n_vocab] */
    int logits_cap, logits_rows; /* rows held by the last decode */
    bool logits_all;
    attn_kernels attn_k;         /* inner attention loops for this CPU */
    delta_step_fn delta_step;    /* a Gated DeltaNet decode row for this CPU */
    float *tile_scores;          /* [n_threads][LLM_ATTN_TILE][n_ctx]: prefill attention */
    float *tile_kv;              /* [n_threads][llm_tile_kv_floats]: a head's K and V packed for prefill GEMMs */
    float *attn_parts;           /* decode attention per key chunk: [row][head][LLM_ATTN_CHUNKS_MAX][head_dim + 1] */
    /* When every layer weight goes through seer_matmul_rows (forward.c
     * takes each thread's prompt rows through a layer in one dispatch):
     * each thread's scratch for it, rows_scratch_bytes apart; else NULL. */
    char *rows_scratch;
    size_t rows_scratch_bytes;
    /* Short-convolution layers (shortconv.c): in_proj's rows [n_batch][3·n_embd]
     * (B becomes B⊙X in place), and the recurrent state after the rows used:
     * each conv layer's last conv_len − 1 B⊙X rows [slot][conv_len − 1][n_embd]
     * (zeros before the first row), rec_state_floats in all. The state is
     * known at row 0, at the rows used, and at the marks (seer_ctx_mark: the
     * last LLM_STATE_MARKS); rec_undo holds it as a decode of many rows
     * found it, for a cancel (a call of a few rows runs to its end). */
    float *conv_bcx, *rec_state, *rec_undo;
    /* Gated DeltaNet scratch (gated_delta.c): in_proj rows [n_batch][channels],
     * the same convolved (q, k normed), z [n_batch][n_v·d], beta and the
     * log-decay g [n_batch][n_v]; each thread's chunk work space
     * (gdn_work_floats apart). Gated attention: attn_q's rows [n_batch][2·q width]. */
    float *gdn_mix, *gdn_qkv, *gdn_z, *gdn_beta, *gdn_g, *gdn_work, *q_gated;
    size_t gdn_work_floats;
    float *shexp_out;            /* the shared expert's weighted output [n_batch][n_embd] (qwen35moe) */
    size_t rec_state_floats;
    struct {
        int row;                 /* rows used when marked, or -1 */
        float *state;
    } rec_marks[LLM_STATE_MARKS];
    int rec_mark_next;          /* the mark the next seer_ctx_mark replaces */
    /* Set on the lead context while seer_ctx_decode_multi runs its rows
     * through this context's scratch (decode_multi.c), else NULL. */
    const struct llm_multi *multi;
};

/* A multi-sequence decode step: row i of the lead context's scratch is the
 * next token of ctx[i] (ctx[0] is the lead itself). */
typedef struct llm_multi {
    seer_ctx *const *ctx;
    int n;
} llm_multi;

/* The element offset of layer `layer`'s KV head `kvh` in k_cache / v_cache:
 * each layer's heads one after another, each head's kv_cap rows contiguous. */
static inline size_t llm_kv_head_base(const seer_ctx *c, int layer, int kvh) {
    const llm_layer *L = &c->m->layers[layer];
    return (L->kv_offset + (size_t)kvh * (size_t)L->head_dim) * (size_t)c->kv_cap;
}


/* How many of wq, wk, wv a layer multiplies by: all three, or wq and wk
 * (V from K), or wq alone (a layer sharing another's cache). */
static inline int llm_qkv_count(const llm_layer *L) { return L->kv_shared ? 1 : L->v_from_k ? 2 : 3; }

/* Whether layer l's rows see the whole batch in the pass in progress. */
static inline bool llm_layer_non_causal(const seer_ctx *c, int l) {
    return c->non_causal && (!c->m->swa_only_non_causal || c->m->layers[l].swa);
}

/* Prefill attention runs on tiles of this many query rows through GEMM, from
 * this many batch rows on (below: per-row dot products). */
#define LLM_ATTN_TILE 32
#define LLM_ATTN_TILE_MIN_ROWS 16
/* A thread's packed keys (up to n_ctx outputs over max_hd) and values
 * (max_hd outputs over n_ctx) for those GEMMs (attention.c). */
static inline size_t llm_tile_kv_floats(int n_ctx, int max_hd) {
    return seer_f32_packed_floats(n_ctx, max_hd) + seer_f32_packed_floats(max_hd, n_ctx);
}
/* Below that, a row's keys go in chunks of at least LLM_ATTN_CHUNK_MIN
 * keys, at most LLM_ATTN_CHUNKS_MAX chunks (attention.c). */
#define LLM_ATTN_CHUNK_MIN 64
#define LLM_ATTN_CHUNKS_MAX 16

/* A KV cache type's elements as a tensor type (how rows are converted in
 * and out), and their size. */
static inline int llm_kv_tensor_type(seer_kv_type kv) { return kv == SEER_KV_F32 ? SEER_TYPE_F32 : SEER_TYPE_F16; }
static inline size_t llm_kv_elt_bytes(seer_kv_type kv) { return kv == SEER_KV_F32 ? sizeof(float) : sizeof(uint16_t); }

/* Element `index` of a cache (k_cache or v_cache). */
static inline void *llm_kv_at(const seer_ctx *c, void *cache, size_t index) {
    return (char *)cache + index * llm_kv_elt_bytes(c->kv_type);
}

typedef enum llm_logits { LLM_LOGITS_NONE, LLM_LOGITS_LAST, LLM_LOGITS_ALL } llm_logits;

/* The forward pass of up to n_batch rows written at cache rows n_used…; does
 * not move n_used. rows_pos: [n][4] positions. Logits go to c->logits (row
 * logits_row0 + i for LLM_LOGITS_ALL, row 0 for the last row); with hidden
 * (non-NULL), the n rows' normed final states go there instead. Returns 0,
 * or -1 when cancelled (then the cache rows below n_used are untouched). */
int llm_forward(seer_ctx *c, int n, const int32_t *tokens, const float *embd, const float *rows_pos,
                bool non_causal, llm_logits want, int logits_row0, float *hidden, const volatile int *cancel);

/* The positions [4] of a row at 1-D position `pos`: every section, except
 * that a token row on an M-RoPE model takes 0 on the fourth, as llama.cpp
 * widens text positions (context.c's batch_positions, decode_multi.c). */
static inline void llm_row_pos(const seer_llm *m, int32_t pos, bool token, int32_t p[4]) {
    p[0] = p[1] = p[2] = p[3] = pos;
    if (m->info.mrope && token) p[3] = 0;
}

/* Each row's cos/sin tables from rows_pos [n][4] (and kv_pos of the cache
 * rows it will take); Q/K norms and RoPE of rows [r0, r1), K and V into the
 * cache (forward.c). */
void llm_rope_tables(seer_ctx *c, int n, const float *rows_pos);
void llm_rope_store_rows(seer_ctx *c, int layer, int64_t r0, int64_t r1);

/* The per-sequence parts of a multi-sequence step (decode_multi.c): layer
 * l's RoPE, cache store and attention, or short convolution, of each row of
 * the lead's scratch in its own context. */
void llm_multi_attention(seer_ctx *lead, int l);
void llm_multi_shortconv(seer_ctx *lead, int l);

/* Attention of the batch's queries over the cache: row i sees cache rows
 * [0, n_used + i] (causal) or [0, n_used + n) (c->non_causal), less those a
 * sliding window drops on SWA layers; a few rows split over (row, KV head,
 * key chunk), a prompt over (head, tile of rows). */
void llm_attention(seer_ctx *c, int layer, int n);

/* Short convolution of layer l on rows [0, n): in_proj's output in
 * c->conv_bcx, result (C ⊙ conv(B ⊙ X)) into c->attn; the layer's state
 * moves on by the n rows (shortconv.c). */
void llm_shortconv(seer_ctx *c, int l, int n);

/* Gated DeltaNet layer l on rows [0, n) of c->xn, output into c->xn; the
 * layer's state moves on by the n rows (gated_delta.c). */
void llm_gated_delta(seer_ctx *c, int l, int n);
/* Floats of each thread's work space for llm_gated_delta. */
size_t llm_gated_delta_work_floats(const seer_llm *m);

/* Per-layer embeddings (per_layer_embd.c): the pass's inputs for rows [0, n)
 * from c->x (the scaled embeddings) and their tokens (NULL: embedding rows);
 * then, after layer l's FFN, its gated addition to c->x. */
void llm_ple_inputs(seer_ctx *c, int n, const int32_t *tokens);
void llm_ple_layer(seer_ctx *c, int l, int n);

/* The mixture-of-experts FFN of layer l on rows [0, n) of c->xn, routed by
 * router_in's rows (c->xn itself, or gemma4's router input), output into
 * c->xn (moe.c). */
void llm_moe_ffn(seer_ctx *c, int l, int n, const float *router_in);
/* Gemma 4's FFN: the dense one (on c->xn, the ffn_norm of x) and the
 * experts beside it, each normed, summed into c->xn. */
void llm_moe_beside_dense(seer_ctx *c, int l, int n);
/* The dense gated FFN of layer l on rows [0, n) of c->xn, into c->xn (forward.c). */
void llm_dense_ffn(seer_ctx *c, int l, int n);
/* fn over batch rows [0, n) of layer l, split over the pool by rows
 * (forward.c), or on the caller for a few rows. */
typedef void (*llm_rows_fn)(seer_ctx *c, int l, int64_t r0, int64_t r1);
void llm_for_rows(seer_ctx *c, int l, int n, llm_rows_fn fn);

/* Matrices of a layer bound as seer_weight (load.c's layer_matrices and the
 * per-layer-embedding pair). */
#define LLM_LAYER_MATRICES 12
/* Expert e's matrix of a 3-D expert tensor bound as expert 0 (a view, no
 * copy), experts stride rows apart (n_out, or twice that for the halves of a
 * fused gate_up tensor). */
static inline seer_weight llm_expert(const seer_weight *all, int e, int64_t stride) {
    seer_weight w = *all;
    w.data = (const char *)all->data + (size_t)e * (size_t)stride * all->row_bytes;
    /* interleaved (load.c's interleave_experts): stride / 16 groups an expert */
    if (all->interleaved)
        w.interleaved = (char *)all->interleaved + (size_t)e * (size_t)(stride / 16) * seer_weight_group_bytes(all);
    return w;
}

#endif
