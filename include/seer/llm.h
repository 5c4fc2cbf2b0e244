/* The language model: weights (in place from the GGUF mapping), KV cache and
 * the forward pass for llama / qwen2 / qwen2vl / qwen3 / qwen3moe / qwen3vl /
 * qwen3vlmoe / gemma3 architectures. */
#ifndef SEER_LLM_H
#define SEER_LLM_H

#include "seer/gguf.h"
#include "seer/tokenizer.h"
#include "seer/threadpool.h"

typedef struct seer_llm seer_llm;   /* immutable model */
typedef struct seer_ctx seer_ctx;   /* KV cache + scratch: one conversation */

typedef struct seer_llm_info {
    const char *arch;        /* "llama", "qwen2", "qwen2vl", "qwen3", "gemma3", … */
    const char *name;        /* general.name or file name */
    int n_vocab, n_embd, n_layer, n_head, n_head_kv, head_dim, n_ff, n_ctx_train;
    int n_layer_kv;          /* layers with keys and values: all but lfm2's short convolutions and qwen35's Gated DeltaNet */
    int n_layer_gdn;         /* Gated DeltaNet layers (qwen35*), else 0 */
    int n_nextn;             /* MTP blocks the file carries after the trunk (skipped: n_layer excludes them) */
    /* Recurrent state of one conversation (short-conv rows, DeltaNet rows and
     * matrices), F32: what each kept mark (seer_ctx_mark) costs again. 0 when none. */
    uint64_t state_bytes;
    int state_marks;         /* marks a context keeps */
    int64_t n_kv_floats;     /* K floats a position takes in the cache over all layers (as many V) */
    /* Width of the embedding rows a caller passes in seer_batch.embd:
     * n_embd·(1 + n_deepstack) for Qwen3-VL (the DeepStack slices ride along
     * each image row), else n_embd. */
    int n_embd_inp;
    int n_deepstack;         /* layers that add a DeepStack slice (qwen3vl*), else 0 */
    int n_expert, n_expert_used; /* mixture of experts (qwen3moe*), else 0 */
    int n_swa, swa_pattern;  /* sliding window (gemma3): window size, every swa_pattern-th layer global; else 0 */
    bool mrope;              /* positions have 4 sections (qwen2vl, qwen3vl*) */
    int weight_type;         /* dominant matrix type (for display) */
    uint64_t n_params, weight_bytes;
} seer_llm_info;

/* A qwen35* file's recurrent layout from its metadata alone (seer info):
 * trunk layers, MTP blocks after them, Gated DeltaNet layers and the F32
 * state of one conversation (what each of the `marks` kept states costs).
 * All 0 for other files. */
typedef struct seer_llm_recurrent {
    int n_layer, n_nextn, n_gdn, marks;
    uint64_t state_bytes;
} seer_llm_recurrent;
seer_llm_recurrent seer_llm_recurrent_from_file(const gguf_file *f);

/* Progress while mapping/validating weights and interleaving the Q4_K,
 * Q6_K and Q8_0 matrices (seer_weight_interleave): fraction 0..1. Optional. */
typedef void (*seer_progress_fn)(void *ud, float fraction);

seer_llm *seer_llm_load(const char *path, seer_progress_fn progress, void *ud, seer_error *err);
void seer_llm_free(seer_llm *m);
const seer_llm_info *seer_llm_get_info(const seer_llm *m);
const seer_vocab *seer_llm_vocab(const seer_llm *m);
const gguf_file *seer_llm_gguf(const seer_llm *m);
/* The copy of the model's matrices the decode kernels read (their groups of
 * 16 rows, one allocation) and its bytes; NULL and 0 where they read the
 * file's own layout. */
const void *seer_llm_weights_copy(const seer_llm *m, size_t *bytes);
/* Reads one byte of every page of the weights still read from the file
 * (the interleaved copies are resident already), so that a first timed
 * decode does not pay for paging them in. The token embedding is left out:
 * a step reads one row of it, and paging in all of it would make the
 * resident size something no session reaches. */
void seer_llm_page_in(const seer_llm *m);

/* What the KV cache holds. F16 (the default, as in llama.cpp) is half the
 * memory and half the bytes attention reads per token; F32 keeps K and V
 * exactly as computed (what references made with an F32 cache need). */
typedef enum seer_kv_type { SEER_KV_F16 = 0, SEER_KV_F32 = 1 } seer_kv_type;
const char *seer_kv_type_name(seer_kv_type t);          /* "f16", "f32" */
bool seer_kv_type_parse(const char *name, seer_kv_type *out);

/* n_ctx <= 0: min(training context, 4096). Allocates everything the token
 * loop needs; returns NULL (with a message naming the size) when it cannot. */
seer_ctx *seer_ctx_new(const seer_llm *m, int n_ctx, seer_kv_type kv, seer_pool *pool, seer_error *err);
/* The KV cache starts small and grows as the context fills (by doubling,
 * the rows in use copied). Room for n_tokens rows now (at most n_ctx), for
 * timings that should not include a growth: 0, or -1 when out of memory. */
int seer_ctx_reserve(seer_ctx *c, int n_tokens, seer_error *err);
/* Bytes of the KV cache of an n_ctx-token context (K and V per layer). */
double seer_kv_cache_bytes(const seer_llm_info *info, int n_ctx, seer_kv_type kv);
/* Bytes of K and V one decode step reads with n_rows rows in the cache (its
 * own included): every attention layer's rows, a sliding-window layer's last
 * n_swa, a layer sharing an earlier one's cache that cache again. */
double seer_llm_kv_read_bytes(const seer_llm *m, int n_rows, seer_kv_type kv);
seer_kv_type seer_ctx_kv_type(const seer_ctx *c);
void seer_ctx_free(seer_ctx *c);
int seer_ctx_size(const seer_ctx *c);     /* n_ctx */
const seer_llm *seer_ctx_model(const seer_ctx *c);
int seer_ctx_used(const seer_ctx *c);     /* KV rows filled */
int32_t seer_ctx_next_pos(const seer_ctx *c); /* position the next token takes by default */
/* Drops KV rows from `n_keep` on (cancel, rollback, /clear with 0) and sets
 * the next position. A model with short-convolution layers (lfm2) carries a
 * recurrent state that is known only at 0 and where seer_ctx_mark was
 * called (the last few marks): truncating anywhere else empties the cache
 * (seer_ctx_used then says 0). */
void seer_ctx_truncate(seer_ctx *c, int n_keep, int32_t next_pos);
/* Remembers the state at the rows used now as a place a later truncation
 * can come back to (a prompt's start). Nothing to do for other models. */
void seer_ctx_mark(seer_ctx *c);
/* The most rows, at most `rows`, that seer_ctx_truncate can keep without
 * emptying the cache: `rows` itself without a recurrent state, else the
 * latest mark at or before it (0: none, start over). */
int seer_ctx_mark_floor(const seer_ctx *c, int rows);

/* A chunk of input: either token ids or embedding rows [n][n_embd_inp]. */
typedef struct seer_batch {
    int n;
    const int32_t *tokens;   /* or NULL */
    const float *embd;       /* or NULL */
    /* Positions: NULL → next_pos, next_pos+1, … (all M-RoPE sections equal).
     * Otherwise n entries, or for M-RoPE models 4*n entries laid out
     * section-major: pos[s*n + i] for s = t, h, w, e. */
    const int32_t *pos;
    bool logits_all;         /* logits for every row (else only the last) */
    /* The rows attend to every cached row and to every row of this batch
     * (sliding windows still apply), as llama.cpp decodes a Gemma 3 image
     * chunk; the batch must then fit in one forward pass (error otherwise). */
    bool non_causal;
    /* When non-NULL: receives every row's final hidden state (after the
     * output norm), [n][n_embd], and no logits are computed (embeddings). */
    float *hidden;
} seer_batch;

/* Runs the batch, appending it to the KV cache. next_pos becomes
 * max(position used)+1. Returns 0, or -1 (context full, cancelled, …).
 * *cancel is polled between layers when non-NULL; with a recurrent state
 * (lfm2, qwen35) a call of fewer than 4 rows polls it once at its start. */
int seer_ctx_decode(seer_ctx *c, const seer_batch *b, const volatile int *cancel, seer_error *err);
/* One token for each of n distinct contexts of the same model, each at its
 * own position (next_pos) after its own cache (continuous batching): the n
 * rows go through one forward pass, so every weight matrix is read once for
 * all of them, while RoPE, the KV cache, attention and a recurrent state
 * (short convolution, Gated DeltaNet) stay each context's own. Afterwards
 * seer_ctx_logits(ctx[i], 0) is tokens[i]'s logits, as a seer_ctx_decode
 * of that one token would give them up to the rounding of the several-row
 * kernels. The contexts share the first one's thread pool. Returns 0, or -1 with nothing decoded (a full context, a bad token). */
#define SEER_DECODE_MULTI_MAX 64
int seer_ctx_decode_multi(seer_ctx *const *ctx, const int32_t *tokens, int n, seer_error *err);
/* Logits of the last row decoded ([n_vocab]); with logits_all, row i. */
const float *seer_ctx_logits(const seer_ctx *c, int i);

#endif
