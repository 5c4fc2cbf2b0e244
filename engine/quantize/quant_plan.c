/* Which type each tensor gets, by llama.cpp's rules (llama-quant.cpp,
 * without an importance matrix or overrides): the mixtures (_S/_M) give
 * attention-V, FFN-down and output tensors more bits in chosen layers, the
 * output (and a tied token embedding) get Q6_K, and a row length the block
 * size does not divide falls back to a smaller block or F16. An mmproj
 * (general.architecture "clip") quantizes its 2-D block and projector
 * matrices to the base type, with the same fallback. */
#include <stdio.h>
#include <string.h>

#include "quantize/quant_plan.h"
#include "seer/tensor.h"

enum {
    FT_Q4_0 = 2, FT_Q4_1 = 3, FT_Q8_0 = 7, FT_Q5_0 = 8, FT_Q5_1 = 9, FT_Q2_K = 10, FT_Q3_K_M = 12,
    FT_Q4_K_S = 14, FT_Q4_K_M = 15, FT_Q5_K_S = 16, FT_Q5_K_M = 17, FT_Q6_K = 18, FT_F16 = 1, FT_BF16 = 32,
};

static const seer_quant_kind kinds[] = {
    {"Q8_0", FT_Q8_0, SEER_TYPE_Q8_0},     {"Q4_0", FT_Q4_0, SEER_TYPE_Q4_0},
    {"Q4_1", FT_Q4_1, SEER_TYPE_Q4_1},     {"Q5_0", FT_Q5_0, SEER_TYPE_Q5_0},
    {"Q5_1", FT_Q5_1, SEER_TYPE_Q5_1},     {"Q2_K", FT_Q2_K, SEER_TYPE_Q2_K},
    {"Q3_K_M", FT_Q3_K_M, SEER_TYPE_Q3_K}, {"Q4_K_M", FT_Q4_K_M, SEER_TYPE_Q4_K},
    {"Q4_K_S", FT_Q4_K_S, SEER_TYPE_Q4_K}, {"Q5_K_M", FT_Q5_K_M, SEER_TYPE_Q5_K},
    {"Q5_K_S", FT_Q5_K_S, SEER_TYPE_Q5_K}, {"Q6_K", FT_Q6_K, SEER_TYPE_Q6_K},
    {"F16", FT_F16, SEER_TYPE_F16},        {"BF16", FT_BF16, SEER_TYPE_BF16},
};

const seer_quant_kind *seer_quant_kind_find(const char *name) {
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcasecmp(kinds[i].name, name) == 0) return &kinds[i];
    return NULL;
}

const char *seer_quant_kind_names(void) {
    return "Q8_0 Q4_0 Q4_1 Q5_0 Q5_1 Q2_K Q3_K_M Q4_K_M Q4_K_S Q5_K_M Q5_K_S Q6_K F16 BF16";
}

typedef enum { CAT_OTHER, CAT_OUTPUT, CAT_TOKEN_EMBD, CAT_ATTN_V, CAT_ATTN_K, CAT_ATTN_OUT, CAT_ATTN_QKV,
               CAT_FFN_DOWN, CAT_FFN_GATE, CAT_FFN_UP } category;

static bool has(const char *s, const char *part) { return strstr(s, part) != NULL; }

static category category_of(const char *name) {
    if (!strcmp(name, "output.weight")) return CAT_OUTPUT;
    if (!strcmp(name, "token_embd.weight") || !strcmp(name, "per_layer_token_embd.weight")) return CAT_TOKEN_EMBD;
    if (has(name, "attn_qkv.weight")) return CAT_ATTN_QKV;
    if (has(name, "attn_kv_b.weight") || has(name, "attn_v.weight")) return CAT_ATTN_V;
    if (has(name, "attn_k.weight")) return CAT_ATTN_K;
    if (has(name, "attn_q.weight")) return CAT_OTHER;
    if (has(name, "attn_output.weight")) return CAT_ATTN_OUT;
    if (has(name, "ffn_up")) return CAT_FFN_UP;
    if (has(name, "ffn_gate")) return CAT_FFN_GATE;
    if (has(name, "ffn_down")) return CAT_FFN_DOWN;
    return CAT_OTHER;
}

static bool ends_with(const char *s, const char *tail) {
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && !strcmp(s + n - m, tail);
}

/* Tensors llama.cpp never quantizes (small, or read as tables). */
static const char *const kept_parts[] = {
    "_norm.weight", "ffn_gate_inp.weight", "ffn_gate_tid2eid.weight", "altup", "laurel", "per_layer_model_proj",
    "ssm_conv1d", "shortconv.conv.weight", "indexer.k_proj.weight", "indexer.q_proj.weight", "time_mix_first.weight",
    "time_mix_w0.weight", "time_mix_w1.weight", "time_mix_w2.weight", "time_mix_v0.weight", "time_mix_v1.weight",
    "time_mix_v2.weight", "time_mix_a0.weight", "time_mix_a1.weight", "time_mix_a2.weight", "time_mix_g1.weight",
    "time_mix_g2.weight", "time_mix_decay_w1.weight", "time_mix_decay_w2.weight", "time_mix_lerp_fused.weight",
    "attn_rel_b.weight", ".position_embd", "sam.pos_embd", "sam.neck.", "sam.net_", ".rel_pos", ".patch_embd",
    ".patch_merger", "a.rvq.codebook", "mm.a.code_embd",
    "mm.input_projection", /* Gemma 3's, stored transposed: seer reads it back to F32 */
};

/* Vision encoders' norms, biases and class embedding are 1-D, their patch
 * and position embeddings named above: what is left are the block and
 * projector matrices. */
static bool allows_quantization(const gguf_tensor *t) {
    if (t->n_dims < 2 || !ends_with(t->name, "weight")) return false;
    if (!strcmp(t->name, "position_embd.weight") || !strcmp(t->name, "token_types.weight")) return false;
    for (size_t i = 0; i < sizeof kept_parts / sizeof kept_parts[0]; i++)
        if (has(t->name, kept_parts[i])) return false;
    return true;
}

static bool use_more_bits(int i, int n) { return i < n / 8 || i >= 7 * n / 8 || (i - n / 8) % 3 == 2; }

typedef struct plan_state {
    const seer_quant_kind *kind;
    bool falcon, tied;
    int n_gqa, n_expert, n_layer, n_attn_v;
    int i_attn_v, i_ffn_down, i_ffn_gate, i_ffn_up;
} plan_state;

/* FFN tensors of MoE models name their layer; dense ones count. */
static int layer_of(const plan_state *s, const char *name, int counter) {
    int il;
    if (s->n_expert > 1 && sscanf(name, "blk.%d.", &il) == 1) return il;
    return counter;
}

/* llama_tensor_get_type_impl for the file types seer writes. */
static int mixture_type(plan_state *s, const gguf_tensor *t, category cat) {
    int ft = s->kind->ftype, type = s->kind->base;
    if (cat == CAT_OUTPUT || (s->tied && cat == CAT_TOKEN_EMBD)) {
        int qk = seer_type_get(type)->block_size;
        if (s->falcon || t->ne[0] % qk != 0) type = SEER_TYPE_Q8_0;
        else if (type != SEER_TYPE_Q8_0) type = SEER_TYPE_Q6_K;
    } else if (cat == CAT_TOKEN_EMBD) {
        /* the base type */
    } else if (cat == CAT_ATTN_V || cat == CAT_ATTN_QKV) { /* llama.cpp's own QKV rule is never reached */
        if (ft == FT_Q2_K) type = s->n_gqa >= 4 ? SEER_TYPE_Q4_K : SEER_TYPE_Q3_K;
        else if (ft == FT_Q3_K_M) type = s->i_attn_v < 2 ? SEER_TYPE_Q5_K : SEER_TYPE_Q4_K;
        else if ((ft == FT_Q4_K_M || ft == FT_Q5_K_M) && use_more_bits(s->i_attn_v, s->n_attn_v)) type = SEER_TYPE_Q6_K;
        else if (ft == FT_Q4_K_S && s->i_attn_v < 4) type = SEER_TYPE_Q5_K;
        if (s->n_expert == 8) type = SEER_TYPE_Q8_0;
        s->i_attn_v++;
    } else if (cat == CAT_ATTN_K) {
        if (s->n_expert == 8) type = SEER_TYPE_Q8_0;
    } else if (cat == CAT_FFN_DOWN) {
        int il = layer_of(s, t->name, s->i_ffn_down), n = s->n_layer;
        if (ft == FT_Q2_K) type = SEER_TYPE_Q3_K;
        else if (ft == FT_Q3_K_M)
            type = il < n / 16 ? SEER_TYPE_Q5_K : !s->falcon || use_more_bits(il, n) ? SEER_TYPE_Q4_K : SEER_TYPE_Q3_K;
        else if (ft == FT_Q4_K_M) {
            if (s->falcon) type = il < n / 16 ? SEER_TYPE_Q6_K : use_more_bits(il, n) ? SEER_TYPE_Q5_K : SEER_TYPE_Q4_K;
            else if (use_more_bits(il, n)) type = SEER_TYPE_Q6_K;
        } else if (ft == FT_Q5_K_M && use_more_bits(il, n)) type = SEER_TYPE_Q6_K;
        else if (ft == FT_Q4_K_S && !s->falcon && il < n / 8) type = SEER_TYPE_Q5_K;
        s->i_ffn_down++;
    } else if (cat == CAT_ATTN_OUT) {
        if (!s->falcon) {
            if (s->n_expert == 8) {
                if (ft == FT_Q2_K || ft == FT_Q3_K_M || ft == FT_Q4_K_S || ft == FT_Q4_K_M) type = SEER_TYPE_Q5_K;
            } else if (ft == FT_Q2_K) type = SEER_TYPE_Q3_K;
            else if (ft == FT_Q3_K_M) type = SEER_TYPE_Q4_K;
        }
    } else if (cat == CAT_FFN_GATE) {
        s->i_ffn_gate++;
    } else if (cat == CAT_FFN_UP) {
        s->i_ffn_up++;
    }
    return type;
}

/* A row length the block does not divide: a 32-block type, else F16. */
static int fallback(int type, int64_t ncols) {
    if (ncols % seer_type_get(type)->block_size == 0) return type;
    switch (type) {
    case SEER_TYPE_Q2_K: case SEER_TYPE_Q3_K: type = SEER_TYPE_Q4_0; break;
    case SEER_TYPE_Q4_K: type = SEER_TYPE_Q5_0; break;
    case SEER_TYPE_Q5_K: type = SEER_TYPE_Q5_1; break;
    case SEER_TYPE_Q6_K: type = SEER_TYPE_Q8_0; break;
    default: break;
    }
    return ncols % seer_type_get(type)->block_size == 0 ? type : SEER_TYPE_F16;
}

bool seer_quant_is_vision(const gguf_file *f) {
    const char *arch = gguf_get_str(f, "general.architecture");
    return arch && !strcmp(arch, "clip");
}

static int64_t arch_int(const gguf_file *f, const char *arch, const char *key, int64_t def) {
    char full[256];
    snprintf(full, sizeof full, "%s.%s", arch, key);
    return gguf_get_int(f, full, def);
}

void seer_quant_plan(const gguf_file *f, const seer_quant_kind *kind, int *types) {
    const char *arch = gguf_get_str(f, "general.architecture");
    if (!arch) arch = "";
    bool vision = seer_quant_is_vision(f);
    int64_t n_head = arch_int(f, arch, "attention.head_count", 0);
    int64_t n_head_kv = arch_int(f, arch, "attention.head_count_kv", n_head);
    plan_state s = {
        .kind = kind, .falcon = !strcmp(arch, "falcon"), .tied = true,
        .n_gqa = n_head_kv > 0 ? (int)(n_head / n_head_kv) : 0,
        .n_expert = (int)arch_int(f, arch, "expert_count", 0),
        .n_layer = (int)arch_int(f, arch, "block_count", 0),
    };
    for (uint64_t i = 0; i < f->n_tensors; i++) {
        category cat = category_of(f->tensors[i].name);
        if (cat == CAT_ATTN_V || cat == CAT_ATTN_QKV) s.n_attn_v++;
        if (cat == CAT_OUTPUT) s.tied = false;
    }
    bool quantized_base = kind->base != SEER_TYPE_F16 && kind->base != SEER_TYPE_BF16;
    for (uint64_t i = 0; i < f->n_tensors; i++) {
        const gguf_tensor *t = &f->tensors[i];
        int type = t->type;
        if (allows_quantization(t)) {
            type = kind->base;
            if (quantized_base) {
                if (!vision) type = mixture_type(&s, t, category_of(t->name));
                type = fallback(type, t->ne[0]);
            }
        }
        types[i] = type;
    }
}
