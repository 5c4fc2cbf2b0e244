/* Vision encoder pieces on their own and whole towers on small random-weight
 * mmproj files: window partition, 2-D rope table, blocked attention against
 * a direct float64 computation, projector-type errors, legacy LLaVA's
 * swapped MLP names, window isolation, input checks and cancel.
 *
 * With arguments it writes a benchmark-size model instead:
 *   test_vision_units --write clip-l336|siglip-b512|qwen25-3b|qwen2-2b f16|q8_0 OUT.gguf */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seer/cpu.h"
#include "seer/tensor.h"
#include "seer/threadpool.h"
#include "seer/vision.h"
#include "test_vision_synth.h"
#include "testlib.h"
#include "vision/vision_internal.h"
#include "ops/exp_kernels.h"

static void test_window_partition(void) {
    /* The newspaper image of qwen25vl-f32: 23×17 cells, 4-cell windows. */
    int order[23 * 17], start[64];
    int n = vit_window_partition(23, 17, 4, order, start);
    CHECK(n == 30);
    if (n != 30) return;
    CHECK(start[n] == 23 * 17);
    int seen[23 * 17] = {0};
    for (int i = 0; i < 23 * 17; i++) seen[order[i]]++;
    for (int i = 0; i < 23 * 17; i++) CHECK_MSG(seen[i] == 1, "cell %d appears %d times", i, seen[i]);
    for (int wy = 0; wy < 5; wy++) {
        for (int wx = 0; wx < 6; wx++) {
            int w = wy * 6 + wx, size = start[w + 1] - start[w];
            int ww = wx == 5 ? 3 : 4, wh = wy == 4 ? 1 : 4;
            CHECK_MSG(size == ww * wh, "window (%d,%d) has %d cells, expected %d", wx, wy, size, ww * wh);
            /* Cells inside a window are in raster order and inside its rectangle. */
            for (int c = start[w]; c < start[w + 1]; c++) {
                int x = order[c] % 23, y = order[c] / 23;
                CHECK(x >= 4 * wx && x < 4 * wx + ww && y >= 4 * wy && y < 4 * wy + wh);
                if (c > start[w]) CHECK(order[c] > order[c - 1]);
            }
        }
    }
    /* Smaller than one window: a single window holding everything. */
    int o2[12], s2[4];
    CHECK(vit_window_partition(4, 3, 4, o2, s2) == 1 && s2[1] == 12);
    CHECK(vit_window_partition(0, 3, 4, o2, s2) == -1);
}

static void test_rope_table(void) {
    enum { D = 16, N = 3 };
    int row[N] = {0, 5, 2}, col[N] = {0, 1, 7};
    float c[N * D / 2], s[N * D / 2];
    vit_rope2d_table(row, col, N, D, 10000.0f, false, c, s);
    for (int t = 0; t < N; t++) {
        for (int i = 0; i < D / 2; i++) {
            double ang = i < D / 4 ? row[t] * pow(10000.0, -4.0 * i / D) : col[t] * pow(10000.0, -4.0 * (i - D / 4) / D);
            CHECK_NEAR(c[t * D / 2 + i], cos(ang), 1e-6);
            CHECK_NEAR(s[t * D / 2 + i], sin(ang), 1e-6);
        }
    }
    /* Pixtral: the column pairs on the odd rungs base^(−(4j+2)/d) */
    vit_rope2d_table(row, col, N, D, 10000.0f, true, c, s);
    for (int t = 0; t < N; t++) {
        for (int i = 0; i < D / 2; i++) {
            double ang = i < D / 4 ? row[t] * pow(10000.0, -4.0 * i / D)
                                   : col[t] * pow(10000.0, -(4.0 * (i - D / 4) + 2.0) / D);
            CHECK_NEAR(c[t * D / 2 + i], cos(ang), 1e-6);
            CHECK_NEAR(s[t * D / 2 + i], sin(ang), 1e-6);
        }
    }
    /* Pair i rotates (x[i], x[i + d/2]); the score between two rotated
     * vectors depends only on their relative position. */
    float q[D], k[D];
    uint64_t st = 7;
    for (int i = 0; i < D; i++) {
        q[i] = synth_rand(&st);
        k[i] = synth_rand(&st);
    }
    int pr[4] = {3, 1, 10, 8}, pc[4] = {2, 6, 5, 9}; /* pairs (0,1) and (2,3): same offset (+2, -4) */
    float ct[4 * D / 2], stt[4 * D / 2], rq[2][D], rk[2][D];
    vit_rope2d_table(pr, pc, 4, D, 10000.0f, false, ct, stt);
    for (int p = 0; p < 2; p++) {
        memcpy(rq[p], q, sizeof q);
        memcpy(rk[p], k, sizeof k);
        vit_rope2d_apply(rq[p], 1, 1, D, ct + (2 * p) * D / 2, stt + (2 * p) * D / 2);
        vit_rope2d_apply(rk[p], 1, 1, D, ct + (2 * p + 1) * D / 2, stt + (2 * p + 1) * D / 2);
    }
    double dot[2] = {0, 0}, n0 = 0, n1 = 0;
    for (int p = 0; p < 2; p++)
        for (int i = 0; i < D; i++) dot[p] += (double)rq[p][i] * rk[p][i];
    for (int i = 0; i < D; i++) {
        n0 += (double)q[i] * q[i];
        n1 += (double)rq[0][i] * rq[0][i];
    }
    CHECK_NEAR(dot[0], dot[1], 1e-5);
    CHECK_NEAR(n0, n1, 1e-5); /* a rotation keeps the norm */
    /* Position (0, 0) is the identity; the row moves only the first half of the pairs. */
    float x[D];
    memcpy(x, q, sizeof q);
    vit_rope2d_apply(x, 1, 1, D, c, s);
    for (int i = 0; i < D; i++) CHECK(x[i] == q[i]);
}

static void test_attention(seer_pool *pool) {
    enum { N = 700, H = 3, DH = 8, W = H * DH };
    int segs[4] = {0, 100, 357, N};
    float *q = malloc(sizeof(float) * N * W), *k = malloc(sizeof(float) * N * W), *v = malloc(sizeof(float) * N * W);
    float *out = malloc(sizeof(float) * N * W);
    uint64_t st = 11;
    for (int i = 0; i < N * W; i++) {
        q[i] = 2 * synth_rand(&st);
        k[i] = 2 * synth_rand(&st);
        v[i] = synth_rand(&st);
    }
    for (int pass = 0; pass < 2; pass++) {
        const int *seg = pass == 0 ? segs : (const int[]){0, N};
        int n_seg = pass == 0 ? 3 : 1;
        int64_t max_seg = 0;
        for (int s = 0; s < n_seg; s++)
            if (seg[s + 1] - seg[s] > max_seg) max_seg = seg[s + 1] - seg[s];
        float *work = aligned_alloc(64, ((size_t)vit_attention_scratch_floats(seer_pool_size(pool), n_seg, max_seg, DH) *
                                         sizeof(float) + 63) / 64 * 64);
        double fl = 0;
        vit_attention(pool, q, k, v, out, H, DH, seg, n_seg, work, &fl);
        CHECK(fl > 0);
        double err = 0;
        double *p = malloc(sizeof(double) * N);
        for (int s = 0; s < n_seg; s++) {
            for (int h = 0; h < H; h++) {
                for (int i = seg[s]; i < seg[s + 1]; i++) {
                    double m = -1e300, sum = 0;
                    for (int j = seg[s]; j < seg[s + 1]; j++) {
                        double dot = 0;
                        for (int e = 0; e < DH; e++) dot += (double)q[i * W + h * DH + e] * k[j * W + h * DH + e];
                        p[j] = dot / sqrt((double)DH);
                        if (p[j] > m) m = p[j];
                    }
                    for (int j = seg[s]; j < seg[s + 1]; j++) sum += p[j] = exp(p[j] - m);
                    for (int e = 0; e < DH; e++) {
                        double o = 0;
                        for (int j = seg[s]; j < seg[s + 1]; j++) o += p[j] / sum * v[j * W + h * DH + e];
                        double diff = fabs(o - out[i * W + h * DH + e]);
                        if (diff > err) err = diff;
                    }
                }
            }
        }
        CHECK_MSG(err < 1e-5, "attention (%d segments) differs from float64 by %g", n_seg, err);
        free(p);
        free(work);
    }
    free(q);
    free(k);
    free(v);
    free(out);
}

/* The SIMD exp kernels against libm, through the dispatch, on every level
 * this CPU (and SEER_SIMD) allows: values from deep negative to large
 * positive, lengths with ragged tails; seer_exp_row over the decays' range
 * (0 down to past the clamp at −87). */
static void test_simd_math(void) {
    const int top = seer_simd_allowed();
    enum { N = 203 };
    float x[N], up[N];
    for (int i = 0; i < N; i++) {
        x[i] = -120.0f + 240.0f * (float)i / (N - 1); /* includes |x| > 88 */
        up[i] = 0.5f + 0.01f * i;
    }
    for (int kind = SEER_GATE_QUICK_GELU; kind <= SEER_GATE_SIGMOID; kind++) {
        const bool times_up = kind == SEER_GATE_SILU || kind == SEER_GATE_SIGMOID; /* SwiGLU, an output gate */
        for (int lvl = 0; lvl <= top; lvl++) {
            seer_simd_set_level(lvl);
            for (int len = 1; len <= N; len += 13) {
                float y[N], z[N];
                for (int i = 0; i < len; i++) y[i] = z[i] = x[(i * 7) % N] * 0.05f * (float)(1 + i % 5);
                seer_exp_gate((seer_gate_kind)kind, y, times_up ? up : NULL, len);
                for (int i = 0; i < len; i++) {
                    double v = z[i], g = kind == SEER_GATE_QUICK_GELU ? 1.702 * v
                                         : kind == SEER_GATE_GELU_TANH ? 2.0 * 0.7978845608028654 * (v + 0.044715 * v * v * v)
                                                                      : v;
                    double ref = (kind == SEER_GATE_SIGMOID ? 1.0 : v) / (1.0 + exp(-g)) * (times_up ? up[i] : 1.0);
                    /* float rounding of g moves exp(-g) by about |g|·ulp */
                    CHECK_MSG(fabs(y[i] - ref) <= 3e-7 * (2 + fabs(g)) * fabs(ref) + 1e-30, "gate %d level %d x=%g: %g vs %g", kind,
                              lvl, v, (double)y[i], ref);
                    CHECK(isfinite(y[i]));
                }
            }
        }
    }
    for (int lvl = 0; lvl <= top; lvl++) {
        seer_simd_set_level(lvl);
        for (int len = 1; len <= N; len += 11) {
            float y[N];
            double m = -1e300, sum = 0;
            for (int i = 0; i < len; i++) {
                y[i] = x[(i * 31) % N] * 0.5f;
                if (y[i] > m) m = y[i];
            }
            double ref[N];
            for (int i = 0; i < len; i++) sum += ref[i] = exp(y[i] - m);
            seer_exp_softmax(y, len);
            for (int i = 0; i < len; i++)
                CHECK_MSG(fabs(y[i] - ref[i] / sum) <= 3e-7 * (4 + fabs(log(ref[i]))) * (ref[i] / sum) + 1e-37, "softmax level %d len %d i %d", lvl,
                          len, i);
        }
    }
    /* The scaled softmax (a prompt's attention scores) gives the very floats
     * of a multiply pass and then the softmax, negative scales included. */
    const float scales[] = {0.125f, 0.08838835f, 1.0f, -0.3f};
    for (int lvl = 0; lvl <= top; lvl++) {
        seer_simd_set_level(lvl);
        for (size_t s = 0; s < sizeof scales / sizeof scales[0]; s++)
            for (int len = 1; len <= N; len += 7) {
                float y[N], z[N];
                for (int i = 0; i < len; i++) {
                    y[i] = x[(i * 29) % N] * 3.0f;
                    z[i] = y[i] * scales[s];
                }
                const float lz = seer_exp_softmax(z, len), ly = seer_exp_softmax_scaled(y, len, scales[s]);
                CHECK_MSG(memcmp(y, z, sizeof(float) * (size_t)len) == 0 && lz == ly, "scaled softmax level %d scale %g len %d",
                          lvl, (double)scales[s], len);
            }
    }
    for (int lvl = 0; lvl <= top; lvl++) {
        seer_simd_set_level(lvl);
        for (int len = 1; len <= N; len += 17) {
            float y[N];
            for (int i = 0; i < len; i++) y[i] = -100.0f * (float)((i * 37) % N) / N;
            float z[N];
            memcpy(z, y, sizeof(float) * (size_t)len);
            seer_exp_row(y, len);
            for (int i = 0; i < len; i++) {
                const double ref = exp((double)z[i]);
                CHECK_MSG(z[i] < -87.0f ? y[i] >= 0 && y[i] < 2e-38 : fabs(y[i] - ref) <= 3e-7 * (2 + fabs(z[i])) * ref,
                          "exp_row level %d x=%g: %g vs %g", lvl, (double)z[i], (double)y[i], ref);
            }
        }
    }
    seer_simd_set_level(-1);
}

/* The element-wise exp kernels take whole vectors in batches (independent
 * chains side by side): a batch must give each element exactly what one
 * vector at a time gives. A row of 272 computed whole, against the same row
 * 16 elements a call (one vector at AVX-512, two at AVX2: no batch, no
 * tail), bit for bit at every level. */
static void exp_kernel(int op, float *y, const float *mul, int64_t n) {
    if (op < 3) seer_exp_gate((seer_gate_kind)op, y, NULL, n); /* the three gates */
    else if (op == 3) seer_exp_gate(SEER_GATE_SILU, y, mul, n); /* SwiGLU */
    else if (op == 4) seer_exp_row(y, n);
    else seer_exp_softcap(y, n, 30.0f);
}

static void test_exp_batches(void) {
    enum { N = 272 };
    float x[N], mul[N];
    for (int i = 0; i < N; i++) {
        x[i] = (float)((i * 97) % N - N / 2) * 0.37f; /* about -50 to 50 */
        mul[i] = 0.25f + 0.01f * (float)(i % 50);
    }
    const int top = seer_simd_allowed();
    for (int lvl = 0; lvl <= top; lvl++) {
        seer_simd_set_level(lvl);
        for (int op = 0; op < 6; op++) {
            float whole[N], parts[N];
            memcpy(whole, x, sizeof x);
            memcpy(parts, x, sizeof x);
            exp_kernel(op, whole, mul, N);
            for (int at = 0; at < N; at += 16) exp_kernel(op, parts + at, mul + at, 16);
            for (int i = 0; i < N; i++)
                CHECK_MSG(memcmp(&whole[i], &parts[i], sizeof(float)) == 0, "exp kernel %d level %d element %d: %.9g whole, %.9g alone",
                          op, lvl, i, (double)whole[i], (double)parts[i]);
        }
    }
    seer_simd_set_level(-1);
}

/* Passes whose readers all take F16 (vit_rows_out): each output is what
 * the plain pass gives, rounded to F16 (the products then skip their own
 * rounding pass, so a missed piece would change the embeddings), for the
 * norms and every MLP activation, over rows longer than a piece. */
static void rows_out_f16(seer_pool *pool) {
    enum { ROWS = 10, D = 1000, N = ROWS * D };
    float *x = malloc(sizeof(float) * N), *up = malloc(sizeof(float) * N), *w = malloc(sizeof(float) * D);
    float *plain = malloc(sizeof(float) * N), *rounded = malloc(sizeof(float) * N);
    for (int i = 0; i < N; i++) x[i] = 4.0f * sinf(0.37f * (float)i), up[i] = cosf(0.11f * (float)i);
    for (int i = 0; i < D; i++) w[i] = 0.5f + 0.001f * (float)i;
    const vit_norm_params np = {.w = w, .b = up};
    for (int kind = 0; kind < 2; kind++) {
        vit_norm_rows(pool, kind ? VIT_NORM_RMS : VIT_NORM_LAYER, x, plain, &np, ROWS, D, 1e-6f);
        vit_norm_rows_to(pool, kind ? VIT_NORM_RMS : VIT_NORM_LAYER, x, rounded, &np, ROWS, D, 1e-6f, VIT_OUT_F16);
        seer_f32_round_fp16_row(plain, plain, N);
        CHECK_MSG(memcmp(plain, rounded, sizeof(float) * N) == 0, "norm %d: F16 outputs are not the plain ones rounded", kind);
    }
    const vit_act acts[] = {VIT_ACT_QUICK_GELU, VIT_ACT_GELU_TANH, VIT_ACT_SILU};
    for (int a = 0; a < 3; a++)
        for (int gated = 0; gated < 2; gated++) {
            memcpy(plain, x, sizeof(float) * N);
            memcpy(rounded, x, sizeof(float) * N);
            vit_mlp_act_rows(pool, acts[a], plain, gated ? up : NULL, N, VIT_OUT_F32);
            vit_mlp_act_rows(pool, acts[a], rounded, gated ? up : NULL, N, VIT_OUT_F16);
            seer_f32_round_fp16_row(plain, plain, N);
            CHECK_MSG(memcmp(plain, rounded, sizeof(float) * N) == 0,
                      "activation %d%s: F16 outputs are not the plain ones rounded", a, gated ? " gated" : "");
        }
    free(x), free(up), free(w), free(plain), free(rounded);
}

/* without a pool, one range of whole pieces and a part */
static void test_rows_out_f16(seer_pool *pool) {
    rows_out_f16(pool);
    rows_out_f16(NULL);
}

static char *tmp_path(const char *name) {
    static char buf[8][512];
    static int next;
    char *p = buf[next++ % 8];
    snprintf(p, 512, "%s/%s", test_tmpdir(), name);
    return p;
}

static void test_unsupported_projector(void) {
    gguf_writer *w = gguf_writer_new();
    gguf_writer_set_str(w, "general.architecture", "clip");
    gguf_writer_set_str(w, "clip.projector_type", "ldpv3");
    gguf_writer_set_u32(w, "clip.vision.image_size", 336);
    char *path = tmp_path("mmproj.gguf");
    seer_error err = {{0}};
    CHECK(gguf_writer_write(w, path, &err) == 0);
    gguf_writer_free(w);
    seer_vision *v = seer_vision_load(path, &err);
    CHECK(v == NULL);
    char want[600];
    snprintf(want, sizeof want,
             "%s: projector type 'ldpv3' is not supported (supported: mlp, idefics3, qwen2vl_merger, qwen2.5vl_merger, "
             "qwen3vl_merger, gemma3, gemma4v, internvl, ldp, ldpv2, pixtral, lfm2, resampler, glm4v, paddleocr, dots_ocr, "
             "hunyuanvl, lightonocr)",
             path);
    CHECK_MSG(strcmp(err.msg, want) == 0, "error was: %s", err.msg);
}

static float *random_pixels(int w, int h, uint64_t seed) {
    float *px = malloc(sizeof(float) * 3 * (size_t)w * h);
    for (int i = 0; i < 3 * w * h; i++) px[i] = synth_rand(&seed);
    return px;
}

static float *encode_file(const char *path, seer_pool *pool, int w, int h, const float *pixels, int *n_out) {
    seer_error err = {{0}};
    seer_vision *v = seer_vision_load(path, &err);
    CHECK_MSG(v != NULL, "load %s: %s", path, err.msg);
    if (!v) return NULL;
    int nx, ny;
    seer_vision_out_grid(v, w, h, &nx, &ny);
    *n_out = nx * ny * seer_vision_get_hparams(v)->n_embd_out;
    float *out = malloc(sizeof(float) * (size_t)*n_out);
    seer_pixels px = {.w = w, .h = h, .data = (float *)pixels};
    int rc = seer_vision_encode(v, pool, &px, out, NULL, NULL, &err);
    CHECK_MSG(rc == 0, "encode %s: %s", path, err.msg);
    for (int i = 0; rc == 0 && i < *n_out; i++)
        if (!isfinite(out[i])) {
            CHECK_MSG(0, "non-finite output at %d", i);
            break;
        }
    seer_vision_free(v);
    if (rc != 0) {
        free(out);
        return NULL;
    }
    return out;
}

/* Legacy LLaVA files name the MLP matrices the other way round; the loader
 * must detect it from the shapes, so both files compute the same thing. */
static void test_legacy_swap(seer_pool *pool) {
    synth_spec s = {.family = SYNTH_CLIP, .image_size = 56, .patch = 14, .n_embd = 32, .n_ff = 48, .n_layer = 2,
                    .n_head = 2, .n_out = 24, .matrix_type = SEER_TYPE_F32, .patch_type = SEER_TYPE_F32, .seed = 3};
    seer_error err = {{0}};
    char *a = tmp_path("clip-normal.gguf"), *b = tmp_path("clip-legacy.gguf");
    CHECK(synth_write(&s, a, &err) == 0);
    s.legacy_swap = true;
    CHECK(synth_write(&s, b, &err) == 0);
    float *px = random_pixels(56, 56, 5);
    int na = 0, nb = 0;
    float *oa = encode_file(a, pool, 56, 56, px, &na), *ob = encode_file(b, pool, 56, 56, px, &nb);
    CHECK(na == 16 * 24 && na == nb);
    if (oa && ob && na == nb) CHECK(memcmp(oa, ob, sizeof(float) * (size_t)na) == 0);
    free(oa);
    free(ob);
    free(px);
}

/* "mlp_norm" ends with a LayerNorm (weight 1, bias 0 here): every output
 * row has mean 0 and variance 1. */
static void test_mlp_norm(seer_pool *pool) {
    synth_spec s = {.family = SYNTH_CLIP, .image_size = 42, .patch = 14, .n_embd = 32, .n_ff = 48, .n_layer = 1,
                    .n_head = 2, .n_out = 40, .matrix_type = SEER_TYPE_F32, .patch_type = SEER_TYPE_F32,
                    .mlp_norm = true, .seed = 8};
    seer_error err = {{0}};
    char *path = tmp_path("mlp-norm.gguf");
    CHECK(synth_write(&s, path, &err) == 0);
    float *px = random_pixels(42, 42, 3);
    int n = 0;
    float *o = encode_file(path, pool, 42, 42, px, &n);
    CHECK(n == 9 * 40);
    for (int t = 0; o && t < 9; t++) {
        double m = 0, v = 0;
        for (int i = 0; i < 40; i++) m += o[t * 40 + i];
        m /= 40;
        for (int i = 0; i < 40; i++) v += (o[t * 40 + i] - m) * (o[t * 40 + i] - m);
        CHECK_NEAR(m, 0, 1e-5);
        CHECK_NEAR(v / 40, 1, 1e-3);
    }
    free(o);
    free(px);
}

/* Qwen2.5-VL window attention: with every block windowed, changing the
 * pixels of one window changes only that window's output tokens; with
 * every block global (n_wa_pattern 1) it changes the others too. */
static void test_window_isolation(seer_pool *pool) {
    enum { W = 168, H = 140 }; /* 6×5 cells: windows 4+2 wide, 4+1 high */
    for (int pass = 0; pass < 2; pass++) {
        synth_spec s = {.family = SYNTH_QWEN25VL, .image_size = 560, .patch = 14, .n_embd = 32, .n_ff = 40,
                        .n_layer = 2, .n_head = 2, .n_out = 16, .matrix_type = SEER_TYPE_F32,
                        .patch_type = SEER_TYPE_F32, .n_wa_pattern = pass == 0 ? 100 : 1, .seed = 9};
        seer_error err = {{0}};
        char *path = tmp_path(pass == 0 ? "qwen-win.gguf" : "qwen-full.gguf");
        CHECK(synth_write(&s, path, &err) == 0);
        float *px = random_pixels(W, H, 17), *px2 = malloc(sizeof(float) * 3 * W * H);
        memcpy(px2, px, sizeof(float) * 3 * W * H);
        /* Change a pixel block inside cell (5, 4): the bottom-right window. */
        for (int c = 0; c < 3; c++)
            for (int y = 115; y < 135; y++)
                for (int x = 145; x < 165; x++) px2[(c * H + y) * W + x] += 0.7f;
        int n1 = 0, n2 = 0;
        float *o1 = encode_file(path, pool, W, H, px, &n1), *o2 = encode_file(path, pool, W, H, px2, &n2);
        CHECK(n1 == 30 * 16 && n1 == n2);
        if (o1 && o2 && n1 == n2) {
            int changed_outside = 0, changed_inside = 0;
            for (int t = 0; t < 30; t++) {
                int cx = t % 6, cy = t / 6;
                bool inside = cx >= 4 && cy >= 4;
                bool diff = memcmp(o1 + t * 16, o2 + t * 16, 16 * sizeof(float)) != 0;
                if (inside) changed_inside += diff;
                else changed_outside += diff;
            }
            CHECK(changed_inside == 2);
            if (pass == 0) CHECK_MSG(changed_outside == 0, "windowed: %d tokens outside the window changed", changed_outside);
            else CHECK_MSG(changed_outside == 28, "global: only %d tokens outside changed", changed_outside);
        }
        free(o1);
        free(o2);
        free(px);
        free(px2);
    }
}

/* Every family runs, and 1 vs 2 threads agree. */
static void test_families_threads(seer_pool *pool2) {
    synth_spec specs[] = {
        {.family = SYNTH_CLIP, .image_size = 42, .patch = 14, .n_embd = 32, .n_ff = 64, .n_layer = 2, .n_head = 4,
         .n_out = 16, .matrix_type = SEER_TYPE_F16, .patch_type = SEER_TYPE_F16, .seed = 1},
        {.family = SYNTH_SIGLIP, .image_size = 64, .patch = 16, .n_embd = 32, .n_ff = 64, .n_layer = 2, .n_head = 2,
         .n_out = 16, .matrix_type = SEER_TYPE_Q8_0, .patch_type = SEER_TYPE_F16, .scale_factor = 2, .seed = 2},
        {.family = SYNTH_QWEN2VL, .image_size = 560, .patch = 14, .n_embd = 32, .n_ff = 64, .n_layer = 2, .n_head = 2,
         .n_out = 16, .matrix_type = SEER_TYPE_F32, .patch_type = SEER_TYPE_F32, .seed = 3},
        /* Qwen3-VL: 3×3 position grid resampled to 6×4 patches, DeepStack after block 0 */
        {.family = SYNTH_QWEN3VL, .image_size = 48, .patch = 16, .n_embd = 32, .n_ff = 64, .n_layer = 2, .n_head = 2,
         .n_out = 16, .matrix_type = SEER_TYPE_F16, .patch_type = SEER_TYPE_F16, .pos_side = 3, .deepstack = 1,
         .seed = 5},
        {.family = SYNTH_GEMMA3, .image_size = 64, .patch = 16, .n_embd = 32, .n_ff = 64, .n_layer = 2, .n_head = 2,
         .n_out = 16, .matrix_type = SEER_TYPE_F16, .patch_type = SEER_TYPE_F16, .scale_factor = 2, .seed = 6},
    };
    int sizes[][2] = {{42, 42}, {64, 64}, {84, 56}, {96, 64}, {64, 64}};
    int tokens[] = {9, 4, 6, 6, 4}, widths[] = {16, 16, 16, 32, 16};
    seer_pool *pool1 = seer_pool_create(1);
    for (int i = 0; i < 5; i++) {
        seer_error err = {{0}};
        char name[32];
        snprintf(name, sizeof name, "family%d.gguf", i);
        char *path = tmp_path(name);
        CHECK(synth_write(&specs[i], path, &err) == 0);
        float *px = random_pixels(sizes[i][0], sizes[i][1], 23);
        int n1 = 0, n2 = 0;
        float *o1 = encode_file(path, pool1, sizes[i][0], sizes[i][1], px, &n1);
        float *o2 = encode_file(path, pool2, sizes[i][0], sizes[i][1], px, &n2);
        CHECK_MSG(n1 == tokens[i] * widths[i], "family %d: %d outputs", i, n1);
        if (o1 && o2 && n1 == n2) {
            double num = 0, den = 0;
            for (int k = 0; k < n1; k++) {
                num += (double)(o1[k] - o2[k]) * (o1[k] - o2[k]);
                den += (double)o1[k] * o1[k];
            }
            CHECK_MSG(den > 0 && sqrt(num / den) < 1e-5, "family %d: 1 vs 2 threads differ by %g", i, sqrt(num / den));
        }
        free(o1);
        free(o2);
        free(px);
    }
    seer_pool_destroy(pool1);
}

/* Qwen3-VL and Gemma 3 files that cannot run say why in one line; a good
 * Qwen3-VL file reports its DeepStack layers and row width. */
static void test_new_family_files(void) {
    synth_spec q = {.family = SYNTH_QWEN3VL, .image_size = 48, .patch = 16, .n_embd = 32, .n_ff = 64, .n_layer = 3,
                    .n_head = 2, .n_out = 16, .matrix_type = SEER_TYPE_F32, .patch_type = SEER_TYPE_F32,
                    .pos_side = 3, .deepstack = 5, .seed = 7};
    seer_error err = {{0}};
    char *path = tmp_path("q3.gguf");
    CHECK(synth_write(&q, path, &err) == 0);
    seer_vision *v = seer_vision_load(path, &err);
    CHECK_MSG(v != NULL, "%s", err.msg);
    if (v) {
        const seer_vision_hparams *hp = seer_vision_get_hparams(v);
        CHECK(hp->projector == SEER_PROJ_QWEN3VL && hp->n_deepstack == 2 && hp->deepstack_layers[0] == 0 &&
              hp->deepstack_layers[1] == 2 && hp->n_embd_text == 16 && hp->n_embd_out == 48);
        seer_vision_free(v);
    }
    struct { synth_spec s; const char *msg; } bad[] = {
        {q, "'v.position_embd.weight' is missing"},
        {q, "spatial_merge_size is 3 (only 2 is supported)"},
        {{.family = SYNTH_GEMMA3, .image_size = 64, .patch = 16, .n_embd = 32, .n_ff = 64, .n_layer = 1, .n_head = 2,
          .n_out = 16, .matrix_type = SEER_TYPE_F32, .patch_type = SEER_TYPE_F32, .scale_factor = 3, .seed = 8},
         "not a whole number of 3×3-patch pooling cells"},
    };
    bad[0].s.pos_side = 0;
    bad[1].s.merge_size = 3;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        path = tmp_path("bad.gguf");
        CHECK(synth_write(&bad[i].s, path, &err) == 0);
        CHECK(seer_vision_load(path, &err) == NULL);
        CHECK_MSG(strstr(err.msg, bad[i].msg) != NULL && !strchr(err.msg, '\n'), "case %zu: %s", i, err.msg);
    }
}

static void test_input_checks_and_cancel(seer_pool *pool) {
    synth_spec s = {.family = SYNTH_CLIP, .image_size = 42, .patch = 14, .n_embd = 16, .n_ff = 32, .n_layer = 2,
                    .n_head = 2, .n_out = 8, .matrix_type = SEER_TYPE_F32, .patch_type = SEER_TYPE_F32, .seed = 4};
    seer_error err = {{0}};
    char *path = tmp_path("small.gguf");
    CHECK(synth_write(&s, path, &err) == 0);
    seer_vision *v = seer_vision_load(path, &err);
    CHECK_MSG(v != NULL, "%s", err.msg);
    if (!v) return;
    float out[9 * 8];
    float *px = random_pixels(56, 56, 1);
    seer_pixels bad = {.w = 56, .h = 56, .data = px};
    CHECK(seer_vision_encode(v, pool, &bad, out, NULL, NULL, &err) == -1);
    CHECK_MSG(strstr(err.msg, "positions") != NULL, "%s", err.msg);
    seer_pixels odd = {.w = 43, .h = 42, .data = px};
    CHECK(seer_vision_encode(v, pool, &odd, out, NULL, NULL, &err) == -1);
    seer_pixels ok = {.w = 42, .h = 42, .data = px};
    volatile int cancel = 1;
    CHECK(seer_vision_encode(v, pool, &ok, out, &cancel, NULL, &err) == -1);
    CHECK(strcmp(err.msg, "cancelled") == 0);
    double fl = 0;
    CHECK(seer_vision_encode(v, pool, &ok, out, NULL, &fl, &err) == 0);
    /* Patch embedding + 2 blocks (4 d² + 2 d·ff + attention per token) + projector. */
    double n = 10, d = 16, ff = 32, expect = 2 * 9 * 588 * d + 2 * (2 * n * (4 * d * d + 2 * d * ff) + 4 * n * n * d) +
                                             2 * 9 * (d * 8 + 8 * 8);
    CHECK_NEAR(fl, expect, 1);
    seer_vision_free(v);
    free(px);

    /* A missing tensor is named. */
    gguf_writer *w = gguf_writer_new();
    gguf_writer_set_str(w, "clip.projector_type", "mlp");
    gguf_writer_set_u32(w, "clip.vision.image_size", 42);
    gguf_writer_set_u32(w, "clip.vision.patch_size", 14);
    gguf_writer_set_u32(w, "clip.vision.embedding_length", 16);
    gguf_writer_set_u32(w, "clip.vision.feed_forward_length", 32);
    gguf_writer_set_u32(w, "clip.vision.block_count", 1);
    gguf_writer_set_u32(w, "clip.vision.attention.head_count", 2);
    float m[16 * 8] = {0};
    gguf_writer_add_tensor(w, "mm.0.weight", SEER_TYPE_F32, 2, (int64_t[]){16, 8}, m);
    gguf_writer_add_tensor(w, "mm.2.weight", SEER_TYPE_F32, 2, (int64_t[]){8, 8}, m);
    path = tmp_path("missing.gguf");
    CHECK(gguf_writer_write(w, path, &err) == 0);
    gguf_writer_free(w);
    CHECK(seer_vision_load(path, &err) == NULL);
    CHECK_MSG(strstr(err.msg, "'v.patch_embd.weight' is missing") != NULL, "%s", err.msg);
}

static int write_bench_model(const char *kind, const char *type, const char *path) {
    int t = strcmp(type, "q8_0") == 0 ? SEER_TYPE_Q8_0 : strcmp(type, "f32") == 0 ? SEER_TYPE_F32 : SEER_TYPE_F16;
    synth_spec s = {.matrix_type = t, .patch_type = SEER_TYPE_F16, .seed = 42};
    if (!strcmp(kind, "clip-l336")) { /* LLaVA-1.5's CLIP ViT-L/14-336 as stored (23 blocks) */
        s.family = SYNTH_CLIP, s.image_size = 336, s.patch = 14, s.n_embd = 1024, s.n_ff = 4096, s.n_layer = 23;
        s.n_head = 16, s.n_out = 4096, s.legacy_swap = true;
    } else if (!strcmp(kind, "siglip-b512")) { /* SmolVLM-256M's SigLIP-B/16-512 */
        s.family = SYNTH_SIGLIP, s.image_size = 512, s.patch = 16, s.n_embd = 768, s.n_ff = 3072, s.n_layer = 12;
        s.n_head = 12, s.n_out = 576, s.scale_factor = 4;
    } else if (!strcmp(kind, "qwen25-3b")) { /* Qwen2.5-VL-3B vision tower */
        s.family = SYNTH_QWEN25VL, s.image_size = 560, s.patch = 14, s.n_embd = 1280, s.n_ff = 3420, s.n_layer = 32;
        s.n_head = 16, s.n_out = 2048, s.n_wa_pattern = 8;
    } else if (!strcmp(kind, "qwen2-2b")) { /* Qwen2-VL-2B vision tower */
        s.family = SYNTH_QWEN2VL, s.image_size = 560, s.patch = 14, s.n_embd = 1280, s.n_ff = 5120, s.n_layer = 32;
        s.n_head = 16, s.n_out = 1536;
    } else {
        fprintf(stderr, "unknown model kind '%s'\n", kind);
        return 2;
    }
    seer_error err = {{0}};
    if (synth_write(&s, path, &err) != 0) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 5 && strcmp(argv[1], "--write") == 0) return write_bench_model(argv[2], argv[3], argv[4]);
    seer_pool *pool = seer_pool_create(2);
    test_window_partition();
    test_rope_table();
    test_attention(pool);
    test_simd_math();
    test_exp_batches();
    test_rows_out_f16(pool);
    test_unsupported_projector();
    test_legacy_swap(pool);
    test_mlp_norm(pool);
    test_window_isolation(pool);
    test_families_threads(pool);
    test_new_family_files();
    test_input_checks_and_cancel(pool);
    seer_pool_destroy(pool);
    TEST_MAIN_END();
}
