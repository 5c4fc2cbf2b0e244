/* Qwen3.5's Gated DeltaNet layer, a token mixer with a recurrent state in
 * place of attention. Per row: in_proj gives q, k (n_k heads) and v (n_v
 * heads) channels, a causal depthwise convolution over them (its state:
 * the last K − 1 in_proj rows) and SiLU; q and k L2-normalised, q scaled by
 * 1/sqrt(d); beta = sigmoid(beta·x) and the log-decay g = softplus(alpha·x
 * + dt_bias)·A (A < 0) per value head. Value head h reads key head
 * h mod n_k (the converter's tiled order). Each value head keeps a d×d
 * matrix S (rows: key dims, columns: value dims) and per row:
 *   S ← e^g·S;  u = beta·(v − Sᵀk);  S ← S + k·uᵀ;  o = Sᵀq.
 * The output: RMSNorm(o)·norm·SiLU(z) per head, then out_proj.
 *
 * A prompt goes through the chunked form of that recurrence: within a
 * chunk of C rows with cumulative decays G_t = g_1 + … + g_t and the state
 * S₀ at its start,
 *   (I + L)·U = beta⊙(V − e^G⊙(K·S₀)),  L[t][s] = beta_t·e^(G_t−G_s)·k_t·k_s (s < t),
 *   O = e^G⊙(Q·S₀) + (e^(G_t−G_s)·q_t·k_s)_{s≤t}·U,
 *   S = e^(G_C)·S₀ + (e^(G_C−G_s)·k_s)ᵀ·U,
 * so the work is GEMMs and one triangular solve per head and chunk instead
 * of 2·d² scalar updates per row. Every exponent is ≤ 0 (no overflow).
 * Decode rows (a few) take the recurrence one row at a time (delta_step.h). */
#include <math.h>
#include <string.h>

#include "decoder/llm_internal.h"
#include "kernels/gemm_f32_internal.h"
#include "kernels/matmul_internal.h"
#include "ops/exp_kernels.h"
#include "seer/ops.h"

#define GDN_CHUNK 64
/* Fewer rows than this go through the recurrence row by row. */
#define GDN_CHUNKED_MIN_ROWS 4

static inline float sigmoidf(float x) { return 1.0f / (1.0f + expf(-x)); }
/* as ggml: x itself above 20 */
static inline float softplusf(float x) { return x > 20.0f ? x : logf(1.0f + expf(x)); }

/* G and the decays [C], L and P [C][C], U [C][d] and the decayed keys
 * transposed [d][C], then the packed operands of seer's FP32 GEMM: the
 * chunk's keys (as rows), S and U (as columns). */
size_t llm_gated_delta_work_floats(const seer_llm *m) {
    const size_t C = GDN_CHUNK, d = (size_t)m->gdn.d;
    return 2 * C + 2 * C * C + 2 * C * d + seer_f32_packed_floats(C, (int64_t)d) +
           seer_f32_packed_floats((int64_t)d, (int64_t)d) + seer_f32_packed_floats((int64_t)d, C);
}

/* One sequence's rows [row0, row0 + n) of the batch and its recurrent
 * state (rec_state + the layer's offset: the conv rows, then the heads'
 * S). A multi-sequence step (decode_multi.c) has one per context, one row
 * each; the products around them run over all rows at once. */
typedef struct gdn_seq {
    float *state;
    int row0, n;
} gdn_seq;

typedef struct gdn_job {
    seer_ctx *c; /* whose scratch holds the rows */
    const llm_layer *L;
    const gdn_seq *seq;
    int n_seq;
} gdn_job;

/* Row j of a sequence's convolution window: its state's K − 1 rows, then its in_proj rows. */
static const float *window_row(const seer_ctx *c, const gdn_seq *s, int j) {
    const int ch = llm_gdn_channels(&c->m->gdn), H = c->m->gdn.conv_len - 1;
    return j < H ? s->state + (size_t)j * ch : c->gdn_mix + (size_t)(s->row0 + j - H) * ch;
}

static const gdn_seq *seq_of_row(const gdn_job *j, int64_t row) {
    int s = 0;
    while (row >= j->seq[s].row0 + j->seq[s].n) s++;
    return &j->seq[s];
}

/* L2 norm as llama.cpp computes it: x / sqrt(Σx² + eps), then ×scale; the
 * sum in double as ggml sums it (one float running sum before waited on
 * its add's latency every value: 2 × 16 heads of 128 a row of Qwen3.5-4B). */
static void l2_norm(float *x, int n, float eps, float scale) {
    const float f = scale / sqrtf((float)seer_sum_squares(x, n) + eps);
    seer_scale(x, x, f, n);
}

/* One row of the causal depthwise convolution: out[e] = 0 + Σ_k taps[k][e]
 * · w[k][e], oldest tap first as ggml_ssm_conv sums it, each product
 * rounded then added (the same floats as one channel at a time), four
 * channels a step: one at a time, this loop was 2.4% of a Qwen3.5-4B
 * prompt (perf, one thread), almost all of its time loop overhead. */
typedef float f32x4 __attribute__((vector_size(16)));
static void conv_row(float *out, const float *const taps[], const float *w, int ch, int K) {
    int e = 0;
    for (; e + 4 <= ch; e += 4) {
        f32x4 sum = {0.0f, 0.0f, 0.0f, 0.0f}, t, wk;
        for (int k = 0; k < K; k++) {
            memcpy(&t, taps[k] + e, sizeof t);
            memcpy(&wk, w + (size_t)k * ch + e, sizeof wk);
            sum += t * wk;
        }
        memcpy(out + e, &sum, sizeof sum);
    }
    for (; e < ch; e++) {
        float sum = 0.0f;
        for (int k = 0; k < K; k++) sum += taps[k][e] * w[(size_t)k * ch + e];
        out[e] = sum;
    }
}

/* Rows [r0, r1): convolution + SiLU into gdn_qkv, q and k normed, beta
 * and g from their projections (in place). */
static void prepare_rows(void *ctx, int64_t r0, int64_t r1, int ith) {
    (void)ith;
    const gdn_job *j = ctx;
    seer_ctx *c = j->c;
    const llm_gdn_dims *g = &c->m->gdn;
    const llm_layer *L = j->L;
    const int ch = llm_gdn_channels(g), K = g->conv_len, d = g->d;
    const float eps = c->m->norm_eps, q_scale = 1.0f / sqrtf((float)d);
    for (int64_t i = r0; i < r1; i++) {
        const gdn_seq *s = seq_of_row(j, i);
        const float *taps[LLM_CONV_LEN_MAX];
        for (int k = 0; k < K; k++) taps[k] = window_row(c, s, (int)(i - s->row0) + k);
        float *out = c->gdn_qkv + (size_t)i * ch;
        conv_row(out, taps, L->gdn_conv, ch, K);
        seer_silu(out, ch);
        for (int h = 0; h < g->n_k; h++) {
            l2_norm(out + (size_t)h * d, d, eps, q_scale);
            l2_norm(out + (size_t)(g->n_k + h) * d, d, eps, 1.0f);
        }
        float *beta = c->gdn_beta + (size_t)i * g->n_v, *gl = c->gdn_g + (size_t)i * g->n_v;
        for (int h = 0; h < g->n_v; h++) {
            beta[h] = sigmoidf(beta[h]);
            gl[h] = softplusf(gl[h] + L->gdn_dt_bias[h]) * L->gdn_a[h];
        }
    }
}

/* Where value head h's q, k, v of batch row t are (rows ch apart). */
static const float *row_q(const seer_ctx *c, int t, int h) {
    const llm_gdn_dims *g = &c->m->gdn;
    return c->gdn_qkv + (size_t)t * llm_gdn_channels(g) + (size_t)(h % g->n_k) * g->d;
}
static const float *row_k(const seer_ctx *c, int t, int h) { return row_q(c, t, h) + (size_t)c->m->gdn.n_k * c->m->gdn.d; }
static const float *row_v(const seer_ctx *c, int t, int h) {
    const llm_gdn_dims *g = &c->m->gdn;
    return c->gdn_qkv + (size_t)t * llm_gdn_channels(g) + (size_t)(2 * g->n_k + h) * g->d;
}

/* The recurrence one row at a time for head h, rows [t0, t1); u: d floats. */
static void head_rows(seer_ctx *c, int h, int t0, int t1, float *S, float *u) {
    const llm_gdn_dims *g = &c->m->gdn;
    const int d = g->d, nv = g->n_v;
    for (int t = t0; t < t1; t++) {
        const float decay = expf(c->gdn_g[(size_t)t * nv + h]), beta = c->gdn_beta[(size_t)t * nv + h];
        c->delta_step(S, d, row_q(c, t, h), row_k(c, t, h), row_v(c, t, h), decay, beta,
                      c->attn + ((size_t)t * nv + h) * d, u);
    }
}

/* (I + L)·U = R for the chunk's C rows, R in U, L given negated (Lneg,
 * C floats a row; its upper part is not read): forward substitution a row
 * at a time, U_t = R_t + Σ_{s<t} Lneg[t][s]·U_s, each sum one product on
 * seer's FP32 GEMM against the rows solved before it, which are packed
 * into Up (U as columns over C rows: what the products after the solve
 * read) as each is solved. cblas_strsm before: its kernels followed
 * OpenBLAS's CPU detection (AVX2 ones under OPENBLAS_CORETYPE=Haswell),
 * and its packing and blocking were most of its time at these sizes. */
static void solve_unit_lower(const seer_f32_kernel *kern, int C, int d, const float *Lneg, float *U, float *Up) {
    for (int t = 0; t < C; t++) {
        float *Ut = U + (size_t)t * d;
        if (t > 0) seer_f32_gemm_packed_prefix(kern, 1, d, t, Lneg + (size_t)t * C, (size_t)C, Up, C, Ut, (size_t)d, true);
        seer_f32_pack_cols_lines(U, false, (size_t)d, t, t + 1, d, Up, C);
    }
}

/* Row t of the chunk: U_t = beta·(V_t − e^G·U_t) and O_t ×= e^G, four
 * floats at a time with the same roundings as value by value (which, not
 * vectorised, was half of the chunk's own time outside the products). */
static void residual_row(float *Ut, float *Ot, const float *Vt, int d, float beta, float eg) {
    int jj = 0;
    for (; jj + 4 <= d; jj += 4) {
        f32x4 u, o, v;
        memcpy(&u, Ut + jj, sizeof u);
        memcpy(&o, Ot + jj, sizeof o);
        memcpy(&v, Vt + jj, sizeof v);
        u = beta * (v - eg * u);
        o *= eg;
        memcpy(Ut + jj, &u, sizeof u);
        memcpy(Ot + jj, &o, sizeof o);
    }
    for (; jj < d; jj++) {
        Ut[jj] = beta * (Vt[jj] - eg * Ut[jj]);
        Ot[jj] *= eg;
    }
}

/* The chunked form for head h over rows [t0, t0 + C) (see the top). The
 * products and the triangular solve run on seer's FP32 GEMM (not
 * OpenBLAS, whose kernel set follows its CPU detection:
 * OPENBLAS_CORETYPE=Haswell ran them on AVX2 kernels). */
static void head_chunk(seer_ctx *c, const seer_f32_kernel *kern, int h, int t0, int C, float *S, float *work) {
    const llm_gdn_dims *g = &c->m->gdn;
    const int d = g->d, nv = g->n_v, ch = llm_gdn_channels(g), ldo = nv * d;
    const float *Q = row_q(c, t0, h), *K = row_k(c, t0, h), *V = row_v(c, t0, h);
    float *O = c->attn + (size_t)t0 * ldo + (size_t)h * d;
    float *G = work, *D = G + GDN_CHUNK, *Lm = D + GDN_CHUNK, *P = Lm + GDN_CHUNK * GDN_CHUNK,
          *U = P + GDN_CHUNK * GDN_CHUNK, *KdT = U + (size_t)GDN_CHUNK * d, *Kp = KdT + (size_t)GDN_CHUNK * d,
          *Sp = Kp + seer_f32_packed_floats(GDN_CHUNK, d), *Up = Sp + seer_f32_packed_floats(d, d);
    float acc = 0.0f;
    for (int t = 0; t < C; t++) G[t] = acc += c->gdn_g[(size_t)(t0 + t) * nv + h];
    seer_f32_pack_rows(K, false, (size_t)ch, C, d, 1.0f, Kp);
    seer_f32_gemm_packed(kern, C, C, d, K, (size_t)ch, Kp, Lm, (size_t)C, false);
    seer_f32_gemm_packed(kern, C, C, d, Q, (size_t)ch, Kp, P, (size_t)C, false);
    seer_f32_pack_cols(S, false, (size_t)d, d, d, Sp);
    seer_f32_gemm_packed(kern, C, d, d, K, (size_t)ch, Sp, U, (size_t)d, false);
    seer_f32_gemm_packed(kern, C, d, d, Q, (size_t)ch, Sp, O, (size_t)ldo, false);
    for (int t = 0; t < C; t++) {
        const float beta = c->gdn_beta[(size_t)(t0 + t) * nv + h], eg = expf(G[t]);
        float *Ut = U + (size_t)t * d, *Ot = O + (size_t)t * ldo, *Lt = Lm + (size_t)t * C, *Pt = P + (size_t)t * C;
        const float *Vt = V + (size_t)t * ch;
        residual_row(Ut, Ot, Vt, d, beta, eg);
        for (int s = 0; s < t; s++) D[s] = G[t] - G[s];
        seer_exp_row(D, t);
        for (int s = 0; s < t; s++) {
            Lt[s] *= -beta * D[s]; /* L negated for the solve */
            Pt[s] *= D[s];
        }
        for (int s = t + 1; s < C; s++) Pt[s] = 0.0f;
    }
    solve_unit_lower(kern, C, d, Lm, U, Up);
    seer_f32_gemm_packed(kern, C, d, C, P, (size_t)C, Up, O, (size_t)ldo, true);
    /* S = e^(G_C)·S + (e^(G_C−G_s)·k_s)ᵀ·U, the decayed keys transposed (d rows of C) */
    const float last = G[C - 1], e_last = expf(last);
    for (int s = 0; s < C; s++) D[s] = last - G[s];
    seer_exp_row(D, C);
    for (int s = 0; s < C; s++) {
        const float *Ks = K + (size_t)s * ch;
        for (int jj = 0; jj < d; jj++) KdT[(size_t)jj * C + s] = D[s] * Ks[jj];
    }
    seer_scale(S, S, e_last, (int64_t)d * d);
    seer_f32_gemm_packed(kern, d, d, C, KdT, (size_t)C, Up, S, (size_t)d, true);
}

/* Items [i0, i1): head i mod n_v of sequence i / n_v. */
static void heads_range(void *ctx, int64_t i0, int64_t i1, int ith) {
    const gdn_job *j = ctx;
    seer_ctx *c = j->c;
    const llm_gdn_dims *g = &c->m->gdn;
    float *work = c->gdn_work + (size_t)ith * c->gdn_work_floats;
    const seer_f32_kernel kern = seer_f32_kernel_get();
    for (int64_t i = i0; i < i1; i++) {
        const gdn_seq *s = &j->seq[i / g->n_v];
        const int h = (int)(i % g->n_v);
        float *S = s->state + (size_t)(g->conv_len - 1) * llm_gdn_channels(g) + (size_t)h * g->d * g->d;
        if (s->n < GDN_CHUNKED_MIN_ROWS) {
            head_rows(c, h, s->row0, s->row0 + s->n, S, work);
            continue;
        }
        for (int t = 0; t < s->n; t += GDN_CHUNK)
            head_chunk(c, &kern, h, s->row0 + t, s->n - t < GDN_CHUNK ? s->n - t : GDN_CHUNK, S, work);
    }
}

/* Rows [0, n) on c's scratch: one sequence (c's own state) or, in a
 * multi-sequence step, row i of context i's. */
void llm_gated_delta(seer_ctx *c, int l, int n) {
    const seer_llm *m = c->m;
    const llm_layer *L = &m->layers[l];
    const llm_gdn_dims *g = &m->gdn;
    const int ch = llm_gdn_channels(g), H = g->conv_len - 1, vd = g->n_v * g->d;
    const seer_weight *w[4] = {&L->gdn_qkv, &L->gdn_z, &L->gdn_beta, &L->gdn_alpha};
    seer_matmul_multi(c->pool, 4, w, c->xn, n, (float *const[]){c->gdn_mix, c->gdn_z, c->gdn_beta, c->gdn_g}, NULL);
    gdn_seq seq[SEER_DECODE_MULTI_MAX];
    int n_seq = 1;
    if (c->multi) {
        n_seq = c->multi->n;
        for (int i = 0; i < n_seq; i++) seq[i] = (gdn_seq){c->multi->ctx[i]->rec_state + L->state_off, i, 1};
    } else {
        seq[0] = (gdn_seq){c->rec_state + L->state_off, 0, n};
    }
    gdn_job j = {.c = c, .L = L, .seq = seq, .n_seq = n_seq};
    if (n < 16) prepare_rows(&j, 0, n, 0);
    else seer_pool_split(c->pool, n, SEER_MATMUL_ROW_GRAIN, prepare_rows, &j);
    /* each new conv state: its window's last K − 1 rows (row n + r ≥ r, so in place) */
    for (int i = 0; i < n_seq; i++)
        for (int r = 0; r < H; r++)
            memmove(seq[i].state + (size_t)r * ch, window_row(c, &seq[i], seq[i].n + r), sizeof(float) * (size_t)ch);
    seer_pool_for(c->pool, (int64_t)n_seq * g->n_v, 1, heads_range, &j);
    /* gated output norm: RMSNorm(o)·norm per head, × SiLU(z) */
    seer_rmsnorm(c->attn, L->gdn_norm, (int64_t)n * g->n_v, g->d, m->norm_eps);
    seer_exp_gate(SEER_GATE_SILU, c->gdn_z, c->attn, (int64_t)n * vd);
    seer_matmul(c->pool, &L->gdn_out, c->gdn_z, n, c->xn, NULL);
}
