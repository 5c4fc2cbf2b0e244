/* seer_matmul for every weight type on both paths (quantized dot products
 * for few rows, dequantize + sgemm for many), with and without a pool and a
 * bias, against a double-precision product of the dequantized weights and
 * the activations rounded through the vec_dot type; seer_sgemm against a
 * naive product. */
#include <math.h>

#include "seer/gguf.h"
#include "kernels/gemm_q8_internal.h"
#include "kernels/matmul_internal.h"
#include "seer/matmul.h"
#include "tensor/iq_unpack.h"
#include "test_tensor_pack.h"
#include "testlib.h"

static const int weight_types[] = {SEER_TYPE_F32, SEER_TYPE_F16, SEER_TYPE_BF16, SEER_TYPE_Q4_0, SEER_TYPE_Q4_1,
                                   SEER_TYPE_Q5_0, SEER_TYPE_Q5_1, SEER_TYPE_Q8_0, SEER_TYPE_Q8_1, SEER_TYPE_Q2_K,
                                   SEER_TYPE_Q3_K, SEER_TYPE_Q4_K, SEER_TYPE_Q5_K, SEER_TYPE_Q6_K, SEER_TYPE_Q8_K,
                                   SEER_TYPE_IQ4_NL, SEER_TYPE_IQ4_XS, SEER_TYPE_IQ2_XXS, SEER_TYPE_IQ2_XS,
                                   SEER_TYPE_IQ2_S, SEER_TYPE_IQ3_XXS, SEER_TYPE_IQ3_S, SEER_TYPE_IQ1_S,
                                   SEER_TYPE_IQ1_M};

/* A random weight matrix of `type`, n_out rows of n_in. */
static void *make_weight(int type, int64_t n_in, int64_t n_out) {
    const seer_type_info *ti = seer_type_get(type);
    size_t row_bytes = seer_row_bytes(type, n_in);
    uint8_t *data = malloc(row_bytes * (size_t)n_out);
    for (int64_t o = 0; o < n_out; o++) {
        uint8_t *row = data + (size_t)o * row_bytes;
        if (seer_iq_unpacker(type)) { /* random bytes are valid blocks; block scales 2^-4 .. 2^-3 */
            for (size_t k = 0; k < row_bytes; k++) row[k] = (uint8_t)rnd_u32();
            for (int64_t b = 0; b < n_in / 256; b++) {
                uint8_t *p = row + b * ti->block_bytes;
                const uint16_t d = (uint16_t)(0x2c00 | (rnd_u32() & 0x3ff));
                if (type == SEER_TYPE_IQ1_M) /* in the top nibbles of its four scale words */
                    for (int k = 0; k < 4; k++)
                        p[49 + 2 * k] = (uint8_t)((p[49 + 2 * k] & 15) | ((d >> 4 * k) & 15) << 4);
                else p[0] = (uint8_t)d, p[1] = (uint8_t)(d >> 8);
            }
        } else if (ti->block_size == 1) {
            float v[1024];
            for (int64_t k = 0; k < n_in; k++) v[k] = rnd_float(-1, 1);
            seer_quantize_row(type, v, row, n_in);
        } else {
            for (int64_t b = 0; b < n_in / ti->block_size; b++) {
                logical_block lb;
                random_logical(type, &lb);
                pack_block(type, &lb, row + b * ti->block_bytes);
            }
        }
    }
    return data;
}

static void check_matmul_case(seer_pool *pool, int type, int64_t n_in, int64_t n_out, int64_t n_rows, bool with_bias, int path) {
    const seer_type_info *ti = seer_type_get(type);
    void *wdata = make_weight(type, n_in, n_out);
    seer_weight w = {.type = type, .n_in = n_in, .n_out = n_out, .data = wdata, .row_bytes = seer_row_bytes(type, n_in)};
    float *x = malloc(sizeof(float) * (size_t)(n_rows * n_in));
    float *xr = malloc(sizeof(float) * (size_t)(n_rows * n_in));
    float *wd = malloc(sizeof(float) * (size_t)(n_out * n_in));
    float *y = malloc(sizeof(float) * (size_t)(n_rows * n_out));
    float *bias = with_bias ? malloc(sizeof(float) * (size_t)n_out) : NULL;
    void *q = malloc(seer_row_bytes(SEER_TYPE_F32, n_in));
    for (int64_t i = 0; i < n_rows * n_in; i++) x[i] = rnd_float(-2, 2);
    for (int64_t o = 0; with_bias && o < n_out; o++) bias[o] = rnd_float(-1, 1);
    for (int64_t r = 0; r < n_rows; r++) {
        seer_quantize_row(ti->vec_dot_type, x + r * n_in, q, n_in);
        seer_dequantize_row(ti->vec_dot_type, q, xr + r * n_in, n_in);
    }
    for (int64_t o = 0; o < n_out; o++) seer_weight_get_row(&w, o, wd + o * n_in);
    for (int64_t i = 0; i < n_rows * n_out; i++) y[i] = NAN;

    if (path == SEER_MATMUL_AUTO) seer_matmul(pool, &w, x, n_rows, y, bias);
    else seer_matmul_path(pool, &w, x, n_rows, y, bias, path);
    bool dot_path = path == SEER_MATMUL_DOT || (path == SEER_MATMUL_AUTO && n_rows < seer_matmul_weight_gemm_min_rows(&w));
    /* the int8 GEMM (where the CPU has VNNI) reads the activations' stored sums as the dot products do */
    bool int8_path = !dot_path && path != SEER_MATMUL_GEMM_F32 && path != SEER_MATMUL_GEMM_BF16 &&
                     seer_int8_gemm_supports(type) && seer_q8_panel_get() != NULL;

    int bad = 0;
    double worst = 0;
    for (int64_t r = 0; r < n_rows; r++) {
        for (int64_t o = 0; o < n_out; o++) {
            double want = with_bias ? bias[o] : 0, mag = 0;
            for (int64_t k = 0; k < n_in; k++) {
                want += (double)wd[o * n_in + k] * xr[r * n_in + k];
                mag += fabs((double)wd[o * n_in + k] * xr[r * n_in + k]);
            }
            if (ti->vec_dot_type == SEER_TYPE_Q8_1 && type != SEER_TYPE_Q8_1 && (dot_path || int8_path)) {
                /* The dot products and the int8 GEMM use the activation
                 * block's stored sum s = fp16(d * sum(q)) for the weight
                 * minimum's term. */
                const uint8_t *wrow = (const uint8_t *)wdata + o * w.row_bytes;
                uint8_t *qa = malloc(seer_row_bytes(SEER_TYPE_Q8_1, n_in));
                seer_quantize_row(SEER_TYPE_Q8_1, x + r * n_in, qa, n_in);
                for (int64_t b = 0; b < n_in / 32; b++) {
                    uint16_t mh, sh;
                    memcpy(&mh, wrow + b * ti->block_bytes + 2, 2);
                    memcpy(&sh, qa + b * 36 + 2, 2);
                    double m = seer_fp16_to_f32(mh), sum_x = 0;
                    for (int k = 0; k < 32; k++) sum_x += xr[r * n_in + b * 32 + k];
                    want += m * (seer_fp16_to_f32(sh) - sum_x);
                }
                free(qa);
            }
            double err = fabs(y[r * n_out + o] - want);
            if (!(err <= 2e-6 * mag + 1e-6)) bad++;
            if (err > worst || isnan(err)) worst = err;
        }
    }
    CHECK_MSG(bad == 0, "matmul %s n_in=%lld n_out=%lld rows=%lld threads=%d path=%d: %d wrong (worst %g)", ti->name,
              (long long)n_in, (long long)n_out, (long long)n_rows, seer_pool_size(pool), path, bad, worst);
    free(wdata); free(x); free(xr); free(wd); free(y); free(bias); free(q);
}

static void check_sgemm(seer_pool *pool, int64_t m, int64_t n, int64_t k, bool bt, float alpha, float beta) {
    int64_t lda = k + 3, ldb = (bt ? k : n) + 5, ldc = n + 2;
    float *a = malloc(sizeof(float) * (size_t)(m * lda));
    float *b = malloc(sizeof(float) * (size_t)((bt ? n : k) * ldb));
    float *c = malloc(sizeof(float) * (size_t)(m * ldc));
    float *c0 = malloc(sizeof(float) * (size_t)(m * ldc));
    for (int64_t i = 0; i < m * lda; i++) a[i] = rnd_float(-1, 1);
    for (int64_t i = 0; i < (bt ? n : k) * ldb; i++) b[i] = rnd_float(-1, 1);
    for (int64_t i = 0; i < m * ldc; i++) c0[i] = c[i] = rnd_float(-1, 1);
    seer_sgemm(pool, m, n, k, alpha, a, lda, b, ldb, bt, beta, c, ldc);
    int bad = 0;
    for (int64_t i = 0; i < m; i++) {
        for (int64_t j = 0; j < ldc; j++) {
            if (j >= n) { bad += c[i * ldc + j] != c0[i * ldc + j]; continue; } /* padding untouched */
            double s = 0;
            for (int64_t l = 0; l < k; l++) s += (double)a[i * lda + l] * (bt ? b[j * ldb + l] : b[l * ldb + j]);
            double want = alpha * s + beta * c0[i * ldc + j];
            bad += !(fabs(c[i * ldc + j] - want) <= 1e-5 * (sqrt((double)k) + 1));
        }
    }
    CHECK_MSG(bad == 0, "sgemm m=%lld n=%lld k=%lld bt=%d: %d wrong", (long long)m, (long long)n, (long long)k, bt, bad);
    free(a); free(b); free(c); free(c0);
}

/* A row's result does not depend on how many rows share the call (the
 * dot path batches rows four at a time where it can). */
static void check_batch_independence(seer_pool *pool, int type) {
    int64_t n_in = 512, n_out = 13, n_rows = 11;
    void *wdata = make_weight(type, n_in, n_out);
    seer_weight w = {.type = type, .n_in = n_in, .n_out = n_out, .data = wdata, .row_bytes = seer_row_bytes(type, n_in)};
    float *x = malloc(sizeof(float) * (size_t)(n_rows * n_in));
    float *y = malloc(sizeof(float) * (size_t)(n_rows * n_out)), y1[13];
    for (int64_t i = 0; i < n_rows * n_in; i++) x[i] = rnd_float(-2, 2);
    seer_matmul_path(pool, &w, x, n_rows, y, NULL, SEER_MATMUL_DOT);
    int bad = 0;
    for (int64_t r = 0; r < n_rows; r++) {
        seer_matmul_path(pool, &w, x + r * n_in, 1, y1, NULL, SEER_MATMUL_DOT);
        bad += memcmp(y1, y + r * n_out, sizeof y1) != 0;
    }
    CHECK_MSG(bad == 0, "%s: %d rows differ between a batch of %lld and one at a time", seer_type_name(type), bad,
              (long long)n_rows);
    free(wdata); free(x); free(y);
}

/* One thread or two: bit-identical results. */
static void check_thread_independence(seer_pool *p1, seer_pool *p2, int type, int64_t n_rows, int path) {
    int64_t n_in = 512, n_out = 77;
    void *wdata = make_weight(type, n_in, n_out);
    seer_weight w = {.type = type, .n_in = n_in, .n_out = n_out, .data = wdata, .row_bytes = seer_row_bytes(type, n_in)};
    float *x = malloc(sizeof(float) * (size_t)(n_rows * n_in));
    float *ya = malloc(sizeof(float) * (size_t)(n_rows * n_out)), *yb = malloc(sizeof(float) * (size_t)(n_rows * n_out));
    for (int64_t i = 0; i < n_rows * n_in; i++) x[i] = rnd_float(-2, 2);
    seer_matmul_path(p1, &w, x, n_rows, ya, NULL, path);
    seer_matmul_path(p2, &w, x, n_rows, yb, NULL, path);
    CHECK_MSG(memcmp(ya, yb, sizeof(float) * (size_t)(n_rows * n_out)) == 0, "%s path %d: 1 and 2 threads differ",
              seer_type_name(type), path);
    free(wdata); free(x); free(ya); free(yb);
}

/* Q, K and V in one fused call: each output exactly as its own seer_matmul
 * (also when the types differ and the call falls back to one at a time). */
static void check_multi(seer_pool *pool, int type0, int type2, int64_t n_rows) {
    const int64_t n_in = 256, n_out[3] = {37, 13, 16};
    const int types[3] = {type0, type0, type2};
    void *wdata[3];
    seer_weight w[3];
    const seer_weight *wp[3];
    float *y[3], *want[3], *bias[3];
    float *x = malloc(sizeof(float) * (size_t)(n_rows * n_in));
    for (int64_t i = 0; i < n_rows * n_in; i++) x[i] = rnd_float(-2, 2);
    for (int i = 0; i < 3; i++) {
        wdata[i] = make_weight(types[i], n_in, n_out[i]);
        w[i] = (seer_weight){.type = types[i], .n_in = n_in, .n_out = n_out[i], .data = wdata[i],
                             .row_bytes = seer_row_bytes(types[i], n_in)};
        wp[i] = &w[i];
        y[i] = calloc((size_t)(n_rows * n_out[i]), sizeof(float));
        want[i] = calloc((size_t)(n_rows * n_out[i]), sizeof(float));
        bias[i] = i == 1 ? NULL : malloc(sizeof(float) * (size_t)n_out[i]);
        for (int64_t o = 0; bias[i] && o < n_out[i]; o++) bias[i][o] = rnd_float(-1, 1);
        seer_matmul(pool, &w[i], x, n_rows, want[i], bias[i]);
    }
    seer_matmul_multi(pool, 3, wp, x, n_rows, y, (const float *const *)bias);
    for (int i = 0; i < 3; i++) {
        CHECK_MSG(memcmp(y[i], want[i], sizeof(float) * (size_t)(n_rows * n_out[i])) == 0,
                  "%s+%s, %lld rows: fused output %d differs from its own matmul", seer_type_name(type0),
                  seer_type_name(type2), (long long)n_rows, i);
        free(wdata[i]); free(y[i]); free(want[i]); free(bias[i]);
    }
    free(x);
}

/* The AVX-512 packers (from interleaved groups; the i-quants' transposes)
 * write the same panel bytes as the portable row-by-row packing (a part
 * panel at the end included; weights are interleaved where n_out allows). The panels start from different garbage, so
 * a byte one path leaves unwritten fails too. */
static void check_pack_paths(seer_pool *pool, int type, int64_t n_out) {
    if (seer_simd_level() < SEER_SIMD_AVX512 || !seer_q8_panel_get() || !seer_int8_gemm_supports(type)) return;
    const int64_t n_in = 768;
    void *wdata = make_weight(type, n_in, n_out), *groups = NULL;
    seer_weight w = {.type = type, .n_in = n_in, .n_out = n_out, .data = wdata, .row_bytes = seer_row_bytes(type, n_in)};
    const size_t group_bytes = seer_weight_interleaved_bytes(&w);
    if (group_bytes) {
        CHECK(posix_memalign(&groups, 64, group_bytes) == 0);
        seer_weight_interleave(&w, groups, pool);
    }
    const size_t bytes = seer_q8_panel_bytes(type, n_in / 32);
    /* the super-block mins are read (and written by every path) only for the super-block kernel's types */
    const size_t compared = seer_q8_sb_kernel_takes(type)
                                ? bytes : (size_t)(n_in / 32) * (512 + 64 + 64 + 64);
    uint8_t *fast = aligned_alloc(64, bytes), *rows = aligned_alloc(64, bytes);
    for (int64_t o0 = 0; o0 < n_out; o0 += SEER_Q8_PANEL_ROWS) {
        memset(fast, 0x55, bytes);
        memset(rows, 0xAA, bytes);
        seer_q8_panel_pack(&w, o0, fast);
        seer_simd_set_level(SEER_SIMD_AVX2);
        seer_q8_panel_pack(&w, o0, rows);
        seer_simd_set_level(-1);
        size_t k = 0;
        while (k < compared && fast[k] == rows[k]) k++;
        CHECK_MSG(k == compared, "%s: the AVX-512 panel of rows %lld.. differs from the row-by-row one at byte %zu of %zu",
                  seer_type_get(type)->name, (long long)o0, k, compared);
    }
    free(fast);
    free(rows);
    free(groups);
    free(wdata);
}

static void check_weight_from_tensor(void) {
    static uint8_t buf[34 * 8 * 3];
    gguf_tensor t = {.name = "w", .n_dims = 2, .ne = {256, 3, 1, 1}, .type = SEER_TYPE_Q8_0, .data = buf};
    seer_weight w;
    CHECK(seer_weight_from_tensor(&w, &t));
    CHECK(w.type == SEER_TYPE_Q8_0 && w.n_in == 256 && w.n_out == 3 && w.data == buf && w.row_bytes == 34 * 8);
    t.n_dims = 1; t.ne[1] = 1;
    CHECK(seer_weight_from_tensor(&w, &t) && w.n_out == 1); /* a vector is a 1-row matrix */
    gguf_tensor t3 = {.name = "w3", .n_dims = 3, .ne = {32, 2, 2, 1}, .type = SEER_TYPE_Q8_0, .data = buf};
    CHECK(!seer_weight_from_tensor(&w, &t3));
    gguf_tensor bad_type = {.name = "x", .n_dims = 2, .ne = {32, 2, 1, 1}, .type = 5, .data = buf};
    CHECK(!seer_weight_from_tensor(&w, &bad_type));
}

/* One row past where AUTO switches to the GEMM for a weight of the type in
 * the file's layout (this test's weights); where this CPU keeps it on its
 * dot kernels at any length (INT64_MAX), a prompt's worth. */
static int gemm_rows(int type) {
    const int64_t min_rows = seer_matmul_weight_gemm_min_rows(&(seer_weight){.type = type});
    return min_rows < 128 ? (int)min_rows + 1 : 65;
}

int main(void) {
    seer_pool *pools[3] = {NULL, seer_pool_create(1), seer_pool_create(2)};
    for (size_t t = 0; t < sizeof weight_types / sizeof weight_types[0]; t++) {
        int type = weight_types[t];
        for (int p = 0; p < 3; p++) {
            check_matmul_case(pools[p], type, 512, 37, 1, p == 2, SEER_MATMUL_AUTO);
            check_matmul_case(pools[p], type, 256, 5, 3, false, SEER_MATMUL_AUTO);
            check_matmul_case(pools[p], type, 256, 41, gemm_rows(type), p != 1, SEER_MATMUL_AUTO);
            check_matmul_case(pools[p], type, 512, 41, 11, p != 1, SEER_MATMUL_DOT);
            check_matmul_case(pools[p], type, 512, 19, 3, p != 0, SEER_MATMUL_GEMM);
        }
    }
    /* Repeated calls reuse (and grow) the pool's scratch. */
    check_matmul_case(pools[2], SEER_TYPE_Q4_K, 256, 64, 40, true, SEER_MATMUL_AUTO);
    check_matmul_case(pools[2], SEER_TYPE_Q8_0, 1024, 70, 9, true, SEER_MATMUL_GEMM);
    check_matmul_case(pools[2], SEER_TYPE_Q6_K, 768, 33, 2, true, SEER_MATMUL_AUTO);
    /* panels in halves past 256 KiB (an 11008-wide down projection), two to
     * a group where L2 holds both, an odd one last */
    for (int p = 1; p < 3; p++) {
        check_matmul_case(pools[p], SEER_TYPE_Q6_K, 11008, 37, 13, true, SEER_MATMUL_GEMM);
        check_matmul_case(pools[p], SEER_TYPE_Q3_K, 11008, 37, 13, false, SEER_MATMUL_GEMM);
    }
    /* more rounded f16 activation rows than the sgemm path converts at once (2 MB): uneven chunks */
    check_matmul_case(pools[2], SEER_TYPE_F16, 1024, 40, 600, true, SEER_MATMUL_GEMM);
    /* a K of no whole tile steps (as Qwen2.5-VL's patch embedding's 1176 is) and a part panel */
    check_matmul_case(pools[1], SEER_TYPE_F16, 1000, 37, 45, true, SEER_MATMUL_GEMM);
    check_matmul_case(pools[1], SEER_TYPE_Q8_0, 1024, 24, 530, false, SEER_MATMUL_GEMM_F32);
    /* rows of any length for the unblocked types (e.g. a 14x14x3 patch kernel) */
    for (int p = 0; p < 3; p++) {
        check_matmul_case(pools[p], SEER_TYPE_F16, 588, 23, 1, true, SEER_MATMUL_AUTO);
        check_matmul_case(pools[p], SEER_TYPE_F16, 588, 23, 70, true, SEER_MATMUL_AUTO);
        check_matmul_case(pools[p], SEER_TYPE_F32, 37, 9, 5, false, SEER_MATMUL_DOT);
        check_matmul_case(pools[p], SEER_TYPE_BF16, 45, 9, 66, true, SEER_MATMUL_GEMM);
    }
    /* Q8_0 batches: int8 GEMM (when the CPU has VNNI) and dequantize + sgemm */
    for (int p = 0; p < 3; p++) {
        check_matmul_case(pools[p], SEER_TYPE_Q8_0, 1024, 43, 70, p != 0, SEER_MATMUL_GEMM);
        check_matmul_case(pools[p], SEER_TYPE_Q8_0, 1024, 43, 70, p != 0, SEER_MATMUL_GEMM_F32);
        check_matmul_case(pools[p], SEER_TYPE_Q8_0, 32, 8, 5, true, SEER_MATMUL_GEMM);
    }
    seer_simd_force_scalar(true);
    check_matmul_case(pools[2], SEER_TYPE_Q8_0, 256, 17, 66, true, SEER_MATMUL_AUTO);
    check_matmul_case(pools[2], SEER_TYPE_Q4_K, 256, 17, 3, true, SEER_MATMUL_AUTO);
    seer_simd_force_scalar(false);

    for (int p = 0; p < 3; p++) {
        check_sgemm(pools[p], 7, 45, 33, true, 1.0f, 0.0f);
        check_sgemm(pools[p], 50, 9, 20, false, 0.5f, 1.0f);
        check_sgemm(pools[p], 33, 70, 64, false, -1.0f, 0.25f);
        check_sgemm(pools[p], 1, 1, 1, true, 2.0f, 0.0f);
    }
    for (size_t t = 0; t < sizeof weight_types / sizeof weight_types[0]; t++)
        check_batch_independence(pools[2], weight_types[t]);
    for (size_t t = 0; t < sizeof weight_types / sizeof weight_types[0]; t++) {
        check_thread_independence(pools[1], pools[2], weight_types[t], 6, SEER_MATMUL_DOT);
        check_thread_independence(pools[1], pools[2], weight_types[t], 37, SEER_MATMUL_GEMM);
    }
    for (int p = 0; p < 3; p++) {
        check_multi(pools[p], SEER_TYPE_Q8_0, SEER_TYPE_Q8_0, 1);
        check_multi(pools[p], SEER_TYPE_Q4_K, SEER_TYPE_Q4_K, 3);
        check_multi(pools[p], SEER_TYPE_F16, SEER_TYPE_F16, 2);
        check_multi(pools[p], SEER_TYPE_Q4_K, SEER_TYPE_Q6_K, 1); /* Q4_K_M mixes types: no fusion */
        check_multi(pools[p], SEER_TYPE_Q8_0, SEER_TYPE_Q8_0, 40);  /* batched: activations quantized once */
        check_multi(pools[p], SEER_TYPE_Q4_K, SEER_TYPE_Q4_K, 70);
        check_multi(pools[p], SEER_TYPE_F16, SEER_TYPE_F16, 70);
    }
    for (size_t t = 0; t < sizeof weight_types / sizeof weight_types[0]; t++) {
        check_pack_paths(pools[2], weight_types[t], 48); /* whole groups: interleaved */
        check_pack_paths(pools[2], weight_types[t], 37);
    }
    check_weight_from_tensor();
    for (int p = 0; p < 3; p++) seer_pool_destroy(pools[p]);
    TEST_MAIN_END();
}
