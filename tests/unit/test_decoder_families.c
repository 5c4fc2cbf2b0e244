/* The Qwen3-VL MoE and Gemma 3 decoders against an independent
 * double-precision reference written from llama.cpp's graphs for them
 * (src/models/qwen3vlmoe.cpp, gemma3.cpp, build_moe_ffn, the KV cache's
 * masks): per-head Q/K RMSNorm, interleaved M-RoPE with the 4th position,
 * DeepStack slices, top-k expert routing renormalised, post-norms, GeGLU,
 * scaled token embeddings, sliding windows with their own RoPE base, linear
 * RoPE scaling, logit soft-capping, and non-causal batches. The GELU is
 * llama.cpp's (input and result rounded to FP16, as its table). Also the
 * interleaved M-RoPE table against ggml's rule. Models are written here with
 * the GGUF writer (F32, tied output head). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seer/llm.h"
#include "seer/ops.h"
#include "seer/tensor.h"
#include "testlib.h"

enum { V = 32, E = 32, H = 4, KV = 2, HD = 8, L = 3, F = 24, X = 6, K = 2, FE = 16, D = 1, WIN = 4, PAT = 3 };
#define MAXN 64

typedef enum { QWEN3VLMOE, GEMMA3 } family;

typedef struct model {
    family fam;
    float tok[V][E], out_norm[E];
    float attn_norm[L][E], ffn_norm[L][E], q_norm[L][HD], k_norm[L][HD], post_attn[L][E], post_ffn[L][E];
    float wq[L][H * HD][E], wk[L][KV * HD][E], wv[L][KV * HD][E], wo[L][E][H * HD];
    float wg[L][F][E], wu[L][F][E], wd[L][E][F];                         /* gemma3 */
    float router[L][X][E], eg[L][X][FE][E], eu[L][X][FE][E], ed[L][X][E][FE]; /* qwen3vlmoe */
} model;

static const int SECTIONS[4] = {1, 1, 1, 1}; /* 4 pairs: t, h, w, then e (k = 3 is not < 3·1) */
static const float EPS = 1e-6f, BASE = 10000.0f, BASE_SWA = 100.0f, ROPE_FACTOR = 2.0f, SOFTCAP = 4.0f;
static const char *rope_scaling = "linear"; /* what write_model writes (the refusal test changes it) */
static int expert_count_key = X;            /* the expert count written (the shape-error test changes it) */

static unsigned rng = 7;
static float frand(float scale) {
    rng = rng * 1664525u + 1013904223u;
    return ((float)((rng >> 9) & 0x3fff) / 8192.0f - 1.0f) * scale;
}
static void fill(float *x, size_t n, float scale, float offset) {
    for (size_t i = 0; i < n; i++) x[i] = offset + frand(scale);
}

static void random_model(model *m, family fam) {
    memset(m, 0, sizeof *m);
    m->fam = fam;
    fill(&m->tok[0][0], V * E, fam == GEMMA3 ? 0.2f : 1.0f, 0);
    fill(m->out_norm, E, 0.2f, 1.0f);
    fill(&m->attn_norm[0][0], L * E, 0.2f, 1.0f);
    fill(&m->ffn_norm[0][0], L * E, 0.2f, 1.0f);
    fill(&m->q_norm[0][0], L * HD, 0.2f, 1.0f);
    fill(&m->k_norm[0][0], L * HD, 0.2f, 1.0f);
    fill(&m->post_attn[0][0], L * E, 0.2f, 1.0f);
    fill(&m->post_ffn[0][0], L * E, 0.2f, 1.0f);
    fill(&m->wq[0][0][0], sizeof m->wq / 4, 0.3f, 0);
    fill(&m->wk[0][0][0], sizeof m->wk / 4, 0.3f, 0);
    fill(&m->wv[0][0][0], sizeof m->wv / 4, 0.3f, 0);
    fill(&m->wo[0][0][0], sizeof m->wo / 4, 0.3f, 0);
    fill(&m->wg[0][0][0], sizeof m->wg / 4, 0.3f, 0);
    fill(&m->wu[0][0][0], sizeof m->wu / 4, 0.3f, 0);
    fill(&m->wd[0][0][0], sizeof m->wd / 4, 0.3f, 0);
    fill(&m->router[0][0][0], sizeof m->router / 4, 1.0f, 0);
    fill(&m->eg[0][0][0][0], sizeof m->eg / 4, 0.3f, 0);
    fill(&m->eu[0][0][0][0], sizeof m->eu / 4, 0.3f, 0);
    fill(&m->ed[0][0][0][0], sizeof m->ed / 4, 0.3f, 0);
}

static void add(gguf_writer *w, const char *name, const float *data, int64_t n_in, int64_t n_out, int64_t n_mat) {
    int64_t ne[3] = {n_in, n_out, n_mat};
    gguf_writer_add_tensor(w, name, SEER_TYPE_F32, n_mat > 1 ? 3 : n_out > 1 ? 2 : 1, ne, data);
}

static void write_model(const model *m, const char *path) {
    gguf_writer *w = gguf_writer_new();
    const char *arch = m->fam == GEMMA3 ? "gemma3" : "qwen3vlmoe";
    char k[96], n[96];
    gguf_writer_set_str(w, "general.architecture", arch);
#define KEY(s) (snprintf(k, sizeof k, "%s.%s", arch, s), k)
    gguf_writer_set_u32(w, KEY("block_count"), L);
    gguf_writer_set_u32(w, KEY("embedding_length"), E);
    gguf_writer_set_u32(w, KEY("feed_forward_length"), F);
    gguf_writer_set_u32(w, KEY("attention.head_count"), H);
    gguf_writer_set_u32(w, KEY("attention.head_count_kv"), KV);
    gguf_writer_set_u32(w, KEY("attention.key_length"), HD);
    gguf_writer_set_u32(w, KEY("attention.value_length"), HD);
    gguf_writer_set_u32(w, KEY("context_length"), 256);
    gguf_writer_set_f32(w, KEY("rope.freq_base"), BASE);
    gguf_writer_set_f32(w, KEY("attention.layer_norm_rms_epsilon"), EPS);
    if (m->fam == GEMMA3) {
        gguf_writer_set_u32(w, KEY("attention.sliding_window"), WIN);
        gguf_writer_set_u32(w, KEY("attention.sliding_window_pattern"), PAT);
        gguf_writer_set_f32(w, KEY("rope.freq_base_swa"), BASE_SWA);
        gguf_writer_set_str(w, KEY("rope.scaling.type"), rope_scaling);
        gguf_writer_set_f32(w, KEY("rope.scaling.factor"), ROPE_FACTOR);
        gguf_writer_set_f32(w, KEY("final_logit_softcapping"), SOFTCAP);
    } else {
        gguf_writer_set_arr_i32(w, KEY("rope.dimension_sections"), SECTIONS, 4);
        gguf_writer_set_u32(w, KEY("n_deepstack_layers"), D);
        gguf_writer_set_u32(w, KEY("expert_count"), (uint32_t)expert_count_key);
        gguf_writer_set_u32(w, KEY("expert_used_count"), K);
        gguf_writer_set_u32(w, KEY("expert_feed_forward_length"), FE);
    }
#undef KEY
    const char *toks[V];
    char tokbuf[V][8];
    for (int i = 0; i < V; i++) {
        snprintf(tokbuf[i], sizeof tokbuf[i], i == 0 ? "a" : i == 1 ? "b" : i == 2 ? "ab" : "t%d", i);
        toks[i] = tokbuf[i];
    }
    gguf_writer_set_str(w, "tokenizer.ggml.model", "gpt2");
    gguf_writer_set_arr_str(w, "tokenizer.ggml.tokens", toks, V);
    gguf_writer_set_arr_str(w, "tokenizer.ggml.merges", (const char *const[]){"a b"}, 1);
    add(w, "token_embd.weight", &m->tok[0][0], E, V, 1);
    add(w, "output_norm.weight", m->out_norm, E, 1, 1);
    for (int l = 0; l < L; l++) {
#define NAME(s) (snprintf(n, sizeof n, "blk.%d.%s", l, s), n)
        add(w, NAME("attn_norm.weight"), m->attn_norm[l], E, 1, 1);
        add(w, NAME("ffn_norm.weight"), m->ffn_norm[l], E, 1, 1);
        add(w, NAME("attn_q_norm.weight"), m->q_norm[l], HD, 1, 1);
        add(w, NAME("attn_k_norm.weight"), m->k_norm[l], HD, 1, 1);
        add(w, NAME("attn_q.weight"), &m->wq[l][0][0], E, H * HD, 1);
        add(w, NAME("attn_k.weight"), &m->wk[l][0][0], E, KV * HD, 1);
        add(w, NAME("attn_v.weight"), &m->wv[l][0][0], E, KV * HD, 1);
        add(w, NAME("attn_output.weight"), &m->wo[l][0][0], H * HD, E, 1);
        if (m->fam == GEMMA3) {
            add(w, NAME("post_attention_norm.weight"), m->post_attn[l], E, 1, 1);
            add(w, NAME("post_ffw_norm.weight"), m->post_ffn[l], E, 1, 1);
            add(w, NAME("ffn_gate.weight"), &m->wg[l][0][0], E, F, 1);
            add(w, NAME("ffn_up.weight"), &m->wu[l][0][0], E, F, 1);
            add(w, NAME("ffn_down.weight"), &m->wd[l][0][0], F, E, 1);
        } else {
            add(w, NAME("ffn_gate_inp.weight"), &m->router[l][0][0], E, X, 1);
            add(w, NAME("ffn_gate_exps.weight"), &m->eg[l][0][0][0], E, FE, X);
            add(w, NAME("ffn_up_exps.weight"), &m->eu[l][0][0][0], E, FE, X);
            add(w, NAME("ffn_down_exps.weight"), &m->ed[l][0][0][0], FE, E, X);
        }
#undef NAME
    }
    seer_error err = {{0}};
    if (gguf_writer_write(w, path, &err) != 0) fprintf(stderr, "write %s: %s\n", path, err.msg);
    gguf_writer_free(w);
}

/* ---- the reference, in double ---- */

/* One input row: its first E values (and, for Qwen3-VL image rows, D
 * DeepStack slices), its positions t, h, w, e, and the non-causal batch it
 * belongs to (0: none; rows of the same batch see each other). */
typedef struct ref_row {
    double in[E * (1 + D)];
    bool deepstack;
    int pos[4];
    int group;
} ref_row;

static void rmsnorm(double *x, const float *w, int n) {
    double ss = 0;
    for (int i = 0; i < n; i++) ss += x[i] * x[i];
    const double s = 1.0 / sqrt(ss / n + EPS);
    for (int i = 0; i < n; i++) x[i] *= s * w[i];
}

static bool is_swa(const model *m, int l) { return m->fam == GEMMA3 && l % PAT < PAT - 1; }

/* Neox pairs (i, i + HD/2); Qwen3-VL: pair k takes t, h, w by k % 3 while
 * k < 3·section, else e; Gemma 3: the SWA base, or the global base with
 * positions divided by the scaling factor. */
static void rope(const model *m, int l, double *v, const int pos[4]) {
    for (int i = 0; i < HD / 2; i++) {
        double p = pos[0], base = BASE;
        if (m->fam == QWEN3VLMOE) {
            const int s = i % 3 == 1 && i < 3 * SECTIONS[1] ? 1 : i % 3 == 2 && i < 3 * SECTIONS[2] ? 2
                        : i % 3 == 0 && i < 3 * SECTIONS[0] ? 0 : 3;
            p = pos[s];
        } else if (is_swa(m, l)) {
            base = BASE_SWA;
        } else {
            p /= ROPE_FACTOR;
        }
        const double th = p * pow(base, -2.0 * i / HD), x = v[i], y = v[i + HD / 2];
        v[i] = x * cos(th) - y * sin(th);
        v[i + HD / 2] = x * sin(th) + y * cos(th);
    }
}

static double silu(double x) { return x / (1 + exp(-x)); }
/* llama.cpp's GELU: x rounded to FP16, the result too (its lookup table) */
static double gelu(double x) {
    if (x <= -10 || x >= 10) return x <= -10 ? 0 : x;
    const double h = seer_fp16_to_f32(seer_f32_to_fp16((float)x));
    return seer_fp16_to_f32(seer_f32_to_fp16((float)(0.5 * h * (1 + tanh(sqrt(2 / M_PI) * (h + 0.044715 * h * h * h))))));
}

/* The experts of one normed row, weighted: softmax, top K, renormalised. */
static void moe(const model *m, int l, const double *xn, double *out) {
    double p[X], mx = -1e300, z = 0;
    for (int e = 0; e < X; e++) {
        p[e] = 0;
        for (int c = 0; c < E; c++) p[e] += m->router[l][e][c] * xn[c];
        if (p[e] > mx) mx = p[e];
    }
    for (int e = 0; e < X; e++) z += p[e] = exp(p[e] - mx);
    bool used[X] = {false};
    int pick[K];
    double wsum = 0;
    for (int s = 0; s < K; s++) {
        int best = -1;
        for (int e = 0; e < X; e++)
            if (!used[e] && (best < 0 || p[e] > p[best])) best = e;
        used[best] = true;
        pick[s] = best;
        wsum += p[best] / z;
    }
    memset(out, 0, sizeof(double) * E);
    for (int s = 0; s < K; s++) {
        const int e = pick[s];
        double h[FE];
        for (int o = 0; o < FE; o++) {
            double g = 0, u = 0;
            for (int c = 0; c < E; c++) g += m->eg[l][e][o][c] * xn[c], u += m->eu[l][e][o][c] * xn[c];
            h[o] = silu(g) * u;
        }
        for (int o = 0; o < E; o++) {
            double y = 0;
            for (int c = 0; c < FE; c++) y += m->ed[l][e][o][c] * h[c];
            out[o] += p[e] / z / wsum * y;
        }
    }
}

/* Logits of every row, into out[n][V]. */
static void reference(const model *m, const ref_row *rows, int n, double *out) {
    static double x[MAXN][E], q[MAXN][H * HD], k[MAXN][KV * HD], v[MAXN][KV * HD], br[MAXN][E];
    for (int i = 0; i < n; i++) memcpy(x[i], rows[i].in, sizeof x[i]);
    for (int l = 0; l < L; l++) {
        for (int i = 0; i < n; i++) {
            double xn[E];
            memcpy(xn, x[i], sizeof xn);
            rmsnorm(xn, m->attn_norm[l], E);
            for (int o = 0; o < H * HD; o++) {
                q[i][o] = 0;
                for (int c = 0; c < E; c++) q[i][o] += m->wq[l][o][c] * xn[c];
            }
            for (int o = 0; o < KV * HD; o++) {
                k[i][o] = v[i][o] = 0;
                for (int c = 0; c < E; c++) k[i][o] += m->wk[l][o][c] * xn[c], v[i][o] += m->wv[l][o][c] * xn[c];
            }
            for (int h = 0; h < H; h++) rmsnorm(q[i] + h * HD, m->q_norm[l], HD), rope(m, l, q[i] + h * HD, rows[i].pos);
            for (int h = 0; h < KV; h++) rmsnorm(k[i] + h * HD, m->k_norm[l], HD), rope(m, l, k[i] + h * HD, rows[i].pos);
        }
        const double scale = 1.0 / sqrt((double)HD);
        for (int i = 0; i < n; i++) {
            double att[H * HD], sc[MAXN];
            for (int h = 0; h < H; h++) {
                const int g = h * KV / H;
                double mx = -1e300, z = 0;
                for (int j = 0; j < n; j++) {
                    const bool seen = (j <= i || (rows[i].group && rows[j].group == rows[i].group)) &&
                                      !(is_swa(m, l) && rows[i].pos[0] - rows[j].pos[0] >= WIN);
                    sc[j] = -INFINITY;
                    if (!seen) continue;
                    double s = 0;
                    for (int d = 0; d < HD; d++) s += q[i][h * HD + d] * k[j][g * HD + d];
                    sc[j] = s * scale;
                    if (sc[j] > mx) mx = sc[j];
                }
                for (int j = 0; j < n; j++) z += sc[j] = sc[j] == -INFINITY ? 0 : exp(sc[j] - mx);
                for (int d = 0; d < HD; d++) {
                    double s = 0;
                    for (int j = 0; j < n; j++) s += sc[j] / z * v[j][g * HD + d];
                    att[h * HD + d] = s;
                }
            }
            for (int o = 0; o < E; o++) {
                br[i][o] = 0;
                for (int c = 0; c < H * HD; c++) br[i][o] += m->wo[l][o][c] * att[c];
            }
        }
        for (int i = 0; i < n; i++) {
            if (m->fam == GEMMA3) rmsnorm(br[i], m->post_attn[l], E);
            for (int o = 0; o < E; o++) x[i][o] += br[i][o];
            double xn[E], f[E];
            memcpy(xn, x[i], sizeof xn);
            rmsnorm(xn, m->ffn_norm[l], E);
            if (m->fam == GEMMA3) {
                double h[F];
                for (int o = 0; o < F; o++) {
                    double g = 0, u = 0;
                    for (int c = 0; c < E; c++) g += m->wg[l][o][c] * xn[c], u += m->wu[l][o][c] * xn[c];
                    h[o] = gelu(g) * u;
                }
                for (int o = 0; o < E; o++) {
                    f[o] = 0;
                    for (int c = 0; c < F; c++) f[o] += m->wd[l][o][c] * h[c];
                }
                rmsnorm(f, m->post_ffn[l], E);
            } else {
                moe(m, l, xn, f);
            }
            for (int o = 0; o < E; o++) x[i][o] += f[o];
            if (rows[i].deepstack && l < D)
                for (int o = 0; o < E; o++) x[i][o] += rows[i].in[(l + 1) * E + o];
        }
    }
    for (int i = 0; i < n; i++) {
        rmsnorm(x[i], m->out_norm, E);
        for (int t = 0; t < V; t++) {
            double s = 0;
            for (int c = 0; c < E; c++) s += m->tok[t][c] * x[i][c];
            out[i * V + t] = m->fam == GEMMA3 ? tanh(s / SOFTCAP) * SOFTCAP : s;
        }
    }
}

/* A text row: the token's embedding (×sqrt(E) in Gemma 3) at position p
 * (M-RoPE: p on t, h, w and 0 on e, as llama.cpp widens a token's position). */
static ref_row token_row(const model *m, int32_t t, int p) {
    ref_row r = {.pos = {p, p, p, 0}};
    for (int c = 0; c < E; c++) r.in[c] = m->tok[t][c] * (m->fam == GEMMA3 ? sqrtf((float)E) : 1.0f);
    return r;
}

static double max_err(const float *got, const double *want, int n) {
    double e = 0;
    for (int i = 0; i < n; i++) {
        const double d = fabs(got[i] - want[i]) / (1 + fabs(want[i]));
        if (d > e) e = d;
    }
    return e;
}

#define TOL 5e-5

static seer_llm *load(const model *m, const char *name) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s.gguf", test_tmpdir(), name);
    write_model(m, path);
    seer_error err = {{0}};
    seer_llm *llm = seer_llm_load(path, NULL, NULL, &err);
    CHECK_MSG(llm != NULL, "load %s: %s", name, err.msg);
    return llm;
}

/* Text, a 2x3 image of DeepStack rows (positions t = P, h = P + row,
 * w = P + col, e = 0), text again from P + 3; then a prompt long enough
 * for the GEMM paths, every row against the reference. */
static void test_qwen3vlmoe(seer_pool *pool) {
    static model m;
    random_model(&m, QWEN3VLMOE);
    seer_llm *llm = load(&m, "qwen3vlmoe");
    if (!llm) return;
    const seer_llm_info *in = seer_llm_get_info(llm);
    CHECK(in->mrope && in->n_embd_inp == E * (1 + D) && in->n_deepstack == D && in->n_expert == X &&
          in->n_expert_used == K);
    seer_error err = {{0}};
    seer_ctx *c = seer_ctx_new(llm, 128, SEER_KV_F32, pool, &err);
    CHECK_MSG(c != NULL, "ctx: %s", err.msg);
    if (!c) return;

    const int32_t t1[3] = {4, 9, 30}, t2[3] = {17, 3, 3};
    enum { NI = 6 };
    float img[NI * E * (1 + D)];
    fill(img, sizeof img / sizeof img[0], 1.0f, 0);
    ref_row rows[12];
    double want[12 * V];
    int32_t ipos[4 * NI];
    for (int i = 0; i < 3; i++) rows[i] = token_row(&m, t1[i], i);
    for (int j = 0; j < NI; j++) {
        ref_row *r = &rows[3 + j];
        *r = (ref_row){.deepstack = true, .pos = {3, 3 + j / 3, 3 + j % 3, 0}};
        for (int c2 = 0; c2 < E * (1 + D); c2++) r->in[c2] = img[j * E * (1 + D) + c2];
        for (int s = 0; s < 4; s++) ipos[s * NI + j] = r->pos[s];
    }
    for (int i = 0; i < 3; i++) rows[9 + i] = token_row(&m, t2[i], 6 + i);
    reference(&m, rows, 12, want);
    seer_batch a = {.n = 3, .tokens = t1}, im = {.n = NI, .embd = img, .pos = ipos, .logits_all = true},
               b = {.n = 3, .tokens = t2, .logits_all = true};
    CHECK(seer_ctx_decode(c, &a, NULL, &err) == 0);
    CHECK(seer_ctx_decode(c, &im, NULL, &err) == 0);
    for (int j = 0; j < NI; j++) CHECK_MSG(max_err(seer_ctx_logits(c, j), want + (3 + j) * V, V) < TOL, "image row %d", j);
    CHECK(seer_ctx_next_pos(c) == 6);
    CHECK(seer_ctx_decode(c, &b, NULL, &err) == 0);
    for (int i = 0; i < 3; i++) CHECK_MSG(max_err(seer_ctx_logits(c, i), want + (9 + i) * V, V) < TOL, "text row %d", i);

    /* 40 tokens in one batch (rows grouped by expert, GEMM attention), then
     * one by one (each row's own experts) */
    enum { N = 40 };
    int32_t seq[N];
    ref_row r2[N];
    static double w2[N * V];
    for (int i = 0; i < N; i++) seq[i] = (i * 7 + 3) % V, r2[i] = token_row(&m, seq[i], i);
    reference(&m, r2, N, w2);
    seer_ctx_truncate(c, 0, 0);
    seer_batch all = {.n = N, .tokens = seq, .logits_all = true};
    CHECK(seer_ctx_decode(c, &all, NULL, &err) == 0);
    for (int i = 0; i < N; i++) CHECK_MSG(max_err(seer_ctx_logits(c, i), w2 + i * V, V) < TOL, "batch row %d", i);
    seer_ctx_truncate(c, 0, 0);
    for (int i = 0; i < N; i++) {
        seer_batch one = {.n = 1, .tokens = &seq[i]};
        CHECK(seer_ctx_decode(c, &one, NULL, &err) == 0);
        CHECK_MSG(max_err(seer_ctx_logits(c, 0), w2 + i * V, V) < TOL, "step %d", i);
    }
    seer_ctx_free(c);
    seer_llm_free(llm);

    /* a router and experts that do not hold expert_count experts: one line naming the tensor and both shapes */
    expert_count_key = X + 1;
    char path[512];
    snprintf(path, sizeof path, "%s/qwen3vlmoe-bad.gguf", test_tmpdir());
    write_model(&m, path);
    expert_count_key = X;
    CHECK(seer_llm_load(path, NULL, NULL, &err) == NULL);
    CHECK_MSG(strstr(err.msg, "blk.0.ffn_gate_inp.weight") && strstr(err.msg, "[32, 6]") && strstr(err.msg, "[32, 7]"),
              "%s", err.msg);
}

/* A prompt longer than the window (GEMM tiles), a non-causal batch of
 * embedding rows on top of cached rows (as an image chunk; rows not
 * scaled), text after it one token at a time (split-K decode), and a
 * rollback past the window's start redone. */
static void test_gemma3(seer_pool *pool) {
    static model m;
    random_model(&m, GEMMA3);
    seer_llm *llm = load(&m, "gemma3");
    if (!llm) return;
    const seer_llm_info *in = seer_llm_get_info(llm);
    CHECK(!in->mrope && in->n_embd_inp == E && in->n_swa == WIN && in->swa_pattern == PAT);
    seer_error err = {{0}};
    seer_ctx *c = seer_ctx_new(llm, 128, SEER_KV_F32, pool, &err);
    CHECK_MSG(c != NULL, "ctx: %s", err.msg);
    if (!c) return;
    enum { P = 20, NI = 18, T = 5, N = P + NI + T };
    int32_t seq[P + T];
    for (int i = 0; i < P + T; i++) seq[i] = (i * 5 + 1) % V;
    float img[NI * E];
    fill(img, NI * E, 1.0f, 0);
    ref_row rows[N];
    static double want[N * V];
    for (int i = 0; i < P; i++) rows[i] = token_row(&m, seq[i], i);
    for (int j = 0; j < NI; j++) {
        rows[P + j] = (ref_row){.pos = {P + j, P + j, P + j, P + j}, .group = 1};
        for (int c2 = 0; c2 < E; c2++) rows[P + j].in[c2] = img[j * E + c2];
    }
    for (int i = 0; i < T; i++) rows[P + NI + i] = token_row(&m, seq[P + i], P + NI + i);
    reference(&m, rows, N, want);

    seer_batch pre = {.n = P, .tokens = seq, .logits_all = true};
    CHECK(seer_ctx_decode(c, &pre, NULL, &err) == 0);
    for (int i = 0; i < P; i++) CHECK_MSG(max_err(seer_ctx_logits(c, i), want + i * V, V) < TOL, "prompt row %d", i);
    for (int small = 0; small < 2; small++) { /* 18 rows (GEMM tiles), then 5 of them (per-row) */
        const int ni = small ? 5 : NI;
        ref_row r3[P + NI];
        static double w3[(P + NI) * V];
        memcpy(r3, rows, sizeof(ref_row) * (size_t)(P + ni));
        reference(&m, r3, P + ni, w3);
        seer_ctx_truncate(c, P, P);
        seer_batch im = {.n = ni, .embd = img, .non_causal = true, .logits_all = true};
        CHECK(seer_ctx_decode(c, &im, NULL, &err) == 0);
        for (int j = 0; j < ni; j++)
            CHECK_MSG(max_err(seer_ctx_logits(c, j), w3 + (P + j) * V, V) < TOL, "non-causal %d-row batch, row %d", ni, j);
    }
    seer_ctx_truncate(c, P, P);
    seer_batch im = {.n = NI, .embd = img, .non_causal = true};
    CHECK(seer_ctx_decode(c, &im, NULL, &err) == 0);
    for (int i = 0; i < T; i++) {
        seer_batch one = {.n = 1, .tokens = &seq[P + i]};
        CHECK(seer_ctx_decode(c, &one, NULL, &err) == 0);
        CHECK_MSG(max_err(seer_ctx_logits(c, 0), want + (P + NI + i) * V, V) < TOL, "step %d", i);
    }
    /* a non-causal batch must fit one pass (512 rows) */
    seer_ctx *wide = seer_ctx_new(llm, 600, SEER_KV_F32, pool, &err);
    float *rows600 = calloc(513 * E, sizeof *rows600);
    seer_batch big = {.n = 513, .embd = rows600, .non_causal = true};
    CHECK(wide && rows600 && seer_ctx_decode(wide, &big, NULL, &err) == -1 && strstr(err.msg, "non-causal"));
    CHECK(wide && seer_ctx_used(wide) == 0);
    free(rows600);
    seer_ctx_free(wide);
    seer_ctx_free(c);
    seer_llm_free(llm);

    /* YaRN scaling is refused in one line naming it, not silently ignored */
    rope_scaling = "yarn";
    char path[512];
    snprintf(path, sizeof path, "%s/gemma3-yarn.gguf", test_tmpdir());
    write_model(&m, path);
    rope_scaling = "linear";
    CHECK(seer_llm_load(path, NULL, NULL, &err) == NULL);
    CHECK_MSG(strstr(err.msg, "yarn") && strstr(err.msg, "not supported"), "%s", err.msg);
}

/* seer_rope_table_interleaved against ggml's IMROPE rule written out,
 * with Qwen3-VL's sections [24, 20, 20, 0] (64 pairs: pairs 61 and 62 take
 * the 4th position), distinct positions per section. */
static void test_imrope_table(void) {
    enum { NR = 128 };
    const int sec[4] = {24, 20, 20, 0};
    const float pos[4] = {7, 3, 5, 11};
    float cs[NR];
    seer_rope_table_interleaved(cs, NR, 5e6f, sec, pos);
    int uses[4] = {0};
    for (int i = 0; i < NR / 2; i++) {
        int s = 3;
        if (i % 3 == 1 && i < 3 * sec[1]) s = 1;
        else if (i % 3 == 2 && i < 3 * sec[2]) s = 2;
        else if (i % 3 == 0 && i < 3 * sec[0]) s = 0;
        uses[s]++;
        const double th = pos[s] * pow(5e6, -2.0 * i / NR);
        CHECK_MSG(fabs(cs[2 * i] - cos(th)) < 1e-6 && fabs(cs[2 * i + 1] - sin(th)) < 1e-6, "pair %d", i);
    }
    CHECK(uses[0] == 22 && uses[1] == 20 && uses[2] == 20 && uses[3] == 2);
}

int main(void) {
    seer_pool *pool = seer_pool_create(2);
    test_imrope_table();
    test_qwen3vlmoe(pool);
    test_gemma3(pool);
    seer_pool_destroy(pool);
    TEST_MAIN_END();
}
