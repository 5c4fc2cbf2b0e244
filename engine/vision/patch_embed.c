/* Patch embedding: the stride-p convolution as one matrix product over the
 * patches flattened in the kernel's (channel, ky, kx) order; then the class
 * token and the learned positions where the tower has them (Qwen3-VL's
 * resampled to the patch grid). */
#include <string.h>

#include "vision/vision_internal.h"

typedef struct im2col_job {
    const seer_pixels *in;
    const vit_layout *l;
    int p;
    bool signed_px; /* x → 2x − 1 (gemma4v) */
    float *patches;
} im2col_job;

static void im2col_range(void *ctx, int64_t i0, int64_t i1, int ith) {
    (void)ith;
    const im2col_job *j = ctx;
    int p = j->p;
    int64_t n_in = 3 * (int64_t)p * p;
    for (int64_t i = i0; i < i1; i++) {
        float *dst = j->patches + i * n_in;
        int64_t y0 = (int64_t)j->l->row[i] * p, x0 = (int64_t)j->l->col[i] * p;
        for (int c = 0; c < 3; c++)
            for (int ky = 0; ky < p; ky++)
                for (int kx = 0; kx < p; kx++) {
                    const float px = seer_pixel_at(j->in, c, y0 + ky, x0 + kx);
                    *dst++ = j->signed_px ? 2.0f * px - 1.0f : px;
                }
    }
}

void vit_patch_embed(const seer_vision *v, seer_pool *pool, const seer_pixels *in, const vit_layout *l,
                     float *patches, float *x) {
    int64_t d = v->hp.n_embd;
    im2col_job j = {.in = in, .l = l, .p = v->hp.patch_size, .signed_px = v->cfg.pixels_signed, .patches = patches};
    seer_pool_for(pool, l->n_patches, 1, im2col_range, &j);
    float *px = v->cfg.class_token ? x + d : x;
    vit_matmul(v, pool, &v->patch_w, patches, l->n_patches, px, v->patch_b);
    int64_t n_seq = l->n_patches;
    if (v->embd_norm.w) vit_norm_rows(pool, VIT_NORM_RMS, px, px, &v->embd_norm, l->n_patches, d, v->hp.eps);
    if (v->cfg.class_token) {
        memcpy(x, v->class_embd, (size_t)d * sizeof(float));
        n_seq++;
    }
    if (v->cfg.pos_xy) { /* gemma4v: the x table's row of the column, the y table's of the row */
        const float *ty = v->pos_embd + (int64_t)v->n_pos * d;
        for (int64_t i = 0; i < l->n_patches; i++) {
            const float *px = v->pos_embd + (int64_t)l->col[i] * d, *py = ty + (int64_t)l->row[i] * d;
            float *row = x + i * d;
            for (int64_t c = 0; c < d; c++) row[c] += px[c];
            for (int64_t c = 0; c < d; c++) row[c] += py[c];
        }
        return;
    }
    if (v->cfg.pos_resize) {
        vit_add_resized_positions(pool, v->pos_embd, v->pos_side, d, l->gw, l->gh, x);
        return;
    }
    if (v->cfg.pos_stretch) { /* HunyuanVL: raster order, the table stretched by (grid + 0.1)/side */
        vit_add_stretched_positions(pool, v->pos_embd, v->pos_side, d, l->gw, l->gh, x);
        return;
    }
    if (v->cfg.pos_bucket) { /* MiniCPM-V: the table row of each patch's bucket (raster order, no class token) */
        for (int64_t i = 0; i < l->n_patches; i++) {
            int64_t by = (int64_t)v->pos_side * l->row[i] / l->gh, bx = (int64_t)v->pos_side * l->col[i] / l->gw;
            const float *pos = v->pos_embd + (by * v->pos_side + bx) * d;
            float *row = x + i * d;
            for (int64_t c = 0; c < d; c++) row[c] += pos[c];
        }
        return;
    }
    if (v->cfg.pos_bicubic) { /* GLM-4V: the grid resized bicubically, rows in merge-cell order */
        vit_add_bicubic_positions(pool, v->pos_embd, v->pos_side, d, l->gw, l->gh, l->row, l->col, l->n_patches, x);
        return;
    }
    if (v->cfg.pos_interp) { /* Qwen3-VL: the grid resampled, rows in merge-cell order */
        vit_add_interp_positions(pool, v->pos_embd, v->pos_side, d, l->gw, l->gh, l->row, l->col, l->n_patches, x);
        return;
    }
    /* Sequence row r (class token first) takes position row r: the layout
     * is raster order whenever the tower has learned positions as they are. */
    if (v->cfg.pos_embd) vit_add_rows(pool, x, v->pos_embd, n_seq * d);
}
