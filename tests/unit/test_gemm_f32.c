/* seer's FP32 GEMM (gemm_f32_internal.h, the exact encoder path) at every
 * SIMD level this CPU runs (AVX-512, AVX2, NEON, scalar), on F16, F32,
 * BF16 and Q8_0 weights, with odd shapes: K below the vector width and the
 * packing block (5), K tails past whole K slices (2·kc + 92), output
 * widths ending inside a panel and inside a block of panels, several
 * panel groups, one activation row, row counts ending inside a block of
 * rows, 4096-wide rows, rows in several parts claimed at random lengths,
 * with and without bias; one thread and two:
 * - against a double-precision sum of the same products (the activations
 *   rounded through the weight type's vec_dot type as the GEMM rounds
 *   them; the weights as stored): |got - ref| <= K·2^-24·Σ|a·w|, the
 *   bound of a float sum of K terms, which a dropped K value, a lost
 *   slice or a shifted panel row exceeds many times over;
 * - one thread and two: the same floats, bit for bit;
 * - a block's outputs the same floats wherever it writes them from, and
 *   activations rounded beforehand (seer_matmul_batch_f16_in) the same. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/gemm_f32_internal.h"
#include "kernels/matmul_internal.h"
#include "seer/cpu.h"
#include "seer/matmul.h"
#include "seer/tensor.h"
#include "testlib.h"

static uint32_t state = 4242;
static float rnd(void) {
    state = state * 1664525u + 1013904223u;
    return (float)((int32_t)(state >> 8) - (1 << 23)) / (float)(1 << 23);
}

static double worst;

static void check_shape(seer_pool *pool, int type, int64_t n_in, int64_t n_out, int64_t n_rows, bool with_bias) {
    const size_t row_bytes = seer_row_bytes(type, n_in);
    const int act_type = seer_type_get(type)->vec_dot_type;
    float *wf = malloc(sizeof(float) * (size_t)(n_in * n_out)), *x = malloc(sizeof(float) * (size_t)(n_in * n_rows));
    float *xr = malloc(sizeof(float) * (size_t)(n_in * n_rows)), *bias = malloc(sizeof(float) * (size_t)n_out);
    float *y1 = malloc(sizeof(float) * (size_t)(n_out * n_rows)), *y2 = malloc(sizeof(float) * (size_t)(n_out * n_rows));
    char *data = malloc(row_bytes * (size_t)n_out), *q = malloc(seer_row_bytes(act_type, n_in));
    for (int64_t i = 0; i < n_in * n_out; i++) wf[i] = rnd() * 0.5f;
    for (int64_t i = 0; i < n_in * n_rows; i++) x[i] = rnd() * 3.0f;
    for (int64_t o = 0; o < n_out; o++) bias[o] = rnd();
    for (int64_t o = 0; o < n_out; o++) { /* the weights as stored, then read back: what the GEMM starts from */
        seer_quantize_row(type, wf + o * n_in, data + (size_t)o * row_bytes, n_in);
        seer_dequantize_row(type, data + (size_t)o * row_bytes, wf + o * n_in, n_in);
    }
    for (int64_t r = 0; r < n_rows; r++) { /* the activations as the GEMM rounds them */
        seer_quantize_row(act_type, x + r * n_in, q, n_in);
        seer_dequantize_row(act_type, q, xr + r * n_in, n_in);
    }
    seer_weight w = {.type = type, .n_in = n_in, .n_out = n_out, .data = data, .row_bytes = row_bytes};
    const float *b = with_bias ? bias : NULL;
    seer_matmul_path(pool, &w, x, n_rows, y1, b, SEER_MATMUL_GEMM_F32);
    seer_matmul_path(NULL, &w, x, n_rows, y2, b, SEER_MATMUL_GEMM_F32);
    const char *kern = seer_f32_kernel_get().name;
    CHECK_MSG(memcmp(y1, y2, sizeof(float) * (size_t)(n_out * n_rows)) == 0,
              "%s, %s %lldx%lld, %lld rows: two threads and one differ", kern, seer_type_name(type),
              (long long)n_out, (long long)n_in, (long long)n_rows);
    int bad = 0;
    for (int64_t r = 0; r < n_rows; r++)
        for (int64_t o = 0; o < n_out; o++) {
            double ref = 0, mag = 0;
            for (int64_t k = 0; k < n_in; k++) {
                const double p = (double)xr[r * n_in + k] * (double)wf[o * n_in + k];
                ref += p;
                mag += fabs(p);
            }
            if (b) ref += b[o], mag += fabs(b[o]);
            const double got = y1[r * n_out + o], bound = (double)(n_in + 1) * 0x1p-24 * mag;
            if (fabs(got - ref) / mag > worst) worst = fabs(got - ref) / mag;
            if (!(fabs(got - ref) <= bound) && bad++ < 3)
                CHECK_MSG(0, "%s, %s %lldx%lld row %lld out %lld: %.9g, reference %.9g (±%.3g)", kern,
                          seer_type_name(type), (long long)n_out, (long long)n_in, (long long)r, (long long)o, got,
                          ref, bound);
        }
    free(wf), free(x), free(xr), free(bias), free(y1), free(y2), free(data), free(q);
}

/* Where a block's outputs go does not change them: the first n outputs
 * of a product whose last block ends inside a panel (written back from
 * the block's buffer) against the same outputs of a wider product (its
 * blocks whole, written from the kernel's registers), bit for bit, with
 * a bias and over several K slices (a whole block's later slices add to
 * c itself). And activations rounded to F16 beforehand, given to
 * seer_matmul_batch_f16_in, give the same floats as seer_matmul_batch on
 * the activations as they are. */
static void check_block_exits(seer_pool *pool, int64_t n_in, int64_t n, int64_t wide, int64_t n_rows) {
    const size_t row_bytes = seer_row_bytes(SEER_TYPE_F16, n_in);
    char *data = malloc(row_bytes * (size_t)wide);
    float *row = malloc(sizeof(float) * (size_t)n_in), *bias = malloc(sizeof(float) * (size_t)wide);
    float *x = malloc(sizeof(float) * (size_t)(n_in * n_rows)), *xr = malloc(sizeof(float) * (size_t)(n_in * n_rows));
    float *yn = malloc(sizeof(float) * (size_t)(n * n_rows)), *yw = malloc(sizeof(float) * (size_t)(wide * n_rows));
    float *yr = malloc(sizeof(float) * (size_t)(wide * n_rows));
    for (int64_t o = 0; o < wide; o++) {
        for (int64_t k = 0; k < n_in; k++) row[k] = rnd() * 0.5f;
        seer_quantize_row(SEER_TYPE_F16, row, data + (size_t)o * row_bytes, n_in);
        bias[o] = rnd();
    }
    for (int64_t i = 0; i < n_in * n_rows; i++) x[i] = rnd() * 3.0f;
    seer_f32_round_fp16_row(x, xr, n_in * n_rows);
    seer_weight wn = {.type = SEER_TYPE_F16, .n_in = n_in, .n_out = n, .data = data, .row_bytes = row_bytes};
    seer_weight ww = wn;
    ww.n_out = wide;
    seer_matmul_path(pool, &wn, x, n_rows, yn, bias, SEER_MATMUL_GEMM_F32);
    seer_matmul_path(pool, &ww, x, n_rows, yw, bias, SEER_MATMUL_GEMM_F32);
    for (int64_t r = 0; r < n_rows; r++)
        CHECK_MSG(memcmp(yn + r * n, yw + r * wide, sizeof(float) * (size_t)n) == 0,
                  "%s, %lld of %lld outputs x %lld: row %lld differs from the wider product's", seer_f32_kernel_get().name,
                  (long long)n, (long long)wide, (long long)n_in, (long long)r);
    seer_matmul_batch(pool, &ww, x, n_rows, yw, bias);
    seer_matmul_batch_f16_in(pool, &ww, xr, n_rows, yr, bias);
    CHECK_MSG(memcmp(yw, yr, sizeof(float) * (size_t)(wide * n_rows)) == 0,
              "%s, %lld x %lld: activations rounded beforehand give other outputs", seer_f32_kernel_get().name,
              (long long)wide, (long long)n_in);
    free(data), free(row), free(bias), free(x), free(xr), free(yn), free(yw), free(yr);
}

int main(void) {
    seer_pool *pool = seer_pool_create(2);
    setenv("SEER_POOL_SHAKE", "1", 1);
    seer_pool *shaken = seer_pool_create(2);
    unsetenv("SEER_POOL_SHAKE");
    const int types[] = {SEER_TYPE_F16, SEER_TYPE_F32, SEER_TYPE_BF16};
    for (int level = seer_simd_allowed(); level >= 0; level--) {
        seer_simd_set_level(level);
        worst = 0;
        for (int t = 0; t < 3; t++) {
            check_shape(pool, types[t], 77, 70, 71, true); /* 4 full panels + 6 columns; 71 = 11·6 + 5 rows */
            check_shape(pool, types[t], 5, 33, 13, false); /* K below every vector width */
            check_shape(pool, types[t], 64, 16, 1, true);  /* one row, one panel */
        }
        check_shape(pool, SEER_TYPE_Q8_0, 96, 50, 9, true); /* a quantized type dequantized into panels */
        /* 96 KB panels: groups of 8 (AVX-512) or 5 panels, 25 in all (the
         * last group short, the last panel 0 columns past 400) */
        check_shape(pool, SEER_TYPE_F16, 1500, 400, 7, true);
        /* 4096-wide rows; two whole K slices of this kernel and a tail */
        check_shape(pool, SEER_TYPE_F16, 4096, 20, 7, false);
        check_shape(pool, SEER_TYPE_F16, 2 * seer_f32_kernel_get().kc + 92, 20, 7, false);
        /* rows in several parts (units of a block of panels × 256 or more
         * rows), claimed at random lengths: some blocks' parts go to
         * different claims */
        check_shape(shaken, SEER_TYPE_F16, 40, 200, 1100, true);
        check_shape(pool, SEER_TYPE_F16, 24, 1000, 1100, false);
        check_block_exits(pool, 77, 70, 80, 13);
        check_block_exits(pool, 2 * seer_f32_kernel_get().kc + 92, 70, 128, 7);
        printf("FP32 GEMM, %s: worst |error| / Σ|a·w| %.3g (bound K·2^-24)\n", seer_f32_kernel_get().name, worst);
    }
    seer_simd_set_level(-1);
    seer_pool_destroy(pool);
    seer_pool_destroy(shaken);
    TEST_MAIN_END();
}
