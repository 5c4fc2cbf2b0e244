/* The ViT forward pass shared by every family: patch embedding, optional
 * pre-LN, pre-norm blocks (attention, MLP), optional post-LN, projector.
 * The switches in vit_config choose the variant; all batched products go
 * through seer_matmul over the pool; scratch is one allocation per encode. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "seer/matmul.h"
#include "vision/vision_internal.h"

#define ROPE_BASE 10000.0f
#define GEMMA4V_ROPE_BASE 100.0f /* llama.cpp's rope_theta for gemma4v (HF vision rope_theta 100) */
/* 64K patches: 3584×3584 pixels at patch 14, above any family's maximum. */
#define MAX_PATCHES (1 << 16)

void vit_matmul(const seer_vision *v, seer_pool *pool, const seer_weight *w, const float *x, int64_t n, float *y,
                const float *bias) {
    if (v->precision == SEER_VISION_BF16) seer_matmul_bf16(pool, w, x, n, y, bias);
    else seer_matmul_batch(pool, w, x, n, y, bias);
}

static void clamp_rows(const float *x, int64_t n, float lo, float hi, float *out) {
    for (int64_t i = 0; i < n; i++) out[i] = x[i] < lo ? lo : x[i] > hi ? hi : x[i];
}

const float *vit_linear_input(const vit_linear *lin, const float *x, int64_t n, float *buf) {
    if (!lin->clip_in) return x;
    clamp_rows(x, n * lin->w.n_in, lin->clamp[0], lin->clamp[1], buf);
    return buf;
}

/* Whether lin reads its input as F16 values: F16 weights at exact
 * precision with nothing between (a clamp). A pass whose every reader is
 * such a linear writes its output rounded (vit_rows_out), and the
 * products skip their own pass over it. */
static bool reads_f16(const seer_vision *v, const vit_linear *lin) {
    return v->precision != SEER_VISION_BF16 && lin->w.type == SEER_TYPE_F16 && !lin->clip_in;
}

static vit_rows_out out_for(bool all_read_f16) { return all_read_f16 ? VIT_OUT_F16 : VIT_OUT_F32; }

/* vit_linear_apply; x_f16: x rounded to F16 by the pass that made it */
static void linear_apply(const seer_vision *v, seer_pool *pool, const vit_linear *lin, const float *x, int64_t n,
                         float *y, double *flops, bool x_f16) {
    if (x_f16) seer_matmul_batch_f16_in(pool, &lin->w, x, n, y, lin->b);
    else vit_matmul(v, pool, &lin->w, x, n, y, lin->b);
    if (lin->clip_out) clamp_rows(y, n * lin->w.n_out, lin->clamp[2], lin->clamp[3], y);
    if (flops) *flops += 2.0 * (double)n * (double)lin->w.n_in * (double)lin->w.n_out;
}

void vit_linear_apply(const seer_vision *v, seer_pool *pool, const vit_linear *lin, const float *x, int64_t n, float *y,
                      double *flops) {
    linear_apply(v, pool, lin, x, n, y, flops, false);
}

/* Working memory of one encode, carved from one allocation. x, h and the
 * RoPE tables live through every block; the buffers of each phase (patch
 * embedding; attention; feed-forward) are dead once it ends, so the three
 * phases share one region, sized for the largest: attention's q, k, v (its
 * output goes to h, the output projection's to q). The feed-forward runs
 * over ffn_rows rows at a time so that its hidden rows fit there too
 * (SigLIP on 1024 patches: 12.6 MB of hidden rows otherwise). */
typedef struct vit_scratch {
    float *base;
    float *x, *h, *rope_cos, *rope_sin;
    float *patches;              /* patch embedding */
    float *q, *k, *v, *attn_work; /* attention */
    float *clamped;              /* n_seq rows: clippable linears' clamped inputs (else empty) */
    float *ff, *gate;            /* feed-forward, ffn_rows rows */
    int64_t ffn_rows;
} vit_scratch;

static int64_t pad16(int64_t n) { return (n + 15) / 16 * 16; }

/* Points slots[i] at consecutive pad16(sizes[i])-float runs from *cur on; returns the floats used. */
static int64_t carve(float *cur, float **const *slots, const int64_t *sizes, int n) {
    int64_t used = 0;
    for (int i = 0; i < n; i++) {
        if (cur) *slots[i] = cur + used;
        used += pad16(sizes[i]);
    }
    return used;
}

/* full: the n_full inputs' segments (attention within each). */
static int scratch_alloc(vit_scratch *s, const seer_vision *v, const vit_layout *l, int64_t n_seq, const int *full,
                         int n_full, int nth) {
    const seer_vision_hparams *hp = &v->hp;
    int64_t d = hp->n_embd, ff = hp->n_ff, p = hp->patch_size;
    int64_t max_win = 0;
    for (int i = 0; i < l->n_segments; i++)
        if (l->seg_start[i + 1] - l->seg_start[i] > max_win) max_win = l->seg_start[i + 1] - l->seg_start[i];
    int64_t max_full = 0;
    for (int i = 0; i < n_full; i++)
        if (full[i + 1] - full[i] > max_full) max_full = full[i + 1] - full[i];
    int64_t attn_full = vit_attention_scratch_floats(nth, n_full, max_full, v->head_dim);
    int64_t attn_win = vit_attention_scratch_floats(nth, l->n_segments, max_win, v->head_dim);
    int64_t rope = v->cfg.rope2d || v->cfg.rope2d_halves ? (int64_t)l->n_patches * (v->head_dim / 2) : 0;
    float **const kept[5] = {&s->x, &s->h, &s->rope_cos, &s->rope_sin, &s->clamped};
    const int64_t kept_sizes[5] = {n_seq * d, n_seq * d, rope, rope, v->clamped_inputs ? n_seq * d : 0};
    float **const embed[1] = {&s->patches};
    const int64_t embed_sizes[1] = {(int64_t)l->n_patches * 3 * p * p};
    float **const attn[4] = {&s->q, &s->k, &s->v, &s->attn_work};
    const int64_t attn_sizes[4] = {n_seq * d, n_seq * d, n_seq * d, attn_full > attn_win ? attn_full : attn_win};
    int64_t ff_width = v->cfg.gated_mlp ? 2 * ff : ff;
    s->ffn_rows = 3 * n_seq * d / ff_width / 16 * 16;
    if (s->ffn_rows < 16) s->ffn_rows = 16;
    if (s->ffn_rows > n_seq) s->ffn_rows = n_seq;
    float **const ffn[2] = {&s->ff, &s->gate};
    const int64_t ffn_sizes[2] = {s->ffn_rows * ff, v->cfg.gated_mlp ? s->ffn_rows * ff : 0};
    int64_t shared = carve(NULL, embed, embed_sizes, 1), a = carve(NULL, attn, attn_sizes, 4),
            f = carve(NULL, ffn, ffn_sizes, 2);
    if (a > shared) shared = a;
    if (f > shared) shared = f;
    int64_t total = carve(NULL, kept, kept_sizes, 5) + shared;
    s->base = seer_buffer_alloc((size_t)total * sizeof(float)); /* an encode first-touches all of it */
    if (!s->base) return -1;
    float *phase = s->base + carve(s->base, kept, kept_sizes, 5);
    carve(phase, embed, embed_sizes, 1);
    carve(phase, attn, attn_sizes, 4);
    carve(phase, ffn, ffn_sizes, 2);
    return 0;
}

typedef struct rope_job {
    float *q, *k;
    int64_t n;
    int n_head, d;
    bool halves;
    const float *cos_t, *sin_t;
} rope_job;

static void rope_range(void *ctx, int64_t r0, int64_t r1, int ith) {
    (void)ith;
    const rope_job *j = ctx;
    int64_t width = (int64_t)j->n_head * j->d, half = j->d / 2;
    void (*apply)(float *, int64_t, int, int, const float *, const float *) =
        j->halves ? vit_rope2d_apply_halves : vit_rope2d_apply;
    apply(j->q + r0 * width, r1 - r0, j->n_head, j->d, j->cos_t + r0 * half, j->sin_t + r0 * half);
    apply(j->k + r0 * width, r1 - r0, j->n_head, j->d, j->cos_t + r0 * half, j->sin_t + r0 * half);
}

/* q and k RMS-normed per head with their weights where the blocks have them
 * (Gemma 4, GLM-OCR); Gemma 4 also norms v without weight and scales q by √d
 * so that vit_attention's 1/√d leaves the scores unscaled. */
static void qkv_norms(const seer_vision *v, seer_pool *pool, const vit_block *b, vit_scratch *s, int64_t n_seq) {
    const seer_vision_hparams *hp = &v->hp;
    const int64_t rows = n_seq * hp->n_head, d = v->head_dim;
    const vit_norm_params qn = {.w = b->q_norm}, kn = {.w = b->k_norm}, plain = {0};
    if (b->q_norm) vit_norm_rows(pool, VIT_NORM_RMS, s->q, s->q, &qn, rows, d, hp->eps);
    if (b->k_norm) vit_norm_rows(pool, VIT_NORM_RMS, s->k, s->k, &kn, rows, d, hp->eps);
    if (v->cfg.v_norm) vit_norm_rows(pool, VIT_NORM_RMS, s->v, s->v, &plain, rows, d, hp->eps);
    if (v->cfg.unscaled_scores) vit_scale_rows(pool, s->q, sqrtf((float)d), rows * d);
}

/* full: the segments of a block that sees a whole input (n_full inputs). */
static void run_block(const seer_vision *v, seer_pool *pool, int il, const vit_layout *l, int64_t n_seq,
                      const int *full, int n_full, vit_scratch *s, double *flops) {
    const seer_vision_hparams *hp = &v->hp;
    const vit_block *b = &v->blocks[il];
    int64_t d = hp->n_embd, ff = hp->n_ff;

    const bool qkv_f16 = reads_f16(v, &b->q) && reads_f16(v, &b->k) && reads_f16(v, &b->v);
    vit_norm_rows_to(pool, v->cfg.norm, s->x, s->h, &b->ln1, n_seq, d, hp->eps, out_for(qkv_f16));
    /* h feeds q, k and v: a clamped input goes to its own copy */
    linear_apply(v, pool, &b->q, vit_linear_input(&b->q, s->h, n_seq, s->clamped), n_seq, s->q, flops, qkv_f16);
    linear_apply(v, pool, &b->k, vit_linear_input(&b->k, s->h, n_seq, s->clamped), n_seq, s->k, flops, qkv_f16);
    linear_apply(v, pool, &b->v, vit_linear_input(&b->v, s->h, n_seq, s->clamped), n_seq, s->v, flops, qkv_f16);
    qkv_norms(v, pool, b, s, n_seq);
    if (v->cfg.rope2d || v->cfg.rope2d_halves) {
        rope_job rj = {.q = s->q, .k = s->k, .n = n_seq, .n_head = hp->n_head, .d = v->head_dim,
                       .halves = v->cfg.rope2d_halves, .cos_t = s->rope_cos, .sin_t = s->rope_sin};
        seer_pool_for(pool, rj.n, 1, rope_range, &rj);
    }
    /* Qwen2.5-VL: every n_wa_pattern-th block sees the whole image. */
    bool windowed = v->cfg.window_attn && (il + 1) % hp->n_wa_pattern != 0;
    /* h is dead once q, k, v are made; q once attention has read it */
    vit_attention(pool, s->q, s->k, s->v, s->h, hp->n_head, v->head_dim, windowed ? l->seg_start : full,
                  windowed ? l->n_segments : n_full, s->attn_work, flops);
    vit_linear_apply(v, pool, &b->o, vit_linear_input(&b->o, s->h, n_seq, s->h), n_seq, s->q, flops); /* h dead after */
    if (b->attn_post_norm) vit_norm_rows(pool, VIT_NORM_RMS, s->q, s->q, &(vit_norm_params){.w = b->attn_post_norm}, n_seq, d, hp->eps);
    vit_add_scaled_rows(pool, s->x, s->q, b->ls1, n_seq, d);

    const bool gated = v->cfg.gated_mlp;
    const bool up_f16 = reads_f16(v, &b->ff_first) && (!gated || reads_f16(v, &b->ff_gate));
    const bool down_f16 = reads_f16(v, &b->ff_second);
    vit_norm_rows_to(pool, v->cfg.norm, s->x, s->h, &b->ln2, n_seq, d, hp->eps, out_for(up_f16));
    for (int64_t r0 = 0; r0 < n_seq; r0 += s->ffn_rows) {
        int64_t n = n_seq - r0 < s->ffn_rows ? n_seq - r0 : s->ffn_rows;
        float *h = s->h + r0 * d; /* these rows' output replaces their input */
        linear_apply(v, pool, &b->ff_first, vit_linear_input(&b->ff_first, h, n, s->clamped), n, s->ff, flops, up_f16);
        float *act_out = s->ff;
        if (gated) { /* gate = act(gate) · up */
            linear_apply(v, pool, &b->ff_gate, vit_linear_input(&b->ff_gate, h, n, s->clamped), n, s->gate, flops,
                         up_f16);
            vit_mlp_act_rows(pool, v->cfg.act, s->gate, s->ff, n * ff, out_for(down_f16));
            act_out = s->gate;
        } else {
            vit_mlp_act_rows(pool, v->cfg.act, s->ff, NULL, n * ff, out_for(down_f16));
        }
        linear_apply(v, pool, &b->ff_second, vit_linear_input(&b->ff_second, act_out, n, act_out), n, h, flops,
                     down_f16);
    }
    if (b->ffn_post_norm) vit_norm_rows(pool, VIT_NORM_RMS, s->h, s->h, &(vit_norm_params){.w = b->ffn_post_norm}, n_seq, d, hp->eps);
    vit_add_scaled_rows(pool, s->x, s->h, b->ls2, n_seq, d);
    if (b->out_scale != 1.0f) vit_scale_rows(pool, s->x, b->out_scale, n_seq * d);
}

static int check_input(const seer_vision *v, const seer_pixels *in, seer_error *err) {
    const seer_vision_hparams *hp = &v->hp;
    if (!seer_pixels_present(in) || in->w <= 0 || in->h <= 0) {
        seer_error_set(err, "vision: no input pixels");
        return -1;
    }
    if (hp->projector == SEER_PROJ_IDEFICS3 || hp->projector == SEER_PROJ_INTERNVL || hp->projector == SEER_PROJ_LFM2) {
        /* The stride-p convolution drops the last w % p columns and rows (as
         * llama.cpp's does: SmolVLM-Instruct's 384 px over 14 px patches is
         * a 27×27 grid); the pixel shuffle needs that grid in whole s×s cells. */
        int s = hp->scale_factor, gw = in->w / hp->patch_size, gh = in->h / hp->patch_size;
        if (gw < s || gh < s || gw % s != 0 || gh % s != 0) {
            seer_error_set(err, "vision: input %dx%d gives a %dx%d patch grid, not a multiple of the pixel shuffle's %d",
                           in->w, in->h, gw, gh, s);
            return -1;
        }
    } else {
        int unit = seer_projector_pixtral_vit(hp->projector) || hp->projector == SEER_PROJ_DOTS_OCR ||
                           hp->projector == SEER_PROJ_HUNYUANVL
                       ? hp->patch_size * hp->scale_factor
                   : v->cfg.rope2d                       ? 2 * hp->patch_size
                   : hp->projector == SEER_PROJ_GEMMA3 || hp->projector == SEER_PROJ_GEMMA4V
                                                       ? hp->patch_size * hp->scale_factor
                                                       : hp->patch_size;
        if (in->w % unit != 0 || in->h % unit != 0) {
            seer_error_set(err, "vision: input %dx%d is not a multiple of %d pixels", in->w, in->h, unit);
            return -1;
        }
    }
    int64_t n = (int64_t)(in->w / hp->patch_size) * (in->h / hp->patch_size);
    if (n > MAX_PATCHES) {
        seer_error_set(err, "vision: input %dx%d has too many patches (%lld)", in->w, in->h, (long long)n);
        return -1;
    }
    if (v->cfg.pos_xy && (in->w / hp->patch_size > v->n_pos || in->h / hp->patch_size > v->n_pos)) {
        seer_error_set(err, "vision: input %dx%d is more than the %d patches a side the position tables hold", in->w,
                       in->h, v->n_pos);
        return -1;
    }
    if (v->cfg.pos_embd && !v->cfg.pos_interp && !v->cfg.pos_resize && !v->cfg.pos_bucket && !v->cfg.pos_bicubic &&
        !v->cfg.pos_stretch &&
        n + (v->cfg.class_token ? 1 : 0) != v->n_pos) {
        seer_error_set(err, "vision: input %dx%d gives %lld patches but the model has %d positions", in->w, in->h,
                       (long long)n, v->n_pos - (v->cfg.class_token ? 1 : 0));
        return -1;
    }
    return 0;
}

/* Whether inputs can share a pass: each input's patch embedding,
 * positions and projector run on its own rows, and attention within each
 * input's segments; a class token (one row a pass) or DeepStack's taps
 * (into the first input's output) would not be per input. */
static bool batchable(const seer_vision *v) { return !v->cfg.class_token && !v->deepstack; }

/* n inputs (n > 1 only when batchable) through the tower in one sequence:
 * per-row work over all rows at once, attention within each input. */
static int encode_pass(seer_vision *v, seer_pool *pool, const seer_pixels *in, int n, float *const *out,
                       const volatile int *cancel, double *flops, seer_error *err) {
    const seer_vision_hparams *hp = &v->hp;
    vit_layout parts[SEER_VISION_MAX_BATCH] = {{0}}, all = {0};
    int full[SEER_VISION_MAX_BATCH + 1], built = 0, rc = -1;
    vit_scratch s = {0};
    for (; built < n; built++) {
        if (check_input(v, &in[built], err) != 0) goto done;
        if (vit_layout_build(v, in[built].w, in[built].h, v->cfg.window_attn, &parts[built]) != 0) {
            seer_error_set(err, "vision: out of memory (layout)");
            goto done;
        }
    }
    const vit_layout *l = &parts[0];
    if (n > 1) {
        if (vit_layout_concat(parts, n, &all) != 0) {
            seer_error_set(err, "vision: out of memory (layout)");
            goto done;
        }
        l = &all;
    }
    int64_t n_seq = l->n_patches + (v->cfg.class_token ? 1 : 0), d = hp->n_embd;
    full[0] = 0;
    for (int i = 0; i < n; i++) full[i + 1] = full[i] + parts[i].n_patches;
    full[n] = (int)n_seq;
    if (scratch_alloc(&s, v, l, n_seq, full, n, seer_pool_size(pool)) != 0) {
        seer_error_set(err, "vision: out of memory for %d input(s) of %lld patches", n, (long long)n_seq);
        goto done;
    }
    double fl = 2.0 * (double)l->n_patches * (double)v->patch_w.n_in * (double)d;

    for (int i = 0; i < n; i++) {
        seer_pixels made = {0}; /* a deferred tile's pixels, for the patch embedding only */
        const seer_pixels *px = seer_pixels_readable(&in[i], &made);
        if (!px) {
            seer_error_set(err, "vision: out of memory for a %dx%d input's pixels", in[i].w, in[i].h);
            goto done;
        }
        vit_patch_embed(v, pool, px, &parts[i], s.patches, s.x + (int64_t)full[i] * d);
        seer_pixels_free(&made);
    }
    if (v->cfg.pre_ln) vit_norm_rows(pool, v->cfg.norm, s.x, s.x, &v->pre_ln, n_seq, d, hp->eps);
    if (v->cfg.rope2d)
        vit_rope2d_table(l->row, l->col, l->n_patches, v->head_dim, ROPE_BASE, v->cfg.rope2d_odd_cols, s.rope_cos,
                         s.rope_sin);
    if (v->cfg.rope2d_halves) /* the first half turns by column, the second by row */
        vit_rope2d_table(l->col, l->row, l->n_patches, v->head_dim, GEMMA4V_ROPE_BASE, false, s.rope_cos, s.rope_sin);
    for (int il = 0; il < hp->n_layer; il++) {
        if (cancel && *cancel) {
            seer_error_set(err, "cancelled");
            goto done;
        }
        run_block(v, pool, il, l, n_seq, full, n, &s, &fl);
        if (v->deepstack && vit_deepstack_after_block(v, pool, il, s.x, l, out[0], &fl, err) != 0) goto done;
        if (v->progress_fn)
            v->progress_fn(v->progress_user, v->progress_base + v->progress_span * (float)(il + 1) / (float)hp->n_layer);
    }
    if (cancel && *cancel) {
        seer_error_set(err, "cancelled");
        goto done;
    }
    if (v->cfg.post_ln) vit_norm_rows(pool, v->cfg.norm, s.x, s.x, &v->post_ln, n_seq, d, hp->eps);

    rc = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        const float *patches_out = s.x + (int64_t)full[i] * d + (v->cfg.class_token ? d : 0);
        const vit_layout *li = &parts[i];
        switch (hp->projector) {
        case SEER_PROJ_MLP: rc = vit_project_mlp(v, pool, patches_out, li->n_patches, out[i], &fl, err); break;
        case SEER_PROJ_IDEFICS3: rc = vit_project_idefics3(v, pool, patches_out, li, out[i], &fl, err); break;
        case SEER_PROJ_QWEN2VL:
        case SEER_PROJ_QWEN25VL:
        case SEER_PROJ_QWEN3VL: rc = vit_project_qwen(v, pool, patches_out, li, out[i], &fl, err); break;
        case SEER_PROJ_GEMMA3: rc = vit_project_gemma3(v, pool, patches_out, li, out[i], &fl, err); break;
        case SEER_PROJ_GEMMA4V: rc = vit_project_gemma4v(v, pool, patches_out, li, out[i], &fl, err); break;
        case SEER_PROJ_INTERNVL:
        case SEER_PROJ_LFM2: rc = vit_project_internvl(v, pool, patches_out, li, out[i], &fl, err); break;
        case SEER_PROJ_LDP:
        case SEER_PROJ_LDPV2: rc = vit_project_ldp(v, pool, patches_out, li, out[i], &fl, err); break;
        case SEER_PROJ_PIXTRAL:
        case SEER_PROJ_LIGHTONOCR: rc = vit_project_pixtral(v, pool, patches_out, li, out[i], &fl, err); break;
        case SEER_PROJ_PADDLEOCR:
        case SEER_PROJ_DOTS_OCR: rc = vit_project_unshuffle_mlp(v, pool, patches_out, li, out[i], &fl, err); break;
        case SEER_PROJ_RESAMPLER: rc = vit_project_resampler(v, pool, patches_out, li, out[i], &fl, err); break;
        case SEER_PROJ_GLM4V: rc = vit_project_glm4v(v, pool, patches_out, li, out[i], &fl, err); break;
        case SEER_PROJ_HUNYUANVL: rc = vit_project_hunyuanvl(v, pool, patches_out, li, out[i], &fl, err); break;
        }
    }
    if (rc == 0 && flops) *flops += fl;
done:
    free(s.base);
    for (int i = 0; i < built; i++) vit_layout_free(&parts[i]);
    vit_layout_free(&all);
    return rc;
}

int seer_vision_encode(seer_vision *v, seer_pool *pool, const seer_pixels *in, float *out, const volatile int *cancel,
                       double *flops, seer_error *err) {
    if (!v || !out) {
        seer_error_set(err, "vision: no model or output buffer");
        return -1;
    }
    return encode_pass(v, pool, in, 1, &out, cancel, flops, err);
}

bool seer_vision_batchable(const seer_vision *v) { return v && batchable(v); }

int seer_vision_encode_batch(seer_vision *v, seer_pool *pool, const seer_pixels *in, int n, float *const *out,
                             const volatile int *cancel, double *flops, seer_error *err) {
    if (!v || !out || n < 1 || n > SEER_VISION_MAX_BATCH) {
        seer_error_set(err, "vision: no model or outputs, or a batch of %d inputs (1..%d)", n, SEER_VISION_MAX_BATCH);
        return -1;
    }
    for (int i = 0; i < n; i++)
        if (!out[i]) {
            seer_error_set(err, "vision: no output buffer for input %d", i + 1);
            return -1;
        }
    if (batchable(v)) return encode_pass(v, pool, in, n, out, cancel, flops, err);
    for (int i = 0; i < n; i++)
        if (encode_pass(v, pool, &in[i], 1, &out[i], cancel, flops, err) != 0) return -1;
    return 0;
}
