/* MiniCPM-V's resampler, as llama.cpp's graph computes it: the patches
 * (raster order) through kv and ln_kv are the values; the keys add to them a
 * 2-D sinusoidal position of each patch, [sin(ω·col), cos(ω·col), sin(ω·row),
 * cos(ω·row)] with ω_i = 10000^(−i/(n/4)), i < n/4 (the checkpoint's
 * pos_embed_k table is not read); the learned queries through ln_q attend
 * to them (heads of 128, q/k/v/out with biases); then ln_post and proj.
 * Every input gives n_queries rows whatever its size. */
#include <math.h>
#include <stdlib.h>

#include "vision/vision_internal.h"

#define RESAMPLER_POS_BASE 10000.0f

/* The grid coordinates a patch's column or row takes: a gw-wide grid of n. */
static int64_t grid_coords(int64_t n, int gw) { return gw > (n + gw - 1) / gw ? gw : (n + gw - 1) / gw; }

/* k = v + the sinusoidal position of each raster patch of a gw-wide grid.
 * A patch's column and row take a few values each (a grid's width or
 * height): their sines and cosines come from one table of every
 * coordinate (sc: 2 · grid_coords · width / 4 floats), the same floats as
 * per patch (libm's sinf, cosf and powf per patch and frequency were 0.7%
 * of a MiniCPM-V 4.5 encode). */
static void add_positions(float *k, const float *v, int64_t n, int64_t width, int gw, float *sc) {
    const int64_t quarter = width / 4, coords = grid_coords(n, gw); /* sc: [coordinate][i]: sin, cos */
    for (int64_t i = 0; i < quarter; i++) {
        const float omega = 1.0f / powf(RESAMPLER_POS_BASE, (float)i / (float)quarter);
        for (int64_t c = 0; c < coords; c++) {
            const float a = omega * (float)c;
            sc[2 * (c * quarter + i)] = sinf(a);
            sc[2 * (c * quarter + i) + 1] = cosf(a);
        }
    }
    for (int64_t t = 0; t < n; t++) {
        const float *col = sc + 2 * (t % gw) * quarter, *row = sc + 2 * (t / gw) * quarter;
        const float *src = v + t * width;
        float *dst = k + t * width;
        for (int64_t i = 0; i < quarter; i++) {
            dst[i] = src[i] + col[2 * i];
            dst[quarter + i] = src[quarter + i] + col[2 * i + 1];
            dst[2 * quarter + i] = src[2 * quarter + i] + row[2 * i];
            dst[3 * quarter + i] = src[3 * quarter + i] + row[2 * i + 1];
        }
    }
}

int vit_project_resampler(const seer_vision *v, seer_pool *pool, const float *x, const vit_layout *l, float *out,
                          double *flops, seer_error *err) {
    const vit_resampler *r = &v->resampler;
    int64_t n = l->n_patches, t = v->hp.n_embd_text, nq = v->hp.n_queries;
    int64_t d = SEER_RESAMPLER_HEAD_DIM, n_head = t / d;
    /* patches through kv; keys with positions; projected values; queries, attention, output; the positions'
     * table; the attention's scratch (64-byte aligned) */
    const size_t rows_floats = (size_t)(3 * n * t + 3 * nq * t + 2 * grid_coords(n, l->gw) * (t / 4) + 15) / 16 * 16;
    const size_t attn_floats = (size_t)vit_attention_scratch_floats(seer_pool_size(pool), 1, n, (int)d);
    float *vals = aligned_alloc(64, (rows_floats + attn_floats) * sizeof(float));
    if (!vals) {
        seer_error_set(err, "vision: out of memory (resampler)");
        return -1;
    }
    float *keys = vals + n * t, *vproj = keys + n * t, *q = vproj + n * t, *qproj = q + nq * t, *att = qproj + nq * t,
          *positions = att + nq * t, *attn_work = vals + rows_floats;

    vit_linear_apply(v, pool, &r->kv, x, n, vals, flops);
    vit_norm_rows(pool, VIT_NORM_LAYER, vals, vals, &r->ln_kv, n, t, v->hp.eps);
    add_positions(keys, vals, n, t, l->gw, positions);
    vit_linear_apply(v, pool, &r->v, vals, n, vproj, flops);
    float *kproj = vals; /* the values are projected: their rows take the projected keys */
    vit_linear_apply(v, pool, &r->k, keys, n, kproj, flops);
    vit_norm_rows(pool, VIT_NORM_LAYER, r->query, q, &r->ln_q, nq, t, v->hp.eps);
    vit_linear_apply(v, pool, &r->q, q, nq, qproj, flops);

    /* on seer's FP32 GEMM, as the towers' attention: OpenBLAS's sgemm ran it on whatever kernels its CPU
     * detection chose (AVX2 ones under OPENBLAS_CORETYPE=Haswell) */
    vit_cross_attention(pool, qproj, (int)nq, kproj, vproj, (int)n, att, (int)n_head, (int)d, attn_work, flops);
    vit_linear_apply(v, pool, &r->o, att, nq, q, flops);
    vit_norm_rows(pool, VIT_NORM_LAYER, q, q, &r->ln_post, nq, t, v->hp.eps);
    vit_linear_apply(v, pool, &r->proj, q, nq, out, flops);
    free(vals);
    return 0;
}
