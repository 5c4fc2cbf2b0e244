/* Norms and activations of the ViT over all sequence rows, split across the
 * pool: with thousands of patches even these cheap passes are worth
 * spreading. Norms are seer/ops.h; activations use the SIMD exp kernels of
 * ops/exp_kernels.h (same functions, several times faster than libm per element). */
#include <string.h>

#include "seer/ops.h"
#include "vision/vision_internal.h"
#include "ops/exp_kernels.h"

typedef struct rows_job {
    vit_norm kind;
    vit_act act;
    const float *x;
    float *out;
    const float *aux;
    const vit_norm_params *p;
    int64_t n_rows, n;
    float eps;
} rows_job;

static void norm_range(void *ctx, int64_t r0, int64_t r1, int ith) {
    (void)ith;
    const rows_job *j = ctx;
    const float *x = j->x + r0 * j->n;
    float *out = j->out + r0 * j->n;
    if (j->kind == VIT_NORM_LAYER) {
        seer_layernorm(x, out, j->p->w, j->p->b, r1 - r0, j->n, j->eps);
        return;
    }
    if (out != x) memcpy(out, x, (size_t)((r1 - r0) * j->n) * sizeof(float));
    seer_rmsnorm(out, j->p->w, r1 - r0, j->n, j->eps);
    if (j->p->b)
        for (int64_t r = 0; r < r1 - r0; r++) seer_add(out + r * j->n, j->p->b, j->n);
}

void vit_norm_rows(seer_pool *pool, vit_norm kind, const float *x, float *out, const vit_norm_params *p,
                   int64_t n_rows, int64_t n, float eps) {
    rows_job j = {.kind = kind, .x = x, .out = out, .p = p, .n_rows = n_rows, .n = n, .eps = eps};
    seer_pool_for(pool, n_rows, 1, norm_range, &j);
}

/* Element passes go in multiples of 64 so threads do not share cache lines. */
#define ELEM_GRAIN 64

static void act_range(void *ctx, int64_t b, int64_t e, int ith) {
    (void)ith;
    const rows_job *j = ctx;
    if (e <= b) return;
    static const seer_gate_kind kinds[] = {[VIT_ACT_QUICK_GELU] = SEER_GATE_QUICK_GELU,
                                          [VIT_ACT_GELU_TANH] = SEER_GATE_GELU_TANH, [VIT_ACT_SILU] = SEER_GATE_SILU};
    seer_exp_gate(kinds[j->act], j->out + b, NULL, e - b);
}

void vit_act_rows(seer_pool *pool, vit_act act, float *x, int64_t n_elems) {
    rows_job j = {.act = act, .out = x, .n = n_elems};
    seer_pool_for(pool, j.n, ELEM_GRAIN, act_range, &j);
}

static void swiglu_range(void *ctx, int64_t b, int64_t e, int ith) {
    (void)ith;
    const rows_job *j = ctx;
    if (e > b) seer_exp_gate(SEER_GATE_SILU, j->out + b, j->aux + b, e - b); /* silu(gate)·up */
}

void vit_swiglu_rows(seer_pool *pool, float *gate, const float *up, int64_t n_elems) {
    rows_job j = {.out = gate, .aux = up, .n = n_elems};
    seer_pool_for(pool, j.n, ELEM_GRAIN, swiglu_range, &j);
}

static void add_range(void *ctx, int64_t b, int64_t e, int ith) {
    (void)ith;
    const rows_job *j = ctx;
    if (e > b) seer_add(j->out + b, j->aux + b, e - b);
}

void vit_add_rows(seer_pool *pool, float *dst, const float *src, int64_t n_elems) {
    rows_job j = {.out = dst, .aux = src, .n = n_elems};
    seer_pool_for(pool, j.n, ELEM_GRAIN, add_range, &j);
}

static void add_scaled_range(void *ctx, int64_t r0, int64_t r1, int ith) {
    (void)ith;
    const rows_job *j = ctx;
    for (int64_t r = r0; r < r1; r++) {
        float *dst = j->out + r * j->n;
        const float *src = j->x + r * j->n;
        for (int64_t i = 0; i < j->n; i++) dst[i] += src[i] * j->aux[i];
    }
}

void vit_add_scaled_rows(seer_pool *pool, float *dst, const float *src, const float *scale, int64_t n_rows,
                         int64_t n) {
    if (!scale) {
        vit_add_rows(pool, dst, src, n_rows * n);
        return;
    }
    rows_job j = {.x = src, .out = dst, .aux = scale, .n_rows = n_rows, .n = n};
    seer_pool_for(pool, n_rows, 1, add_scaled_range, &j);
}

static void geglu_range(void *ctx, int64_t b, int64_t e, int ith) {
    (void)ith;
    const rows_job *j = ctx;
    if (e > b) seer_geglu_f16(j->out + b, j->aux + b, e - b);
}

void vit_geglu_rows(seer_pool *pool, float *gate, const float *up, int64_t n_elems) {
    rows_job j = {.out = gate, .aux = up, .n = n_elems};
    seer_pool_for(pool, j.n, ELEM_GRAIN, geglu_range, &j);
}

static void scale_range(void *ctx, int64_t b, int64_t e, int ith) {
    (void)ith;
    const rows_job *j = ctx;
    for (int64_t i = b; i < e; i++) j->out[i] *= j->eps;
}

void vit_scale_rows(seer_pool *pool, float *x, float s, int64_t n_elems) {
    rows_job j = {.out = x, .eps = s, .n = n_elems};
    seer_pool_for(pool, j.n, ELEM_GRAIN, scale_range, &j);
}
