/* Gemma 4's LLM in the layout llama.cpp's converter writes (arch gemma4):
 * per-layer attention geometry (sliding and full layers differ in head size
 * and KV heads), full layers without attn_v where K is V, the per-layer
 * embeddings of the E models and their KV shared by the last layers, the
 * 26B's dense MLP beside the routed experts (fused gate_up as the converter
 * writes them) with the router's scales, and the per-layer output scale. */
#include "bench/synth_internal.h"

#include <stdio.h>

#include "seer/tensor.h"

static bool full_layer(const llm_spec *s, int i) { return (i + 1) % s->swa_period == 0; }
static bool has_kv(const llm_spec *s, int i) { return i < s->n_layer - s->n_shared_kv; }

void synth_gemma4_keys(gguf_writer *w, const llm_spec *s) {
    char k[128];
#define KEY(suffix) (snprintf(k, sizeof k, "gemma4.%s", suffix), k)
    int32_t kv[256];
    uint8_t swa[256]; /* GGUF bools are one byte each */
    const int n = s->n_layer < 256 ? s->n_layer : 256;
    for (int i = 0; i < n; i++) {
        kv[i] = full_layer(s, i) ? s->n_head_kv_full : s->n_head_kv;
        swa[i] = !full_layer(s, i);
    }
    gguf_writer_set_arr_i32(w, KEY("attention.head_count_kv"), kv, (uint64_t)n);
    gguf_writer_set_raw(w, KEY("attention.sliding_window_pattern"), GGUF_TYPE_ARRAY, GGUF_TYPE_BOOL, swa, (uint64_t)n);
    gguf_writer_set_u32(w, KEY("attention.sliding_window"), (uint32_t)s->sliding_window);
    gguf_writer_set_u32(w, KEY("attention.key_length"), (uint32_t)s->head_dim_full);
    gguf_writer_set_u32(w, KEY("attention.value_length"), (uint32_t)s->head_dim_full);
    gguf_writer_set_u32(w, KEY("attention.key_length_swa"), (uint32_t)s->head_dim);
    gguf_writer_set_u32(w, KEY("attention.value_length_swa"), (uint32_t)s->head_dim);
    gguf_writer_set_u32(w, KEY("rope.dimension_count"), (uint32_t)s->head_dim_full); /* proportional: rope_freqs */
    gguf_writer_set_u32(w, KEY("rope.dimension_count_swa"), (uint32_t)s->head_dim);
    gguf_writer_set_f32(w, KEY("rope.freq_base_swa"), s->rope_base_swa);
    gguf_writer_set_f32(w, KEY("final_logit_softcapping"), s->softcap);
    gguf_writer_set_u32(w, KEY("attention.shared_kv_layers"), (uint32_t)s->n_shared_kv);
    gguf_writer_set_u32(w, KEY("embedding_length_per_layer_input"), (uint32_t)s->ple_dim);
    if (s->n_expert) {
        gguf_writer_set_u32(w, KEY("expert_count"), (uint32_t)s->n_expert);
        gguf_writer_set_u32(w, KEY("expert_used_count"), (uint32_t)s->n_expert_used);
        gguf_writer_set_u32(w, KEY("expert_feed_forward_length"), (uint32_t)s->n_ff_exp);
    }
#undef KEY
}

static void norm(synth_weights *sw, gguf_writer *w, int i, const char *what, int64_t n) {
    char name[96];
    synth_blk_name(name, sizeof name, i, what);
    synth_add(sw, w, name, SEER_TYPE_F32, SYNTH_NORM, n, 0);
}

static void matrix(synth_weights *sw, gguf_writer *w, const llm_spec *s, int i, const char *what, const char *role,
                   int64_t in, int64_t out) {
    char name[96];
    synth_blk_name(name, sizeof name, i, what);
    synth_add(sw, w, name, synth_matrix_type(s, role, i), SYNTH_WEIGHT, in, out);
}

/* The routed experts beside the dense MLP: their norms, the router (F32, as
 * llama-quantize leaves it) with its input scale, the fused [gate | up]
 * experts, the down experts and their per-expert output scales. */
static void experts(synth_weights *sw, gguf_writer *w, const llm_spec *s, int i) {
    const int64_t e = s->n_embd;
    norm(sw, w, i, "post_ffw_norm_1.weight", e);
    norm(sw, w, i, "pre_ffw_norm_2.weight", e);
    norm(sw, w, i, "post_ffw_norm_2.weight", e);
    char name[96];
    synth_blk_name(name, sizeof name, i, "ffn_gate_inp.weight");
    synth_add(sw, w, name, SEER_TYPE_F32, SYNTH_WEIGHT, e, s->n_expert);
    norm(sw, w, i, "ffn_gate_inp.scale", e);
    const int64_t gate_up[3] = {e, 2 * (int64_t)s->n_ff_exp, s->n_expert}, down[3] = {s->n_ff_exp, e, s->n_expert};
    synth_blk_name(name, sizeof name, i, "ffn_gate_up_exps.weight");
    synth_add_tensor(sw, w, name, synth_block_fallback(synth_matrix_type(s, "ffn_up", i), e), 3, gate_up, SYNTH_WEIGHT);
    synth_blk_name(name, sizeof name, i, "ffn_down_exps.weight");
    synth_add_tensor(sw, w, name, synth_block_fallback(synth_matrix_type(s, "ffn_down", i), s->n_ff_exp), 3, down,
                     SYNTH_WEIGHT);
    norm(sw, w, i, "ffn_down_exps.scale", s->n_expert);
}

static void layer(synth_weights *sw, gguf_writer *w, const llm_spec *s, int i) {
    const bool full = full_layer(s, i);
    const int64_t e = s->n_embd, hd = full ? s->head_dim_full : s->head_dim;
    const int64_t q = hd * s->n_head, kv = hd * (full ? s->n_head_kv_full : s->n_head_kv);
    norm(sw, w, i, "attn_norm.weight", e);
    matrix(sw, w, s, i, "attn_q.weight", "attn_q", e, q);
    if (has_kv(s, i)) { /* the KV-shared layers read an earlier layer's cache */
        matrix(sw, w, s, i, "attn_k.weight", "attn_k", e, kv);
        if (!(full && s->k_eq_v)) matrix(sw, w, s, i, "attn_v.weight", "attn_v", e, kv);
        norm(sw, w, i, "attn_k_norm.weight", hd);
    }
    norm(sw, w, i, "attn_q_norm.weight", hd);
    matrix(sw, w, s, i, "attn_output.weight", "attn_output", q, e);
    norm(sw, w, i, "post_attention_norm.weight", e);
    norm(sw, w, i, "ffn_norm.weight", e);
    matrix(sw, w, s, i, "ffn_gate.weight", "ffn_gate", e, s->n_ff);
    matrix(sw, w, s, i, "ffn_up.weight", "ffn_up", e, s->n_ff);
    matrix(sw, w, s, i, "ffn_down.weight", "ffn_down", s->n_ff, e);
    norm(sw, w, i, "post_ffw_norm.weight", e);
    if (s->n_expert) experts(sw, w, s, i);
    if (s->ple_dim) { /* the per-layer input's gate, its projection back, its norm */
        matrix(sw, w, s, i, "inp_gate.weight", "inp_gate", e, s->ple_dim);
        matrix(sw, w, s, i, "proj.weight", "proj", s->ple_dim, e);
        norm(sw, w, i, "post_norm.weight", e);
    }
    norm(sw, w, i, "layer_output_scale.weight", 1);
}

void synth_gemma4_tensors(synth_weights *sw, gguf_writer *w, const llm_spec *s) {
    const int64_t e = s->n_embd;
    if (!s->tied) synth_add(sw, w, "output.weight", synth_matrix_type(s, "output", 0), SYNTH_WEIGHT, e, s->n_vocab);
    synth_add(sw, w, "token_embd.weight", synth_matrix_type(s, "token_embd", 0), SYNTH_WEIGHT, e, s->n_vocab);
    synth_add(sw, w, "output_norm.weight", SEER_TYPE_F32, SYNTH_NORM, e, 0);
    /* the full layers' frequency factors (values do not change the work) */
    synth_add(sw, w, "rope_freqs.weight", SEER_TYPE_F32, SYNTH_NORM, s->head_dim_full / 2, 0);
    if (s->ple_dim) {
        const int64_t all = (int64_t)s->ple_dim * s->n_layer;
        /* llama-quantize counts the per-layer table as a token embedding; it
         * leaves the projection as converted (F16) */
        synth_add(sw, w, "per_layer_token_embd.weight", synth_matrix_type(s, "token_embd", 0), SYNTH_WEIGHT, all,
                  s->n_vocab);
        synth_add(sw, w, "per_layer_model_proj.weight", SEER_TYPE_F16, SYNTH_WEIGHT, e, all);
        synth_add(sw, w, "per_layer_proj_norm.weight", SEER_TYPE_F32, SYNTH_NORM, s->ple_dim, 0);
    }
    for (int i = 0; i < s->n_layer; i++) layer(sw, w, s, i);
}
