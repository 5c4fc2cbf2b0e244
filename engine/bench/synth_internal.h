/* Pieces of the synthetic model writer (not part of the API). */
#ifndef SEER_BENCH_SYNTH_INTERNAL_H
#define SEER_BENCH_SYNTH_INTERNAL_H

#include "seer/bench.h"

/* ---- vocabularies ---- */

/* Byte-level BPE ("gpt2") vocabulary of exactly n_vocab tokens: `lead`
 * special tokens first, then the 256 byte symbols, then merged pairs (with
 * their merges), then `tail` special tokens at the end. Sets the
 * tokenizer.ggml.* keys. Returns false when n_vocab is too small. */
bool synth_vocab_bpe(gguf_writer *w, int n_vocab, const char *pre, const char *const *lead, int n_lead,
                     const char *const *tail, int n_tail);
/* SentencePiece ("llama") vocabulary: <unk> <s> </s>, the 256 byte tokens,
 * then pieces with decreasing scores, then `tail` control tokens, n_vocab
 * in all. */
bool synth_vocab_spm(gguf_writer *w, int n_vocab, const char *const *tail, int n_tail);
/* Id of special token `name` as synth_vocab_bpe places it, -1 if absent. */
int synth_vocab_bpe_id(int n_vocab, const char *const *lead, int n_lead, const char *const *tail, int n_tail,
                       const char *name);

/* ---- weights ---- */

typedef enum synth_init { SYNTH_WEIGHT, SYNTH_NORM, SYNTH_BIAS } synth_init;

/* Shared state of one synthesis: pools of random quantized blocks per type,
 * filled lazily; tensors copy blocks from them in a random order. */
typedef struct synth_weights synth_weights;
synth_weights *synth_weights_new(uint64_t seed);
void synth_weights_free(synth_weights *sw);

/* Adds a tensor whose data is generated at write time. The fill context lives
 * in sw (sw must outlive gguf_writer_write). */
void synth_add_tensor(synth_weights *sw, gguf_writer *w, const char *name, int type, int n_dims,
                      const int64_t *ne, synth_init init);

/* ---- the LLM's layout ---- */

typedef enum quant_scheme { QUANT_Q8_0, QUANT_Q4_K_M, QUANT_Q5_K_M, QUANT_F32 } quant_scheme;
typedef enum vocab_kind { VOCAB_SMOLLM, VOCAB_QWEN2, VOCAB_SPM, VOCAB_GEMMA, VOCAB_MINICPMV, VOCAB_LFM2,
                         VOCAB_TEKKEN, VOCAB_GLM, VOCAB_QWEN35, VOCAB_GEMMA4, VOCAB_ERNIE } vocab_kind;

typedef struct llm_spec {
    const char *arch, *name;
    int n_layer, n_embd, n_head, n_head_kv, n_ff, n_vocab, n_ctx;
    float rope_base, eps;
    int sections[4];      /* M-RoPE (qwen2vl); all 0 otherwise */
    bool qkv_bias, tied;
    quant_scheme quant;
    vocab_kind vocab;
    /* Later families (0 / false where a family has none): */
    int head_dim;         /* attention.key_length when it is not n_embd / n_head */
    bool qk_norm;         /* per-head RMSNorm of Q and K (Qwen3, Gemma 3) */
    int n_expert, n_expert_used, n_ff_exp; /* mixture of experts: every layer's FFN */
    int n_deepstack;      /* Qwen3-VL: image rows carry this many extra slices */
    int sliding_window;   /* Gemma 3: window of the local layers, global ones linear-scaled */
    float rope_scale;     /* linear rope scaling factor of the global layers */
    const char *layer_kinds; /* lfm2: per layer 'c' (short convolution, l_cache 3) or 'a' (attention); NULL: all 'a' */
    int n_rot;            /* rotated dims when not the whole head (glm4: half, qwen35: a quarter) */
    bool glm4;            /* sandwich norms (post_attention_norm, post_ffw_norm), one fused ffn_up [gate | up] */
    /* qwen35*: Gated DeltaNet in every layer but each 4th (gated attention
     * there): key heads, value heads, head size; the MoE's shared expert */
    int gdn_k, gdn_v, gdn_d;
    int n_ff_shexp;
    /* gemma4: every swa_period-th layer attends fully (head_dim_full wide,
     * n_head_kv_full KV heads, base rope_base, a quarter rotated through
     * rope_freqs), the others slide (head_dim, n_head_kv, rope_base_swa);
     * full layers without attn_v (k_eq_v); per-layer embeddings ple_dim
     * wide; the last n_shared_kv layers read earlier layers' caches; the
     * final soft-cap; with n_expert, a dense MLP (n_ff) beside the experts */
    bool gemma4, k_eq_v;
    int swa_period, head_dim_full, n_head_kv_full, ple_dim, n_shared_kv;
    float rope_base_swa, softcap;
} llm_spec;

/* The type a matrix of `role` (attn_v, ffn_down, output, token_embd, ...)
 * gets in layer `layer` under the spec's quantization scheme. */
int synth_matrix_type(const llm_spec *s, const char *role, int layer);
/* llama-quantize's fallback for rows that are not whole 256-value blocks. */
int synth_block_fallback(int type, int64_t n_in);
/* Adds a 1-D (ne1 0) or 2-D tensor, its type fallen back as rows require. */
void synth_add(synth_weights *sw, gguf_writer *w, const char *name, int type, synth_init init, int64_t ne0,
               int64_t ne1);
void synth_blk_name(char *buf, size_t cap, int i, const char *what);

/* Gemma 4 (synth_gemma4.c): its keys beyond the common ones, and its tensors. */
void synth_gemma4_keys(gguf_writer *w, const llm_spec *s);
void synth_gemma4_tensors(synth_weights *sw, gguf_writer *w, const llm_spec *s);

#endif
