/* The one ViT of seer, configured by switches, and its projectors: shared
 * structures of engine/vision. */
#ifndef SEER_VISION_INTERNAL_H
#define SEER_VISION_INTERNAL_H

#include "seer/matmul.h"
#include "seer/vision.h"

typedef enum vit_norm { VIT_NORM_LAYER, VIT_NORM_RMS } vit_norm;
typedef enum vit_act { VIT_ACT_QUICK_GELU, VIT_ACT_GELU_TANH, VIT_ACT_SILU } vit_act;

/* A linear layer: weight used in place, optional f32 bias, and the bounds of
 * a clippable linear (gemma4v: input clamped before the product, output
 * after; in_lo, in_hi, out_lo, out_hi, ±FLT_MAX where the file has none;
 * clip_in / clip_out false, as zeroed, when neither side is bounded). */
typedef struct vit_linear {
    seer_weight w;
    const float *b;
    float clamp[4];
    bool clip_in, clip_out;
} vit_linear;

typedef struct vit_norm_params {
    const float *w, *b; /* b NULL for RMSNorm / bias-free LayerNorm */
} vit_norm_params;

typedef struct vit_block {
    vit_norm_params ln1, ln2;
    vit_linear q, k, v, o;
    vit_linear ff_first;  /* width → n_ff (the gate's partner "up" when gated) */
    vit_linear ff_gate;   /* gated MLP only */
    vit_linear ff_second; /* n_ff → width */
    const float *ls1, *ls2; /* InternViT layer scales of the attention and MLP outputs, or NULL */
    /* Gemma 4 (GLM-OCR: q_norm, k_norm only): per-head RMSNorm weights of q and k [head_dim], RMSNorms of
     * the attention's and the MLP's outputs before their residual adds
     * [n_embd], the block's output scale (1 when absent). */
    const float *q_norm, *k_norm, *attn_post_norm, *ffn_post_norm;
    float out_scale;
} vit_block;

/* One of MobileVLM's LDP blocks: depthwise 3×3 convolution (kernel [C][9],
 * ky then kx) + LayerNorm, hardswish, squeeze-excite (fc1, ReLU, fc2,
 * hardsigmoid), pointwise convolution (no bias) + LayerNorm. */
typedef struct vit_ldp_block {
    const float *dw;
    vit_norm_params dw_norm;
    vit_linear se_fc1, se_fc2;
    vit_linear pw;
    vit_norm_params pw_norm;
} vit_ldp_block;

/* Qwen3-VL DeepStack merger fed by the output of block `layer`: the 4·n_v
 * features of each 2×2 cell → LayerNorm → fc1 → GELU → fc2 (→ n_embd_text). */
typedef struct vit_deepstack {
    int layer;
    vit_norm_params norm;
    vit_linear fc1, fc2;
} vit_deepstack;

/* MiniCPM-V's resampler: one cross-attention layer whose queries are
 * learned. kv: width → n_text (no bias); attention q/k/v/out with biases;
 * ln_q on the queries, ln_kv on the projected patches, ln_post on the
 * output; proj: n_text → n_text (no bias). */
typedef struct vit_resampler {
    const float *query; /* [n_queries][n_text] */
    vit_linear kv, q, k, v, o, proj;
    vit_norm_params ln_q, ln_kv, ln_post;
} vit_resampler;

/* What distinguishes CLIP, SigLIP, Qwen2-VL, Qwen2.5-VL and Qwen3-VL towers. */
typedef struct vit_config {
    vit_norm norm;
    vit_act act;
    bool gated_mlp;       /* down(act(gate·x) ⊙ up·x) */
    bool class_token;     /* CLIP: class embedding first, dropped before the projector */
    bool pos_embd;        /* learned absolute position rows */
    bool pos_interp;      /* Qwen3-VL: the learned square grid interpolated to the patch grid */
    bool pos_bucket;      /* MiniCPM-V (SigLIP NaViT): each patch takes the table row of its bucket, the grid's
                           * row and column scaled to the table's side (floor(side·i/n)) */
    bool pos_resize;      /* LFM2 (SigLIP2 NaFlex), PaddleOCR-VL: the square grid resized to the patch grid
                           * (antialiased bilinear) */
    bool pos_bicubic;     /* GLM-4V: the square grid resized to the patch grid (bicubic, half-pixel centres) */
    bool pos_stretch;     /* HunyuanVL: the square grid resampled bilinearly with its (grid + 0.1) / side scale */
    bool pre_ln, post_ln;
    bool rope2d;          /* Qwen: 2-D rotary embedding, patches ordered by 2×2 cell */
    bool rope2d_raster;   /* Pixtral, PaddleOCR-VL: the same rotation on raster-ordered patches */
    bool rope2d_odd_cols; /* Pixtral: the column pairs on the odd frequencies (base^(−(4j+2)/d)); q/k rows
                           * un-permuted at load (see vision_load.c) */
    bool window_attn;     /* Qwen2.5-VL: windowed blocks except every n_wa_pattern-th */
    bool mlp_norm;        /* LLaVA "mlp_norm" projector */
    /* Gemma 4 (gemma4v): pixels x → 2x − 1; positions from two learned
     * tables (x by column, y by row); RoPE of each head's first half by
     * column and second half by row (NEOX within each half, base 100); V
     * RMS-normed without weight; scores unscaled (q/k are normed). */
    bool pixels_signed, pos_xy, rope2d_halves, v_norm, unscaled_scores;
} vit_config;

struct seer_vision {
    gguf_file *gguf;
    seer_vision_precision precision; /* of the matrix products (exact unless set and the CPU has BF16) */
    /* encode progress (seer_vision_set_progress): fn(user, base + span * blocks done / blocks) */
    seer_progress_fn progress_fn;
    void *progress_user;
    float progress_base, progress_span;
    seer_vision_hparams hp;
    vit_config cfg;
    int head_dim;

    /* Patch embedding as a matrix over flattened patches (channel, ky, kx). */
    seer_weight patch_w;
    const float *patch_b;
    const float *class_embd;  /* [n_embd] */
    const float *pos_embd;    /* [n_pos][n_embd] (pos_xy: [2][n_pos][n_embd], the x table then the y table) */
    int n_pos;
    int pos_side;             /* pos_interp, pos_resize, pos_bucket: the grid is pos_side × pos_side */
    vit_norm_params pre_ln, post_ln;
    vit_norm_params embd_norm; /* GLM-4V: RMSNorm of the patch embeddings (v.norm_embd) before the positions, or unset */
    vit_block *blocks;

    /* Projector: mlp (mm.0, mm.2 | mlp_norm: mm.0, mm.1 LN, mm.3, mm.4 LN),
     * idefics3 (fc), qwen merger (mm.0, mm.2), gemma3 (mm0: the input
     * projection, transposed at load; mm_ln1: the soft-embedding RMSNorm),
     * internvl (mm_ln1: mlp.0 LayerNorm; mm0, mm2: mlp.1, mlp.3),
     * pixtral (mm_ln1: input_norm, merger: patch_merger (Mistral Small 3.1);
     * mm0, mm2: mm.1, mm.2; img_break: the [IMG_BREAK] embedding). */
    vit_linear mm0, mm2, merger;
    /* glm4v: merger = the 2×2 downsampling conv as a matrix over (channel,
     * ky, kx) with its bias, mm0 = fc, mm_ln1 = post_norm (LayerNorm), then
     * down(silu(gate·x) ⊙ up·x) with mm2 = down. */
    vit_linear mm_gate, mm_up;
    const float *img_break;
    vit_norm_params mm_ln1, mm_ln2;
    /* hunyuanvl: merger = the 2×2 conv (mm.0) as a matrix over (channel, ky,
     * kx), mm0 = the 1×1 conv (mm.2), mm2 = fc (mm.model.fc); mm_ln1 / mm_ln2
     * the RMS pre / post norms; the learned newline [mm0 width], begin and
     * end rows [n_embd_text]. */
    const float *img_newline, *img_begin, *img_end;
    vit_deepstack *deepstack; /* [hp.n_deepstack] */
    /* ldp / ldpv2 (MobileVLM): mm0, mm2 are the MLP (mlp.1, mlp.3 | mlp.0,
     * mlp.2); ldp's two inverted-residual blocks; ldpv2's PEG convolution. */
    vit_ldp_block ldp[2];
    const float *peg_w, *peg_b; /* [C][9], [C] */
    vit_resampler resampler;
    /* gemma4v: the standardisation of the pooled rows (x − std_bias) ⊙
     * std_scale, or NULL */
    const float *std_bias, *std_scale;
    /* some linear clamps its input (gemma4v's clippable linears): the
     * encode's scratch then holds a row block for the clamped copies */
    bool clamped_inputs;

    /* f32 copies made at load (1-D tensors stored in other types, the summed
     * Qwen patch kernel): freed with the model. */
    void **owned;
    int n_owned, cap_owned;
};

/* Side of Qwen2.5-VL's attention windows in pixels (fixed in llama.cpp):
 * 4×4 merged cells at patch 14. */
#define VIT_QWEN_WINDOW_PX 112

/* ---- sequence layout (vit_layout.c) ---- */

/* Order of the patches in the sequence and where each one sits. */
typedef struct vit_layout {
    int n_patches;   /* rows of the sequence without the class token */
    int gw, gh;      /* patch grid */
    int *row, *col;  /* [n_patches] grid position of sequence row i */
    /* Attention segments in sequence rows (class token included): windows,
     * or the whole sequence. Attention stays inside [seg_start[s], seg_start[s+1]). */
    int n_segments;
    int *seg_start;  /* [n_segments + 1] */
    /* Qwen: merged cell of sequence cell i (4 patch rows each) in raster order. */
    int *cell_raster;
} vit_layout;

/* Windows of `win` cells over a cols×rows cell grid, tiled from the top
 * left; edge windows are smaller. Writes, for every cell in window order
 * (windows row-major, cells row-major inside), its raster index; and the
 * first cell of each window (n_windows + 1 entries). Returns the number of
 * windows, or -1 when the arrays are NULL. */
int vit_window_partition(int cols, int rows, int win, int *cell_order, int *window_start);

int vit_layout_build(const struct seer_vision *v, int w, int h, bool windows, vit_layout *out);
/* Several inputs' layouts one after another in one sequence (no class token):
 * rows and positions concatenated, each input's segments kept as they are
 * (attention never crosses inputs); no cell_raster (each input's projects
 * with its own layout). */
int vit_layout_concat(const vit_layout *parts, int n, vit_layout *out);
void vit_layout_free(vit_layout *l);

/* ---- 2-D rotary embedding (rope2d.c) ---- */

/* cos/sin table [n][d/2] for head size d: pair i < d/4 turns by
 * row·base^(−4i/d), pair d/4 ≤ i < d/2 by col·base^(−4(i−d/4)/d), or with
 * odd_cols by col·base^(−(4(i−d/4)+2)/d) (Pixtral: ggml's rope over each
 * half, the second with freq_scale base^(−2/d)). */
void vit_rope2d_table(const int *row, const int *col, int n, int d, float base, bool odd_cols, float *cos_t,
                      float *sin_t);
/* Rotates every head of n rows of x ([n][n_head·d], NEOX pairs (i, i+d/2)). */
void vit_rope2d_apply(float *x, int64_t n, int n_head, int d, const float *cos_t, const float *sin_t);
/* The same table applied to each half of a head on its own (gemma4v): pair
 * i < d/4 turns (i, i + d/4), pair d/4 + i turns (d/2 + i, d/2 + i + d/4). */
void vit_rope2d_apply_halves(float *x, int64_t n, int n_head, int d, const float *cos_t, const float *sin_t);

/* ---- attention (attention.c) ---- */

/* out = softmax(q·kᵀ·scale)·v per head and per segment, without a mask.
 * q, k, v, out: [n][n_head·d]. Query tiles: memory O(tile·segment) per
 * thread, never [heads × n × n]. */
void vit_attention(seer_pool *pool, const float *q, const float *k, const float *v, float *out, int n_head, int d,
                   const int *seg_start, int n_segments, float *scratch, double *flops);
/* out = softmax(q·kᵀ·scale)·v per head for n_q query rows against n_kv key
 * and value rows (q, out: [n_q][n_head·d]; k, v: [n_kv][n_head·d]): a
 * resampler's queries attending to the patches. Scratch: as vit_attention's
 * for one segment of n_kv rows. */
void vit_cross_attention(seer_pool *pool, const float *q, int n_q, const float *k, const float *v, int n_kv, float *out,
                         int n_head, int d, float *scratch, double *flops);
/* Floats of scratch (64-byte aligned) vit_attention needs for n_segments
 * segments of up to max_seg rows and heads of d. */
int64_t vit_attention_scratch_floats(int n_threads, int n_segments, int64_t max_seg, int d);

/* ---- row-parallel element-wise helpers (vit_ops.c) ---- */

/* Where a pass's output goes: as computed, or rounded to F16 as it is
 * written, for products that all read it as F16 anyway (F16 weights at
 * exact precision: seer_matmul_batch_f16_in then skips its own rounding
 * pass; the values are the same). */
typedef enum vit_rows_out { VIT_OUT_F32, VIT_OUT_F16 } vit_rows_out;
void vit_norm_rows(seer_pool *pool, vit_norm kind, const float *x, float *out, const vit_norm_params *p,
                   int64_t n_rows, int64_t n, float eps);
void vit_norm_rows_to(seer_pool *pool, vit_norm kind, const float *x, float *out, const vit_norm_params *p,
                      int64_t n_rows, int64_t n, float eps, vit_rows_out to);
/* The MLP's activation in place over x: act(x), or with up (gated) x =
 * gelu(x) · up as llama.cpp's GeGLU rounds it for VIT_ACT_GELU_TANH, else
 * silu(x) · up. vit_act_rows, vit_swiglu_rows and vit_geglu_rows are its
 * cases with the outputs as computed. */
void vit_mlp_act_rows(seer_pool *pool, vit_act act, float *x, const float *up, int64_t n_elems, vit_rows_out to);
void vit_act_rows(seer_pool *pool, vit_act act, float *x, int64_t n_elems);
void vit_swiglu_rows(seer_pool *pool, float *gate, const float *up, int64_t n_elems);
/* gate = gelu(gate) · up, tanh GELU as llama.cpp's GeGLU rounds it (gemma4v). */
void vit_geglu_rows(seer_pool *pool, float *gate, const float *up, int64_t n_elems);
/* x ×= s over n elements. */
void vit_scale_rows(seer_pool *pool, float *x, float s, int64_t n_elems);
void vit_add_rows(seer_pool *pool, float *dst, const float *src, int64_t n_elems);
/* dst += src · scale (scale per column, n wide) over n_rows rows; a plain
 * add when scale is NULL. */
void vit_add_scaled_rows(seer_pool *pool, float *dst, const float *src, const float *scale, int64_t n_rows,
                         int64_t n);

/* ---- encoder pieces ---- */

/* Flattened patches in sequence order → patch embeddings (+ class token and
 * positions) into x[n_seq][n_embd]. */
void vit_patch_embed(const struct seer_vision *v, seer_pool *pool, const seer_pixels *in, const vit_layout *l,
                     float *patches, float *x);
/* Projectors: x [n_patches][n_embd] (after post-LN, without the class
 * token) → out [n_tokens][n_embd_out]. */
int vit_project_mlp(const struct seer_vision *v, seer_pool *pool, const float *x, int64_t n, float *out,
                    double *flops, seer_error *err);
int vit_project_gemma4v(const struct seer_vision *v, seer_pool *pool, const float *x, const vit_layout *l, float *out,
                        double *flops, seer_error *err);
int vit_project_idefics3(const struct seer_vision *v, seer_pool *pool, const float *x, const vit_layout *l,
                         float *out, double *flops, seer_error *err);
int vit_project_qwen(const struct seer_vision *v, seer_pool *pool, const float *x, const vit_layout *l, float *out,
                     double *flops, seer_error *err);
int vit_project_gemma3(const struct seer_vision *v, seer_pool *pool, const float *x, const vit_layout *l, float *out,
                       double *flops, seer_error *err);
int vit_project_internvl(const struct seer_vision *v, seer_pool *pool, const float *x, const vit_layout *l,
                         float *out, double *flops, seer_error *err);
int vit_project_pixtral(const struct seer_vision *v, seer_pool *pool, const float *x, const vit_layout *l,
                        float *out, double *flops, seer_error *err);
int vit_project_ldp(const struct seer_vision *v, seer_pool *pool, const float *x, const vit_layout *l, float *out,
                    double *flops, seer_error *err);
int vit_project_glm4v(const struct seer_vision *v, seer_pool *pool, const float *x, const vit_layout *l, float *out,
                      double *flops, seer_error *err);
/* PaddleOCR-VL, dots.ocr (projector_unshuffle_mlp.c) */
int vit_project_unshuffle_mlp(const struct seer_vision *v, seer_pool *pool, const float *x, const vit_layout *l,
                              float *out, double *flops, seer_error *err);
/* HunyuanVL's perceiver (projector_hunyuanvl.c): out gets (gw/2 + 1)·(gh/2) + 2 rows. */
int vit_project_hunyuanvl(const struct seer_vision *v, seer_pool *pool, const float *x, const vit_layout *l,
                          float *out, double *flops, seer_error *err);
int vit_project_resampler(const struct seer_vision *v, seer_pool *pool, const float *x, const vit_layout *l,
                          float *out, double *flops, seer_error *err);
/* Pixel unshuffle by s of a gw×gh raster grid of n_embd rows: output row
 * (i, j) of the (gh/s)×(gw/s) grid concatenates, dy outer and dx inner, the
 * rows of patch (s·i + dy, s·j + dx). out holds gw·gh·n_embd floats. */
void vit_pixel_unshuffle(const float *x, int gw, int gh, int64_t n_embd, int s, float *out);

/* Qwen merger MLP over 2×2 cells (4 consecutive sequence rows each):
 * [norm over 4·n_v →] fc1 → GELU → fc2; the row of sequence cell c goes to
 * out + cell_raster[c]·out_stride (raster order of the merged grid), so the
 * caller can place it as one slice of a wider row. */
int vit_merge_cells(const seer_vision *v, seer_pool *pool, const vit_norm_params *norm, float eps, const vit_linear *fc1,
                    const vit_linear *fc2, const float *x, const vit_layout *l, float *out, int64_t out_stride,
                    double *flops, seer_error *err);
/* Qwen3-VL: after block il, the DeepStack merger of that block (if any)
 * writes its slice of out [n_cells][n_embd_out]. */
int vit_deepstack_after_block(const struct seer_vision *v, seer_pool *pool, int il, const float *x,
                              const vit_layout *l, float *out, double *flops, seer_error *err);

/* Qwen3-VL position embeddings: the S×S table (row-major, x fastest) of
 * n_embd-wide rows resampled to a gw×gh grid as ggml's bilinear upscale
 * with aligned corners does it, added to x row by row, sequence row i
 * taking grid cell (row[i], col[i]). */
void vit_add_interp_positions(seer_pool *pool, const float *table, int side, int64_t n_embd, int gw, int gh,
                              const int *row, const int *col, int64_t n, float *x);
/* LFM2 (SigLIP2 NaFlex) position embeddings: the S×S table resized to a
 * gw×gh raster grid as ggml's bilinear interpolation with antialiasing
 * (half-pixel centres, triangle filter widened when shrinking) computes it,
 * added to the n = gw·gh rows of x. */
void vit_add_resized_positions(seer_pool *pool, const float *table, int side, int64_t n_embd, int gw, int gh,
                               float *x);
/* GLM-4V position embeddings: the S×S table resized to the gw×gh grid as
 * ggml's bicubic interpolation does it (half-pixel centres, a = −0.75,
 * clamped edges), sequence row i taking grid cell (row[i], col[i]). */
void vit_add_bicubic_positions(seer_pool *pool, const float *table, int side, int64_t n_embd, int gw, int gh,
                               const int *row, const int *col, int64_t n, float *x);
/* HunyuanVL position embeddings: the S×S table resampled to a gw×gh raster
 * grid as llama.cpp does it on the CPU (bilinear, half-pixel centres, scale
 * (gw + 0.1)/S across and (gh + 0.1)/S down, clamped neighbours), added to
 * the n = gw·gh rows of x. */
void vit_add_stretched_positions(seer_pool *pool, const float *table, int side, int64_t n_embd, int gw, int gh,
                                 float *x);
/* Gemma 3: mean over k×k blocks of a gw×gh raster grid of n_embd rows →
 * (gw/k)×(gh/k) rows, row-major (ggml's pool_2d sum order). */
void vit_avg_pool(const float *x, int gw, int gh, int64_t n_embd, int k, float *out);

/* y = W·x + b over n rows, counting FLOPs. */
/* y = x · w^T (+ bias) at the model's precision (seer_vision_set_precision). */
void vit_matmul(const seer_vision *v, seer_pool *pool, const seer_weight *w, const float *x, int64_t n, float *y,
                const float *bias);
void vit_linear_apply(const seer_vision *v, seer_pool *pool, const vit_linear *lin, const float *x, int64_t n, float *y,
                      double *flops);
/* A clippable linear's input: x itself when its input is unbounded, else
 * the n rows clamped into buf (buf may be x when x is not read again). */
const float *vit_linear_input(const vit_linear *lin, const float *x, int64_t n, float *buf);

#endif
