/* Loading a language model: hyper-parameters from the GGUF metadata only,
 * every tensor bound in place with its shape checked against them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decoder/llm_internal.h"
#include "seer/tensor.h"

typedef struct arch_desc {
    const char *name;
    llm_rope_kind rope;
    bool qkv_bias;
    float default_eps;
    bool qk_norm;    /* per-head RMSNorm of Q and K before RoPE */
    bool moe;        /* the FFN is a mixture of experts */
    bool deepstack;  /* image rows carry DeepStack slices (n_deepstack_layers) */
    bool gemma;      /* post-norms, GeGLU, scaled token embeddings, sliding windows, query pre-scale */
    bool hybrid;     /* lfm2: head_count_kv per layer, 0 = short-convolution layer; final norm token_embd_norm */
    bool gemma4;     /* per-layer geometry, V normed (or K's), proportional RoPE, output scales, shared KV */
    /* qwen35*: Gated DeltaNet layers beside gated attention (recurrent_layers
     * or full_attention_interval), the FFN norm named post_attention_norm, a
     * shared expert beside the experts, MTP blocks after the trunk */
    bool delta;
    /* glm4 (GLM-4 / GLM-4.1V / GLM-4.6V-Flash / GLM-OCR): sandwich norms
     * (post_attention_norm, post_ffw_norm), one fused ffn_up [gate | up],
     * optional QKV biases, NextN blocks after the trunk; M-RoPE when the file
     * has sections (the converter permuted Q/K to NEOX halves), else normal
     * RoPE on GPT-J pairs */
    bool glm4;
    /* hunyuan_vl (HunyuanOCR / HunyuanVL): the per-head Q/K norms after RoPE,
     * not before; the RoPE base raised by rope.scaling.alpha (NTK-aware:
     * base·alpha^(d/(d−2))); M-RoPE ("XD-RoPE", 4 sections) when the file has
     * sections, else NEOX */
    bool hunyuan_vl;
    /* mistral3 (Ministral 3): llama's graph with the YaRN keys (betas, log
     * multiplier) and the query temperature read, optional output / FFN
     * biases and rope_freqs */
    bool mistral3;
} arch_desc;

static const arch_desc ARCHES[] = {
    {"llama", LLM_ROPE_NORMAL, false, 1e-5f, false, false, false, false, false, false, false, false, false, false},
    {"qwen2", LLM_ROPE_NEOX, true, 1e-6f, false, false, false, false, false, false, false, false, false, false},
    {"qwen2vl", LLM_ROPE_MULTI, true, 1e-6f, false, false, false, false, false, false, false, false, false, false},
    /* PaddleOCR-VL's ERNIE-4.5 0.3B on Qwen2-VL's graph: its Q/K/V biases optional */
    {"paddleocr", LLM_ROPE_MULTI, false, 1e-5f, false, false, false, false, false, false, false, false, false, false},
    {"qwen3", LLM_ROPE_NEOX, false, 1e-6f, true, false, false, false, false, false, false, false, false, false},
    {"qwen3moe", LLM_ROPE_NEOX, false, 1e-6f, true, true, false, false, false, false, false, false, false, false},
    {"qwen3vl", LLM_ROPE_IMROPE, false, 1e-6f, true, false, true, false, false, false, false, false, false, false},
    {"qwen3vlmoe", LLM_ROPE_IMROPE, false, 1e-6f, true, true, true, false, false, false, false, false, false, false},
    {"gemma3", LLM_ROPE_NEOX, false, 1e-6f, true, false, false, true, false, false, false, false, false, false},
    {"lfm2", LLM_ROPE_NEOX, false, 1e-5f, true, false, false, false, true, false, false, false, false, false},
    {"gemma4", LLM_ROPE_NEOX, false, 1e-6f, true, false, false, true, false, true, false, false, false, false},
    {"qwen35", LLM_ROPE_IMROPE, false, 1e-6f, true, false, false, false, false, false, true, false, false, false},
    {"qwen35moe", LLM_ROPE_IMROPE, false, 1e-6f, true, true, false, false, false, false, true, false, false, false},
    {"glm4", LLM_ROPE_MULTI, false, 1e-5f, false, false, false, false, false, false, false, true, false, false},
    {"hunyuan_vl", LLM_ROPE_MULTI, false, 1e-5f, true, false, false, false, false, false, false, false, true, false},
    {"mistral3", LLM_ROPE_NORMAL, false, 1e-5f, false, false, false, false, false, false, false, false, false, true},
};
#define SUPPORTED_ARCHES "llama, qwen2, qwen2vl, paddleocr, qwen3, qwen3moe, qwen3vl, qwen3vlmoe, gemma3, gemma4, lfm2, qwen35, qwen35moe, glm4, hunyuan_vl, mistral3"

static int64_t key_int(const gguf_file *f, const char *arch, const char *suffix, int64_t def) {
    char key[128];
    snprintf(key, sizeof key, "%s.%s", arch, suffix);
    return gguf_get_int(f, key, def);
}
static double key_float(const gguf_file *f, const char *arch, const char *suffix, double def) {
    char key[128];
    snprintf(key, sizeof key, "%s.%s", arch, suffix);
    return gguf_get_float(f, key, def);
}

/* A key that may hold one value per layer: element l of its array, or its
 * one value for every layer. */
static int64_t layer_key_int(const gguf_file *f, const char *arch, const char *suffix, int l, int64_t def) {
    char key[128];
    snprintf(key, sizeof key, "%s.%s", arch, suffix);
    if (gguf_get_arr_n(f, key)) return gguf_get_arr_int(f, key, (uint64_t)l, def);
    return gguf_get_int(f, key, def);
}

/* The largest value of such a key over n layers (def when absent). */
static int64_t layer_key_max(const gguf_file *f, const char *arch, const char *suffix, int n, int64_t def) {
    int64_t best = layer_key_int(f, arch, suffix, 0, def);
    for (int l = 1; l < n; l++) {
        const int64_t v = layer_key_int(f, arch, suffix, l, def);
        if (v > best) best = v;
    }
    return best;
}

static const char *shape_str(const gguf_tensor *t, char *buf, size_t cap) {
    int n = snprintf(buf, cap, "[%lld", (long long)t->ne[0]);
    for (int d = 1; d < t->n_dims && n > 0 && (size_t)n < cap; d++)
        n += snprintf(buf + n, cap - (size_t)n, ", %lld", (long long)t->ne[d]);
    if (n > 0 && (size_t)n < cap) snprintf(buf + n, cap - (size_t)n, "]");
    return buf;
}

/* A matrix with ne = [n_in, n_out]. */
static bool bind_matrix(const seer_llm *m, seer_weight *w, const char *name, int64_t n_in, int64_t n_out,
                        seer_error *err) {
    const gguf_tensor *t = gguf_find_tensor(m->gguf, name);
    if (!t) {
        seer_error_set(err, "%s: tensor '%s' is missing", m->gguf->path, name);
        return false;
    }
    char got[96];
    if (t->ne[0] != n_in || t->ne[1] != n_out || t->ne[2] != 1 || t->ne[3] != 1 || !seer_weight_from_tensor(w, t)) {
        seer_error_set(err, "%s: tensor '%s' has shape %s (%s), expected [%lld, %lld]", m->gguf->path, name,
                       shape_str(t, got, sizeof got), seer_type_name(t->type), (long long)n_in, (long long)n_out);
        return false;
    }
    return true;
}

/* A vector of n floats, copied out of the file (converted to F32). Not
 * used in place even when F32: vectors sit between the matrices, and
 * reading one in place maps the file's pages around it (up to a 2 MiB folio
 * each) back in after the interleaved copy gave them up. */
static const float *bind_floats(seer_llm *m, const char *name, int64_t n, int64_t n1, bool required,
                                seer_error *err, bool *failed) {
    const gguf_tensor *t = gguf_find_tensor(m->gguf, name);
    if (!t) {
        if (required) {
            seer_error_set(err, "%s: tensor '%s' is missing", m->gguf->path, name);
            *failed = true;
        }
        return NULL;
    }
    char got[96];
    if (t->ne[0] != n || t->ne[1] != n1 || t->ne[2] != 1 || t->ne[3] != 1 || !seer_type_get(t->type) ||
        n % seer_type_get(t->type)->block_size != 0) {
        if (n1 == 1)
            seer_error_set(err, "%s: tensor '%s' has shape %s (%s), expected [%lld]", m->gguf->path, name,
                           shape_str(t, got, sizeof got), seer_type_name(t->type), (long long)n);
        else
            seer_error_set(err, "%s: tensor '%s' has shape %s (%s), expected [%lld, %lld]", m->gguf->path, name,
                           shape_str(t, got, sizeof got), seer_type_name(t->type), (long long)n, (long long)n1);
        *failed = true;
        return NULL;
    }
    float *buf = malloc(sizeof *buf * (size_t)(n * n1));
    float **list = realloc(m->owned, sizeof *list * (size_t)(m->n_owned + 1));
    if (!buf || !list) {
        free(buf);
        if (list) m->owned = list;
        seer_error_set(err, "out of memory converting '%s'", name);
        *failed = true;
        return NULL;
    }
    m->owned = list;
    m->owned[m->n_owned++] = buf;
    seer_dequantize_row(t->type, t->data, buf, n * n1);
    return buf;
}

static const float *bind_vector(seer_llm *m, const char *name, int64_t n, bool required, seer_error *err,
                                bool *failed) {
    return bind_floats(m, name, n, 1, required, err, failed);
}

/* M-RoPE sections (in pairs), which must cover the rotated dims. */
static bool read_sections(seer_llm *m, const char *a, seer_error *err) {
    const gguf_file *f = m->gguf;
    char key[128];
    snprintf(key, sizeof key, "%s.rope.dimension_sections", a);
    uint64_t ns = gguf_get_arr_n(f, key);
    if (ns < 3 || ns > 4) {
        seer_error_set(err, "%s: '%s' must hold 4 section sizes (has %llu)", f->path, key, (unsigned long long)ns);
        return false;
    }
    int sum = 0;
    for (uint64_t i = 0; i < 4; i++) {
        m->sections[i] = i < ns ? (int)gguf_get_arr_int(f, key, i, 0) : 0;
        if (m->sections[i] < 0) m->sections[i] = 0;
        sum += m->sections[i];
    }
    if (sum * 2 != m->n_rot) {
        seer_error_set(err, "%s: rope sections %d+%d+%d+%d do not cover the %d rotated dims", f->path, m->sections[0],
                       m->sections[1], m->sections[2], m->sections[3], m->n_rot);
        return false;
    }
    return true;
}

/* Experts: count, how many each row uses, each one's FFN width. */
static bool read_experts(seer_llm *m, const char *a, seer_error *err) {
    const gguf_file *f = m->gguf;
    seer_llm_info *in = &m->info;
    in->n_expert = (int)key_int(f, a, "expert_count", 0);
    in->n_expert_used = (int)key_int(f, a, "expert_used_count", 0);
    if (in->n_expert <= 0 || in->n_expert > 4096 || in->n_expert_used <= 0 || in->n_expert_used > in->n_expert) {
        seer_error_set(err, "%s: unusable expert counts (%d experts, %d used per token)", f->path, in->n_expert,
                       in->n_expert_used);
        return false;
    }
    m->n_ff_exp = (int)key_int(f, a, "expert_feed_forward_length", in->n_ff / in->n_expert_used);
    if (m->n_ff_exp <= 0 || m->n_ff_exp > 1 << 22) {
        seer_error_set(err, "%s: metadata key '%s.expert_feed_forward_length' is missing or not positive", f->path, a);
        return false;
    }
    if (in->n_ff <= 0) in->n_ff = m->n_ff_exp; /* the FFN scratch width */
    return true;
}

/* Gemma 3: which layers slide (sliding_window_pattern: every P-th layer is
 * global, or one flag per layer), their RoPE base (unscaled: the linear
 * scaling is the global layers'), the query pre-scale and the logit
 * soft-capping. */
static void read_gemma(seer_llm *m, const char *a) {
    const gguf_file *f = m->gguf;
    seer_llm_info *in = &m->info;
    in->n_swa = (int)key_int(f, a, "attention.sliding_window", 0);
    if (in->n_swa < 0) in->n_swa = 0;
    char key[128];
    snprintf(key, sizeof key, "%s.attention.sliding_window_pattern", a);
    const uint64_t n_flags = gguf_get_arr_n(f, key);
    in->swa_pattern = n_flags ? 0 : (int)gguf_get_int(f, key, 6);
    for (int l = 0; l < in->n_layer && in->n_swa > 0; l++) {
        const int P = in->swa_pattern;
        m->layers[l].swa = n_flags ? gguf_get_arr_int(f, key, (uint64_t)l, 0) != 0 : P == 0 || l % P < P - 1;
    }
    m->rope_base_swa = (float)key_float(f, a, "rope.freq_base_swa", 10000.0);
    /* llama.cpp scales the 62-layer (27B) model's queries by the width per head */
    m->attn_scale = in->n_layer == 62 ? 1.0f / sqrtf((float)(in->n_embd / in->n_head)) : 1.0f / sqrtf((float)in->head_dim);
    m->embd_scale = sqrtf((float)in->n_embd);
    m->logit_softcap = (float)key_float(f, a, "final_logit_softcapping", 0.0);
    m->ffn_gelu = true;
}

/* Gemma 4 on top of that: unscaled scores (the Q/K norms do it), and an
 * image seen whole only by the sliding-window layers. */
static bool read_gemma4(seer_llm *m, seer_error *err) {
    const gguf_file *f = m->gguf;
    m->attn_scale = 1.0f;
    m->swa_only_non_causal = true;
    m->ple_dim = (int)key_int(f, "gemma4", "embedding_length_per_layer_input", 0);
    if (m->ple_dim < 0 || m->ple_dim > 1 << 16) {
        seer_error_set(err, "%s: per-layer embedding width %d is out of range", f->path, m->ple_dim);
        return false;
    }
    /* 26B-A4B: every layer has experts and the dense MLP beside them */
    m->moe = m->moe_dense = gguf_find_tensor(f, "blk.0.ffn_gate_inp.weight") != NULL;
    return !m->moe || read_experts(m, "gemma4", err);
}

/* YaRN's magnitude as llama.cpp's context sets it (yarn_attn_factor): the
 * mscale of the factor, over that of the factor with the file's log
 * multiplier when it has one, less the (1 + 0.1 ln factor) rope applies
 * itself, × rope.scaling.attn_factor. */
static float yarn_mscale(float s, float mul) { return s <= 1.0f ? 1.0f : 0.1f * mul * logf(s) + 1.0f; }

/* YaRN over the original context (rope.scaling.original_context_length,
 * else the training context). Only mistral3's loader reads the betas and
 * the log multiplier in llama.cpp; other architectures take its defaults. */
static void read_yarn(seer_llm *m, const arch_desc *ad, double factor) {
    const gguf_file *f = m->gguf;
    const char *a = ad->name;
    const float freq_scale = factor > 0.0 ? (float)(1.0 / factor) : 1.0f, s = 1.0f / freq_scale;
    const float beta_fast = ad->mistral3 ? (float)key_float(f, a, "rope.scaling.yarn_beta_fast", 32.0) : 32.0f;
    const float beta_slow = ad->mistral3 ? (float)key_float(f, a, "rope.scaling.yarn_beta_slow", 1.0) : 1.0f;
    const float log_mul = ad->mistral3 ? (float)key_float(f, a, "rope.scaling.yarn_log_multiplier", 0.0) : 0.0f;
    float attn_factor = log_mul != 0.0f ? yarn_mscale(s, 1.0f) / yarn_mscale(s, log_mul) : yarn_mscale(s, 1.0f);
    attn_factor *= 1.0f / (1.0f + 0.1f * logf(s));
    attn_factor *= (float)key_float(f, a, "rope.scaling.attn_factor", 1.0);
    const int n_ctx_orig = (int)key_int(f, a, "rope.scaling.original_context_length", m->info.n_ctx_train);
    seer_rope_yarn_init(&m->yarn, m->n_rot, n_ctx_orig, m->rope_base, freq_scale, 1.0f, beta_fast, beta_slow,
                        attn_factor);
    m->rope_yarn = true;
}

/* RoPE scaling as llama.cpp reads it: linear unless the type says
 * otherwise, factor from rope.scaling.factor (or rope.scale_linear), none
 * never scales, yarn on single-position RoPE without sliding windows
 * (read_yarn). The others change more than the positions: refused when
 * they would scale at all. */
static bool read_rope_scaling(seer_llm *m, const arch_desc *ad, seer_error *err) {
    const gguf_file *f = m->gguf;
    const char *a = ad->name;
    char key[128];
    snprintf(key, sizeof key, "%s.rope.scaling.type", a);
    const char *type = gguf_get_str(f, key);
    double factor = key_float(f, a, "rope.scaling.factor", 0.0);
    if (factor == 0.0) factor = key_float(f, a, "rope.scale_linear", 0.0);
    const bool none = type && strcmp(type, "none") == 0, linear = !type || strcmp(type, "linear") == 0;
    const bool yarn = type && strcmp(type, "yarn") == 0;
    m->rope_freq_scale = linear && factor > 0.0 ? (float)(1.0 / factor) : 1.0f;
    if (yarn && (m->rope == LLM_ROPE_NORMAL || m->rope == LLM_ROPE_NEOX) && !ad->gemma) {
        read_yarn(m, ad, factor);
        return true;
    }
    if (!none && !linear && factor > 1.0) {
        seer_error_set(err, "%s: RoPE scaling '%.32s' (factor %g) is not supported here", f->path, type, factor);
        return false;
    }
    return true;
}

/* mistral3: the query temperature (attention.temperature_scale, 0: none)
 * over steps of the original context. */
static bool read_attn_temperature(seer_llm *m, const arch_desc *ad, seer_error *err) {
    const gguf_file *f = m->gguf;
    m->attn_temp_scale = ad->mistral3 ? (float)key_float(f, ad->name, "attention.temperature_scale", 0.0) : 0.0f;
    m->attn_temp_floor = (int)key_int(f, ad->name, "rope.scaling.original_context_length", m->info.n_ctx_train);
    if (m->attn_temp_scale != 0.0f && m->attn_temp_floor <= 0) {
        seer_error_set(err, "%s: attention temperature scaling needs a positive original context length", f->path);
        return false;
    }
    return true;
}

/* HunyuanVL's NTK-aware scaling as llama.cpp's loader applies it: with
 * rope.scaling.alpha > 0 the base becomes base·alpha^(d/(d−2)) for head
 * size d, in float as there. (Older HunYuan converters stored the scaled
 * base and no alpha.) */
static void read_ntk_alpha(seer_llm *m, const char *a) {
    const float alpha = (float)key_float(m->gguf, a, "rope.scaling.alpha", 0.0);
    const int d = m->info.head_dim;
    if (alpha > 0.0f && d > 2) m->rope_base = m->rope_base * powf(alpha, (float)d / (float)(d - 2));
}

/* lfm2: attention.head_count_kv holds one count per layer, 0 on the
 * short-convolution layers; the attention layers must share theirs. The
 * layer kinds are kept in conv_kind until the layers are allocated. */
static bool read_layer_kinds(seer_llm *m, const char *a, seer_error *err) {
    const gguf_file *f = m->gguf;
    seer_llm_info *in = &m->info;
    char key[128];
    snprintf(key, sizeof key, "%s.attention.head_count_kv", a);
    const uint64_t n = gguf_get_arr_n(f, key);
    if (in->n_layer <= 0 || n != (uint64_t)in->n_layer) {
        seer_error_set(err, "%s: '%s' must hold one count per layer (%d layers, %llu counts)", f->path, key,
                       in->n_layer, (unsigned long long)n);
        return false;
    }
    in->n_head_kv = 0;
    m->n_conv_layers = 0;
    for (uint64_t l = 0; l < n; l++) {
        const int64_t kv = gguf_get_arr_int(f, key, l, -1);
        if (kv == 0) m->n_conv_layers++;
        else if (kv > 0 && (in->n_head_kv == 0 || kv == in->n_head_kv)) in->n_head_kv = (int)kv;
        else {
            seer_error_set(err, "%s: layer %llu has %lld KV heads; attention layers must share one count", f->path,
                           (unsigned long long)l, (long long)kv);
            return false;
        }
    }
    if (in->n_head_kv == 0) in->n_head_kv = in->n_head; /* no attention layer: sizes only */
    m->conv_len = (int)key_int(f, a, "shortconv.l_cache", 0);
    if (m->n_conv_layers > 0 && (m->conv_len < 1 || m->conv_len > LLM_CONV_LEN_MAX)) {
        seer_error_set(err, "%s: metadata key '%s.shortconv.l_cache' is missing or out of range", f->path, a);
        return false;
    }
    return true;
}

/* The Gated DeltaNet sizes as the file gives them; returns ssm.inner_size. */
static int64_t read_gdn_dims(const gguf_file *f, const char *a, llm_gdn_dims *g) {
    g->n_k = (int)key_int(f, a, "ssm.group_count", 0);
    g->n_v = (int)key_int(f, a, "ssm.time_step_rank", 0);
    g->d = (int)key_int(f, a, "ssm.state_size", 0);
    g->conv_len = (int)key_int(f, a, "ssm.conv_kernel", 0);
    return key_int(f, a, "ssm.inner_size", 0);
}

/* Whether layer l of a qwen35* file is a Gated DeltaNet layer: its flag in
 * attention.recurrent_layers when the file has that array, else every
 * layer but each full_attention_interval-th (default 4). */
static bool is_gdn_layer(const gguf_file *f, const char *a, int l) {
    char key[128];
    snprintf(key, sizeof key, "%s.attention.recurrent_layers", a);
    if (gguf_get_arr_n(f, key) > (uint64_t)l) return gguf_get_arr_int(f, key, (uint64_t)l, 0) != 0;
    int64_t interval = key_int(f, a, "full_attention_interval", 4);
    if (interval <= 0) interval = 4;
    return (l + 1) % interval != 0;
}

seer_llm_recurrent seer_llm_recurrent_from_file(const gguf_file *f) {
    seer_llm_recurrent r = {0};
    const char *a = gguf_get_str(f, "general.architecture");
    if (!a || (strcmp(a, "qwen35") != 0 && strcmp(a, "qwen35moe") != 0)) return r;
    llm_gdn_dims g;
    read_gdn_dims(f, a, &g);
    r.n_nextn = (int)key_int(f, a, "nextn_predict_layers", 0);
    r.n_layer = (int)key_int(f, a, "block_count", 0) - r.n_nextn;
    for (int l = 0; l < r.n_layer; l++) r.n_gdn += is_gdn_layer(f, a, l);
    if (g.n_k > 0 && g.n_v > 0 && g.d > 0 && g.conv_len > 0 && r.n_layer > 0)
        r.state_bytes = (uint64_t)r.n_gdn * llm_gdn_state_floats(&g) * sizeof(float);
    r.marks = LLM_STATE_MARKS;
    return r;
}

/* qwen35*, glm4: the MTP (NextN) blocks after the trunk (block_count counts
 * them; only speculative decoding uses them, so they are skipped). */
static bool read_nextn(seer_llm *m, const char *a, seer_error *err) {
    const gguf_file *f = m->gguf;
    seer_llm_info *in = &m->info;
    in->n_nextn = (int)key_int(f, a, "nextn_predict_layers", 0);
    if (in->n_nextn < 0 || in->n_nextn >= in->n_layer) {
        seer_error_set(err, "%s: %d MTP blocks in a file of %d blocks", f->path, in->n_nextn, in->n_layer);
        return false;
    }
    in->n_layer -= in->n_nextn;
    return true;
}

/* qwen35*: the Gated DeltaNet sizes. Value heads must be as wide as key
 * heads (llama.cpp assumes it too) and a whole multiple of them. */
static bool read_gdn(seer_llm *m, const char *a, seer_error *err) {
    const gguf_file *f = m->gguf;
    llm_gdn_dims *g = &m->gdn;
    const int64_t inner = read_gdn_dims(f, a, g);
    if (g->n_k <= 0 || g->n_v <= 0 || g->d <= 0 || g->n_k > 4096 || g->n_v > 4096 || g->d > 1024 ||
        g->conv_len < 1 || g->conv_len > LLM_CONV_LEN_MAX) {
        seer_error_set(err, "%s: Gated DeltaNet sizes missing or out of range (ssm.group_count %d, time_step_rank %d, "
                       "state_size %d, conv_kernel %d)", f->path, g->n_k, g->n_v, g->d, g->conv_len);
        return false;
    }
    if (inner != (int64_t)g->n_v * g->d || g->n_v % g->n_k != 0) {
        seer_error_set(err, "%s: Gated DeltaNet value heads of %lld/%d dims (ssm.inner_size / time_step_rank) beside "
                       "%d key heads of %d are not supported: values must be as wide as keys, their count a multiple",
                       f->path, (long long)inner, g->n_v, g->n_k, g->d);
        return false;
    }
    return true;
}

static bool read_hparams(seer_llm *m, const arch_desc *ad, seer_error *err) {
    const gguf_file *f = m->gguf;
    const char *a = ad->name;
    seer_llm_info *in = &m->info;
    in->n_layer = (int)key_int(f, a, "block_count", 0);
    in->n_embd = (int)key_int(f, a, "embedding_length", 0);
    in->n_head = (int)key_int(f, a, "attention.head_count", 0);
    /* per layer in gemma4 (then the widest here, each layer's in layer_geometry) */
    in->n_ff = (int)layer_key_max(f, a, "feed_forward_length", in->n_layer, 0);
    if (ad->hybrid) {
        if (!read_layer_kinds(m, a, err)) return false;
    } else {
        in->n_head_kv = (int)layer_key_max(f, a, "attention.head_count_kv", in->n_layer, in->n_head);
    }
    if ((ad->delta || ad->glm4) && in->n_layer > 0 && !read_nextn(m, a, err)) return false;
    if (ad->delta && in->n_layer > 0 && !read_gdn(m, a, err)) return false;
    in->n_ctx_train = (int)key_int(f, a, "context_length", 4096);
    const char *missing = in->n_layer <= 0 ? "block_count" : in->n_embd <= 0 ? "embedding_length"
                        : in->n_ff <= 0 && !ad->moe ? "feed_forward_length" : in->n_head <= 0 ? "attention.head_count"
                        : NULL;
    if (missing) {
        seer_error_set(err, "%s: metadata key '%s.%s' is missing or not positive", f->path, a, missing);
        return false;
    }
    if (in->n_layer > 4096 || in->n_embd > 1 << 20 || in->n_ff > 1 << 22 || in->n_head > 4096) {
        seer_error_set(err, "%s: implausible hyper-parameters (%d layers, width %d, FFN %d, %d heads)", f->path,
                       in->n_layer, in->n_embd, in->n_ff, in->n_head);
        return false;
    }
    if (in->n_head_kv <= 0 || in->n_head % in->n_head_kv != 0) {
        seer_error_set(err, "%s: %d attention heads cannot share %d KV heads", f->path, in->n_head, in->n_head_kv);
        return false;
    }
    in->head_dim = (int)key_int(f, a, "attention.key_length", in->n_embd / in->n_head);
    m->head_dim_v = (int)key_int(f, a, "attention.value_length", in->head_dim);
    m->n_rot = (int)key_int(f, a, "rope.dimension_count", in->head_dim);
    m->n_rot_swa = (int)key_int(f, a, "rope.dimension_count_swa", m->n_rot);
    if (in->head_dim <= 0 || in->head_dim > 1024 || m->head_dim_v != in->head_dim || m->n_rot <= 0 ||
        m->n_rot > in->head_dim || m->n_rot % 2) {
        seer_error_set(err, "%s: unsupported head sizes (key %d, value %d, rope dims %d)", f->path, in->head_dim,
                       m->head_dim_v, m->n_rot);
        return false;
    }
    m->rope_base = (float)key_float(f, a, "rope.freq_base", 10000.0);
    m->norm_eps = (float)key_float(f, a, "attention.layer_norm_rms_epsilon", ad->default_eps);
    m->rope = ad->rope;
    char sections_key[128];
    snprintf(sections_key, sizeof sections_key, "%s.rope.dimension_sections", a);
    if (ad->glm4 && !gguf_get_arr_n(f, sections_key)) m->rope = LLM_ROPE_NORMAL; /* a text-only GLM-4 file */
    if (ad->hunyuan_vl && !gguf_get_arr_n(f, sections_key)) m->rope = LLM_ROPE_NEOX;
    if (ad->hunyuan_vl) read_ntk_alpha(m, a);
    if (!read_rope_scaling(m, ad, err) || !read_attn_temperature(m, ad, err)) return false;
    m->attn_scale = (float)key_float(f, a, "attention.scale", 0.0);
    if (m->attn_scale == 0.0f) m->attn_scale = 1.0f / sqrtf((float)in->head_dim);
    m->embd_scale = 1.0f;
    if ((m->rope == LLM_ROPE_MULTI || m->rope == LLM_ROPE_IMROPE) && !read_sections(m, a, err)) return false;
    /* llama.cpp's use_mrope: sections that leave t or h without pairs mean plain NEOX */
    if (ad->hunyuan_vl && m->rope == LLM_ROPE_MULTI && (m->sections[0] <= 0 || m->sections[1] <= 0)) m->rope = LLM_ROPE_NEOX;
    m->qk_norm_after_rope = ad->hunyuan_vl;
    in->mrope = m->rope == LLM_ROPE_MULTI || m->rope == LLM_ROPE_IMROPE;
    m->moe = ad->moe;
    m->ffn_fused_up = ad->glm4;
    if (ad->moe && !read_experts(m, a, err)) return false;
    if (ad->moe && ad->delta) { /* the shared expert (llama.cpp: the dense FFN width when unset) */
        m->n_ff_shexp = (int)key_int(f, a, "expert_shared_feed_forward_length", in->n_ff);
        if (m->n_ff_shexp <= 0 || m->n_ff_shexp > 1 << 22) {
            seer_error_set(err, "%s: metadata key '%s.expert_shared_feed_forward_length' is not positive", f->path, a);
            return false;
        }
    }
    in->n_deepstack = ad->deepstack ? (int)key_int(f, a, "n_deepstack_layers", 0) : 0;
    if (in->n_deepstack < 0 || in->n_deepstack > in->n_layer) {
        seer_error_set(err, "%s: %d DeepStack layers in a %d-layer model", f->path, in->n_deepstack, in->n_layer);
        return false;
    }
    in->n_embd_inp = in->n_embd * (1 + in->n_deepstack);
    return true;
}

/* The 2-D matrices of a layer: its token mixer's (attention, short
 * convolution or Gated DeltaNet), then its FFN's (three; in a MoE model
 * the router and a shared expert's three, the experts stay in the file: a
 * token reads only its own experts). */
static int layer_matrices(const seer_llm *m, llm_layer *L, seer_weight *out[LLM_LAYER_MATRICES]) {
    int n = 0;
    if (L->conv) {
        out[n++] = &L->conv_in;
        out[n++] = &L->conv_out;
    } else if (L->gdn) {
        seer_weight *const gdn[] = {&L->gdn_qkv, &L->gdn_z, &L->gdn_beta, &L->gdn_alpha, &L->gdn_out};
        for (size_t i = 0; i < sizeof gdn / sizeof gdn[0]; i++) out[n++] = gdn[i];
    } else {
        out[n++] = &L->wq;
        out[n++] = &L->wk;
        out[n++] = &L->wv;
        out[n++] = &L->wo;
    }
    if (!m->moe || m->moe_dense) { /* dense, or the dense FFN beside the experts (gemma4) */
        out[n++] = &L->w_gate;
        out[n++] = &L->w_up;
        out[n++] = &L->w_down;
    }
    if (!m->moe) return n;
    out[n++] = &L->router;
    if (L->shexp_inp) {
        out[n++] = &L->shexp_gate;
        out[n++] = &L->shexp_up;
        out[n++] = &L->shexp_down;
    }
    return n;
}

/* layer_matrices less those the layer does not have (a shared cache's K
 * and V, a V taken from K), plus its per-layer-embedding matrices. */
static int layer_matrices_present(const seer_llm *m, llm_layer *L, seer_weight *out[LLM_LAYER_MATRICES]) {
    seer_weight *all[LLM_LAYER_MATRICES];
    int n = 0;
    for (int i = 0, total = layer_matrices(m, L, all); i < total; i++)
        if (all[i]->data) out[n++] = all[i];
    if (L->ple_gate.data) { /* per-layer embeddings' gate and projection back */
        out[n++] = &L->ple_gate;
        out[n++] = &L->ple_out;
    }
    return n;
}

/* Copies a matrix into the layout the decode kernels read fastest, at
 * *next in the model's arena, the file's pages of it given back. */
static void interleave(seer_llm *m, seer_weight *w, seer_pool *pool, char **next) {
    if (*next) *next += seer_weight_interleave_from_file(w, *next, pool, m->gguf);
}

/* A 3-D expert tensor as one matrix of all its experts' rows, whose groups
 * of 16 never straddle two experts (each expert's rows a multiple of 16), or
 * false when it cannot be interleaved that way. The fused gate_up tensor is
 * bound as its gate half (gate_exps) and interleaved whole. */
static bool experts_whole(const seer_llm *m, const llm_layer *L, int i, seer_weight *whole) {
    const seer_weight *w = i == 0 ? &L->gate_exps : i == 1 ? &L->up_exps : &L->down_exps;
    const int64_t stride = i == 2 ? w->n_out : L->gate_up_stride;
    if (i == 1 && stride != w->n_out) return false; /* fused: its rows are in gate_exps' whole */
    if (w->n_out % 16 != 0 || stride % 16 != 0) return false;
    *whole = *w;
    whole->n_out = stride * m->info.n_expert;
    return seer_weight_interleaved_bytes(whole) != 0;
}

/* One allocation for all interleaved matrices: 2 MiB pages for the stream
 * of every token without rounding each matrix up to one. NULL (then the
 * file's layout serves) when nothing is to be interleaved or memory is short. */
static char *arena_new(seer_llm *m, size_t *bytes) {
    *bytes = seer_weight_interleaved_bytes(&m->output) + seer_weight_interleaved_bytes(&m->ple_proj);
    for (int l = 0; l < m->info.n_layer; l++) {
        seer_weight *mats[LLM_LAYER_MATRICES];
        for (int i = 0, n = layer_matrices_present(m, &m->layers[l], mats); i < n; i++) *bytes += seer_weight_interleaved_bytes(mats[i]);
        seer_weight whole;
        for (int i = 0; m->moe && i < 3; i++)
            if (experts_whole(m, &m->layers[l], i, &whole)) *bytes += seer_weight_interleaved_bytes(&whole);
    }
    return *bytes ? seer_huge_alloc(*bytes) : NULL;
}

/* The routed experts of a layer interleaved like the dense matrices, each
 * expert's groups one after the other (llm_expert finds expert e's), so the
 * few a token chooses stream through the 16-row kernels. They take the
 * memory they take in the file and a little more (Q4_K +2.8%, Q3_K +5.5%:
 * scales unpacked to bytes), and the file's pages are given back. */
static void interleave_experts(seer_llm *m, llm_layer *L, seer_pool *pool, char **next) {
    for (int i = 0; i < 3; i++) {
        seer_weight whole;
        if (!*next || !experts_whole(m, L, i, &whole)) continue;
        interleave(m, &whole, pool, next);
        seer_weight *w = i == 0 ? &L->gate_exps : i == 1 ? &L->up_exps : &L->down_exps;
        w->interleaved = whole.interleaved;
        if (i == 0 && L->gate_up_stride != w->n_out) /* fused: up's rows follow gate's in each expert */
            L->up_exps.interleaved = (char *)whole.interleaved + (size_t)(w->n_out / 16) * seer_weight_group_bytes(w);
    }
}

/* A 3-D expert tensor ne = [n_in, n_out, n_expert], bound as expert 0
 * (llm_expert gives the others). */
static bool bind_experts(const seer_llm *m, seer_weight *w, const char *name, int64_t n_in, int64_t n_out,
                         seer_error *err) {
    const gguf_tensor *t = gguf_find_tensor(m->gguf, name);
    if (!t) {
        seer_error_set(err, "%s: tensor '%s' is missing", m->gguf->path, name);
        return false;
    }
    const seer_type_info *ti = seer_type_get(t->type);
    char got[96];
    if (t->ne[0] != n_in || t->ne[1] != n_out || t->ne[2] != m->info.n_expert || t->ne[3] != 1 || !ti ||
        n_in % ti->block_size != 0) {
        seer_error_set(err, "%s: tensor '%s' has shape %s (%s), expected [%lld, %lld, %d]", m->gguf->path, name,
                       shape_str(t, got, sizeof got), seer_type_name(t->type), (long long)n_in, (long long)n_out,
                       m->info.n_expert);
        return false;
    }
    *w = (seer_weight){.type = t->type, .n_in = n_in, .n_out = n_out, .data = t->data,
                       .row_bytes = seer_row_bytes(t->type, n_in)};
    return true;
}

/* The FFN of layer l: dense, or the router and the experts. */
static bool bind_ffn(seer_llm *m, llm_layer *L, int l, seer_error *err) {
    const seer_llm_info *in = &m->info;
    const int64_t E = in->n_embd;
    char n[96];
#define NAME(s) (snprintf(n, sizeof n, "blk.%d.%s", l, s), n)
    if (!m->moe && m->ffn_fused_up) {
        /* glm4: one ffn_up of 2·n_ff rows, the gate's rows first, then up's */
        if (!bind_matrix(m, &L->w_gate, NAME("ffn_up.weight"), E, 2 * (int64_t)L->n_ff, err)) return false;
        L->w_gate.n_out = L->n_ff;
        L->w_up = L->w_gate;
        L->w_up.data = (const char *)L->w_gate.data + (size_t)L->n_ff * L->w_gate.row_bytes;
        return bind_matrix(m, &L->w_down, NAME("ffn_down.weight"), L->n_ff, E, err);
    }
    if (!m->moe)
        return bind_matrix(m, &L->w_gate, NAME("ffn_gate.weight"), E, L->n_ff, err) &&
               bind_matrix(m, &L->w_up, NAME("ffn_up.weight"), E, L->n_ff, err) &&
               bind_matrix(m, &L->w_down, NAME("ffn_down.weight"), L->n_ff, E, err);
    const int64_t F = m->n_ff_exp;
    if (!bind_matrix(m, &L->router, NAME("ffn_gate_inp.weight"), E, in->n_expert, err)) return false;
    L->gate_up_stride = F;
    if (gguf_find_tensor(m->gguf, NAME("ffn_gate_up_exps.weight"))) { /* fused (gemma4): each expert's gate rows, then its up rows */
        if (!bind_experts(m, &L->gate_exps, n, E, 2 * F, err)) return false;
        L->gate_exps.n_out = F;
        L->up_exps = L->gate_exps;
        L->up_exps.data = (const char *)L->gate_exps.data + (size_t)F * L->gate_exps.row_bytes;
        L->gate_up_stride = 2 * F;
    } else if (!bind_experts(m, &L->gate_exps, NAME("ffn_gate_exps.weight"), E, F, err) ||
               !bind_experts(m, &L->up_exps, NAME("ffn_up_exps.weight"), E, F, err)) {
        return false;
    }
    if (!bind_experts(m, &L->down_exps, NAME("ffn_down_exps.weight"), F, E, err)) return false;
    bool failed = false;
    if (m->n_ff_shexp) { /* qwen35moe's shared expert */
        const int64_t Fs = m->n_ff_shexp;
        L->shexp_inp = bind_floats(m, NAME("ffn_gate_inp_shexp.weight"), E, 1, true, err, &failed);
        if (failed || !bind_matrix(m, &L->shexp_gate, NAME("ffn_gate_shexp.weight"), E, Fs, err) ||
            !bind_matrix(m, &L->shexp_up, NAME("ffn_up_shexp.weight"), E, Fs, err) ||
            !bind_matrix(m, &L->shexp_down, NAME("ffn_down_shexp.weight"), Fs, E, err))
            return false;
    }
    if (!m->moe_dense) return true;
    L->router_in_scale = bind_vector(m, NAME("ffn_gate_inp.scale"), E, true, err, &failed);
    if (!failed) L->expert_scale = bind_vector(m, NAME("ffn_down_exps.scale"), in->n_expert, false, err, &failed);
    if (!failed) L->ffn_pre_norm_2 = bind_vector(m, NAME("pre_ffw_norm_2.weight"), E, true, err, &failed);
    if (!failed) L->ffn_post_norm_1 = bind_vector(m, NAME("post_ffw_norm_1.weight"), E, true, err, &failed);
    if (!failed) L->ffn_post_norm_2 = bind_vector(m, NAME("post_ffw_norm_2.weight"), E, true, err, &failed);
    return !failed && bind_matrix(m, &L->w_gate, NAME("ffn_gate.weight"), E, L->n_ff, err) &&
           bind_matrix(m, &L->w_up, NAME("ffn_up.weight"), E, L->n_ff, err) &&
           bind_matrix(m, &L->w_down, NAME("ffn_down.weight"), L->n_ff, E, err);
#undef NAME
}

/* Layer l's attention: Q, K, V (a layer sharing another's cache has only Q;
 * gemma4 may leave V out: then V is K), the output, the biases and norms
 * its architecture has. */
static bool bind_attention(seer_llm *m, const arch_desc *ad, llm_layer *L, int l, seer_error *err) {
    const seer_llm_info *in = &m->info;
    const int64_t E = in->n_embd, hd = L->head_dim, Dq = (int64_t)in->n_head * hd, Dk = (int64_t)L->n_head_kv * hd;
    char n[96];
    bool failed = false;
#define NAME(s) (snprintf(n, sizeof n, "blk.%d.%s", l, s), n)
    if (gguf_find_tensor(m->gguf, NAME("attn_qkv.weight"))) {
        seer_error_set(err, "%s: fused '%s' is not supported (separate attn_q/attn_k/attn_v expected)", m->gguf->path, n);
        return false;
    }
    if (!ad->mistral3 && gguf_find_tensor(m->gguf, NAME("attn_output.bias"))) { /* llama.cpp's ERNIE takes one; no file we know has it */
        seer_error_set(err, "%s: '%s' is not supported (an attention output without bias expected)", m->gguf->path, n);
        return false;
    }
    if (!bind_matrix(m, &L->wq, NAME("attn_q.weight"), E, L->q_gate ? 2 * Dq : Dq, err) ||
        !bind_matrix(m, &L->wo, NAME("attn_output.weight"), Dq, E, err))
        return false;
    if (!L->kv_shared) {
        L->v_from_k = ad->gemma4 && !gguf_find_tensor(m->gguf, NAME("attn_v.weight"));
        if (!bind_matrix(m, &L->wk, NAME("attn_k.weight"), E, Dk, err) ||
            (!L->v_from_k && !bind_matrix(m, &L->wv, NAME("attn_v.weight"), E, Dk, err)))
            return false;
        L->v_norm = ad->gemma4;
    }
    L->bq = bind_vector(m, NAME("attn_q.bias"), Dq, ad->qkv_bias, err, &failed);
    if (!failed && !L->kv_shared) L->bk = bind_vector(m, NAME("attn_k.bias"), Dk, ad->qkv_bias, err, &failed);
    if (!failed && !L->kv_shared && !L->v_from_k) L->bv = bind_vector(m, NAME("attn_v.bias"), Dk, ad->qkv_bias, err, &failed);
    if (!failed && ad->qk_norm) L->q_norm = bind_vector(m, NAME("attn_q_norm.weight"), hd, true, err, &failed);
    if (!failed && ad->qk_norm && !L->kv_shared)
        L->k_norm = bind_vector(m, NAME("attn_k_norm.weight"), hd, true, err, &failed);
    if (!failed && ad->mistral3) L->bo = bind_vector(m, NAME("attn_output.bias"), E, false, err, &failed);
    const bool sandwich = ad->gemma || ad->glm4;
    if (!failed && sandwich) L->attn_post_norm = bind_vector(m, NAME("post_attention_norm.weight"), E, true, err, &failed);
    if (!failed && sandwich) L->ffn_post_norm = bind_vector(m, NAME("post_ffw_norm.weight"), E, true, err, &failed);
    if (!failed && ad->gemma4) {
        const float *s = bind_vector(m, NAME("layer_output_scale.weight"), 1, false, err, &failed);
        if (s) L->out_scale = s[0];
    }
#undef NAME
    return !failed;
}

/* Per-layer embeddings: the model's table, projection and norm, each
 * layer's gate, projection back and norm. */
static bool bind_per_layer_embd(seer_llm *m, seer_error *err) {
    const int64_t E = m->info.n_embd, P = m->ple_dim, W = P * m->info.n_layer;
    bool failed = false;
    if (!bind_matrix(m, &m->ple_tok, "per_layer_token_embd.weight", W, m->info.n_vocab, err) ||
        !bind_matrix(m, &m->ple_proj, "per_layer_model_proj.weight", E, W, err))
        return false;
    m->ple_proj_norm = bind_vector(m, "per_layer_proj_norm.weight", P, true, err, &failed);
    for (int l = 0; l < m->info.n_layer && !failed; l++) {
        llm_layer *L = &m->layers[l];
        char n[96];
#define NAME(s) (snprintf(n, sizeof n, "blk.%d.%s", l, s), n)
        if (!bind_matrix(m, &L->ple_gate, NAME("inp_gate.weight"), E, P, err) ||
            !bind_matrix(m, &L->ple_out, NAME("proj.weight"), P, E, err))
            return false;
        L->ple_post_norm = bind_vector(m, NAME("post_norm.weight"), E, true, err, &failed);
#undef NAME
    }
    return !failed;
}

/* The depthwise kernel [channels][K] (the file's, converted: the model's
 * own copy) rearranged to [K][channels] in place, so that a tap's weights
 * are one contiguous row for the convolution's vector loop. */
static bool taps_outer(float *w, int64_t ch, int K) {
    float *t = malloc(sizeof *t * (size_t)(ch * K));
    if (!t) return false;
    for (int64_t e = 0; e < ch; e++)
        for (int k = 0; k < K; k++) t[(size_t)k * ch + e] = w[(size_t)e * K + k];
    memcpy(w, t, sizeof *t * (size_t)(ch * K));
    free(t);
    return true;
}

/* A Gated DeltaNet layer's mixer (gated_delta.c). */
static bool bind_gdn(seer_llm *m, llm_layer *L, int l, seer_error *err) {
    const llm_gdn_dims *g = &m->gdn;
    const int64_t E = m->info.n_embd, ch = llm_gdn_channels(g), vd = (int64_t)g->n_v * g->d;
    char n[96];
    bool failed = false;
#define NAME(s) (snprintf(n, sizeof n, "blk.%d.%s", l, s), n)
    if (!bind_matrix(m, &L->gdn_qkv, NAME("attn_qkv.weight"), E, ch, err) ||
        !bind_matrix(m, &L->gdn_z, NAME("attn_gate.weight"), E, vd, err) ||
        !bind_matrix(m, &L->gdn_beta, NAME("ssm_beta.weight"), E, g->n_v, err) ||
        !bind_matrix(m, &L->gdn_alpha, NAME("ssm_alpha.weight"), E, g->n_v, err) ||
        !bind_matrix(m, &L->gdn_out, NAME("ssm_out.weight"), vd, E, err))
        return false;
    L->gdn_conv = bind_floats(m, NAME("ssm_conv1d.weight"), g->conv_len, ch, true, err, &failed);
    if (!failed && !taps_outer((float *)L->gdn_conv, ch, g->conv_len)) {
        seer_error_set(err, "out of memory converting '%s'", n);
        failed = true;
    }
    if (!failed) L->gdn_dt_bias = bind_vector(m, NAME("ssm_dt.bias"), g->n_v, true, err, &failed);
    if (!failed) L->gdn_a = bind_vector(m, NAME("ssm_a"), g->n_v, true, err, &failed);
    if (!failed) L->gdn_norm = bind_vector(m, NAME("ssm_norm.weight"), g->d, true, err, &failed);
#undef NAME
    return !failed;
}

static bool bind_layers(seer_llm *m, const arch_desc *ad, seer_error *err) {
    const seer_llm_info *in = &m->info;
    const int64_t E = in->n_embd;
    bool failed = false;
    for (int l = 0; l < in->n_layer && !failed; l++) {
        llm_layer *L = &m->layers[l];
        char n[96];
#define NAME(s) (snprintf(n, sizeof n, "blk.%d.%s", l, s), n)
        L->attn_norm = bind_vector(m, NAME("attn_norm.weight"), E, true, err, &failed);
        if (failed) break;
        L->ffn_norm = bind_vector(m, NAME(ad->delta ? "post_attention_norm.weight" : "ffn_norm.weight"), E, true, err,
                                  &failed);
        if (failed) break;
        if (L->gdn) {
            if (!bind_gdn(m, L, l, err) || !bind_ffn(m, L, l, err)) return false;
            continue;
        }
        if (L->conv) {
            if (!bind_matrix(m, &L->conv_in, NAME("shortconv.in_proj.weight"), E, 3 * E, err) ||
                !bind_matrix(m, &L->conv_out, NAME("shortconv.out_proj.weight"), E, E, err) || !bind_ffn(m, L, l, err))
                return false;
            L->conv_kernel = bind_floats(m, NAME("shortconv.conv.weight"), m->conv_len, E, true, err, &failed);
            continue;
        }
        if (!bind_attention(m, ad, L, l, err) || !bind_ffn(m, L, l, err)) return false;
        if (ad->mistral3) { /* optional MLP biases */
            L->b_gate = bind_vector(m, NAME("ffn_gate.bias"), L->n_ff, false, err, &failed);
            if (!failed) L->b_up = bind_vector(m, NAME("ffn_up.bias"), L->n_ff, false, err, &failed);
            if (!failed) L->b_down = bind_vector(m, NAME("ffn_down.bias"), E, false, err, &failed);
        }
#undef NAME
    }
    /* gemma4 full layers' proportional RoPE; llama's (Llama 3.1's frequency
     * factors) and mistral3's: one tensor for all layers, optional */
    if (!failed && (ad->gemma4 || ad->mistral3 || !strcmp(ad->name, "llama")))
        m->rope_freqs = bind_vector(m, "rope_freqs.weight", m->n_rot / 2, false, err, &failed);
    return !failed && (!m->ple_dim || bind_per_layer_embd(m, err));
}

/* Which layers are short convolutions (lfm2: head_count_kv 0) or Gated
 * DeltaNet layers (qwen35*), those layers' state_off in the recurrent
 * state (rec_state_floats in all; layer_geometry places the others in the
 * KV cache). */
static void number_layers(seer_llm *m, const arch_desc *ad) {
    char key[128];
    snprintf(key, sizeof key, "%s.attention.head_count_kv", ad->name);
    size_t state = 0;
    for (int l = 0; l < m->info.n_layer; l++) {
        llm_layer *L = &m->layers[l];
        L->conv = ad->hybrid && gguf_get_arr_int(m->gguf, key, (uint64_t)l, -1) == 0;
        L->gdn = ad->delta && is_gdn_layer(m->gguf, ad->name, l);
        L->q_gate = ad->delta && !L->gdn;
        if (L->conv) {
            L->state_off = state;
            state += (size_t)(m->conv_len - 1) * (size_t)m->info.n_embd;
        } else if (L->gdn) {
            L->state_off = state;
            state += llm_gdn_state_floats(&m->gdn);
            m->n_gdn_layers++;
        }
    }
    m->rec_state_floats = state;
    m->info.n_layer_gdn = m->n_gdn_layers;
    m->info.state_bytes = (uint64_t)state * sizeof(float);
    m->info.state_marks = state ? LLM_STATE_MARKS : 0;
}

/* Each layer's head size, KV heads and FFN width (gemma4: sliding layers
 * have key_length_swa heads, the counts may be per-layer arrays), and its
 * place in the KV cache: the layers with their own keys one after another;
 * gemma4's last shared_kv_layers layers read the last sliding (or full)
 * layer before them instead. */
static bool layer_geometry(seer_llm *m, const arch_desc *ad, seer_error *err) {
    const gguf_file *f = m->gguf;
    const char *a = ad->name;
    seer_llm_info *in = &m->info;
    const int hd_swa = ad->gemma4 ? (int)key_int(f, a, "attention.key_length_swa", in->head_dim) : in->head_dim;
    const int hdv_swa = ad->gemma4 ? (int)key_int(f, a, "attention.value_length_swa", hd_swa) : hd_swa;
    bool any_swa = false;
    for (int l = 0; l < in->n_layer; l++) any_swa |= m->layers[l].swa;
    if (hd_swa <= 0 || hd_swa > 1024 || hdv_swa != hd_swa ||
        (any_swa && (m->n_rot_swa <= 0 || m->n_rot_swa > hd_swa || m->n_rot_swa % 2))) {
        seer_error_set(err, "%s: unsupported sliding-window head sizes (key %d, value %d, rope dims %d)", f->path,
                       hd_swa, hdv_swa, m->n_rot_swa);
        return false;
    }
    const int n_shared = ad->gemma4 ? (int)key_int(f, a, "attention.shared_kv_layers", 0) : 0;
    const int first_shared = in->n_layer - n_shared;
    if (n_shared < 0 || (n_shared > 0 && first_shared < 2)) {
        seer_error_set(err, "%s: %d of %d layers cannot share the KV cache of earlier ones", f->path, n_shared,
                       in->n_layer);
        return false;
    }
    size_t off = 0;
    int n_kv = 0;
    m->max_head_dim = m->max_kv_dim = m->max_q_dim = m->max_group = 1;
    for (int l = 0; l < in->n_layer; l++) {
        llm_layer *L = &m->layers[l];
        L->head_dim = L->swa ? hd_swa : in->head_dim;
        L->n_head_kv = ad->hybrid ? in->n_head_kv : (int)layer_key_int(f, a, "attention.head_count_kv", l, in->n_head);
        L->n_ff = (int)layer_key_int(f, a, "feed_forward_length", l, in->n_ff);
        if (L->n_ff <= 0) L->n_ff = in->n_ff; /* a MoE model's scratch width */
        L->out_scale = 1.0f;
        if (L->n_head_kv <= 0 || in->n_head % L->n_head_kv != 0) {
            seer_error_set(err, "%s: layer %d: %d attention heads cannot share %d KV heads", f->path, l, in->n_head,
                           L->n_head_kv);
            return false;
        }
        if (L->conv || L->gdn) continue;
        if (l >= first_shared) {
            const llm_layer *src = &m->layers[first_shared - (L->swa ? 2 : 1)];
            if (src->swa != L->swa || src->head_dim != L->head_dim || src->n_head_kv != L->n_head_kv) {
                seer_error_set(err, "%s: layer %d cannot share the KV cache of layer %d (different geometry)", f->path,
                               l, first_shared - (L->swa ? 2 : 1));
                return false;
            }
            L->kv_shared = true;
            L->kv_offset = src->kv_offset;
        } else {
            L->kv_offset = off;
            off += (size_t)L->n_head_kv * (size_t)L->head_dim;
            n_kv++;
        }
        const int kv_dim = L->n_head_kv * L->head_dim, q_dim = in->n_head * L->head_dim;
        if (L->head_dim > m->max_head_dim) m->max_head_dim = L->head_dim;
        if (kv_dim > m->max_kv_dim) m->max_kv_dim = kv_dim;
        if (q_dim > m->max_q_dim) m->max_q_dim = q_dim;
        if (in->n_head / L->n_head_kv > m->max_group) m->max_group = in->n_head / L->n_head_kv;
    }
    m->kv_row_floats = off;
    in->n_kv_floats = (int64_t)off;
    in->n_layer_kv = n_kv;
    return true;
}

/* Interleaves what can be, layer by layer (progress), on every core: the
 * decoding pool comes later, with the context. What every token reads goes
 * first, the routed experts (a few of them a token) last: late in a load
 * bigger than half the memory the file's cached pages may have fragmented
 * it, and the kernel hands out 4 KiB pages instead of 2 MiB ones. In one
 * load of Qwen3-VL-30B-A3B Q4_K_M on 24 GB the arena's last 1.7 GB got
 * them, and the output matrix there (every token reads all of it) took 2.9x
 * the time per byte of the experts' Q6_K in the same kernel. */
static void interleave_all(seer_llm *m, seer_progress_fn progress, void *ud) {
    size_t bytes;
    m->arena = arena_new(m, &bytes);
    m->arena_bytes = m->arena ? bytes : 0;
    char *next = m->arena;
    seer_pool *pool = next ? seer_pool_create(0) : NULL;
    interleave(m, &m->output, pool, &next);
    if (m->ple_dim) interleave(m, &m->ple_proj, pool, &next);
    for (int l = 0; l < m->info.n_layer; l++) {
        seer_weight *mats[LLM_LAYER_MATRICES];
        for (int i = 0, n = layer_matrices_present(m, &m->layers[l], mats); i < n; i++) interleave(m, mats[i], pool, &next);
        if (progress && !m->moe) progress(ud, (float)(l + 1) / (float)m->info.n_layer);
    }
    for (int l = 0; m->moe && l < m->info.n_layer; l++) {
        interleave_experts(m, &m->layers[l], pool, &next);
        if (progress) progress(ud, (float)(l + 1) / (float)m->info.n_layer);
    }
    /* tied embeddings: token lookups read the copy too (bit-exact), so the
     * file's pages, given back, are not needed again */
    if (m->tok_embd.data == m->output.data) m->tok_embd.interleaved = m->output.interleaved;
    /* untied, lookups read the file (gguf_read_at), not the mapping: what
     * reading the neighbouring matrices brought in is given back */
    else gguf_release_pages(m->gguf, m->tok_embd.data, m->tok_embd.row_bytes * (size_t)m->tok_embd.n_out);
    seer_pool_destroy(pool);
}

/* The dominant matrix type, and parameter/byte totals. */
static void summarise(seer_llm *m) {
    for (uint64_t i = 0; i < m->gguf->n_tensors; i++) {
        const gguf_tensor *t = &m->gguf->tensors[i];
        uint64_t n = 1;
        for (int d = 0; d < GGUF_MAX_DIMS; d++) n *= (uint64_t)t->ne[d];
        m->info.n_params += n;
        m->info.weight_bytes += t->nbytes;
    }
    m->info.weight_type = gguf_dominant_matrix_type(m->gguf);
}

seer_llm *seer_llm_load(const char *path, seer_progress_fn progress, void *ud, seer_error *err) {
    if (!path) {
        seer_error_set(err, "no model path given");
        return NULL;
    }
    gguf_file *f = gguf_open(path, err);
    if (!f) return NULL;
    seer_llm *m = calloc(1, sizeof *m);
    if (!m) {
        gguf_close(f);
        seer_error_set(err, "out of memory");
        return NULL;
    }
    m->gguf = f;
    const char *arch = gguf_get_str(f, "general.architecture");
    const arch_desc *ad = NULL;
    for (size_t i = 0; arch && i < sizeof ARCHES / sizeof ARCHES[0]; i++)
        if (strcmp(arch, ARCHES[i].name) == 0) ad = &ARCHES[i];
    if (!ad) {
        if (!arch) seer_error_set(err, "%s: no general.architecture key: not a model file", path);
        else if (strcmp(arch, "clip") == 0)
            seer_error_set(err, "%s is a vision projector (mmproj), not a language model: pass it with --mmproj", path);
        else
            seer_error_set(err, "%s: architecture '%.64s' is not supported (supported: " SUPPORTED_ARCHES ")", path,
                           arch);
        seer_llm_free(m);
        return NULL;
    }
    snprintf(m->arch, sizeof m->arch, "%s", ad->name);
    m->info.arch = m->arch;
    const char *gname = gguf_get_str(f, "general.name");
    if (!gname) {
        gname = strrchr(path, '/');
        gname = gname ? gname + 1 : path;
    }
    m->name = strdup(gname);
    m->info.name = m->name ? m->name : "";
    if (!read_hparams(m, ad, err)) goto fail;

    const gguf_tensor *te = gguf_find_tensor(f, "token_embd.weight");
    if (!te) {
        seer_error_set(err, "%s: tensor 'token_embd.weight' is missing", path);
        goto fail;
    }
    m->info.n_vocab = (int)te->ne[1];
    if (!bind_matrix(m, &m->tok_embd, "token_embd.weight", m->info.n_embd, te->ne[1], err)) goto fail;
    if (gguf_find_tensor(f, "output.weight")) {
        if (!bind_matrix(m, &m->output, "output.weight", m->info.n_embd, m->info.n_vocab, err)) goto fail;
    } else {
        m->output = m->tok_embd; /* tied embeddings */
    }
    bool failed = false;
    /* lfm2's final norm is stored as token_embd_norm */
    m->output_norm = bind_vector(m, ad->hybrid ? "token_embd_norm.weight" : "output_norm.weight", m->info.n_embd, true,
                                 err, &failed);
    if (failed) goto fail;
    m->layers = calloc((size_t)m->info.n_layer, sizeof *m->layers);
    if (!m->layers) {
        seer_error_set(err, "out of memory");
        goto fail;
    }
    number_layers(m, ad);
    if (ad->gemma) read_gemma(m, ad->name);
    if (ad->gemma4 && !read_gemma4(m, err)) goto fail;
    if (!layer_geometry(m, ad, err) || !bind_layers(m, ad, err)) goto fail;
    interleave_all(m, progress, ud);

    m->vocab = seer_vocab_load(f, err);
    if (!m->vocab) goto fail;
    if (seer_vocab_size(m->vocab) > m->info.n_vocab) {
        seer_error_set(err, "%s: the vocabulary has %d tokens but the embedding table only %d rows", path,
                       seer_vocab_size(m->vocab), m->info.n_vocab);
        goto fail;
    }
    summarise(m);
    return m;
fail:
    seer_llm_free(m);
    return NULL;
}

void seer_llm_free(seer_llm *m) {
    if (!m) return;
    free(m->arena);
    for (int i = 0; i < m->n_owned; i++) free(m->owned[i]);
    free(m->owned);
    free(m->layers);
    seer_vocab_free(m->vocab);
    free(m->name);
    gguf_close(m->gguf);
    free(m);
}

const seer_llm_info *seer_llm_get_info(const seer_llm *m) { return m ? &m->info : NULL; }
const seer_vocab *seer_llm_vocab(const seer_llm *m) { return m ? m->vocab : NULL; }
const gguf_file *seer_llm_gguf(const seer_llm *m) { return m ? m->gguf : NULL; }

const void *seer_llm_weights_copy(const seer_llm *m, size_t *bytes) {
    *bytes = m ? m->arena_bytes : 0;
    return m ? m->arena : NULL;
}

/* The file's bytes of w, unless the interleaved copy replaced them. */
static void page_in(const seer_llm *m, const seer_weight *w) {
    if (!w->interleaved) gguf_page_in(m->gguf, w->data, (size_t)w->n_out * w->row_bytes);
}

void seer_llm_page_in(const seer_llm *m) {
    if (!m) return;
    page_in(m, &m->output);
    if (m->ple_dim) page_in(m, &m->ple_proj);
    for (int l = 0; m->layers && l < m->info.n_layer; l++) {
        seer_weight *mats[LLM_LAYER_MATRICES];
        for (int i = 0, n = layer_matrices_present(m, &m->layers[l], mats); i < n; i++) page_in(m, mats[i]);
        const llm_layer *L = &m->layers[l];
        for (int i = 0; m->moe && i < 3; i++) {
            const seer_weight *all = i == 0 ? &L->gate_exps : i == 1 ? &L->up_exps : &L->down_exps;
            if (i == 1 && L->gate_up_stride != all->n_out) continue; /* fused: paged in with the gate rows */
            if (all->interleaved) continue; /* the copy replaced the file's bytes */
            const int64_t rows = i == 2 ? all->n_out : L->gate_up_stride;
            gguf_page_in(m->gguf, all->data, (size_t)rows * all->row_bytes * (size_t)m->info.n_expert);
        }
    }
}
