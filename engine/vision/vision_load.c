/* Loading an mmproj file: hyper-parameters, the switches that pick the tower
 * variant, and every tensor checked for presence and shape. Weights are used
 * in place from the mapping; only small 1-D tensors in non-f32 types, the
 * summed Qwen patch kernel and Gemma 3's transposed input projection are
 * copied. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seer/gguf.h"
#include "seer/tensor.h"
#include "vision/vision_internal.h"

/* p (NULL: none), freed with v from now on. */
static void *own(seer_vision *v, void *p) {
    if (p && v->n_owned == v->cap_owned) {
        int cap = v->cap_owned ? 2 * v->cap_owned : 32;
        void **n = realloc(v->owned, (size_t)cap * sizeof *n);
        if (!n) {
            free(p);
            return NULL;
        }
        v->owned = n;
        v->cap_owned = cap;
    }
    if (p) v->owned[v->n_owned++] = p;
    return p;
}

static void *own_alloc(seer_vision *v, size_t bytes) { return own(v, malloc(bytes ? bytes : 1)); }

static const char *label(const seer_vision *v) { return v->gguf->path ? v->gguf->path : "mmproj"; }

static int64_t n_elements(const gguf_tensor *t) {
    int64_t n = 1;
    for (int d = 0; d < GGUF_MAX_DIMS; d++) n *= t->ne[d];
    return n;
}

/* A vector of n floats (any element type; non-f32 is converted once). */
static int load_vec(seer_vision *v, const char *name, int64_t n, bool required, const float **out, seer_error *err) {
    *out = NULL;
    const gguf_tensor *t = gguf_find_tensor(v->gguf, name);
    if (!t) {
        if (!required) return 0;
        seer_error_set(err, "%s: tensor '%s' is missing", label(v), name);
        return -1;
    }
    const seer_type_info *ti = seer_type_get(t->type);
    if (!ti || n_elements(t) != n || n % ti->block_size != 0) {
        seer_error_set(err, "%s: tensor '%s' has %lld elements of type %s, expected %lld", label(v), name,
                       (long long)n_elements(t), seer_type_name(t->type), (long long)n);
        return -1;
    }
    if (t->type == SEER_TYPE_F32) {
        *out = t->data;
        return 0;
    }
    float *f = own_alloc(v, (size_t)n * sizeof(float));
    if (!f) {
        seer_error_set(err, "%s: out of memory", label(v));
        return -1;
    }
    seer_dequantize_row(t->type, t->data, f, n);
    *out = f;
    return 0;
}

/* A matrix n_out × n_in; n_out < 0 accepts any row count. */
static int load_matrix(seer_vision *v, const char *name, int64_t n_in, int64_t n_out, bool required, seer_weight *w,
                       seer_error *err) {
    memset(w, 0, sizeof *w);
    const gguf_tensor *t = gguf_find_tensor(v->gguf, name);
    if (!t) {
        if (!required) return 0;
        seer_error_set(err, "%s: tensor '%s' is missing", label(v), name);
        return -1;
    }
    if (!seer_weight_from_tensor(w, t) || w->n_in != n_in || (n_out >= 0 && w->n_out != n_out)) {
        seer_error_set(err, "%s: tensor '%s' has shape [%lld, %lld, %lld, %lld] (%s), expected [%lld, %lld]", label(v),
                       name, (long long)t->ne[0], (long long)t->ne[1], (long long)t->ne[2], (long long)t->ne[3],
                       seer_type_name(t->type), (long long)n_in, (long long)n_out);
        memset(w, 0, sizeof *w);
        return -1;
    }
    return 0;
}

/* A scalar tensor's value, or def when the file has none. */
static int load_scalar(seer_vision *v, const char *name, float def, float *out, seer_error *err) {
    const float *p = NULL;
    if (load_vec(v, name, 1, false, &p, err) != 0) return -1;
    *out = p ? p[0] : def;
    return 0;
}

/* PREFIX.weight, optional PREFIX.bias and the optional bounds of a clippable
 * linear (PREFIX.input_min / input_max / output_min / output_max scalars, as
 * Gemma 4's vision tower has them). */
static int load_linear(seer_vision *v, const char *prefix, int64_t n_in, int64_t n_out, bool required, vit_linear *l,
                       seer_error *err) {
    static const char *const bound[4] = {"input_min", "input_max", "output_min", "output_max"};
    char name[128];
    memset(l, 0, sizeof *l);
    snprintf(name, sizeof name, "%s.weight", prefix);
    if (load_matrix(v, name, n_in, n_out, required, &l->w, err) != 0) return -1;
    if (!l->w.data) return 0;
    for (int i = 0; i < 4; i++) {
        snprintf(name, sizeof name, "%s.%s", prefix, bound[i]);
        if (load_scalar(v, name, i % 2 ? FLT_MAX : -FLT_MAX, &l->clamp[i], err) != 0) return -1;
    }
    l->clip_in = l->clamp[0] > -FLT_MAX || l->clamp[1] < FLT_MAX;
    l->clip_out = l->clamp[2] > -FLT_MAX || l->clamp[3] < FLT_MAX;
    if (l->clip_in) v->clamped_inputs = true;
    snprintf(name, sizeof name, "%s.bias", prefix);
    return load_vec(v, name, l->w.n_out, false, &l->b, err);
}

static int load_norm(seer_vision *v, const char *prefix, int64_t n, bool required, vit_norm_params *p,
                     seer_error *err) {
    char name[128];
    snprintf(name, sizeof name, "%s.weight", prefix);
    if (load_vec(v, name, n, required, &p->w, err) != 0) return -1;
    if (!p->w) return 0;
    snprintf(name, sizeof name, "%s.bias", prefix);
    return load_vec(v, name, n, false, &p->b, err);
}

/* The convolution kernel [p, p, 3, C] read as C rows of 3·p·p values in
 * (channel, ky, kx) order. Qwen's Conv3D has two temporal slices; a still
 * image feeds both the same picture, so their sum is the 2-D kernel. */
static int load_patch_kernel(seer_vision *v, seer_error *err) {
    const seer_vision_hparams *hp = &v->hp;
    int64_t p = hp->patch_size, n_in = 3 * p * p, c = hp->n_embd;
    const gguf_tensor *t[2] = {gguf_find_tensor(v->gguf, "v.patch_embd.weight"),
                               gguf_find_tensor(v->gguf, "v.patch_embd.weight.1")};
    int n_slices = t[1] ? 2 : 1;
    for (int s = 0; s < n_slices; s++) {
        const char *name = s ? "v.patch_embd.weight.1" : "v.patch_embd.weight";
        if (!t[s]) {
            seer_error_set(err, "%s: tensor '%s' is missing", label(v), name);
            return -1;
        }
        const seer_type_info *ti = seer_type_get(t[s]->type);
        if (!ti || t[s]->ne[0] != p || t[s]->ne[1] != p || t[s]->ne[2] != 3 || t[s]->ne[3] != c ||
            n_in % ti->block_size != 0) {
            seer_error_set(err, "%s: tensor '%s' has shape [%lld, %lld, %lld, %lld] (%s), expected [%lld, %lld, 3, %lld]",
                           label(v), name, (long long)t[s]->ne[0], (long long)t[s]->ne[1], (long long)t[s]->ne[2],
                           (long long)t[s]->ne[3], seer_type_name(t[s]->type), (long long)p, (long long)p, (long long)c);
            return -1;
        }
    }
    seer_weight *w = &v->patch_w;
    w->n_in = n_in;
    w->n_out = c;
    if (n_slices == 1) {
        w->type = t[0]->type;
        w->data = t[0]->data;
        w->row_bytes = seer_row_bytes(w->type, n_in);
        return 0;
    }
    float *sum = own_alloc(v, (size_t)(n_in * c) * sizeof(float));
    float *row = malloc((size_t)n_in * sizeof(float));
    if (!sum || !row) {
        free(row);
        seer_error_set(err, "%s: out of memory", label(v));
        return -1;
    }
    size_t rb0 = seer_row_bytes(t[0]->type, n_in), rb1 = seer_row_bytes(t[1]->type, n_in);
    for (int64_t o = 0; o < c; o++) {
        float *dst = sum + o * n_in;
        seer_dequantize_row(t[0]->type, (const char *)t[0]->data + (size_t)o * rb0, dst, n_in);
        seer_dequantize_row(t[1]->type, (const char *)t[1]->data + (size_t)o * rb1, row, n_in);
        for (int64_t i = 0; i < n_in; i++) dst[i] += row[i];
    }
    free(row);
    w->type = SEER_TYPE_F32;
    w->data = sum;
    w->row_bytes = (size_t)n_in * sizeof(float);
    return 0;
}

static void pick_config(seer_vision *v) {
    const seer_vision_hparams *hp = &v->hp;
    vit_config *c = &v->cfg;
    memset(c, 0, sizeof *c);
    c->norm = hp->projector == SEER_PROJ_QWEN25VL || seer_projector_pixtral_vit(hp->projector) || hp->projector == SEER_PROJ_GLM4V ||
                      hp->projector == SEER_PROJ_DOTS_OCR
                  ? VIT_NORM_RMS
                  : VIT_NORM_LAYER;
    c->act = hp->use_silu ? VIT_ACT_SILU : hp->use_gelu ? VIT_ACT_GELU_TANH : VIT_ACT_QUICK_GELU;
    c->gated_mlp = gguf_find_tensor(v->gguf, "v.blk.0.ffn_gate.weight") != NULL;
    c->class_token = gguf_find_tensor(v->gguf, "v.class_embd") != NULL;
    c->pos_embd = gguf_find_tensor(v->gguf, "v.position_embd.weight") != NULL;
    c->pre_ln = gguf_find_tensor(v->gguf, "v.pre_ln.weight") != NULL;
    c->post_ln = gguf_find_tensor(v->gguf, "v.post_ln.weight") != NULL;
    c->pos_interp = c->pos_embd && hp->projector == SEER_PROJ_QWEN3VL;
    c->pos_resize = c->pos_embd && (hp->projector == SEER_PROJ_LFM2 || hp->projector == SEER_PROJ_PADDLEOCR);
    c->pos_bucket = c->pos_embd && hp->projector == SEER_PROJ_RESAMPLER;
    c->pos_bicubic = c->pos_embd && hp->projector == SEER_PROJ_GLM4V; /* GLM-OCR has none */
    c->pos_stretch = c->pos_embd && hp->projector == SEER_PROJ_HUNYUANVL;
    c->rope2d_odd_cols = seer_projector_pixtral_vit(hp->projector);
    c->rope2d_raster = c->rope2d_odd_cols || hp->projector == SEER_PROJ_PADDLEOCR || hp->projector == SEER_PROJ_DOTS_OCR;
    /* dots.ocr: the trunk's RMSNorm after the blocks is stored as mm.post_norm */
    c->post_ln = c->post_ln || (hp->projector == SEER_PROJ_DOTS_OCR && gguf_find_tensor(v->gguf, "mm.post_norm.weight"));
    c->rope2d = seer_projector_mrope(hp->projector) || c->rope2d_raster;
    c->window_attn = hp->projector == SEER_PROJ_QWEN25VL && hp->n_wa_pattern > 0;
    c->mlp_norm = hp->projector == SEER_PROJ_MLP && strcmp(hp->projector_name, "mlp_norm") == 0;
    if (hp->projector == SEER_PROJ_GEMMA4V) {
        /* tanh GELU as the HF model's vision config (gelu_pytorch_tanh):
         * llama.cpp's converter writes no clip.use_gelu for it, so llama.cpp
         * falls back to quick GELU; seer follows the original model */
        c->norm = VIT_NORM_RMS;
        c->act = VIT_ACT_GELU_TANH;
        c->pos_embd = false;
        c->pos_xy = c->pixels_signed = c->rope2d_halves = c->v_norm = c->unscaled_scores = true;
    }
}

/* Fused attn_qkv (Qwen3-VL): the output rows are q | k | v, so each part is
 * a view of consecutive rows of the one matrix and of its bias. */
static int load_fused_qkv(seer_vision *v, const char *prefix, vit_block *b, seer_error *err) {
    int64_t d = v->hp.n_embd;
    vit_linear qkv;
    if (load_linear(v, prefix, d, 3 * d, true, &qkv, err) != 0) return -1;
    vit_linear *parts[3] = {&b->q, &b->k, &b->v};
    for (int i = 0; i < 3; i++) {
        *parts[i] = qkv;
        parts[i]->w.n_out = d;
        parts[i]->w.data = (const char *)qkv.w.data + (size_t)(i * d) * qkv.w.row_bytes;
        parts[i]->b = qkv.b ? qkv.b + i * d : NULL;
    }
    return 0;
}

/* llama.cpp's converter permutes Pixtral's q/k rows so that ggml's rope
 * turns adjacent pairs (2i, 2i+1) of each head; the checkpoint has them as
 * rotate-half pairs (i, i + d/2). Rows go back to that order (a copy), so the
 * NEOX rotation of rope2d.c applies: the same scores, q and k permuted alike. */
static int unpermute_rope_rows(seer_vision *v, vit_linear *lin, seer_error *err) {
    int d = v->head_dim, n_head = (int)(lin->w.n_out / d);
    size_t rb = lin->w.row_bytes;
    char *rows = own_alloc(v, rb * (size_t)lin->w.n_out);
    float *bias = lin->b ? own_alloc(v, sizeof(float) * (size_t)lin->w.n_out) : NULL;
    if (!rows || (lin->b && !bias)) {
        seer_error_set(err, "%s: out of memory", label(v));
        return -1;
    }
    for (int h = 0; h < n_head; h++) {
        for (int i = 0; i < d; i++) { /* new row i ← old row 2·(i mod d/2) + (i ≥ d/2) */
            size_t src = (size_t)h * d + 2 * (i % (d / 2)) + (i >= d / 2), dst = (size_t)h * d + i;
            memcpy(rows + dst * rb, (const char *)lin->w.data + src * rb, rb);
            if (bias) bias[dst] = lin->b[src];
        }
    }
    lin->w.data = rows;
    if (bias) lin->b = bias;
    return 0;
}

static int load_block(seer_vision *v, int i, seer_error *err) {
    const seer_vision_hparams *hp = &v->hp;
    vit_block *b = &v->blocks[i];
    int64_t d = hp->n_embd, ff = hp->n_ff;
    char p[96];
#define NAME(s) (snprintf(p, sizeof p, "v.blk.%d.%s", i, s), p)
    if (load_norm(v, NAME("ln1"), d, true, &b->ln1, err) || load_norm(v, NAME("ln2"), d, true, &b->ln2, err) ||
        load_linear(v, NAME("attn_out"), d, d, true, &b->o, err))
        return -1;
    if (gguf_find_tensor(v->gguf, NAME("attn_qkv.weight"))) {
        if (load_fused_qkv(v, NAME("attn_qkv"), b, err) != 0) return -1;
    } else if (load_linear(v, NAME("attn_q"), d, d, true, &b->q, err) ||
               load_linear(v, NAME("attn_k"), d, d, true, &b->k, err) ||
               load_linear(v, NAME("attn_v"), d, d, true, &b->v, err)) {
        return -1;
    }
    if (v->cfg.rope2d_odd_cols && (unpermute_rope_rows(v, &b->q, err) || unpermute_rope_rows(v, &b->k, err))) return -1;
    /* Legacy LLaVA converters swap the names: their ffn_down is width → n_ff. */
    const gguf_tensor *down = gguf_find_tensor(v->gguf, NAME("ffn_down.weight"));
    bool swapped = down && down->ne[0] == d && down->ne[1] != d;
    if (load_linear(v, NAME(swapped ? "ffn_down" : "ffn_up"), d, ff, true, &b->ff_first, err) ||
        load_linear(v, NAME(swapped ? "ffn_up" : "ffn_down"), ff, d, true, &b->ff_second, err))
        return -1;
    if (v->cfg.gated_mlp && load_linear(v, NAME("ffn_gate"), d, ff, true, &b->ff_gate, err)) return -1;
    if (load_vec(v, NAME("ls1.weight"), d, false, &b->ls1, err) || load_vec(v, NAME("ls2.weight"), d, false, &b->ls2, err))
        return -1;
    b->out_scale = 1.0f;
    if (hp->projector == SEER_PROJ_GLM4V && /* GLM-OCR's per-head q/k RMSNorm (GLM-4.xV has none) */
        (load_vec(v, NAME("attn_q_norm.weight"), v->head_dim, false, &b->q_norm, err) ||
         load_vec(v, NAME("attn_k_norm.weight"), v->head_dim, false, &b->k_norm, err)))
        return -1;
    if (hp->projector == SEER_PROJ_GEMMA4V) {
        const float *s = NULL;
        if (load_vec(v, NAME("attn_q_norm.weight"), v->head_dim, true, &b->q_norm, err) ||
            load_vec(v, NAME("attn_k_norm.weight"), v->head_dim, true, &b->k_norm, err) ||
            load_vec(v, NAME("attn_post_norm.weight"), d, true, &b->attn_post_norm, err) ||
            load_vec(v, NAME("ffn_post_norm.weight"), d, true, &b->ffn_post_norm, err) ||
            load_vec(v, NAME("out_scale.weight"), 1, false, &s, err))
            return -1;
        if (s) b->out_scale = s[0];
    }
#undef NAME
    return 0;
}

/* gemma4v: the input projection (a clippable linear), the optional
 * standardisation. */
static int load_gemma4v_projector(seer_vision *v, seer_error *err) {
    int64_t d = v->hp.n_embd;
    return load_linear(v, "mm.input_projection", d, v->hp.n_embd_out, true, &v->mm0, err) ||
                   load_vec(v, "v.std_bias", d, false, &v->std_bias, err) ||
                   load_vec(v, "v.std_scale", d, false, &v->std_scale, err)
               ? -1
               : 0;
}

static int load_deepstack(seer_vision *v, seer_error *err) {
    const seer_vision_hparams *hp = &v->hp;
    if (hp->n_deepstack == 0) return 0;
    int64_t d4 = 4 * (int64_t)hp->n_embd;
    v->deepstack = calloc((size_t)hp->n_deepstack, sizeof *v->deepstack);
    if (!v->deepstack) {
        seer_error_set(err, "%s: out of memory", label(v));
        return -1;
    }
    char p[96];
    for (int i = 0; i < hp->n_deepstack; i++) {
        vit_deepstack *ds = &v->deepstack[i];
        ds->layer = hp->deepstack_layers[i];
#define NAME(s) (snprintf(p, sizeof p, "v.deepstack.%d.%s", ds->layer, s), p)
        if (load_norm(v, NAME("norm"), d4, true, &ds->norm, err) ||
            load_linear(v, NAME("fc1"), d4, -1, true, &ds->fc1, err) ||
            load_linear(v, NAME("fc2"), ds->fc1.w.n_out, hp->n_embd_text, true, &ds->fc2, err))
            return -1;
#undef NAME
    }
    return 0;
}

/* Gemma 3's input projection is stored as the checkpoint's raw parameter,
 * [n_v][n_text] row-major (ggml ne [n_text, n_v]): the transpose of every
 * other linear layer. It is transposed once here into n_text rows of n_v, in
 * its own element type (F16 stays F16); block-quantized files are expanded
 * to F32. */
static int load_input_projection(seer_vision *v, seer_error *err) {
    const char *name = "mm.input_projection.weight";
    const gguf_tensor *t = gguf_find_tensor(v->gguf, name);
    int64_t n_v = v->hp.n_embd, n_text = v->hp.n_embd_text;
    const seer_type_info *ti = t ? seer_type_get(t->type) : NULL;
    if (!t || !ti || t->n_dims != 2 || t->ne[0] != n_text || t->ne[1] != n_v || n_text % ti->block_size != 0) {
        seer_error_set(err, "%s: tensor '%s' is missing or not [%lld, %lld]", label(v), name, (long long)n_text,
                       (long long)n_v);
        return -1;
    }
    bool keep_type = ti->block_size == 1;
    int type = keep_type ? t->type : SEER_TYPE_F32;
    size_t es = keep_type ? ti->block_bytes : sizeof(float);
    char *dst = own_alloc(v, (size_t)(n_v * n_text) * es);
    float *row = keep_type ? NULL : malloc((size_t)n_text * sizeof(float));
    if (!dst || (!keep_type && !row)) {
        free(row);
        seer_error_set(err, "%s: out of memory", label(v));
        return -1;
    }
    size_t src_row = seer_row_bytes(t->type, n_text);
    for (int64_t c = 0; c < n_v; c++) { /* source row c: input feature c of every output */
        const char *src = (const char *)t->data + (size_t)c * src_row;
        if (!keep_type) {
            seer_dequantize_row(t->type, src, row, n_text);
            src = (const char *)row;
        }
        for (int64_t o = 0; o < n_text; o++) memcpy(dst + ((size_t)(o * n_v + c)) * es, src + (size_t)o * es, es);
    }
    free(row);
    v->mm0 = (vit_linear){.w = {.type = type, .n_in = n_v, .n_out = n_text, .data = dst, .row_bytes = (size_t)n_v * es}};
    return 0;
}

/* MobileVLM: the MLP (mlp.1, mlp.3 | V2: mlp.0, mlp.2), then ldp's two
 * blocks or ldpv2's PEG convolution; depthwise kernels [3, 3, C] as [C][9]. */
static int load_ldp(seer_vision *v, seer_error *err) {
    int64_t d = v->hp.n_embd, out = v->hp.n_embd_out;
    bool v2 = v->hp.projector == SEER_PROJ_LDPV2;
    if (!v->cfg.class_token) {
        seer_error_set(err, "%s: tensor 'v.class_embd' is missing (MobileVLM's CLIP has a class token)", label(v));
        return -1;
    }
    if (load_linear(v, v2 ? "mm.model.mlp.0" : "mm.model.mlp.1", d, out, true, &v->mm0, err) ||
        load_linear(v, v2 ? "mm.model.mlp.2" : "mm.model.mlp.3", out, out, true, &v->mm2, err))
        return -1;
    if (v2)
        return load_vec(v, "mm.model.peg.0.weight", 9 * out, true, &v->peg_w, err) ||
                       load_vec(v, "mm.model.peg.0.bias", out, true, &v->peg_b, err)
                   ? -1
                   : 0;
    char p[96];
    for (int k = 0; k < 2; k++) {
        vit_ldp_block *b = &v->ldp[k];
#define NAME(s) (snprintf(p, sizeof p, "mm.model.mb_block.%d.block.%s", k + 1, s), p)
        if (load_vec(v, NAME("0.0.weight"), 9 * out, true, &b->dw, err) ||
            load_norm(v, NAME("0.1"), out, true, &b->dw_norm, err) ||
            load_linear(v, NAME("1.fc1"), out, -1, true, &b->se_fc1, err) ||
            load_linear(v, NAME("1.fc2"), b->se_fc1.w.n_out, out, true, &b->se_fc2, err) ||
            load_linear(v, NAME("2.0"), out, out, true, &b->pw, err) ||
            load_norm(v, NAME("2.1"), out, true, &b->pw_norm, err))
            return -1;
#undef NAME
    }
    return 0;
}

/* A convolution kernel [k, k, n_in, n_out] (ggml order) as a matrix over
 * each cell's features in (channel, ky, kx) order. */
static int load_conv_matrix(seer_vision *v, const char *name, int64_t k, int64_t n_in, int64_t n_out, vit_linear *out,
                            seer_error *err) {
    char full[96];
    snprintf(full, sizeof full, "%s.weight", name);
    const gguf_tensor *t = gguf_find_tensor(v->gguf, full);
    const seer_type_info *ti = t ? seer_type_get(t->type) : NULL;
    const int64_t cols = k * k * n_in;
    if (!t || !ti || t->ne[0] != k || t->ne[1] != k || t->ne[2] != n_in || (n_out > 0 && t->ne[3] != n_out) ||
        t->ne[3] <= 0 || cols % ti->block_size) {
        seer_error_set(err, "%s: tensor '%s' is missing or not [%lld, %lld, %lld, n]", label(v), full, (long long)k,
                       (long long)k, (long long)n_in);
        return -1;
    }
    out->w = (seer_weight){.type = t->type, .n_in = cols, .n_out = t->ne[3], .data = t->data,
                           .row_bytes = seer_row_bytes(t->type, cols)};
    snprintf(full, sizeof full, "%s.bias", name);
    return load_vec(v, full, t->ne[3], true, &out->b, err);
}

/* glm4v: the downsampling conv mm.patch_merger, then fc, post_norm, gate / up / down. */
static int load_glm4v_projector(seer_vision *v, seer_error *err) {
    const int64_t d = v->hp.n_embd, t = v->hp.n_embd_text;
    return load_conv_matrix(v, "mm.patch_merger", 2, d, t, &v->merger, err) ||
                   load_linear(v, "mm.model.fc", t, t, true, &v->mm0, err) ||
                   load_norm(v, "mm.post_norm", t, true, &v->mm_ln1, err) ||
                   load_linear(v, "mm.gate", t, -1, true, &v->mm_gate, err) ||
                   load_linear(v, "mm.up", t, v->mm_gate.w.n_out, true, &v->mm_up, err) ||
                   load_linear(v, "mm.down", v->mm_gate.w.n_out, t, true, &v->mm2, err)
               ? -1
               : 0;
}

/* hunyuanvl: pre_norm, mm.0 (2×2 conv), mm.2 (1×1 conv), the newline, fc,
 * begin / end rows, post_norm. */
static int load_hunyuanvl_projector(seer_vision *v, seer_error *err) {
    const int64_t d = v->hp.n_embd, t = v->hp.n_embd_text;
    if (load_norm(v, "mm.pre_norm", d, true, &v->mm_ln1, err) ||
        load_conv_matrix(v, "mm.0", 2, d, -1, &v->merger, err) ||
        load_conv_matrix(v, "mm.2", 1, v->merger.w.n_out, -1, &v->mm0, err))
        return -1;
    const int64_t c2 = v->mm0.w.n_out;
    return load_vec(v, "v.image_newline", c2, true, &v->img_newline, err) ||
                   load_linear(v, "mm.model.fc", c2, t, true, &v->mm2, err) ||
                   load_vec(v, "mm.image_begin", t, true, &v->img_begin, err) ||
                   load_vec(v, "mm.image_end", t, true, &v->img_end, err) ||
                   load_norm(v, "mm.post_norm", t, true, &v->mm_ln2, err)
               ? -1
               : 0;
}

static int load_projector(seer_vision *v, seer_error *err) {
    const seer_vision_hparams *hp = &v->hp;
    int64_t d = hp->n_embd, out = hp->n_embd_out;
    switch (hp->projector) {
    case SEER_PROJ_MLP:
        if (v->cfg.mlp_norm) {
            if (load_linear(v, "mm.0", d, -1, true, &v->mm0, err)) return -1;
            int64_t mid = v->mm0.w.n_out;
            return load_norm(v, "mm.1", mid, true, &v->mm_ln1, err) ||
                           load_linear(v, "mm.3", mid, out, true, &v->mm2, err) ||
                           load_norm(v, "mm.4", out, true, &v->mm_ln2, err)
                       ? -1
                       : 0;
        }
        if (load_linear(v, "mm.0", d, -1, true, &v->mm0, err)) return -1;
        return load_linear(v, "mm.2", v->mm0.w.n_out, out, true, &v->mm2, err);
    case SEER_PROJ_IDEFICS3: {
        int64_t s = hp->scale_factor;
        return load_linear(v, "mm.model.fc", d * s * s, out, true, &v->mm0, err);
    }
    case SEER_PROJ_QWEN2VL:
    case SEER_PROJ_QWEN25VL:
    case SEER_PROJ_QWEN3VL:
        if (load_linear(v, "mm.0", 4 * d, -1, true, &v->mm0, err)) return -1;
        if (load_linear(v, "mm.2", v->mm0.w.n_out, hp->n_embd_text, true, &v->mm2, err)) return -1;
        return load_deepstack(v, err);
    case SEER_PROJ_LDP:
    case SEER_PROJ_LDPV2: return load_ldp(v, err);
    case SEER_PROJ_GLM4V: return load_glm4v_projector(v, err);
    case SEER_PROJ_HUNYUANVL: return load_hunyuanvl_projector(v, err);
    case SEER_PROJ_GEMMA3:
        return load_norm(v, "mm.soft_emb_norm", d, true, &v->mm_ln1, err) || load_input_projection(v, err) ? -1 : 0;
    case SEER_PROJ_GEMMA4V: return load_gemma4v_projector(v, err);
    case SEER_PROJ_INTERNVL: {
        int64_t m = d * hp->scale_factor * hp->scale_factor;
        if (!v->cfg.class_token) {
            seer_error_set(err, "%s: tensor 'v.class_embd' is missing (InternViT has a class token)", label(v));
            return -1;
        }
        return load_norm(v, "mm.model.mlp.0", m, true, &v->mm_ln1, err) ||
                       load_linear(v, "mm.model.mlp.1", m, -1, true, &v->mm0, err) ||
                       load_linear(v, "mm.model.mlp.3", v->mm0.w.n_out, out, true, &v->mm2, err)
                   ? -1
                   : 0;
    }
    case SEER_PROJ_LFM2: { /* mm.input_norm is optional (LFM2-VL checkpoints without it) */
        int64_t m = d * hp->scale_factor * hp->scale_factor;
        return load_norm(v, "mm.input_norm", m, false, &v->mm_ln1, err) ||
                       load_linear(v, "mm.1", m, -1, true, &v->mm0, err) ||
                       load_linear(v, "mm.2", v->mm0.w.n_out, out, true, &v->mm2, err)
                   ? -1
                   : 0;
    }
    case SEER_PROJ_PADDLEOCR: /* LayerNorm before the unshuffle, so over the tower's width */
    case SEER_PROJ_DOTS_OCR: {
        const int64_t s = hp->scale_factor;
        return load_norm(v, "mm.input_norm", d, true, &v->mm_ln1, err) ||
                       load_linear(v, hp->projector == SEER_PROJ_DOTS_OCR ? "mm.0" : "mm.1", s * s * d, -1, true, &v->mm0,
                                   err) ||
                       load_linear(v, "mm.2", v->mm0.w.n_out, out, true, &v->mm2, err)
                   ? -1
                   : 0;
    }
    case SEER_PROJ_RESAMPLER: {
        vit_resampler *r = &v->resampler;
        int64_t t = hp->n_embd_text;
        if (v->cfg.class_token || !v->cfg.pos_bucket) {
            seer_error_set(err, "%s: MiniCPM-V's SigLIP has a position table and no class token", label(v));
            return -1;
        }
        const gguf_tensor *query = gguf_find_tensor(v->gguf, "resampler.query");
        if (query && n_elements(query) != t * hp->n_queries) {
            seer_error_set(err, "%s: tensor 'resampler.query' has %lld values, not %d queries of %lld", label(v),
                           (long long)n_elements(query), hp->n_queries, (long long)t);
            return -1;
        }
        return load_vec(v, "resampler.query", t * hp->n_queries, true, &r->query, err) ||
                       load_linear(v, "resampler.kv", d, t, true, &r->kv, err) ||
                       load_linear(v, "resampler.attn.q", t, t, true, &r->q, err) ||
                       load_linear(v, "resampler.attn.k", t, t, true, &r->k, err) ||
                       load_linear(v, "resampler.attn.v", t, t, true, &r->v, err) ||
                       load_linear(v, "resampler.attn.out", t, t, true, &r->o, err) ||
                       load_linear(v, "resampler.proj", t, t, true, &r->proj, err) ||
                       load_norm(v, "resampler.ln_q", t, true, &r->ln_q, err) ||
                       load_norm(v, "resampler.ln_kv", t, true, &r->ln_kv, err) ||
                       load_norm(v, "resampler.ln_post", t, true, &r->ln_post, err)
                   ? -1
                   : 0;
    }
    case SEER_PROJ_PIXTRAL:
    case SEER_PROJ_LIGHTONOCR: {
        int64_t s = hp->scale_factor;
        if (s > 1 && (load_norm(v, "mm.input_norm", d, true, &v->mm_ln1, err) ||
                      load_linear(v, "mm.patch_merger", d * s * s, d, true, &v->merger, err)))
            return -1;
        return load_linear(v, "mm.1", d, -1, true, &v->mm0, err) ||
                       load_linear(v, "mm.2", v->mm0.w.n_out, out, true, &v->mm2, err) ||
                       load_vec(v, "v.token_embd.img_break", out, hp->projector == SEER_PROJ_PIXTRAL, &v->img_break, err)
                   ? -1
                   : 0;
    }
    }
    return -1;
}

static int load_tower(seer_vision *v, seer_error *err) {
    const seer_vision_hparams *hp = &v->hp;
    int64_t d = hp->n_embd;
    pick_config(v);
    v->head_dim = hp->n_embd / hp->n_head;
    if (load_patch_kernel(v, err) || load_vec(v, "v.patch_embd.bias", d, false, &v->patch_b, err)) return -1;
    if (v->cfg.class_token && load_vec(v, "v.class_embd", d, true, &v->class_embd, err)) return -1;
    if (v->cfg.pos_embd) {
        const gguf_tensor *t = gguf_find_tensor(v->gguf, "v.position_embd.weight");
        if (t->ne[0] != d || t->ne[1] <= 0 || t->ne[1] > (1 << 20)) {
            seer_error_set(err, "%s: tensor 'v.position_embd.weight' has shape [%lld, %lld], expected [%lld, n]",
                           label(v), (long long)t->ne[0], (long long)t->ne[1], (long long)d);
            return -1;
        }
        v->n_pos = (int)t->ne[1];
        if (v->cfg.pos_interp || v->cfg.pos_resize || v->cfg.pos_bucket || v->cfg.pos_bicubic || v->cfg.pos_stretch) {
            v->pos_side = (int)sqrt((double)v->n_pos);
            if ((int64_t)v->pos_side * v->pos_side != v->n_pos) {
                seer_error_set(err, "%s: %d position embeddings do not form a square grid", label(v), v->n_pos);
                return -1;
            }
        }
        if (load_vec(v, "v.position_embd.weight", d * v->n_pos, true, &v->pos_embd, err)) return -1;
    } else if (v->cfg.pos_xy) { /* gemma4v: [n_embd, n, 2], the x table then the y table */
        const gguf_tensor *t = gguf_find_tensor(v->gguf, "v.position_embd.weight");
        if (!t || t->ne[0] != d || t->ne[1] <= 0 || t->ne[1] > (1 << 16) || t->ne[2] != 2) {
            seer_error_set(err, "%s: tensor 'v.position_embd.weight' is missing or not [%lld, n, 2]", label(v),
                           (long long)d);
            return -1;
        }
        v->n_pos = (int)t->ne[1];
        if (load_vec(v, "v.position_embd.weight", 2 * d * v->n_pos, true, &v->pos_embd, err)) return -1;
    } else if (!v->cfg.rope2d || hp->projector == SEER_PROJ_QWEN3VL) { /* Qwen2/2.5-VL, GLM-OCR: rotary positions only */
        seer_error_set(err, "%s: tensor 'v.position_embd.weight' is missing", label(v));
        return -1;
    }
    const char *post_ln = hp->projector == SEER_PROJ_DOTS_OCR ? "mm.post_norm" : "v.post_ln";
    if (load_norm(v, "v.pre_ln", d, false, &v->pre_ln, err) || load_norm(v, post_ln, d, false, &v->post_ln, err) ||
        load_norm(v, "v.norm_embd", d, hp->projector == SEER_PROJ_GLM4V, &v->embd_norm, err))
        return -1;
    v->blocks = calloc((size_t)hp->n_layer, sizeof *v->blocks);
    if (!v->blocks) {
        seer_error_set(err, "%s: out of memory", label(v));
        return -1;
    }
    for (int i = 0; i < hp->n_layer; i++)
        if (load_block(v, i, err) != 0) return -1;
    return load_projector(v, err);
}

/* The blocks' quantized matrices copied into the interleaved layout where
 * a batch reads that faster (seer_matmul_batch_interleave), the file's
 * pages of them given back. */
static int interleave_blocks(seer_vision *v, seer_error *err) {
    for (int i = 0; i < v->hp.n_layer; i++) {
        vit_block *b = &v->blocks[i];
        vit_linear *const lins[] = {&b->q, &b->k, &b->v, &b->o, &b->ff_first, &b->ff_gate, &b->ff_second};
        for (size_t k = 0; k < sizeof lins / sizeof lins[0]; k++) {
            seer_weight *w = &lins[k]->w;
            if (!w->data || !seer_matmul_batch_interleave(w)) continue;
            void *copy = own(v, seer_buffer_alloc(seer_weight_interleaved_bytes(w)));
            if (!copy) {
                seer_error_set(err, "%s: out of memory", label(v));
                return -1;
            }
            seer_weight_interleave_from_file(w, copy, NULL, v->gguf);
        }
    }
    return 0;
}

seer_vision *seer_vision_load(const char *path, seer_error *err) {
    gguf_file *g = gguf_open(path, err);
    if (!g) return NULL;
    seer_vision *v = calloc(1, sizeof *v);
    if (!v) {
        gguf_close(g);
        seer_error_set(err, "%s: out of memory", path);
        return NULL;
    }
    v->gguf = g;
    if (seer_vision_hparams_read(g, &v->hp, err) != 0 || load_tower(v, err) != 0 || interleave_blocks(v, err) != 0) {
        seer_vision_free(v);
        return NULL;
    }
    return v;
}

void seer_vision_free(seer_vision *v) {
    if (!v) return;
    for (int i = 0; i < v->n_owned; i++) free(v->owned[i]);
    free(v->owned);
    free(v->blocks);
    free(v->deepstack);
    gguf_close(v->gguf);
    free(v);
}

const seer_vision_hparams *seer_vision_get_hparams(const seer_vision *v) { return v ? &v->hp : NULL; }

void seer_vision_set_progress(seer_vision *v, seer_progress_fn fn, void *user) {
    v->progress_fn = fn;
    v->progress_user = user;
    v->progress_base = 0;
    v->progress_span = 1;
}

void seer_vision_set_progress_span(seer_vision *v, float base, float span) {
    v->progress_base = base;
    v->progress_span = span;
}
const gguf_file *seer_vision_gguf(const seer_vision *v) { return v ? v->gguf : NULL; }

void seer_vision_out_grid(const seer_vision *v, int w, int h, int *nx, int *ny) {
    *nx = *ny = 0;
    if (!v || w <= 0 || h <= 0) return;
    const seer_vision_hparams *hp = &v->hp;
    int gw = w / hp->patch_size, gh = h / hp->patch_size;
    switch (hp->projector) {
    case SEER_PROJ_QWEN2VL:
    case SEER_PROJ_QWEN25VL:
    case SEER_PROJ_QWEN3VL:
    case SEER_PROJ_GLM4V:
    case SEER_PROJ_PADDLEOCR:
    case SEER_PROJ_HUNYUANVL: /* the merged grid; a newline per row and begin / end rows come on top */
        *nx = gw / 2;
        *ny = gh / 2;
        return;
    case SEER_PROJ_IDEFICS3:
    case SEER_PROJ_GEMMA3:
    case SEER_PROJ_GEMMA4V:
    case SEER_PROJ_INTERNVL:
    case SEER_PROJ_LFM2:
    case SEER_PROJ_DOTS_OCR:
    case SEER_PROJ_LDP:
    case SEER_PROJ_LDPV2:
        *nx = (gw / hp->scale_factor) * (gh / hp->scale_factor);
        *ny = 1;
        return;
    case SEER_PROJ_PIXTRAL:
    case SEER_PROJ_LIGHTONOCR:
        *nx = seer_pixtral_n_tokens(hp, w, h);
        *ny = 1;
        return;
    case SEER_PROJ_RESAMPLER:
        *nx = hp->n_queries;
        *ny = 1;
        return;
    case SEER_PROJ_MLP:
        *nx = gw * gh;
        *ny = 1;
        return;
    }
}
