/* The decoder against an independent double-precision reference written from
 * the architecture description (conformance README): llama (normal rope,
 * GQA) and qwen2vl (QKV biases, M-RoPE with explicit positions, tied head).
 * Also: batched prefill = token-by-token decode, logits_all, cancel leaves the
 * cache as it was, truncate + re-decode, and load errors that name the
 * tensor/shape/size. Models are written here with the GGUF writer. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seer/llm.h"
#include "seer/tensor.h"
#include "testlib.h"

enum { V = 32, E = 32, H = 4, KV = 2, HD = 8, F = 48, L = 2 };

typedef struct ref_model {
    bool qwen;                    /* qwen2vl: biases, M-RoPE sections [1,1,2,0] pairs (head 8), tied */
    float tok[V][E], out[V][E], out_norm[E];
    float attn_norm[L][E], ffn_norm[L][E];
    float wq[L][H * HD][E], wk[L][KV * HD][E], wv[L][KV * HD][E], wo[L][E][H * HD];
    float bq[L][H * HD], bk[L][KV * HD], bv[L][KV * HD];
    float wg[L][F][E], wu[L][F][E], wd[L][E][F];
} ref_model;

static const int SECTIONS[4] = {1, 1, 2, 0};
static const float BASE = 10000.0f, EPS = 1e-5f;

static unsigned rng = 99;
static float frand(float scale) {
    rng = rng * 1664525u + 1013904223u;
    return ((float)((rng >> 9) & 0x3fff) / 8192.0f - 1.0f) * scale;
}
static void fill(float *x, size_t n, float scale, float offset) {
    for (size_t i = 0; i < n; i++) x[i] = offset + frand(scale);
}

static void random_model(ref_model *m, bool qwen) {
    memset(m, 0, sizeof *m);
    m->qwen = qwen;
    fill(&m->tok[0][0], V * E, 1.0f, 0);
    fill(&m->out[0][0], V * E, 0.5f, 0);
    fill(m->out_norm, E, 0.2f, 1.0f);
    fill(&m->attn_norm[0][0], L * E, 0.2f, 1.0f);
    fill(&m->ffn_norm[0][0], L * E, 0.2f, 1.0f);
    fill(&m->wq[0][0][0], sizeof m->wq / 4, 0.3f, 0);
    fill(&m->wk[0][0][0], sizeof m->wk / 4, 0.3f, 0);
    fill(&m->wv[0][0][0], sizeof m->wv / 4, 0.3f, 0);
    fill(&m->wo[0][0][0], sizeof m->wo / 4, 0.3f, 0);
    fill(&m->wg[0][0][0], sizeof m->wg / 4, 0.3f, 0);
    fill(&m->wu[0][0][0], sizeof m->wu / 4, 0.3f, 0);
    fill(&m->wd[0][0][0], sizeof m->wd / 4, 0.3f, 0);
    if (qwen) {
        fill(&m->bq[0][0], sizeof m->bq / 4, 0.3f, 0);
        fill(&m->bk[0][0], sizeof m->bk / 4, 0.3f, 0);
        fill(&m->bv[0][0], sizeof m->bv / 4, 0.3f, 0);
        memcpy(m->out, m->tok, sizeof m->out); /* tied head */
    }
}

/* Which tensor to break when writing (error tests). */
typedef enum { BREAK_NONE, BREAK_MISSING_FFN_UP, BREAK_SHAPE_ATTN_K, BREAK_ARCH } breakage;

static void add(gguf_writer *w, const char *name, const float *data, int64_t n_in, int64_t n_out) {
    int64_t ne[2] = {n_in, n_out};
    gguf_writer_add_tensor(w, name, SEER_TYPE_F32, n_out > 1 ? 2 : 1, ne, data);
}

static void write_model(const ref_model *m, const char *path, breakage br, int key_length) {
    gguf_writer *w = gguf_writer_new();
    const char *arch = br == BREAK_ARCH ? "mamba" : m->qwen ? "qwen2vl" : "llama";
    char k[96], n[96];
    gguf_writer_set_str(w, "general.architecture", arch);
#define KEY(s) (snprintf(k, sizeof k, "%s.%s", arch, s), k)
    gguf_writer_set_u32(w, KEY("block_count"), L);
    gguf_writer_set_u32(w, KEY("embedding_length"), E);
    gguf_writer_set_u32(w, KEY("feed_forward_length"), F);
    gguf_writer_set_u32(w, KEY("attention.head_count"), H);
    gguf_writer_set_u32(w, KEY("attention.head_count_kv"), KV);
    gguf_writer_set_u32(w, KEY("context_length"), 256);
    gguf_writer_set_f32(w, KEY("rope.freq_base"), BASE);
    gguf_writer_set_f32(w, KEY("attention.layer_norm_rms_epsilon"), EPS);
    if (key_length) gguf_writer_set_u32(w, KEY("attention.key_length"), (uint32_t)key_length);
    if (m->qwen) gguf_writer_set_arr_i32(w, KEY("rope.dimension_sections"), SECTIONS, 4);
#undef KEY
    const char *toks[V];
    char tokbuf[V][8];
    for (int i = 0; i < V; i++) {
        snprintf(tokbuf[i], sizeof tokbuf[i], i == 0 ? "a" : i == 1 ? "b" : i == 2 ? "ab" : "t%d", i);
        toks[i] = tokbuf[i];
    }
    const char *merges[1] = {"a b"};
    gguf_writer_set_str(w, "tokenizer.ggml.model", "gpt2");
    gguf_writer_set_arr_str(w, "tokenizer.ggml.tokens", toks, V);
    gguf_writer_set_arr_str(w, "tokenizer.ggml.merges", merges, 1);
    const int kl = key_length ? key_length : HD;
    static float big[H * 1024 * E];
    add(w, "token_embd.weight", &m->tok[0][0], E, V);
    if (!m->qwen) add(w, "output.weight", &m->out[0][0], E, V);
    add(w, "output_norm.weight", m->out_norm, E, 1);
    for (int l = 0; l < L; l++) {
#define NAME(s) (snprintf(n, sizeof n, "blk.%d.%s", l, s), n)
        add(w, NAME("attn_norm.weight"), m->attn_norm[l], E, 1);
        add(w, NAME("ffn_norm.weight"), m->ffn_norm[l], E, 1);
        if (kl == HD) {
            add(w, NAME("attn_q.weight"), &m->wq[l][0][0], E, H * HD);
            add(w, NAME("attn_k.weight"), &m->wk[l][0][0], E, br == BREAK_SHAPE_ATTN_K && l == 1 ? KV * HD - 1 : KV * HD);
            add(w, NAME("attn_v.weight"), &m->wv[l][0][0], E, KV * HD);
            add(w, NAME("attn_output.weight"), &m->wo[l][0][0], H * HD, E);
        } else { /* wide heads for the KV-size test: contents do not matter */
            add(w, NAME("attn_q.weight"), big, E, H * kl);
            add(w, NAME("attn_k.weight"), big, E, KV * kl);
            add(w, NAME("attn_v.weight"), big, E, KV * kl);
            add(w, NAME("attn_output.weight"), big, H * kl, E);
        }
        if (m->qwen) {
            add(w, NAME("attn_q.bias"), m->bq[l], H * HD, 1);
            add(w, NAME("attn_k.bias"), m->bk[l], KV * HD, 1);
            add(w, NAME("attn_v.bias"), m->bv[l], KV * HD, 1);
        }
        add(w, NAME("ffn_gate.weight"), &m->wg[l][0][0], E, F);
        if (!(br == BREAK_MISSING_FFN_UP && l == 1)) add(w, NAME("ffn_up.weight"), &m->wu[l][0][0], E, F);
        add(w, NAME("ffn_down.weight"), &m->wd[l][0][0], F, E);
#undef NAME
    }
    seer_error err = {{0}};
    if (gguf_writer_write(w, path, &err) != 0) fprintf(stderr, "write %s: %s\n", path, err.msg);
    gguf_writer_free(w);
}

/* ---- the reference, in double ---- */

static void rmsnorm(const double *x, const float *w, double *out) {
    double ss = 0;
    for (int i = 0; i < E; i++) ss += x[i] * x[i];
    double s = 1.0 / sqrt(ss / E + EPS);
    for (int i = 0; i < E; i++) out[i] = x[i] * s * w[i];
}

static void rope(const ref_model *m, double *v, const int pos[4]) {
    for (int i = 0; i < HD / 2; i++) {
        int a, b, p = pos[0];
        if (m->qwen) { /* neox pairs, section positions t, h, w */
            a = i;
            b = i + HD / 2;
            p = i < SECTIONS[0] ? pos[0] : i < SECTIONS[0] + SECTIONS[1] ? pos[1] : pos[2];
        } else { /* adjacent pairs */
            a = 2 * i;
            b = 2 * i + 1;
        }
        double th = p * pow(BASE, -2.0 * i / HD), x = v[a], y = v[b];
        v[a] = x * cos(th) - y * sin(th);
        v[b] = x * sin(th) + y * cos(th);
    }
}

/* The reference's KV cache: exact, or K and V rows rounded to half precision
 * as an F16 cache stores them (what seer computes in f32, rounded once). */
static bool ref_kv_f16;

static double kv_round(double x) { return ref_kv_f16 ? seer_fp16_to_f32(seer_f32_to_fp16((float)x)) : x; }

/* Logits of every row of the sequence (rows: embeddings [n][E]), into
 * out[n][V]; the normed final states into hidden[n][E] when non-NULL. */
static void reference(const ref_model *m, const double *rows, const int (*pos)[4], int n, double *out,
                      double *hidden) {
    double *x = malloc(sizeof *x * n * E), *q = malloc(sizeof *q * n * H * HD), *k = malloc(sizeof *k * n * KV * HD),
           *v = malloc(sizeof *v * n * KV * HD), xn[E], att[H * HD], sc[512], f1[F], f2[F];
    memcpy(x, rows, sizeof *x * n * E);
    for (int l = 0; l < L; l++) {
        for (int i = 0; i < n; i++) {
            rmsnorm(x + i * E, m->attn_norm[l], xn);
            for (int o = 0; o < H * HD; o++) {
                double s = m->bq[l][o];
                for (int c = 0; c < E; c++) s += m->wq[l][o][c] * xn[c];
                q[i * H * HD + o] = s;
            }
            for (int o = 0; o < KV * HD; o++) {
                double s = m->bk[l][o], t = m->bv[l][o];
                for (int c = 0; c < E; c++) s += m->wk[l][o][c] * xn[c], t += m->wv[l][o][c] * xn[c];
                k[i * KV * HD + o] = s;
                v[i * KV * HD + o] = t;
            }
            for (int h = 0; h < H; h++) rope(m, q + i * H * HD + h * HD, pos[i]);
            for (int h = 0; h < KV; h++) rope(m, k + i * KV * HD + h * HD, pos[i]);
            for (int o = 0; o < KV * HD; o++) {
                k[i * KV * HD + o] = kv_round((float)k[i * KV * HD + o]);
                v[i * KV * HD + o] = kv_round((float)v[i * KV * HD + o]);
            }
        }
        for (int i = n - 1; i >= 0; i--) { /* backwards: x[j<i] is still this layer's input */
            for (int h = 0; h < H; h++) {
                const int g = h * KV / H;
                double mx = -1e300, z = 0;
                for (int j = 0; j <= i; j++) {
                    double s = 0;
                    for (int d = 0; d < HD; d++) s += q[i * H * HD + h * HD + d] * k[j * KV * HD + g * HD + d];
                    sc[j] = s / sqrt((double)HD);
                    if (sc[j] > mx) mx = sc[j];
                }
                for (int j = 0; j <= i; j++) z += sc[j] = exp(sc[j] - mx);
                for (int d = 0; d < HD; d++) {
                    double s = 0;
                    for (int j = 0; j <= i; j++) s += sc[j] / z * v[j * KV * HD + g * HD + d];
                    att[h * HD + d] = s;
                }
            }
            for (int o = 0; o < E; o++) {
                double s = 0;
                for (int c = 0; c < H * HD; c++) s += m->wo[l][o][c] * att[c];
                x[i * E + o] += s;
            }
        }
        for (int i = 0; i < n; i++) {
            rmsnorm(x + i * E, m->ffn_norm[l], xn);
            for (int o = 0; o < F; o++) {
                double g = 0, u = 0;
                for (int c = 0; c < E; c++) g += m->wg[l][o][c] * xn[c], u += m->wu[l][o][c] * xn[c];
                f1[o] = g / (1 + exp(-g)) * u;
            }
            for (int o = 0; o < E; o++) {
                double s = 0;
                for (int c = 0; c < F; c++) s += m->wd[l][o][c] * f1[c];
                x[i * E + o] += s;
            }
            (void)f2;
        }
    }
    for (int i = 0; i < n; i++) {
        rmsnorm(x + i * E, m->out_norm, xn);
        if (hidden) memcpy(hidden + i * E, xn, sizeof xn);
        for (int t = 0; t < V; t++) {
            double s = 0;
            for (int c = 0; c < E; c++) s += m->out[t][c] * xn[c];
            out[i * V + t] = s;
        }
    }
    free(x);
    free(q);
    free(k);
    free(v);
}

/* The reference logits of tokens at positions 0, 1, ...: want[n][V]. */
static void reference_tokens(const ref_model *m, const int32_t *toks, int n, double *want) {
    double *rows = malloc(sizeof *rows * (size_t)n * E);
    int(*pos)[4] = malloc(sizeof *pos * (size_t)n);
    for (int i = 0; i < n; i++) {
        for (int c = 0; c < E; c++) rows[i * E + c] = m->tok[toks[i]][c];
        pos[i][0] = pos[i][1] = pos[i][2] = pos[i][3] = i;
    }
    reference(m, rows, (const int(*)[4])pos, n, want, NULL);
    free(rows);
    free(pos);
}

static double max_err(const float *got, const double *want, int n) {
    double e = 0;
    for (int i = 0; i < n; i++) {
        double d = fabs(got[i] - want[i]) / (1 + fabs(want[i]));
        if (d > e) e = d;
    }
    return e;
}

/* pre rows, then a batch of n on top of them with every row's logits,
 * against the reference. */
static void check_batch_on_cache(const ref_model *m, seer_ctx *c, int pre, int n) {
    int32_t seq[64];
    if (pre + n > 64) {
        CHECK_MSG(0, "check_batch_on_cache: %d rows, room for 64", pre + n);
        return;
    }
    for (int i = 0; i < pre + n; i++) seq[i] = (i * 7 + 3) % V;
    double *want = malloc(sizeof *want * (size_t)(pre + n) * V);
    reference_tokens(m, seq, pre + n, want);
    seer_error err = {{0}};
    seer_ctx_truncate(c, 0, 0);
    seer_batch head = {.n = pre, .tokens = seq};
    seer_batch body = {.n = n, .tokens = seq + pre, .logits_all = true};
    CHECK(pre == 0 || seer_ctx_decode(c, &head, NULL, &err) == 0);
    CHECK(seer_ctx_decode(c, &body, NULL, &err) == 0);
    for (int i = 0; i < n; i++)
        CHECK_MSG(max_err(seer_ctx_logits(c, i), want + (pre + i) * V, V) < 2e-5, "batch of %d on %d rows: row %d", n, pre, i);
    free(want);
}

enum { N = 9 };

static void test_llama(seer_pool *pool) {
    static ref_model m;
    random_model(&m, false);
    char path[512];
    snprintf(path, sizeof path, "%s/llama.gguf", test_tmpdir());
    write_model(&m, path, BREAK_NONE, 0);
    seer_error err = {{0}};
    seer_llm *llm = seer_llm_load(path, NULL, NULL, &err);
    CHECK_MSG(llm != NULL, "load: %s", err.msg);
    if (!llm) return;
    const seer_llm_info *in = seer_llm_get_info(llm);
    CHECK(in->n_vocab == V && in->n_layer == L && in->n_head_kv == KV && in->head_dim == HD && !in->mrope);

    const int32_t toks[N] = {3, 7, 1, 30, 0, 12, 12, 5, 9};
    double rows[N * E], want[N * V];
    int pos[N][4];
    for (int i = 0; i < N; i++) {
        for (int c = 0; c < E; c++) rows[i * E + c] = m.tok[toks[i]][c];
        pos[i][0] = pos[i][1] = pos[i][2] = pos[i][3] = i;
    }
    double want_hidden[N * E];
    reference(&m, rows, (const int(*)[4])pos, N, want, want_hidden);

    /* batched prefill, logits of every row */
    seer_ctx *c = seer_ctx_new(llm, 64, SEER_KV_F32, pool, &err);
    CHECK_MSG(c != NULL, "ctx: %s", err.msg);
    seer_batch b = {.n = N, .tokens = toks, .logits_all = true};
    CHECK(seer_ctx_decode(c, &b, NULL, &err) == 0);
    for (int i = 0; i < N; i++) CHECK_MSG(max_err(seer_ctx_logits(c, i), want + i * V, V) < 2e-5, "row %d", i);
    CHECK(seer_ctx_used(c) == N && seer_ctx_next_pos(c) == N);

    /* embeddings: every row's final state after the output norm, in two batches */
    {
        float hidden[N * E];
        seer_ctx_truncate(c, 0, 0);
        seer_batch head = {.n = 4, .tokens = toks, .hidden = hidden};
        seer_batch tail = {.n = N - 4, .tokens = toks + 4, .hidden = hidden + 4 * E};
        CHECK(seer_ctx_decode(c, &head, NULL, &err) == 0 && seer_ctx_decode(c, &tail, NULL, &err) == 0);
        CHECK_MSG(max_err(hidden, want_hidden, N * E) < 2e-5, "hidden states: %g", max_err(hidden, want_hidden, N * E));
    }

    /* token by token gives the same last logits */
    seer_ctx_truncate(c, 0, 0);
    for (int i = 0; i < N; i++) {
        seer_batch one = {.n = 1, .tokens = &toks[i]};
        CHECK(seer_ctx_decode(c, &one, NULL, &err) == 0);
        CHECK_MSG(max_err(seer_ctx_logits(c, 0), want + i * V, V) < 2e-5, "step %d", i);
    }

    /* a cancelled decode leaves the cache as it was */
    seer_ctx_truncate(c, 4, 4);
    volatile int cancel = 1;
    seer_batch rest = {.n = N - 4, .tokens = toks + 4};
    CHECK(seer_ctx_decode(c, &rest, &cancel, &err) == -1);
    CHECK(seer_ctx_used(c) == 4 && seer_ctx_next_pos(c) == 4);
    cancel = 0;
    CHECK(seer_ctx_decode(c, &rest, &cancel, &err) == 0);
    CHECK(max_err(seer_ctx_logits(c, 0), want + (N - 1) * V, V) < 2e-5);

    /* a different continuation after truncation: equals a fresh run of it */
    const int32_t alt[3] = {31, 2, 8};
    seer_ctx_truncate(c, 2, 2);
    seer_batch ab = {.n = 3, .tokens = alt};
    CHECK(seer_ctx_decode(c, &ab, NULL, &err) == 0);
    double rows2[5 * E], want2[5 * V];
    const int32_t seq2[5] = {toks[0], toks[1], alt[0], alt[1], alt[2]};
    for (int i = 0; i < 5; i++)
        for (int cc = 0; cc < E; cc++) rows2[i * E + cc] = m.tok[seq2[i]][cc];
    reference(&m, rows2, (const int(*)[4])pos, 5, want2, NULL);
    CHECK(max_err(seer_ctx_logits(c, 0), want2 + 4 * V, V) < 2e-5);

    /* a long batch on top of cached rows (the tiled GEMM attention of
     * prefill, across a tile boundary) against the reference, every row;
     * then on one thread, which takes every tile of both KV heads in one
     * call (packed keys and values reused from one tile to the next): that
     * batch, and one of a single tile a head */
    check_batch_on_cache(&m, c, 3, 45);
    seer_pool *one_thread = seer_pool_create(1);
    seer_ctx *c1 = seer_ctx_new(llm, 64, SEER_KV_F32, one_thread, &err);
    CHECK_MSG(c1 != NULL, "ctx: %s", err.msg);
    if (c1) {
        check_batch_on_cache(&m, c1, 3, 45);
        check_batch_on_cache(&m, c1, 0, 20);
    }
    seer_ctx_free(c1);
    seer_pool_destroy(one_thread);
    seer_ctx_truncate(c, 2, 2);
    CHECK(seer_ctx_decode(c, &ab, NULL, &err) == 0);

    /* decode over more keys than one attention chunk holds (the split-K
     * path and its merge): a few rows at once, then one by one, on top of
     * a long prefill (the GEMM tiles), every row against the reference;
     * with each KV cache type (an F16 cache against a reference whose K and
     * V are rounded to half: a cache left in f32, or rounded twice, misses) */
    for (int kv = 0; kv < 2; kv++) {
        enum { LEN = 150, PRE = 120, FEW = 5 };
        const seer_kv_type kv_type = kv ? SEER_KV_F16 : SEER_KV_F32;
        int32_t seq[LEN];
        for (int i = 0; i < LEN; i++) seq[i] = (i * 11 + 5) % V;
        double *w4 = malloc(sizeof *w4 * LEN * V);
        ref_kv_f16 = kv_type == SEER_KV_F16;
        reference_tokens(&m, seq, LEN, w4);
        ref_kv_f16 = false;
        seer_ctx *lc = seer_ctx_new(llm, 256, kv_type, pool, &err);
        CHECK(!lc || seer_ctx_kv_type(lc) == kv_type);
        CHECK_MSG(lc != NULL, "ctx: %s", err.msg);
        seer_batch pre = {.n = PRE, .tokens = seq};
        seer_batch few = {.n = FEW, .tokens = seq + PRE, .logits_all = true};
        CHECK(lc && seer_ctx_decode(lc, &pre, NULL, &err) == 0);
        CHECK(lc && seer_ctx_decode(lc, &few, NULL, &err) == 0);
        for (int i = 0; lc && i < FEW; i++)
            CHECK_MSG(max_err(seer_ctx_logits(lc, i), w4 + (PRE + i) * V, V) < 2e-5, "%s cache: chunked row %d",
                      seer_kv_type_name(kv_type), PRE + i);
        for (int i = PRE + FEW; lc && i < LEN; i++) {
            seer_batch one = {.n = 1, .tokens = &seq[i]};
            CHECK(seer_ctx_decode(lc, &one, NULL, &err) == 0);
            CHECK_MSG(max_err(seer_ctx_logits(lc, 0), w4 + i * V, V) < 2e-5, "%s cache: chunked step %d",
                      seer_kv_type_name(kv_type), i);
        }
        seer_ctx_free(lc);
        free(w4);
    }

    /* bad ids and a full context are errors that leave the context as it was */
    int32_t bad = V;
    seer_batch bb = {.n = 1, .tokens = &bad};
    CHECK(seer_ctx_decode(c, &bb, NULL, &err) == -1 && strstr(err.msg, "vocabulary"));
    CHECK(seer_ctx_used(c) == 5 && seer_ctx_next_pos(c) == 5);
    seer_ctx_free(c);
    c = seer_ctx_new(llm, 12, SEER_KV_F32, pool, &err);
    seer_batch last = {.n = N, .tokens = toks};
    CHECK(c && seer_ctx_decode(c, &last, NULL, &err) == 0);
    CHECK(c && seer_ctx_decode(c, &last, NULL, &err) == -1 && strstr(err.msg, "context full"));
    CHECK(c && seer_ctx_used(c) == N);
    seer_ctx_free(c);
    seer_llm_free(llm);
}

static void test_qwen2vl(seer_pool *pool) {
    static ref_model m;
    random_model(&m, true);
    char path[512];
    snprintf(path, sizeof path, "%s/qwen.gguf", test_tmpdir());
    write_model(&m, path, BREAK_NONE, 0);
    seer_error err = {{0}};
    seer_llm *llm = seer_llm_load(path, NULL, NULL, &err);
    CHECK_MSG(llm != NULL, "load: %s", err.msg);
    if (!llm) return;
    CHECK(seer_llm_get_info(llm)->mrope);
    /* 2 text tokens, a 3x2 "image" of embedding rows at P = 2 (t = P, h = P + row,
     * w = P + col), then 2 text tokens from P + max(3, 2) = 5 on. */
    const int32_t t1[2] = {4, 9}, t2[2] = {17, 3};
    float img[6 * E];
    fill(img, 6 * E, 1.0f, 0);
    double rows[10 * E], want[10 * V];
    int pos[10][4];
    for (int i = 0; i < 2; i++) {
        for (int c = 0; c < E; c++) rows[i * E + c] = m.tok[t1[i]][c];
        pos[i][0] = pos[i][1] = pos[i][2] = pos[i][3] = i;
    }
    int32_t ipos[4 * 6];
    for (int k = 0; k < 6; k++) {
        for (int c = 0; c < E; c++) rows[(2 + k) * E + c] = img[k * E + c];
        pos[2 + k][0] = 2, pos[2 + k][1] = 2 + k / 3, pos[2 + k][2] = 2 + k % 3, pos[2 + k][3] = 0;
        for (int s = 0; s < 4; s++) ipos[s * 6 + k] = pos[2 + k][s];
    }
    for (int i = 0; i < 2; i++) {
        for (int c = 0; c < E; c++) rows[(8 + i) * E + c] = m.tok[t2[i]][c];
        pos[8 + i][0] = pos[8 + i][1] = pos[8 + i][2] = pos[8 + i][3] = 5 + i;
    }
    reference(&m, rows, (const int(*)[4])pos, 10, want, NULL);
    seer_ctx *c = seer_ctx_new(llm, 0, SEER_KV_F32, pool, &err);
    CHECK(c != NULL);
    seer_batch a = {.n = 2, .tokens = t1};
    seer_batch im = {.n = 6, .embd = img, .pos = ipos};
    CHECK(seer_ctx_decode(c, &a, NULL, &err) == 0);
    CHECK(seer_ctx_decode(c, &im, NULL, &err) == 0);
    CHECK(seer_ctx_next_pos(c) == 5); /* max position used (2 + 2) + 1 */
    CHECK(max_err(seer_ctx_logits(c, 0), want + 7 * V, V) < 2e-5);
    seer_batch tb = {.n = 2, .tokens = t2};
    CHECK(seer_ctx_decode(c, &tb, NULL, &err) == 0);
    CHECK(max_err(seer_ctx_logits(c, 0), want + 9 * V, V) < 2e-5);
    CHECK(seer_ctx_size(c) == 256); /* n_ctx <= 0: the training context when below 4096 */
    seer_ctx_free(c);
    seer_llm_free(llm);
}

static void test_errors(seer_pool *pool) {
    static ref_model m;
    random_model(&m, false);
    char path[512];
    seer_error err = {{0}};
    snprintf(path, sizeof path, "%s/bad.gguf", test_tmpdir());
    write_model(&m, path, BREAK_ARCH, 0);
    CHECK(seer_llm_load(path, NULL, NULL, &err) == NULL);
    CHECK_MSG(strstr(err.msg, "mamba") && strstr(err.msg, "not supported"), "%s", err.msg);
    write_model(&m, path, BREAK_MISSING_FFN_UP, 0);
    CHECK(seer_llm_load(path, NULL, NULL, &err) == NULL);
    CHECK_MSG(strstr(err.msg, "blk.1.ffn_up.weight") && strstr(err.msg, "missing"), "%s", err.msg);
    write_model(&m, path, BREAK_SHAPE_ATTN_K, 0);
    CHECK(seer_llm_load(path, NULL, NULL, &err) == NULL);
    CHECK_MSG(strstr(err.msg, "blk.1.attn_k.weight") && strstr(err.msg, "[32, 15]") && strstr(err.msg, "[32, 16]"),
              "%s", err.msg);
    CHECK(seer_llm_load(NULL, NULL, NULL, &err) == NULL);
    /* a KV cache larger than the machine: refused before allocating, size in MB */
    write_model(&m, path, BREAK_NONE, 1024); /* 2 layers x 2 heads x 1024 x 1M x K,V: 32 GB */
    seer_llm *llm = seer_llm_load(path, NULL, NULL, &err);
    CHECK_MSG(llm != NULL, "%s", err.msg);
    if (llm) {
        CHECK(seer_ctx_new(llm, 1 << 20, SEER_KV_F32, pool, &err) == NULL);
        CHECK_MSG(strstr(err.msg, "MB") && strstr(err.msg, "1048576"), "%s", err.msg);
        seer_llm_free(llm);
    }
}

int main(void) {
    seer_pool *pool = seer_pool_create(2);
    test_llama(pool);
    test_qwen2vl(pool);
    test_errors(pool);
    seer_pool_destroy(pool);
    TEST_MAIN_END();
}
