/* The mixture-of-experts FFN (Qwen3 MoE, Qwen3-VL MoE), as llama.cpp's
 * build_moe_ffn computes it for these models: router logits, softmax over
 * all experts, the top n_expert_used, their probabilities renormalised to
 * sum 1 (the sum clamped below at 2^-14), and the weighted sum of those
 * experts' SwiGLU FFNs. The experts' matrices are read in place from the
 * file (llm_expert views into the 3-D tensors): a decode step touches only
 * the experts its row chose, their gate and up products in one dispatch. A
 * prompt's rows are grouped by expert, so each chosen expert's weights go
 * through one batched product for all its rows; the experts are shared out
 * among the threads, each expert whole on one thread. Qwen3.5 MoE adds a
 * shared expert every row runs, its output scaled by sigmoid(shexp_inp·x). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "decoder/llm_internal.h"
#include "ops/exp_kernels.h"
#include "seer/ops.h"

#define MOE_MAX_EXPERTS 4096 /* load.c refuses more */

/* Row probabilities p[n_expert] (softmaxed in place) → the k best experts,
 * highest first (lowest id on ties), and their renormalised weights. */
static void route_row(float *p, int n_expert, int k, int32_t *chosen, float *weights) {
    seer_softmax(p, n_expert);
    bool taken[MOE_MAX_EXPERTS];
    memset(taken, 0, sizeof(bool) * (size_t)n_expert);
    float sum = 0.0f;
    for (int s = 0; s < k; s++) {
        int best = -1;
        for (int e = 0; e < n_expert; e++)
            if (!taken[e] && (best < 0 || p[e] > p[best])) best = e;
        taken[best] = true;
        chosen[s] = best;
        weights[s] = p[best];
        sum += p[best];
    }
    if (sum < 6.103515625e-5f) sum = 6.103515625e-5f; /* as llama.cpp: no division by ~0 */
    for (int s = 0; s < k; s++) weights[s] /= sum;
}

/* a = act(a) ⊙ b: SiLU (Qwen), or GELU as llama.cpp's GeGLU rounds it (Gemma 4). */
static void expert_gate(const seer_llm *m, float *a, const float *b, int64_t n) {
    if (m->ffn_gelu) seer_geglu_f16(a, b, n);
    else seer_exp_gate(SEER_GATE_SILU, a, b, n);
}

/* Pick t's (row t / K, slot t % K) expert output y, weighted (and scaled by
 * its expert's output scale where the layer has them), into dst. */
static void weigh_pick(seer_ctx *c, const llm_layer *L, int t, float *dst, const float *y) {
    const float w = c->moe_weights[t] * (L->expert_scale ? L->expert_scale[c->moe_chosen[t]] : 1.0f);
    seer_scale(dst, y, w, c->m->info.n_embd);
}

/* Rows [i0, i1)'s weighted expert outputs summed slot by slot, in the order
 * llama.cpp adds them (the sums of a quantized model stay the same bits):
 * pick t = row·K + slot sits in moe_y's row pos[t] (pos NULL: row t). */
static void sum_picks(seer_ctx *c, const int32_t *pos, int64_t i0, int64_t i1) {
    const int E = c->m->info.n_embd, K = c->m->info.n_expert_used;
    for (int64_t i = i0; i < i1; i++) {
        float *out = c->xn + (size_t)i * E;
        for (int s = 0; s < K; s++) {
            const int64_t t = i * K + s;
            const float *y = c->moe_y + (size_t)(pos ? pos[t] : t) * E;
            if (s == 0) memcpy(out, y, sizeof(float) * (size_t)E);
            else seer_add(out, y, E);
        }
    }
}

/* Down products of a decode step's experts [s0, s1), each on the calling
 * thread alone, into their picks' rows of moe_y, weighted. */
typedef struct down_job {
    seer_ctx *c;
    const llm_layer *L;
} down_job;

static void down_range(void *ctx, int64_t s0, int64_t s1, int ith) {
    (void)ith;
    const down_job *j = ctx;
    seer_ctx *c = j->c;
    const int E = c->m->info.n_embd, F = c->m->n_ff_exp;
    for (int64_t s = s0; s < s1; s++) {
        const seer_weight down = llm_expert(&j->L->down_exps, c->moe_chosen[s], j->L->down_exps.n_out);
        float *y = c->moe_y + (size_t)s * E;
        seer_matmul(NULL, &down, c->ffn_a + (size_t)s * F, 1, y, NULL);
        weigh_pick(c, j->L, (int)s, y, y);
    }
}

/* A decode step's row: the gate and up products of all its experts read
 * the same input, so they go out together (one dispatch, the activations
 * quantized once); then the down products, one expert per thread at a time
 * when there are enough of them (one dispatch instead of one each), else
 * each over the whole pool. */
static void one_row(seer_ctx *c, const llm_layer *L) {
    const seer_llm *m = c->m;
    const int K = m->info.n_expert_used, F = m->n_ff_exp;
    enum { PER_CALL = SEER_MATMUL_MAX_PARTS / 2 };
    for (int s0 = 0; s0 < K; s0 += PER_CALL) {
        const int ns = K - s0 < PER_CALL ? K - s0 : PER_CALL;
        seer_weight mats[SEER_MATMUL_MAX_PARTS];
        const seer_weight *w[SEER_MATMUL_MAX_PARTS];
        float *y[SEER_MATMUL_MAX_PARTS];
        for (int s = 0; s < ns; s++) {
            const int e = c->moe_chosen[s0 + s];
            mats[2 * s] = llm_expert(&L->gate_exps, e, L->gate_up_stride);
            mats[2 * s + 1] = llm_expert(&L->up_exps, e, L->gate_up_stride);
            w[2 * s] = &mats[2 * s];
            w[2 * s + 1] = &mats[2 * s + 1];
            y[2 * s] = c->ffn_a + (size_t)(s0 + s) * F;
            y[2 * s + 1] = c->ffn_b + (size_t)(s0 + s) * F;
        }
        seer_matmul_multi(c->pool, 2 * ns, w, c->xn, 1, y, NULL);
    }
    expert_gate(c->m, c->ffn_a, c->ffn_b, (int64_t)K * F);
    if (K >= seer_pool_size(c->pool)) {
        down_job j = {.c = c, .L = L};
        seer_pool_for(c->pool, K, 1, down_range, &j);
    } else {
        for (int s = 0; s < K; s++) {
            const seer_weight down = llm_expert(&L->down_exps, c->moe_chosen[s], L->down_exps.n_out);
            seer_matmul(c->pool, &down, c->ffn_a + (size_t)s * F, 1, c->moe_x, NULL);
            weigh_pick(c, L, s, c->moe_y + (size_t)s * m->info.n_embd, c->moe_x);
        }
    }
    sum_picks(c, NULL, 0, 1);
}

/* The shared expert of rows [0, n) of c->xn into c->shexp_out, each row
 * ×sigmoid(its gate logit). */
static void shared_expert(seer_ctx *c, const llm_layer *L, int n) {
    const int E = c->m->info.n_embd, F = c->m->n_ff_shexp;
    const seer_weight *gate_up[2] = {&L->shexp_gate, &L->shexp_up};
    seer_matmul_multi(c->pool, 2, gate_up, c->xn, n, (float *const[]){c->ffn_a, c->ffn_b}, NULL);
    seer_exp_gate(SEER_GATE_SILU, c->ffn_a, c->ffn_b, (int64_t)n * F);
    seer_matmul(c->pool, &L->shexp_down, c->ffn_a, n, c->shexp_out, NULL);
    for (int i = 0; i < n; i++) {
        const float *x = c->xn + (size_t)i * E;
        float logit = 0.0f;
        for (int d = 0; d < E; d++) logit += x[d] * L->shexp_inp[d];
        const float w = 1.0f / (1.0f + expf(-logit));
        float *y = c->shexp_out + (size_t)i * E;
        seer_scale(y, y, w, E);
    }
}

static void routed_experts(seer_ctx *c, const llm_layer *L, int n, const float *router_in);

void llm_moe_ffn(seer_ctx *c, int l, int n, const float *router_in) {
    const llm_layer *L = &c->m->layers[l];
    if (L->shexp_inp) shared_expert(c, L, n); /* reads xn before the experts' sum replaces it */
    routed_experts(c, L, n, router_in);
    if (L->shexp_inp) seer_add(c->xn, c->shexp_out, (int64_t)n * c->m->info.n_embd);
}

/* A prompt's experts, each whole on the thread that claims it, largest
 * first: with every expert's products on one thread (seer_matmul without
 * the pool) the threads never wait for each other between experts, and
 * the gathering, the gate and the weighting run on all of them (on one
 * pool-wide product per expert, those were serial: a tenth of a Gemma 4
 * 26B-A4B prompt at two threads). Expert e's picks are moe_rows[start[e]
 * .. start[e + 1]), their rows the same rows of moe_y (gathered inputs,
 * then the weighted outputs) and of ffn_a / ffn_b. */
typedef struct experts_job {
    seer_ctx *c;
    const llm_layer *L;
    const int *start, *order;
    int n; /* the prompt's rows */
} experts_job;

static void experts_range(void *ctx, int64_t i0, int64_t i1, int ith) {
    (void)ith;
    const experts_job *j = ctx;
    seer_ctx *c = j->c;
    const llm_layer *L = j->L;
    const int E = c->m->info.n_embd, K = c->m->info.n_expert_used, F = c->m->n_ff_exp;
    for (int64_t i = i0; i < i1; i++) {
        const int e = j->order[i], first = j->start[e], cnt = j->start[e + 1] - first;
        const int32_t *picks = c->moe_rows + first;
        float *rows = c->moe_y + (size_t)first * E, *a = c->ffn_a + (size_t)first * F, *b = c->ffn_b + (size_t)first * F;
        for (int k = 0; k < cnt; k++)
            memcpy(rows + (size_t)k * E, c->xn + (size_t)(picks[k] / K) * E, sizeof(float) * (size_t)E);
        const seer_weight gate = llm_expert(&L->gate_exps, e, L->gate_up_stride),
                          up = llm_expert(&L->up_exps, e, L->gate_up_stride),
                          down = llm_expert(&L->down_exps, e, L->down_exps.n_out);
        const seer_weight *gate_up[2] = {&gate, &up};
        seer_matmul_multi_share(NULL, 2, gate_up, rows, cnt, j->n, (float *const[]){a, b}, NULL);
        expert_gate(c->m, a, b, (int64_t)cnt * F);
        const seer_weight *down_w[1] = {&down};
        seer_matmul_multi_share(NULL, 1, down_w, a, cnt, j->n, &rows, NULL); /* the gathered rows are used up */
        for (int k = 0; k < cnt; k++) weigh_pick(c, L, picks[k], rows + (size_t)k * E, rows + (size_t)k * E);
    }
}

/* Work over a prompt's rows (ctx: the seer_ctx): the routing, then the
 * picks' sums. */
static void sum_range(void *ctx, int64_t i0, int64_t i1, int ith) {
    (void)ith;
    seer_ctx *c = ctx;
    sum_picks(c, c->moe_pos, i0, i1);
}

static void route_range(void *ctx, int64_t i0, int64_t i1, int ith) {
    (void)ith;
    seer_ctx *c = ctx;
    const int X = c->m->info.n_expert, K = c->m->info.n_expert_used;
    for (int64_t i = i0; i < i1; i++)
        route_row(c->moe_probs + (size_t)i * X, X, K, c->moe_chosen + (size_t)i * K, c->moe_weights + (size_t)i * K);
}

static int compare_keys(const void *a, const void *b) {
    const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static void routed_experts(seer_ctx *c, const llm_layer *L, int n, const float *router_in) {
    const seer_llm *m = c->m;
    const int X = m->info.n_expert, K = m->info.n_expert_used;
    seer_matmul(c->pool, &L->router, router_in, n, c->moe_probs, NULL);
    if (n == 1) {
        route_range(c, 0, 1, 0);
        one_row(c, L);
        return;
    }
    seer_pool_for(c->pool, n, 16, route_range, c);

    /* counting sort of the (row, slot) picks by expert: start[e] .. start[e+1];
     * moe_pos[t]: where pick t went */
    int start[MOE_MAX_EXPERTS + 1];
    memset(start, 0, sizeof(int) * (size_t)(X + 1));
    for (int t = 0; t < n * K; t++) start[c->moe_chosen[t] + 1]++;
    for (int e = 0; e < X; e++) start[e + 1] += start[e];
    int fill[MOE_MAX_EXPERTS];
    memcpy(fill, start, sizeof(int) * (size_t)X);
    for (int t = 0; t < n * K; t++) {
        const int at = fill[c->moe_chosen[t]]++;
        c->moe_rows[at] = t; /* t = row·K + slot */
        c->moe_pos[t] = at;
    }
    /* the experts by descending pick count (ties by id), so that the last
     * ones claimed are the smallest */
    int64_t keys[MOE_MAX_EXPERTS];
    for (int e = 0; e < X; e++) keys[e] = (int64_t)(n - (start[e + 1] - start[e])) * MOE_MAX_EXPERTS + e;
    qsort(keys, (size_t)X, sizeof keys[0], compare_keys);
    int order[MOE_MAX_EXPERTS], used = 0; /* the experts with picks come first */
    for (int e = 0; e < X; e++) {
        order[e] = (int)(keys[e] % MOE_MAX_EXPERTS);
        used += start[order[e] + 1] > start[order[e]];
    }

    experts_job j = {.c = c, .L = L, .start = start, .order = order, .n = n};
    seer_pool_for_fixed(c->pool, used, 1, experts_range, &j);
    seer_pool_for(c->pool, n, 16, sum_range, c);
}

/* Gemma 4's row passes around its two FFNs, rows [r0, r1) of layer l. x
 * is still the layer's attention output: the router's input comes from it
 * (normed, scaled), the dense FFN's is xn. */
static void router_in_pass(seer_ctx *c, int l, int64_t r0, int64_t r1) {
    const seer_llm *m = c->m;
    const int E = m->info.n_embd;
    const float *scale = m->layers[l].router_in_scale, inv = 1.0f / sqrtf((float)E);
    float *r = c->moe_router_in + (size_t)r0 * E;
    memcpy(r, c->x + (size_t)r0 * E, sizeof(float) * (size_t)((r1 - r0) * E));
    seer_rmsnorm(r, NULL, r1 - r0, E, m->norm_eps);
    for (int64_t i = 0; i < r1 - r0; i++)
        for (int d = 0; d < E; d++) r[(size_t)i * E + d] *= inv * scale[d];
}

/* the dense FFN's output normed aside; xn = the experts' input, from x */
static void experts_in_pass(seer_ctx *c, int l, int64_t r0, int64_t r1) {
    const seer_llm *m = c->m;
    const int E = m->info.n_embd;
    const size_t at = (size_t)r0 * E, len = sizeof(float) * (size_t)((r1 - r0) * E);
    seer_rmsnorm(c->xn + at, m->layers[l].ffn_post_norm_1, r1 - r0, E, m->norm_eps);
    memcpy(c->moe_dense_out + at, c->xn + at, len);
    memcpy(c->xn + at, c->x + at, len);
    seer_rmsnorm(c->xn + at, m->layers[l].ffn_pre_norm_2, r1 - r0, E, m->norm_eps);
}

/* xn = the experts' output normed + the dense FFN's */
static void ffns_sum_pass(seer_ctx *c, int l, int64_t r0, int64_t r1) {
    const seer_llm *m = c->m;
    const int E = m->info.n_embd;
    const size_t at = (size_t)r0 * E;
    seer_rmsnorm(c->xn + at, m->layers[l].ffn_post_norm_2, r1 - r0, E, m->norm_eps);
    seer_add(c->xn + at, c->moe_dense_out + at, (r1 - r0) * E);
}

void llm_moe_beside_dense(seer_ctx *c, int l, int n) {
    llm_for_rows(c, l, n, router_in_pass);
    llm_dense_ffn(c, l, n);
    llm_for_rows(c, l, n, experts_in_pass);
    llm_moe_ffn(c, l, n, c->moe_router_in);
    llm_for_rows(c, l, n, ffns_sum_pass);
}
