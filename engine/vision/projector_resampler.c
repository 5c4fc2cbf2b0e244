/* MiniCPM-V's resampler, as llama.cpp's graph computes it: the patches
 * (raster order) through kv and ln_kv are the values; the keys add to them a
 * 2-D sinusoidal position of each patch, [sin(ω·col), cos(ω·col), sin(ω·row),
 * cos(ω·row)] with ω_i = 10000^(−i/(n/4)), i < n/4 (the checkpoint's
 * pos_embed_k table is not read); the learned queries through ln_q attend
 * to them (heads of 128, q/k/v/out with biases); then ln_post and proj.
 * Every input gives n_queries rows whatever its size. */
#include <math.h>
#include <stdlib.h>

#include "ops/exp_kernels.h"
#include "vision/vision_internal.h"

#define RESAMPLER_POS_BASE 10000.0f

/* k = v + the sinusoidal position of each raster patch of a gw-wide grid. */
static void add_positions(float *k, const float *v, int64_t n, int64_t width, int gw) {
    int64_t quarter = width / 4;
    for (int64_t t = 0; t < n; t++) {
        float col = (float)(t % gw), row = (float)(t / gw);
        const float *src = v + t * width;
        float *dst = k + t * width;
        for (int64_t i = 0; i < quarter; i++) {
            float omega = 1.0f / powf(RESAMPLER_POS_BASE, (float)i / (float)quarter);
            float ax = omega * col, ay = omega * row;
            dst[i] = src[i] + sinf(ax);
            dst[quarter + i] = src[quarter + i] + cosf(ax);
            dst[2 * quarter + i] = src[2 * quarter + i] + sinf(ay);
            dst[3 * quarter + i] = src[3 * quarter + i] + cosf(ay);
        }
    }
}

int vit_project_resampler(const seer_vision *v, seer_pool *pool, const float *x, const vit_layout *l, float *out,
                          double *flops, seer_error *err) {
    const vit_resampler *r = &v->resampler;
    int64_t n = l->n_patches, t = v->hp.n_embd_text, nq = v->hp.n_queries;
    int64_t d = SEER_RESAMPLER_HEAD_DIM, n_head = t / d;
    /* patches through kv; keys with positions; projected values; queries, attention, output */
    float *vals = malloc((size_t)(3 * n * t + 3 * nq * t + nq * n) * sizeof(float));
    if (!vals) {
        seer_error_set(err, "vision: out of memory (resampler)");
        return -1;
    }
    float *keys = vals + n * t, *vproj = keys + n * t, *q = vproj + n * t, *qproj = q + nq * t, *att = qproj + nq * t,
          *scores = att + nq * t;

    vit_linear_apply(v, pool, &r->kv, x, n, vals, flops);
    vit_norm_rows(pool, VIT_NORM_LAYER, vals, vals, &r->ln_kv, n, t, v->hp.eps);
    add_positions(keys, vals, n, t, l->gw);
    vit_linear_apply(v, pool, &r->v, vals, n, vproj, flops);
    float *kproj = vals; /* the values are projected: their rows take the projected keys */
    vit_linear_apply(v, pool, &r->k, keys, n, kproj, flops);
    vit_norm_rows(pool, VIT_NORM_LAYER, r->query, q, &r->ln_q, nq, t, v->hp.eps);
    vit_linear_apply(v, pool, &r->q, q, nq, qproj, flops);

    for (int64_t h = 0; h < n_head; h++) {
        seer_sgemm(pool, nq, n, d, 1.0f / sqrtf((float)d), qproj + h * d, t, kproj + h * d, t, true, 0.0f, scores, n);
        for (int64_t i = 0; i < nq; i++) seer_exp_softmax(scores + i * n, n);
        seer_sgemm(pool, nq, d, n, 1.0f, scores, n, vproj + h * d, t, false, 0.0f, att + h * d, t);
    }
    if (flops) *flops += 4.0 * (double)nq * (double)n * (double)t;
    vit_linear_apply(v, pool, &r->o, att, nq, q, flops);
    vit_norm_rows(pool, VIT_NORM_LAYER, q, q, &r->ln_post, nq, t, v->hp.eps);
    vit_linear_apply(v, pool, &r->proj, q, nq, out, flops);
    free(vals);
    return 0;
}
