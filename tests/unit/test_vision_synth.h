/* Random-weight mmproj files in the layouts llama.cpp's converters write
 * (CLIP/LLaVA, SigLIP/Idefics3, Qwen2-VL, Qwen2.5-VL, Qwen3-VL, Gemma 3), any size, for the
 * vision unit tests and the encoder benchmarks. Tensor data is generated at
 * write time, seeded by the tensor's role, so two files that differ only in
 * naming (legacy LLaVA's swapped ffn names) hold the same numbers. */
#ifndef SEER_TEST_VISION_SYNTH_H
#define SEER_TEST_VISION_SYNTH_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seer/gguf.h"
#include "seer/tensor.h"

typedef enum { SYNTH_CLIP, SYNTH_SIGLIP, SYNTH_QWEN2VL, SYNTH_QWEN25VL, SYNTH_QWEN3VL, SYNTH_GEMMA3 } synth_family;

typedef struct synth_spec {
    synth_family family;
    int image_size, patch, n_embd, n_ff, n_layer, n_head, n_out;
    int matrix_type;        /* type of the 2-D weights (F32, F16, Q8_0, …) */
    int patch_type;         /* type of the patch kernel */
    bool legacy_swap;       /* CLIP: ffn_down/ffn_up names swapped as legacy LLaVA writes them */
    bool mlp_norm;          /* CLIP: "mlp_norm" projector, its LayerNorms with weight 1 and bias 0 */
    int scale_factor;       /* SigLIP/Idefics3, Gemma 3 (average pool) */
    int n_wa_pattern;       /* Qwen2.5-VL */
    int pos_side;           /* Qwen3-VL: learned position grid pos_side² (0: none written) */
    unsigned deepstack;     /* Qwen3-VL: bit i set = block i feeds a DeepStack merger */
    int merge_size;         /* Qwen3-VL: clip.vision.spatial_merge_size written when > 0 */
    unsigned seed;
} synth_spec;

typedef struct synth_fill {
    int type;
    int64_t row;        /* elements per row */
    float scale, offset;
    uint64_t seed;
} synth_fill;

static uint64_t synth_hash(const char *s, uint64_t seed) {
    uint64_t h = 1469598103934665603ull ^ seed;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static float synth_rand(uint64_t *st) {
    *st = *st * 6364136223846793005ull + 1442695040888963407ull;
    return (float)((double)(*st >> 11) / (double)(1ull << 53)) * 2.0f - 1.0f;
}

static void synth_fill_fn(void *ctx, void *dst, size_t nbytes) {
    const synth_fill *f = ctx;
    size_t row_bytes = seer_row_bytes(f->type, f->row);
    float *tmp = malloc((size_t)f->row * sizeof(float));
    uint64_t st = f->seed;
    for (size_t off = 0; off + row_bytes <= nbytes; off += row_bytes) {
        for (int64_t i = 0; i < f->row; i++) tmp[i] = f->offset + f->scale * synth_rand(&st);
        seer_quantize_row(f->type, tmp, (char *)dst + off, f->row);
    }
    free(tmp);
}

typedef struct synth_writer {
    gguf_writer *w;
    const synth_spec *s;
    synth_fill *fills[4096];
    int n_fills;
} synth_writer;

/* role: seed name (shared by files that only rename tensors). */
static void synth_tensor(synth_writer *sw, const char *name, const char *role, int type, int n_dims, int64_t ne0,
                         int64_t ne1, int64_t ne2, int64_t ne3, float scale, float offset) {
    if (sw->n_fills >= 4096) return;
    synth_fill *f = malloc(sizeof *f);
    *f = (synth_fill){.type = type, .row = ne0, .scale = scale, .offset = offset,
                      .seed = synth_hash(role, sw->s->seed)};
    sw->fills[sw->n_fills++] = f;
    int64_t ne[4] = {ne0, ne1, ne2, ne3};
    gguf_writer_add_tensor_fn(sw->w, name, type, n_dims, ne, synth_fill_fn, f);
}

static void synth_vec(synth_writer *sw, const char *name, int64_t n, float scale, float offset) {
    synth_tensor(sw, name, name, SEER_TYPE_F32, 1, n, 1, 1, 1, scale, offset);
}

static void synth_linear(synth_writer *sw, const char *name, const char *role, int64_t n_in, int64_t n_out,
                         bool bias) {
    char wn[128], wr[128];
    snprintf(wn, sizeof wn, "%s.weight", name);
    snprintf(wr, sizeof wr, "%s.weight", role);
    int type = sw->s->matrix_type;
    if (n_in % seer_type_get(type)->block_size != 0) type = SEER_TYPE_F16;
    synth_tensor(sw, wn, wr, type, 2, n_in, n_out, 1, 1, 1.0f / sqrtf((float)n_in), 0);
    if (bias) {
        snprintf(wn, sizeof wn, "%s.bias", name);
        snprintf(wr, sizeof wr, "%s.bias", role);
        synth_tensor(sw, wn, wr, SEER_TYPE_F32, 1, n_out, 1, 1, 1, 0.05f, 0);
    }
}

static void synth_norm(synth_writer *sw, const char *name, int64_t n, bool bias) {
    char b[128];
    snprintf(b, sizeof b, "%s.weight", name);
    synth_vec(sw, b, n, 0.1f, 1.0f);
    if (bias) {
        snprintf(b, sizeof b, "%s.bias", name);
        synth_vec(sw, b, n, 0.05f, 0);
    }
}

static int synth_write(const synth_spec *s, const char *path, seer_error *err) {
    static const float clip_mean[3] = {0.48145466f, 0.4578275f, 0.40821073f};
    static const float clip_std[3] = {0.26862954f, 0.26130258f, 0.27577711f};
    static const float half[3] = {0.5f, 0.5f, 0.5f};
    synth_writer sw = {.w = gguf_writer_new(), .s = s};
    gguf_writer *w = sw.w;
    int64_t d = s->n_embd, ff = s->n_ff, p = s->patch, g = s->image_size / s->patch;
    bool qwen = s->family == SYNTH_QWEN2VL || s->family == SYNTH_QWEN25VL || s->family == SYNTH_QWEN3VL;
    bool siglip = s->family == SYNTH_SIGLIP || s->family == SYNTH_GEMMA3, q3 = s->family == SYNTH_QWEN3VL;
    const char *proj = s->family == SYNTH_CLIP      ? (s->mlp_norm ? "mlp_norm" : "mlp")
                       : s->family == SYNTH_SIGLIP  ? "idefics3"
                       : s->family == SYNTH_GEMMA3  ? "gemma3"
                       : s->family == SYNTH_QWEN3VL ? "qwen3vl_merger"
                       : s->family == SYNTH_QWEN2VL ? "qwen2vl_merger"
                                                    : "qwen2.5vl_merger";
    gguf_writer_set_str(w, "general.architecture", "clip");
    gguf_writer_set_str(w, "general.type", "mmproj");
    gguf_writer_set_bool(w, "clip.has_vision_encoder", true);
    gguf_writer_set_str(w, "clip.projector_type", proj);
    gguf_writer_set_u32(w, "clip.vision.image_size", (uint32_t)s->image_size);
    gguf_writer_set_u32(w, "clip.vision.patch_size", (uint32_t)s->patch);
    gguf_writer_set_u32(w, "clip.vision.embedding_length", (uint32_t)d);
    gguf_writer_set_u32(w, "clip.vision.feed_forward_length", (uint32_t)(s->family == SYNTH_QWEN2VL ? s->n_out : ff));
    gguf_writer_set_u32(w, "clip.vision.block_count", (uint32_t)s->n_layer);
    gguf_writer_set_u32(w, "clip.vision.attention.head_count", (uint32_t)s->n_head);
    gguf_writer_set_u32(w, "clip.vision.projection_dim", (uint32_t)s->n_out);
    gguf_writer_set_f32(w, "clip.vision.attention.layer_norm_epsilon", s->family == SYNTH_CLIP ? 1e-5f : 1e-6f);
    gguf_writer_set_arr_f32(w, "clip.vision.image_mean", siglip || q3 ? half : clip_mean, 3);
    gguf_writer_set_arr_f32(w, "clip.vision.image_std", siglip || q3 ? half : clip_std, 3);
    if (s->family == SYNTH_GEMMA3 || q3) gguf_writer_set_bool(w, "clip.use_gelu", true);
    if (s->family == SYNTH_GEMMA3) gguf_writer_set_u32(w, "clip.vision.projector.scale_factor", (uint32_t)s->scale_factor);
    if (q3 && s->merge_size > 0) gguf_writer_set_u32(w, "clip.vision.spatial_merge_size", (uint32_t)s->merge_size);
    if (s->family == SYNTH_CLIP) gguf_writer_set_bool(w, "clip.use_gelu", false);
    if (s->family == SYNTH_SIGLIP) {
        gguf_writer_set_bool(w, "clip.use_gelu", true);
        gguf_writer_set_u32(w, "clip.vision.projector.scale_factor", (uint32_t)s->scale_factor);
        gguf_writer_set_u32(w, "clip.vision.preproc_image_size", (uint32_t)(4 * s->image_size));
    }
    if (s->family == SYNTH_QWEN25VL) {
        gguf_writer_set_bool(w, "clip.use_silu", true);
        gguf_writer_set_u32(w, "clip.vision.n_wa_pattern", (uint32_t)s->n_wa_pattern);
    }

    synth_tensor(&sw, "v.patch_embd.weight", "v.patch_embd.weight", s->patch_type, 4, p, p, 3, d,
                 1.0f / sqrtf(3.0f * p * p), 0);
    if (qwen)
        synth_tensor(&sw, "v.patch_embd.weight.1", "v.patch_embd.weight.1", s->patch_type, 4, p, p, 3, d,
                     1.0f / sqrtf(3.0f * p * p), 0);
    if (siglip || q3) synth_vec(&sw, "v.patch_embd.bias", d, 0.05f, 0);
    if (s->family == SYNTH_CLIP) {
        synth_vec(&sw, "v.class_embd", d, 0.5f, 0);
        synth_norm(&sw, "v.pre_ln", d, true);
    }
    if (!qwen || (q3 && s->pos_side > 0)) {
        int64_t n_pos = q3 ? (int64_t)s->pos_side * s->pos_side : g * g + (s->family == SYNTH_CLIP ? 1 : 0);
        synth_tensor(&sw, "v.position_embd.weight", "v.position_embd.weight",
                     s->matrix_type == SEER_TYPE_F32 ? SEER_TYPE_F32 : SEER_TYPE_F16, 2, d, n_pos, 1, 1, 0.2f, 0);
    }
    for (int i = 0; i < s->n_layer; i++) {
        char n[96], r[96];
        bool nb = s->family != SYNTH_QWEN25VL; /* RMSNorm has no bias */
#define BLK(x) (snprintf(n, sizeof n, "v.blk.%d.%s", i, x), n)
        synth_norm(&sw, BLK("ln1"), d, nb);
        synth_norm(&sw, BLK("ln2"), d, nb);
        static const char *attn[4] = {"attn_q", "attn_k", "attn_v", "attn_out"};
        if (q3) synth_linear(&sw, BLK("attn_qkv"), BLK("attn_qkv"), d, 3 * d, true); /* fused, then attn_out */
        for (int a = q3 ? 3 : 0; a < 4; a++) {
            char nn[96];
            snprintf(nn, sizeof nn, "v.blk.%d.%s", i, attn[a]);
            synth_linear(&sw, nn, nn, d, d, true);
        }
        snprintf(r, sizeof r, "v.blk.%d.mlp_first", i);
        synth_linear(&sw, BLK(s->legacy_swap ? "ffn_down" : "ffn_up"), r, d, ff, true);
        snprintf(r, sizeof r, "v.blk.%d.mlp_second", i);
        synth_linear(&sw, BLK(s->legacy_swap ? "ffn_up" : "ffn_down"), r, ff, d, true);
        if (s->family == SYNTH_QWEN25VL) synth_linear(&sw, BLK("ffn_gate"), BLK("ffn_gate"), d, ff, true);
#undef BLK
        if (q3 && (s->deepstack >> i & 1)) {
            snprintf(n, sizeof n, "v.deepstack.%d.norm", i);
            synth_norm(&sw, n, 4 * d, true);
            snprintf(n, sizeof n, "v.deepstack.%d.fc1", i);
            synth_linear(&sw, n, n, 4 * d, 4 * d, true);
            snprintf(n, sizeof n, "v.deepstack.%d.fc2", i);
            synth_linear(&sw, n, n, 4 * d, s->n_out, true);
        }
    }
    if (s->family != SYNTH_CLIP) synth_norm(&sw, "v.post_ln", d, s->family != SYNTH_QWEN25VL);
    if (s->family == SYNTH_CLIP && s->mlp_norm) {
        synth_linear(&sw, "mm.0", "mm.0", d, s->n_out, true);
        synth_vec(&sw, "mm.1.weight", s->n_out, 0, 1.0f);
        synth_vec(&sw, "mm.1.bias", s->n_out, 0, 0);
        synth_linear(&sw, "mm.3", "mm.3", s->n_out, s->n_out, true);
        synth_vec(&sw, "mm.4.weight", s->n_out, 0, 1.0f);
        synth_vec(&sw, "mm.4.bias", s->n_out, 0, 0);
    } else if (s->family == SYNTH_CLIP) {
        synth_linear(&sw, "mm.0", "mm.0", d, s->n_out, true);
        synth_linear(&sw, "mm.2", "mm.2", s->n_out, s->n_out, true);
    } else if (s->family == SYNTH_SIGLIP) {
        synth_linear(&sw, "mm.model.fc", "mm.model.fc", d * s->scale_factor * s->scale_factor, s->n_out, false);
    } else if (s->family == SYNTH_GEMMA3) { /* the projection stored transposed: ne [n_out, d] */
        synth_vec(&sw, "mm.soft_emb_norm.weight", d, 0.1f, 1.0f);
        synth_tensor(&sw, "mm.input_projection.weight", "mm.input_projection.weight",
                     s->matrix_type == SEER_TYPE_F32 ? SEER_TYPE_F32 : SEER_TYPE_F16, 2, s->n_out, d, 1, 1,
                     1.0f / sqrtf((float)d), 0);
    } else {
        synth_linear(&sw, "mm.0", "mm.0", 4 * d, 4 * d, true);
        synth_linear(&sw, "mm.2", "mm.2", 4 * d, s->n_out, true);
    }
    int rc = gguf_writer_write(w, path, err);
    gguf_writer_free(w);
    for (int i = 0; i < sw.n_fills; i++) free(sw.fills[i]);
    return rc;
}

#endif
