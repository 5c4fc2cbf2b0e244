/* Norms and activations of the ViT over all sequence rows, split across the
 * pool: with thousands of patches even these cheap passes are worth
 * spreading. Norms are seer/ops.h; activations use the SIMD exp kernels of
 * ops/exp_kernels.h (same functions, several times faster than libm per element). */
#include <string.h>

#include "seer/ops.h"
#include "seer/tensor.h"
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
    bool geglu;   /* gate_range: llama.cpp's GeGLU (aux the up rows) */
    bool f16_out; /* outputs rounded to F16 as they are made (vit_rows_out) */
} rows_job;

/* A row (or a piece of an element pass) rounded while still in L1: the
 * products that read it as F16 then skip a pass over all of it. */
static void round_out(const rows_job *j, float *out, int64_t n) {
    if (j->f16_out) seer_f32_round_fp16_row(out, out, n);
}

static void norm_range(void *ctx, int64_t r0, int64_t r1, int ith) {
    (void)ith;
    const rows_job *j = ctx;
    for (int64_t r = r0; r < r1; r++) {
        const float *x = j->x + r * j->n;
        float *out = j->out + r * j->n;
        if (j->kind == VIT_NORM_LAYER) {
            seer_layernorm(x, out, j->p->w, j->p->b, 1, j->n, j->eps);
        } else {
            if (out != x) memcpy(out, x, (size_t)j->n * sizeof(float));
            seer_rmsnorm(out, j->p->w, 1, j->n, j->eps);
            if (j->p->b) seer_add(out, j->p->b, j->n);
        }
        round_out(j, out, j->n);
    }
}

void vit_norm_rows_to(seer_pool *pool, vit_norm kind, const float *x, float *out, const vit_norm_params *p,
                      int64_t n_rows, int64_t n, float eps, vit_rows_out to) {
    rows_job j = {.kind = kind, .x = x, .out = out, .p = p, .n_rows = n_rows, .n = n, .eps = eps,
                  .f16_out = to == VIT_OUT_F16};
    seer_pool_for(pool, n_rows, 1, norm_range, &j);
}

void vit_norm_rows(seer_pool *pool, vit_norm kind, const float *x, float *out, const vit_norm_params *p,
                   int64_t n_rows, int64_t n, float eps) {
    vit_norm_rows_to(pool, kind, x, out, p, n_rows, n, eps, VIT_OUT_F32);
}

/* Element passes go in multiples of 64 so threads do not share cache lines. */
#define ELEM_GRAIN 64
/* An element pass's piece: made, then rounded while in L1 (a multiple of ELEM_GRAIN). */
#define ELEM_PIECE 4096

/* The gate over elements [b, e) in pieces; up (aux) is NULL for a plain activation. */
static void gate_range(void *ctx, int64_t b, int64_t e, int ith) {
    (void)ith;
    const rows_job *j = ctx;
    static const seer_gate_kind kinds[] = {[VIT_ACT_QUICK_GELU] = SEER_GATE_QUICK_GELU,
                                          [VIT_ACT_GELU_TANH] = SEER_GATE_GELU_TANH, [VIT_ACT_SILU] = SEER_GATE_SILU};
    for (int64_t p = b; p < e; p += ELEM_PIECE) {
        const int64_t n = e - p < ELEM_PIECE ? e - p : ELEM_PIECE;
        const float *up = j->aux ? j->aux + p : NULL;
        if (j->geglu) seer_geglu_f16(j->out + p, up, n);
        else seer_exp_gate(kinds[j->act], j->out + p, up, n);
        round_out(j, j->out + p, n);
    }
}

void vit_mlp_act_rows(seer_pool *pool, vit_act act, float *x, const float *up, int64_t n_elems, vit_rows_out to) {
    const bool geglu = up && act == VIT_ACT_GELU_TANH;
    rows_job j = {.act = up && !geglu ? VIT_ACT_SILU : act, .geglu = geglu, .out = x, .aux = up, .n = n_elems,
                  .f16_out = to == VIT_OUT_F16};
    seer_pool_for(pool, j.n, ELEM_GRAIN, gate_range, &j);
}

void vit_act_rows(seer_pool *pool, vit_act act, float *x, int64_t n_elems) {
    vit_mlp_act_rows(pool, act, x, NULL, n_elems, VIT_OUT_F32);
}

void vit_swiglu_rows(seer_pool *pool, float *gate, const float *up, int64_t n_elems) {
    vit_mlp_act_rows(pool, VIT_ACT_SILU, gate, up, n_elems, VIT_OUT_F32);
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

void vit_geglu_rows(seer_pool *pool, float *gate, const float *up, int64_t n_elems) {
    vit_mlp_act_rows(pool, VIT_ACT_GELU_TANH, gate, up, n_elems, VIT_OUT_F32);
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
