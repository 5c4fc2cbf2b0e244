/* How much work a model does: weight bytes read per decoded token (the
 * memory-bound limit of decoding) and FLOPs of the vision encoder for one
 * input (the compute-bound limit of encoding), from the file and the
 * hyper-parameters alone. */
#include "seer/bench.h"
#include "seer/matmul.h"

#include <stdio.h>
#include <string.h>

/* The share of a mixture-of-experts layer's expert tensors one token reads:
 * experts used / experts (1 for a dense model). */
static double expert_share(const gguf_file *llm) {
    const char *arch = gguf_get_str(llm, "general.architecture");
    if (!arch) return 1;
    char key[96];
    snprintf(key, sizeof key, "%s.expert_count", arch);
    int64_t n_expert = gguf_get_int(llm, key, 0);
    snprintf(key, sizeof key, "%s.expert_used_count", arch);
    int64_t n_used = gguf_get_int(llm, key, 0);
    return n_expert > 0 && n_used > 0 && n_used <= n_expert ? (double)n_used / (double)n_expert : 1;
}

/* The bytes a decode step reads of tensor t: the interleaved copy's where
 * the loader makes one (some layouts are larger than the file's: Q3_K's by
 * 5.5%, its scales unpacked to bytes), the file's otherwise. Stacked
 * experts are interleaved expert by expert, as the loader does: each
 * expert's rows a whole number of groups. */
static double matrix_bytes_read(const gguf_tensor *t) {
    if (t->n_dims < 2 || t->n_dims > 3 || t->ne[3] != 1 || !seer_type_get(t->type)) return (double)t->nbytes;
    const seer_weight one = {.type = t->type, .n_in = t->ne[0], .n_out = t->ne[1]};
    const size_t copy = seer_weight_interleaved_bytes(&one);
    return copy ? (double)copy * (double)t->ne[2] : (double)t->nbytes;
}

seer_bench_llm_work seer_bench_llm_work_of(const gguf_file *llm) {
    seer_bench_llm_work w = {0};
    bool tied = gguf_find_tensor(llm, "output.weight") == NULL;
    const double share = expert_share(llm);
    for (uint64_t i = 0; i < llm->n_tensors; i++) {
        const gguf_tensor *t = &llm->tensors[i];
        double elements = (double)t->ne[0] * (double)t->ne[1] * (double)t->ne[2] * (double)t->ne[3];
        /* one row looked up: the token table (when it is not also the output
         * matrix) and Gemma 4's per-layer embedding table */
        if ((strcmp(t->name, "token_embd.weight") == 0 && !tied) || strcmp(t->name, "per_layer_token_embd.weight") == 0) {
            w.bytes_per_token += (double)t->nbytes / (double)t->ne[1];
            continue;
        }
        /* stacked experts ([n_in, n_out, n_expert]): a token reads its chosen ones */
        const double part = strstr(t->name, "_exps.") && t->n_dims == 3 ? share : 1;
        w.bytes_per_token += matrix_bytes_read(t) * part;
        if (t->n_dims >= 2) w.params_per_token += elements * part; /* matrices: a multiply-add per element */
        if (strcmp(t->name, "output.weight") == 0 || (tied && strcmp(t->name, "token_embd.weight") == 0)) w.head_params = elements;
    }
    return w;
}

double seer_bench_tensor_bytes(const gguf_file *f) {
    double bytes = 0;
    for (uint64_t i = 0; f && i < f->n_tensors; i++) bytes += (double)f->tensors[i].nbytes;
    return bytes;
}

/* Sum over attention windows of (tokens in window)², Qwen2.5-VL: windows of
 * 112 pixels square on the grid of merged 2×2 patch cells. */
static double window_attention_pairs(int gx, int gy, int patch) {
    int cells = 112 / (2 * patch);
    if (cells < 1) cells = 1;
    double pairs = 0;
    for (int y = 0; y < gy; y += cells)
        for (int x = 0; x < gx; x += cells) {
            int wx = gx - x < cells ? gx - x : cells, wy = gy - y < cells ? gy - y : cells;
            double n = 4.0 * wx * wy; /* patches in the window */
            pairs += n * n;
        }
    return pairs;
}

double seer_bench_vision_flops(const seer_vision_hparams *hp, int w, int h) {
    int p = hp->patch_size;
    if (p <= 0 || hp->n_embd <= 0) return 0;
    double px = (double)(w / p) * (double)(h / p); /* patches */
    double d = hp->n_embd, f = hp->n_ff, out = hp->n_embd_out;
    bool qwen = hp->projector == SEER_PROJ_QWEN2VL || hp->projector == SEER_PROJ_QWEN25VL || hp->projector == SEER_PROJ_GLM4V;
    double tokens = px + (hp->projector == SEER_PROJ_MLP || hp->projector == SEER_PROJ_INTERNVL || hp->projector == SEER_PROJ_LDP ||
                          hp->projector == SEER_PROJ_LDPV2
                      ? 1
                      : 0); /* class token */
    /* patch embedding: a 3·p·p → d product per patch; Qwen's kernel spans two frames */
    double flops = 2.0 * px * (qwen ? 2 : 1) * 3.0 * p * p * d;
    int ffn_mats = hp->projector == SEER_PROJ_QWEN25VL || seer_projector_pixtral_vit(hp->projector) ||
                           hp->projector == SEER_PROJ_GEMMA4V || hp->projector == SEER_PROJ_GLM4V ||
                           hp->projector == SEER_PROJ_DOTS_OCR
                       ? 3
                       : 2; /* a gated FFN has three */
    double full_pairs = tokens * tokens;
    double window_pairs = hp->projector == SEER_PROJ_QWEN25VL
                              ? window_attention_pairs(w / p / 2, h / p / 2, p) : full_pairs;
    for (int l = 0; l < hp->n_layer; l++) {
        bool full = hp->projector != SEER_PROJ_QWEN25VL || hp->n_wa_pattern <= 0 || (l + 1) % hp->n_wa_pattern == 0;
        flops += 2.0 * tokens * 4.0 * d * d;                          /* Q, K, V, output */
        flops += 4.0 * (full ? full_pairs : window_pairs) * d;         /* scores + weighted sum */
        flops += 2.0 * tokens * ffn_mats * d * f;                      /* feed-forward */
    }
    switch (hp->projector) {
    case SEER_PROJ_MLP: flops += 2.0 * px * (d * out + out * out); break;  /* mm.0, mm.2 (class token dropped) */
    case SEER_PROJ_IDEFICS3: flops += 2.0 * px * d * out; break;          /* shuffle s², one d·s² → out product */
    case SEER_PROJ_QWEN2VL:
    case SEER_PROJ_QWEN25VL:
    case SEER_PROJ_PADDLEOCR:
    case SEER_PROJ_DOTS_OCR: flops += 2.0 * (px / 4) * (4 * d * 4 * d + 4 * d * out); break; /* 2×2 merger */
    case SEER_PROJ_QWEN3VL: /* the 2×2 merger and one more per DeepStack layer */
        flops += (1 + hp->n_deepstack) * 2.0 * (px / 4) * (4 * d * 4 * d + 4 * d * hp->n_embd_text);
        break;
    case SEER_PROJ_GLM4V: /* per merged token: the 2×2 conv (4d → out), fc, the SwiGLU MLP (three out·n_ff_proj) */
        flops += 2.0 * (px / 4) * (4 * d * out + out * out + 3.0 * out * hp->n_ff_proj);
        break;
    case SEER_PROJ_HUNYUANVL: /* per cell: the 2×2 conv (4d → 2d) and the 1×1 conv (2d → 4d), as HunyuanOCR's
                               * widths; fc (4d → out) per cell and per line's newline */
        flops += 2.0 * (px / 4) * (4 * d * 2 * d + 2 * d * 4 * d) + 2.0 * (px / 4 + (h / p) / 2) * 4 * d * out;
        break;
    case SEER_PROJ_GEMMA3:  /* k×k average pool, one d → n_text product per token */
    case SEER_PROJ_GEMMA4V: /* the same */
        flops += 2.0 * px / ((double)hp->scale_factor * hp->scale_factor) * d * out;
        break;
    case SEER_PROJ_LDP: /* mlp.1, mlp.3; each block's pointwise conv (the second on a quarter grid) */
        flops += 2.0 * px * (d * out + out * out) + 2.0 * (px + px / 4) * out * out;
        break;
    case SEER_PROJ_LDPV2: /* mlp.0, mlp.2 */
        flops += 2.0 * px * (d * out + out * out);
        break;
    case SEER_PROJ_INTERNVL: /* shuffle s², mlp.1 (d·s² → out) and mlp.3 (out → out) per token */
    case SEER_PROJ_LFM2:     /* the same with mm.1 and mm.2 (its hidden width taken as out) */
        flops += 2.0 * px * d * out + 2.0 * px / ((double)hp->scale_factor * hp->scale_factor) * out * out;
        break;
    case SEER_PROJ_RESAMPLER: /* kv (d → out), k and v per patch; q, out and proj per query; the cross-attention */
        flops += 2.0 * px * (d * out + 2 * out * out) + 2.0 * hp->n_queries * 3 * out * out +
                 4.0 * px * hp->n_queries * out;
        break;
    case SEER_PROJ_PIXTRAL:
    case SEER_PROJ_LIGHTONOCR: /* [patch merger d·s² → d per merged token,] mm.1 (d → out), mm.2 (out → out) */
        flops += 2.0 * px / ((double)hp->scale_factor * hp->scale_factor) *
                 ((hp->scale_factor > 1 ? d * d * hp->scale_factor * hp->scale_factor : 0) + d * out + out * out);
        break;
    }
    return flops;
}
