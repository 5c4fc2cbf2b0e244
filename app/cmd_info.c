/* seer info FILE.gguf [--all]: a friendly summary of a GGUF file (what model,
 * its key hyper-parameters, tokenizer, tensor types, size); --all also lists
 * every metadata key and every tensor. Everything from the file is passed
 * through the terminal sanitiser before it is printed. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "hub_fetch.h"
#include "seer/bench.h"
#include "seer/blas.h"
#include "seer/cpu.h"
#include "seer/gguf.h"
#include "seer/llm.h"
#include "seer/matmul.h"
#include "seer/sanitize.h"
#include "seer/tensor.h"
#include "seer/vision.h"

#define LABEL_WIDTH 14

static void usage(FILE *out) {
    fprintf(out, "usage: seer info FILE.gguf [--all]\n"
                 "       seer info -hf USER/REPO[:QUANT] [--hf-file PATH] [--offline] [--all]\n"
                 "  Summarises a GGUF model or mmproj file.\n"
                 "  --all   also list every metadata key and every tensor\n");
    fprintf(out, "example: seer info qwen2.5-vl-3b-q4_k_m.gguf\n");
}

/* Prints text from the file, made terminal-safe. */
static void put_safe(const char *s, size_t len) {
    char *safe = seer_text_sanitize_dup(s, len, 0);
    fputs(safe ? safe : "?", stdout);
    free(safe);
}

static void put_safe_str(const char *s) { put_safe(s, strlen(s)); }

static void label(const char *name) { printf("%-*s", LABEL_WIDTH, name); }

/* "label: value" where value is a string from the file; skipped when absent. */
static void line_str(const gguf_file *f, const char *name, const char *key) {
    const gguf_kv *kv = gguf_find_kv(f, key);
    if (!kv || kv->type != GGUF_TYPE_STRING) return;
    label(name);
    put_safe(kv->str, (size_t)kv->str_len);
    putchar('\n');
}

static const char *arch_key(const char *arch, const char *suffix, char *buf, size_t cap) {
    snprintf(buf, cap, "%s.%s", arch, suffix);
    return buf;
}

/* Shortest decimal that reads back as the same float. */
static void put_f32(double v) {
    char buf[48];
    for (int digits = 6; digits <= 9; digits++) {
        snprintf(buf, sizeof buf, "%.*g", digits, v);
        if ((float)strtod(buf, NULL) == (float)v) break;
    }
    fputs(buf, stdout);
}

/* A scalar value as text (numbers exactly, floats shortest-ish). */
static void put_scalar(const gguf_kv *kv) {
    switch (kv->type) {
    case GGUF_TYPE_UINT8: case GGUF_TYPE_UINT16: case GGUF_TYPE_UINT32: case GGUF_TYPE_UINT64:
        printf("%" PRIu64, kv->v.u64);
        break;
    case GGUF_TYPE_INT8: case GGUF_TYPE_INT16: case GGUF_TYPE_INT32: case GGUF_TYPE_INT64:
        printf("%" PRId64, kv->v.i64);
        break;
    case GGUF_TYPE_FLOAT32: put_f32(kv->v.f64); break;
    case GGUF_TYPE_FLOAT64: printf("%.17g", kv->v.f64); break;
    case GGUF_TYPE_BOOL: fputs(kv->v.b ? "true" : "false", stdout); break;
    case GGUF_TYPE_STRING:
        putchar('"');
        put_safe(kv->str, kv->str_len > 200 ? 200 : (size_t)kv->str_len);
        fputs(kv->str_len > 200 ? "\"..." : "\"", stdout);
        break;
    default: fputs("?", stdout); break;
    }
}

/* Integer hyper-parameter "label: value" if present. */
static bool line_int(const gguf_file *f, const char *name, const char *key) {
    const gguf_kv *kv = gguf_find_kv(f, key);
    if (!kv || kv->type == GGUF_TYPE_STRING || kv->type == GGUF_TYPE_ARRAY) return false;
    label(name);
    put_scalar(kv);
    putchar('\n');
    return true;
}

/* An array shortened to its first few elements. */
static void put_array(const gguf_file *f, const gguf_kv *kv, uint64_t show) {
    printf("[%" PRIu64 " x %s]", kv->n, gguf_value_type_name(kv->arr_type));
    uint64_t n = kv->n < show ? kv->n : show;
    for (uint64_t i = 0; i < n; i++) {
        fputs(i ? ", " : " ", stdout);
        if (kv->arr_type == GGUF_TYPE_STRING) {
            putchar('"');
            put_safe(kv->arr_str[i], kv->arr_str_len[i] > 40 ? 40 : kv->arr_str_len[i]);
            putchar('"');
        } else if (kv->arr_type == GGUF_TYPE_FLOAT32) {
            put_f32(gguf_get_arr_float(f, kv->key, i, 0));
        } else if (kv->arr_type == GGUF_TYPE_FLOAT64) {
            printf("%.17g", gguf_get_arr_float(f, kv->key, i, 0));
        } else if (kv->arr_type == GGUF_TYPE_UINT64) {
            printf("%" PRIu64, ((const uint64_t *)kv->arr)[i]);
        } else {
            printf("%" PRId64, gguf_get_arr_int(f, kv->key, i, 0));
        }
    }
    if (kv->n > n) fputs(", ...", stdout);
}

static void line_array(const gguf_file *f, const char *name, const char *key) {
    const gguf_kv *kv = gguf_find_kv(f, key);
    if (!kv || kv->type != GGUF_TYPE_ARRAY) return;
    label(name);
    put_array(f, kv, 8);
    putchar('\n');
}

/* Gemma 4's parts that are tensors, not keys: layers whose V is K's
 * projection (no attn_v), the full layers' partial RoPE (rope_freqs: pairs
 * with factor 1 rotate, the rest are frozen), per-layer output scales. */
static void summarise_gemma4(const gguf_file *f) {
    int n_layer = 0, no_v = 0, scales = 0;
    for (uint64_t i = 0; i < f->n_tensors; i++) {
        const char *name = f->tensors[i].name;
        int l;
        char rest[64];
        if (sscanf(name, "blk.%d.%63s", &l, rest) != 2) continue;
        if (strcmp(rest, "attn_q.weight") == 0) {
            n_layer++;
            char v[96];
            snprintf(v, sizeof v, "blk.%d.attn_v.weight", l);
            if (!gguf_find_tensor(f, v)) no_v++;
        }
        if (strcmp(rest, "layer_output_scale.weight") == 0) scales++;
    }
    label("attention");
    printf("V = K on %d of %d layers (no attn_v), V RMS-normed, scores unscaled; %d layer output scales\n", no_v, n_layer,
           scales);
    const gguf_tensor *rf = gguf_find_tensor(f, "rope_freqs.weight");
    if (rf && rf->type == SEER_TYPE_F32) {
        int rotated = 0;
        for (int64_t i = 0; i < rf->ne[0]; i++) rotated += ((const float *)rf->data)[i] < 1e20f;
        label("full rope");
        printf("proportional: %d of %lld pairs rotate (rope_freqs)\n", rotated, (long long)rf->ne[0]);
    }
}

/* Qwen3.5's parts: Gated DeltaNet layers beside gated attention, the MTP
 * blocks seer skips, and what the recurrent state costs per kept mark. */
static void summarise_delta(const gguf_file *f, const char *arch) {
    const seer_llm_recurrent r = seer_llm_recurrent_from_file(f);
    if (r.n_layer <= 0) return;
    char k[256];
    label("mixers");
    printf("%d Gated DeltaNet + %d gated attention (q/k norm, sigmoid output gate, partial M-RoPE)\n", r.n_gdn,
           r.n_layer - r.n_gdn);
    const int64_t nk = gguf_get_int(f, arch_key(arch, "ssm.group_count", k, sizeof k), 0),
                  nv = gguf_get_int(f, arch_key(arch, "ssm.time_step_rank", k, sizeof k), 0),
                  d = gguf_get_int(f, arch_key(arch, "ssm.state_size", k, sizeof k), 0),
                  conv = gguf_get_int(f, arch_key(arch, "ssm.conv_kernel", k, sizeof k), 0);
    label("delta heads");
    printf("%" PRId64 " key / %" PRId64 " value heads of %" PRId64 ", conv kernel %" PRId64 ", chunked prefill\n", nk,
           nv, d, conv);
    label("state");
    printf("%.1f MB per conversation (F32), kept at up to %d marks: %.1f MB each\n", (double)r.state_bytes / 1e6,
           r.marks, (double)r.state_bytes / 1e6);
    if (r.n_nextn > 0) {
        label("MTP blocks");
        printf("%d after the %d-layer trunk (skipped: speculative decoding only)\n", r.n_nextn, r.n_layer);
    }
}

/* GLM-4's family by its keys: GLM-4.1V / 4.6V-Flash (M-RoPE sections),
 * GLM-OCR (sections and a NextN block), or the text-only GLM-4. */
static void summarise_glm4(const gguf_file *f) {
    const int64_t blocks = gguf_get_int(f, "glm4.block_count", 0), nextn = gguf_get_int(f, "glm4.nextn_predict_layers", 0),
                  rot = gguf_get_int(f, "glm4.rope.dimension_count", 0);
    const bool sections = gguf_get_arr_n(f, "glm4.rope.dimension_sections") > 0;
    label("family");
    puts(!sections ? "GLM-4 (text only: normal RoPE on GPT-J pairs; images refused)"
         : nextn   ? "GLM-OCR (vision: M-RoPE, glm4v projector)"
                   : "GLM-4.1V / GLM-4.6V-Flash (vision: M-RoPE, glm4v projector)");
    label("decoder");
    printf("sandwich norms (post-attention, post-FFN), fused gate/up, QKV biases, rotary on %" PRId64 " dims\n", rot);
    if (nextn > 0) {
        label("NextN blocks");
        printf("%" PRId64 " after the %" PRId64 "-layer trunk (skipped: speculative decoding only)\n", nextn,
               blocks - nextn);
    }
}

/* HunyuanOCR / HunyuanVL's decoder: the parts no key names. */
static void summarise_hunyuan_vl(const gguf_file *f) {
    const double alpha = gguf_get_float(f, "hunyuan_vl.rope.scaling.alpha", 0.0);
    const int64_t d = gguf_get_int(f, "hunyuan_vl.attention.key_length", 0);
    label("family");
    puts("HunyuanOCR / HunyuanVL (vision: XD-RoPE, hunyuanvl projector)");
    label("decoder");
    printf("per-head q/k RMSNorm after RoPE, %s\n",
           gguf_get_arr_n(f, "hunyuan_vl.rope.dimension_sections") ? "XD-RoPE: M-RoPE on 4 sections (t, column, row, image)"
                                                                 : "NEOX RoPE (no sections)");
    if (alpha > 0 && d > 2) {
        label("rope alpha");
        printf("%g (NTK: base × alpha^(%" PRId64 "/%" PRId64 "))\n", alpha, d, d - 2);
    }
}

/* Ministral 3 (mistral3): llama's decoder with YaRN and the position-dependent
 * query temperature, and whichever optional biases / frequency factors it has. */
static void summarise_mistral3(const gguf_file *f) {
    const int64_t orig = gguf_get_int(f, "mistral3.rope.scaling.original_context_length",
                                      gguf_get_int(f, "mistral3.context_length", 0));
    const double beta = gguf_get_float(f, "mistral3.attention.temperature_scale", 0.0);
    label("family");
    puts("Ministral 3 (llama decoder; vision: pixtral projector)");
    const char *type = gguf_get_str(f, "mistral3.rope.scaling.type");
    if (type && strcmp(type, "yarn") == 0) {
        label("yarn");
        printf("original context %" PRId64 ", beta fast %g / slow %g, log multiplier %g\n", orig,
               gguf_get_float(f, "mistral3.rope.scaling.yarn_beta_fast", 32.0),
               gguf_get_float(f, "mistral3.rope.scaling.yarn_beta_slow", 1.0),
               gguf_get_float(f, "mistral3.rope.scaling.yarn_log_multiplier", 0.0));
    }
    if (beta != 0.0) {
        label("query temp");
        printf("q x (1 + %g ln(1 + floor(pos / %" PRId64 "))) after RoPE\n", beta, orig);
    }
    const bool biases = gguf_find_tensor(f, "blk.0.attn_output.bias") || gguf_find_tensor(f, "blk.0.ffn_down.bias");
    if (biases || gguf_find_tensor(f, "rope_freqs.weight")) {
        label("extras");
        printf("%s%s%s\n", biases ? "output / FFN biases" : "", biases && gguf_find_tensor(f, "rope_freqs.weight") ? ", " : "",
               gguf_find_tensor(f, "rope_freqs.weight") ? "rope frequency factors (rope_freqs)" : "");
    }
}

static void summarise_llm(const gguf_file *f, const char *arch) {
    char k[256];
    line_int(f, "layers", arch_key(arch, "block_count", k, sizeof k));
    line_int(f, "width", arch_key(arch, "embedding_length", k, sizeof k));
    line_int(f, "heads", arch_key(arch, "attention.head_count", k, sizeof k));
    line_int(f, "kv heads", arch_key(arch, "attention.head_count_kv", k, sizeof k));
    line_array(f, "kv heads", k); /* lfm2: one count per layer, 0 = short convolution */
    line_int(f, "conv kernel", arch_key(arch, "shortconv.l_cache", k, sizeof k));
    line_int(f, "ffn", arch_key(arch, "feed_forward_length", k, sizeof k));
    line_array(f, "ffn", k); /* gemma4 E-shapes: wider on the KV-shared layers */
    line_int(f, "context", arch_key(arch, "context_length", k, sizeof k));
    line_int(f, "rope base", arch_key(arch, "rope.freq_base", k, sizeof k));
    line_int(f, "rope dims", arch_key(arch, "rope.dimension_count", k, sizeof k));
    line_array(f, "rope sections", arch_key(arch, "rope.dimension_sections", k, sizeof k));
    line_str(f, "rope scaling", arch_key(arch, "rope.scaling.type", k, sizeof k));
    line_int(f, "rope scale", arch_key(arch, "rope.scaling.factor", k, sizeof k));
    line_int(f, "norm eps", arch_key(arch, "attention.layer_norm_rms_epsilon", k, sizeof k));
    line_int(f, "head size", arch_key(arch, "attention.key_length", k, sizeof k));
    line_int(f, "head size swa", arch_key(arch, "attention.key_length_swa", k, sizeof k));
    line_int(f, "rope dims swa", arch_key(arch, "rope.dimension_count_swa", k, sizeof k));
    line_int(f, "shared kv", arch_key(arch, "attention.shared_kv_layers", k, sizeof k));
    line_int(f, "ple width", arch_key(arch, "embedding_length_per_layer_input", k, sizeof k));
    line_int(f, "experts", arch_key(arch, "expert_count", k, sizeof k));
    line_int(f, "experts used", arch_key(arch, "expert_used_count", k, sizeof k));
    line_int(f, "expert ffn", arch_key(arch, "expert_feed_forward_length", k, sizeof k));
    line_int(f, "deepstack", arch_key(arch, "n_deepstack_layers", k, sizeof k));
    line_int(f, "window", arch_key(arch, "attention.sliding_window", k, sizeof k));
    if (!line_int(f, "window every", arch_key(arch, "attention.sliding_window_pattern", k, sizeof k)))
        line_array(f, "window layers", k);
    line_int(f, "window rope", arch_key(arch, "rope.freq_base_swa", k, sizeof k));
    line_int(f, "logit softcap", arch_key(arch, "final_logit_softcapping", k, sizeof k));
    if (strcmp(arch, "gemma4") == 0) summarise_gemma4(f);
    if (strcmp(arch, "glm4") == 0) summarise_glm4(f);
    if (strcmp(arch, "hunyuan_vl") == 0) summarise_hunyuan_vl(f);
    if (strcmp(arch, "mistral3") == 0) summarise_mistral3(f);
    line_int(f, "shared ffn", arch_key(arch, "expert_shared_feed_forward_length", k, sizeof k));
    summarise_delta(f, arch);
}

/* What seer makes of the projector: its token output and, for Qwen3-VL,
 * Gemma 3, InternVL and Pixtral, the parts that are not metadata keys (DeepStack
 * layers found by their tensors, the pooling, the tiles). A file seer cannot
 * run says why. */
static void summarise_projector(const gguf_file *f) {
    seer_vision_hparams hp;
    seer_error err = {{0}};
    label("support");
    if (seer_vision_hparams_read(f, &hp, &err) != 0) {
        fputs("no: ", stdout);
        put_safe_str(err.msg);
        putchar('\n');
        return;
    }
    puts("yes");
    if (hp.projector == SEER_PROJ_QWEN3VL) {
        label("deepstack");
        if (hp.n_deepstack == 0) fputs("none", stdout);
        for (int i = 0; i < hp.n_deepstack; i++) printf("%sblock %d", i ? ", " : "", hp.deepstack_layers[i]);
        putchar('\n');
    }
    if (hp.projector == SEER_PROJ_GEMMA3) {
        int side = hp.image_size / hp.patch_size / hp.scale_factor;
        label("pooling");
        printf("%d×%d average over the %d×%d patch grid → %d tokens\n", hp.scale_factor, hp.scale_factor,
               hp.image_size / hp.patch_size, hp.image_size / hp.patch_size, side * side);
    }
    if (hp.projector == SEER_PROJ_GEMMA4V) {
        const int unit = hp.patch_size * hp.scale_factor;
        label("pooling");
        printf("%d×%d average of the patch grid, ×√width, [standardised,] RMSNorm, projection; any size in %d px "
               "steps, 70 to 1120 tokens (llama.cpp's budget)\n", hp.scale_factor, hp.scale_factor, unit);
        label("tower");
        printf("x/y position tables, 2-D RoPE on each head's halves (base 100), q/k/v RMSNorm, sandwich norms, "
               "output scales, tanh-GELU gated MLP (the HF config; llama.cpp falls back to quick GELU)\n");
        int bounds = 0; /* Gemma4ClippableLinear's scalars (E2B/E4B) */
        for (uint64_t i = 0; i < f->n_tensors; i++) {
            const char *dot = strrchr(f->tensors[i].name, '.');
            if (dot && (!strcmp(dot, ".input_min") || !strcmp(dot, ".input_max") || !strcmp(dot, ".output_min") ||
                        !strcmp(dot, ".output_max")))
                bounds++;
        }
        label("clipping");
        if (bounds) printf("%d bounds on the linears' inputs and outputs (clippable linears), applied\n", bounds);
        else puts("none (no clippable linears)");
    }
    if (hp.projector == SEER_PROJ_GLM4V) {
        const gguf_tensor *pos = gguf_find_tensor(f, "v.position_embd.weight");
        label("tower");
        if (pos) printf("RMSNorm after the patch embedding, learned positions (%d per side) resized bicubically to the "
                        "grid", (int)sqrt((double)pos->ne[1]));
        else printf("RMSNorm after the patch embedding, no learned positions");
        printf("%s, 2-D M-RoPE, SwiGLU\n", gguf_find_tensor(f, "v.blk.0.attn_q_norm.weight") ? ", per-head q/k RMSNorm" : "");
        label("merger");
        printf("2×2 conv, fc, LayerNorm, GELU, SwiGLU %d; any size in %d px steps, 8 to 4096 tokens (llama.cpp's "
               "budget)\n", hp.n_ff_proj, 2 * hp.patch_size);
    }
    if (hp.projector == SEER_PROJ_LDP || hp.projector == SEER_PROJ_LDPV2) {
        int grid = hp.image_size / hp.patch_size;
        label("pooling");
        printf("%s: the %d×%d patch grid → %d tokens\n",
               hp.projector == SEER_PROJ_LDP ? "MLP, two MobileNetV3 blocks (the second with stride 2)"
                                             : "MLP, 2×2 average, depthwise-conv positions (PEG)",
               grid, grid, (grid / 2) * (grid / 2));
    }
    if (hp.projector == SEER_PROJ_INTERNVL) {
        int side = hp.image_size / hp.patch_size / hp.scale_factor;
        label("tiles");
        printf("%d to %d of %d×%d px (%d grids) + overview, each %d tokens (%d×%d pixel unshuffle)\n", hp.min_tiles,
               hp.max_tiles, hp.image_size, hp.image_size, hp.n_pinpoints, side * side, hp.scale_factor,
               hp.scale_factor);
    }
    if (hp.projector == SEER_PROJ_LFM2) {
        int unit = hp.patch_size * hp.scale_factor;
        label("grid");
        printf("any size in %d px steps, 64 to 256 tokens (%d×%d pixel unshuffle), positions resized from the "
               "learned grid; larger images: 2 to 10 tiles of 512 px + thumbnail\n",
               unit, hp.scale_factor, hp.scale_factor);
    }
    if (hp.projector == SEER_PROJ_PADDLEOCR || hp.projector == SEER_PROJ_DOTS_OCR) {
        int unit = hp.patch_size * hp.scale_factor;
        label("grid");
        printf("any size in %d px steps, %lld to %lld pixels (%lld to %lld tokens, %d×%d pixel unshuffle), "
               "%s, 2-D RoPE in raster order\n",
               unit, (long long)hp.image_min_pixels, (long long)hp.image_max_pixels,
               (long long)(hp.image_min_pixels / ((int64_t)unit * unit)),
               (long long)(hp.image_max_pixels / ((int64_t)unit * unit)), hp.scale_factor, hp.scale_factor,
               hp.projector == SEER_PROJ_DOTS_OCR ? "no learned positions" : "positions resized from the learned grid");
    }
    if (hp.projector == SEER_PROJ_HUNYUANVL) {
        const int64_t unit = (int64_t)hp.patch_size * hp.scale_factor;
        label("grid");
        printf("any size in %lld px steps (Lanczos, no letterbox), %lld to %lld pixels (%lld to %lld cells), "
               "LayerNorm ViT, GELU, positions resampled from the learned grid\n",
               (long long)unit, (long long)hp.image_min_pixels, (long long)hp.image_max_pixels,
               (long long)(hp.image_min_pixels / (unit * unit)), (long long)(hp.image_max_pixels / (unit * unit)));
        label("perceiver");
        printf("RMSNorm, 2×2 conv, GELU, 1×1 conv, a learned newline after each row, fc, learned begin / end rows, "
               "RMSNorm: (columns + 1) × rows + 2 tokens\n");
    }
    if (hp.projector == SEER_PROJ_PIXTRAL) {
        int unit = hp.patch_size * hp.scale_factor;
        label("grid");
        printf("any size in %d px steps (%d×%d patch merger%s), 8 to 1024 tokens, [IMG_BREAK] after each row, "
               "[IMG_END] after the image\n",
               unit, hp.scale_factor, hp.scale_factor, hp.scale_factor > 1 ? "" : ": none");
    }
    if (hp.projector == SEER_PROJ_LIGHTONOCR) {
        int unit = hp.patch_size * hp.scale_factor;
        label("grid");
        printf("longest edge %d px (bicubic, up or down), sides rounded up to %d px (%d×%d patch merger%s), no "
               "[IMG_BREAK], <|im_start|> and <|im_end|> around the image\n",
               hp.preproc_image_size, unit, hp.scale_factor, hp.scale_factor, hp.scale_factor > 1 ? "" : ": none");
    }
    if (hp.projector == SEER_PROJ_RESAMPLER) {
        static const struct { int version; const char *name; } names[] = {
            {2, "MiniCPM-Llama3-V 2.5"}, {3, "MiniCPM-V 2.6"}, {4, "MiniCPM-o 2.6"},
            {5, "MiniCPM-V 4.0"},        {6, "MiniCPM-V 4.5"}, {100045, "MiniCPM-o 4.5"}};
        const char *name = "MiniCPM-V";
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
            if (names[i].version == hp.minicpmv_version) name = names[i].name;
        label("resampler");
        printf("%s (version %d): %d learned queries, %d × %d-wide heads, 2-D sin/cos key positions\n", name,
               hp.minicpmv_version, hp.n_queries, hp.n_embd_text / SEER_RESAMPLER_HEAD_DIM, SEER_RESAMPLER_HEAD_DIM);
        label("slices");
        printf("overview + up to 9 slices of about %d×%d px (%d px steps), %d tokens each, %s\n", hp.image_size,
               hp.image_size, hp.patch_size, hp.n_queries,
               hp.minicpmv_version == 2 ? "<image>…</image> each inside <slice>…</slice>" : "<slice>…</slice> each");
    }
    label("embeddings");
    if (hp.n_deepstack > 0)
        printf("%d wide (LLM width %d × %d: main + %d DeepStack)\n", hp.n_embd_out, hp.n_embd_text,
               1 + hp.n_deepstack, hp.n_deepstack);
    else
        printf("%d wide\n", hp.n_embd_out);
}

static void summarise_mmproj(const gguf_file *f) {
    line_str(f, "projector", "clip.projector_type");
    line_str(f, "projector", "clip.vision.projector_type");
    /* 0 in files whose image size follows a pixel budget (dots.ocr): the
     * grid line below gives the budget */
    if (gguf_get_int(f, "clip.vision.image_size", -1) == 0) {
        label("image size");
        puts("any (the pixel budget below)");
    } else {
        line_int(f, "image size", "clip.vision.image_size");
    }
    line_int(f, "patch size", "clip.vision.patch_size");
    line_int(f, "width", "clip.vision.embedding_length");
    line_int(f, "blocks", "clip.vision.block_count");
    line_int(f, "heads", "clip.vision.attention.head_count");
    line_int(f, "ffn", "clip.vision.feed_forward_length");
    line_int(f, "output width", "clip.vision.projection_dim");
    line_int(f, "merge factor", "clip.vision.projector.scale_factor");
    line_int(f, "spatial merge", "clip.vision.spatial_merge_size");
    line_array(f, "image mean", "clip.vision.image_mean");
    line_array(f, "image std", "clip.vision.image_std");
    summarise_projector(f);
}

static void summarise_tokenizer(const gguf_file *f) {
    const char *model = gguf_get_str(f, "tokenizer.ggml.model");
    if (!model) return;
    label("tokenizer");
    put_safe_str(model);
    const char *pre = gguf_get_str(f, "tokenizer.ggml.pre");
    if (pre) {
        fputs(" (pre: ", stdout);
        put_safe_str(pre);
        putchar(')');
    }
    printf(", %" PRIu64 " tokens", gguf_get_arr_n(f, "tokenizer.ggml.tokens"));
    int64_t bos = gguf_get_int(f, "tokenizer.ggml.bos_token_id", -1);
    int64_t eos = gguf_get_int(f, "tokenizer.ggml.eos_token_id", -1);
    if (bos >= 0) printf(", bos %" PRId64, bos);
    if (eos >= 0) printf(", eos %" PRId64, eos);
    putchar('\n');
    if (gguf_find_kv(f, "tokenizer.chat_template")) {
        label("chat template");
        printf("yes (%zu bytes)\n", strlen(gguf_get_str(f, "tokenizer.chat_template") ? gguf_get_str(f, "tokenizer.chat_template") : ""));
    }
}

static void summarise_tensors(const gguf_file *f) {
    uint64_t count[SEER_TYPE_COUNT + 1] = {0};
    uint64_t params = 0, bytes = 0;
    for (uint64_t i = 0; i < f->n_tensors; i++) {
        const gguf_tensor *t = &f->tensors[i];
        count[t->type >= 0 && t->type < SEER_TYPE_COUNT ? t->type : SEER_TYPE_COUNT]++;
        params += (uint64_t)(t->ne[0] * t->ne[1] * t->ne[2] * t->ne[3]);
        bytes += t->nbytes;
    }
    label("tensors");
    printf("%" PRIu64, f->n_tensors);
    const char *sep = ": ";
    for (int ty = 0; ty <= SEER_TYPE_COUNT; ty++) {
        if (!count[ty]) continue;
        printf("%s%" PRIu64 " %s", sep, count[ty], ty < SEER_TYPE_COUNT ? seer_type_name(ty) : "other");
        sep = ", ";
    }
    putchar('\n');
    label("parameters");
    if (params >= 1000000000ull) printf("%.2f B\n", (double)params / 1e9);
    else printf("%.2f M\n", (double)params / 1e6);
    label("tensor data");
    printf("%.1f MB\n", (double)bytes / 1e6);
}

static void list_all(const gguf_file *f) {
    printf("\nmetadata (%" PRIu64 " keys):\n", f->n_kv);
    for (uint64_t i = 0; i < f->n_kv; i++) {
        const gguf_kv *kv = &f->kv[i];
        fputs("  ", stdout);
        put_safe_str(kv->key);
        printf(" (%s) = ", gguf_value_type_name(kv->type));
        if (kv->type == GGUF_TYPE_ARRAY) put_array(f, kv, 6);
        else put_scalar(kv);
        putchar('\n');
    }
    printf("\ntensors (%" PRIu64 "):\n", f->n_tensors);
    for (uint64_t i = 0; i < f->n_tensors; i++) {
        const gguf_tensor *t = &f->tensors[i];
        fputs("  ", stdout);
        put_safe_str(t->name);
        printf("  %s  [", seer_type_name(t->type));
        for (int d = 0; d < t->n_dims; d++) printf("%s%" PRId64, d ? ", " : "", t->ne[d]);
        printf("]  %" PRIu64 " bytes at %" PRIu64 "\n", t->nbytes, f->data_offset + t->offset);
    }
}

/* The kernels this host runs such a file with: seer's SIMD level, AMX
 * tiles and the model's prompt and decode kernels (an mmproj's encoder
 * kernels), OpenBLAS's kernel set, with a warning on stderr when
 * OpenBLAS's are narrower than the CPU's vectors (OPENBLAS_CORETYPE set to
 * an older CPU, or a CPU newer than the OpenBLAS build). */
static void summarise_host(const gguf_file *f, bool mmproj) {
    const seer_blas_info b = seer_blas_describe();
    label("kernels here");
    /* a model's: its matrices' prompt and decode kernels; an mmproj's: the encoder line below names them */
    const int matrix_type = gguf_dominant_matrix_type(f);
    const seer_bench_kernels k = seer_bench_kernels_for(mmproj ? SEER_TYPE_F16 : matrix_type);
    char kernels[192];
    if (mmproj) snprintf(kernels, sizeof kernels, "%s%s", k.simd, k.amx_bf16 ? " + AMX-BF16" : "");
    else seer_bench_kernels_format(&k, false, kernels, sizeof kernels);
    char blas[96];
    seer_blas_format(&b, blas, sizeof blas);
    printf("seer %s, %s\n", kernels, blas);
    const seer_type_info *ti = seer_type_get(matrix_type);
    if (mmproj && ti && ti->block_size > 1) { /* quantized block matrices: int8 kernels at either precision */
        label("encoder here");
        printf("%s matrices: %s\n", ti->name, seer_bench_kernels_running(SEER_TYPE_F16, matrix_type, false).encode);
    } else if (mmproj) { /* the F16/F32 matrices' path at each --vision-precision */
        label("encoder here");
        printf("exact: %s; --vision-precision bf16: %s\n",
               seer_bench_kernels_for(SEER_TYPE_F16).encode,
               !seer_matmul_bf16_ready()                      ? "not on this CPU (runs exact)"
               : !strcmp(seer_bench_bf16_encode_kernel(), "bf16_amx") ? "bf16_amx (AMX-BF16 TDPBF16PS)"
                                                                     : "bf16_avx512 (AVX512-BF16 VDPBF16PS)");
    }
    char warning[256];
    if (seer_blas_narrower_warning(&b, warning, sizeof warning)) fprintf(stderr, "seer: %s\n", warning);
}

static const char *file_kind(const gguf_file *f, const char *arch) {
    if (arch && strcmp(arch, "clip") == 0) return "vision projector (mmproj)";
    if (f->n_tensors == 0) return "vocabulary only";
    if (gguf_find_tensor(f, "token_embd.weight")) return "language model";
    return "other";
}

int cmd_info(int argc, char **argv) {
    const char *path = NULL;
    bool all = false;
    app_hub_args hub_args = {0};
    for (int i = 1; i < argc; i++) {
        const int hub = app_hub_arg(argc, argv, &i, &hub_args);
        if (hub < 0) {
            usage(stderr);
            return 2;
        }
        if (hub > 0) continue;
        if (strcmp(argv[i], "--all") == 0 || strcmp(argv[i], "-a") == 0) all = true;
        else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            return 0;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "seer: info: unknown option '");
            char *safe = seer_text_sanitize_dup(argv[i], strlen(argv[i]), 0);
            fprintf(stderr, "%s'\n", safe ? safe : "?");
            free(safe);
            usage(stderr);
            return 2;
        } else if (!path) path = argv[i];
        else {
            usage(stderr);
            return 2;
        }
    }
    if ((!path) == (!hub_args.repo) || app_hub_args_problem(&hub_args)) {
        usage(stderr);
        return 2;
    }
    seer_error err = {{0}};
    seer_hub_files hub = {0};
    if (hub_args.repo) {
        const int rc = app_hub_fetch(&hub_args, false, &hub, &err);
        if (rc) {
            char *safe = seer_text_sanitize_dup(err.msg, strlen(err.msg), 0);
            fprintf(stderr, "seer: %s\n", safe ? safe : "cannot fetch the model");
            free(safe);
            return rc;
        }
        path = hub.model;
    }
    gguf_file *f = gguf_open(path, &err);
    if (!f) {
        char *safe = seer_text_sanitize_dup(err.msg, strlen(err.msg), 0);
        fprintf(stderr, "seer: %s\n", safe ? safe : "cannot open the file");
        free(safe);
        seer_hub_files_free(&hub);
        return 1;
    }
    const char *arch = gguf_get_str(f, "general.architecture");
    label("file");
    put_safe_str(path);
    printf(" (%.1f MB)\n", (double)f->map_size / 1e6);
    label("format");
    printf("GGUF v%" PRIu32 ", %" PRIu64 " metadata keys, %" PRIu64 " tensors, alignment %" PRIu64 "\n", f->version,
           f->n_kv, f->n_tensors, f->alignment);
    label("kind");
    printf("%s\n", file_kind(f, arch));
    line_str(f, "architecture", "general.architecture");
    line_str(f, "name", "general.name");
    line_str(f, "file type", "general.file_type_name");
    if (arch && strcmp(arch, "clip") == 0) summarise_mmproj(f);
    else if (arch) summarise_llm(f, arch);
    summarise_tokenizer(f);
    summarise_tensors(f);
    summarise_host(f, arch && strcmp(arch, "clip") == 0);
    if (all) list_all(f);
    gguf_close(f);
    seer_hub_files_free(&hub);
    if (fflush(stdout) != 0) return 1;
    return 0;
}
