/* The BF16 GEMM (seer_matmul_bf16, --vision-precision bf16) on F16, F32
 * and BF16 weights, odd and even K, output widths that end inside a panel
 * and inside a block of panels, several panel groups, row counts that end
 * inside a block of rows, rows in several parts claimed at random lengths,
 * with and without bias, one thread and two:
 * - against a double-precision sum of the same BF16-rounded products
 *   (tight: the products are exact in FP32, only the order and rounding of
 *   the sums differ): |got - ref| <= K·2^-24·Σ|a·w|, which a dropped K
 *   value or a panel's rows shifted by one exceed many times over;
 * - against the f32 product (the cost of the rounding, stated in the
 *   README): |got - ref| <= 2^-7·Σ|a·w| (each product is off by at most
 *   about 2^-8 of itself: two roundings of 2^-9);
 * - one thread and two: the same floats, bit for bit.
 * Skipped (and said so) on a CPU without AVX512-BF16. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seer/matmul.h"
#include "seer/tensor.h"
#include "testlib.h"

static uint32_t state = 2024;
static float rnd(void) {
    state = state * 1664525u + 1013904223u;
    return (float)((int32_t)(state >> 8) - (1 << 23)) / (float)(1 << 23);
}

/* f32 -> BF16 -> f32, round to nearest even (as VCVTNE2PS2BF16 does). */
static float bf16_round(float f) {
    uint32_t b;
    memcpy(&b, &f, 4);
    b = (b + 0x7FFFu + ((b >> 16) & 1u)) & 0xFFFF0000u;
    memcpy(&f, &b, 4);
    return f;
}

static double worst_tight, worst_loose;

static void check_shape(seer_pool *pool, int type, int64_t n_in, int64_t n_out, int64_t n_rows, bool with_bias) {
    const size_t row_bytes = seer_row_bytes(type, n_in);
    float *wf = malloc(sizeof(float) * (size_t)(n_in * n_out)), *x = malloc(sizeof(float) * (size_t)(n_in * n_rows));
    float *bias = malloc(sizeof(float) * (size_t)n_out), *y1 = malloc(sizeof(float) * (size_t)(n_out * n_rows));
    float *y2 = malloc(sizeof(float) * (size_t)(n_out * n_rows));
    char *data = malloc(row_bytes * (size_t)n_out);
    for (int64_t i = 0; i < n_in * n_out; i++) wf[i] = rnd() * 0.5f;
    for (int64_t i = 0; i < n_in * n_rows; i++) x[i] = rnd() * 3.0f;
    for (int64_t o = 0; o < n_out; o++) bias[o] = rnd();
    for (int64_t o = 0; o < n_out; o++) { /* the weights as stored, then read back: what the GEMM starts from */
        seer_quantize_row(type, wf + o * n_in, data + (size_t)o * row_bytes, n_in);
        seer_dequantize_row(type, data + (size_t)o * row_bytes, wf + o * n_in, n_in);
    }
    seer_weight w = {.type = type, .n_in = n_in, .n_out = n_out, .data = data, .row_bytes = row_bytes};
    const float *b = with_bias ? bias : NULL;
    seer_matmul_bf16(pool, &w, x, n_rows, y1, b);
    seer_matmul_bf16(NULL, &w, x, n_rows, y2, b);
    CHECK_MSG(memcmp(y1, y2, sizeof(float) * (size_t)(n_out * n_rows)) == 0,
              "%s %lldx%lld, %lld rows: two threads and one differ", seer_type_name(type), (long long)n_out,
              (long long)n_in, (long long)n_rows);
    int bad = 0;
    for (int64_t r = 0; r < n_rows; r++)
        for (int64_t o = 0; o < n_out; o++) {
            double rounded = 0, exact = 0, mag = 0;
            for (int64_t k = 0; k < n_in; k++) {
                const float a = x[r * n_in + k], v = wf[o * n_in + k];
                rounded += (double)bf16_round(a) * (double)bf16_round(v);
                exact += (double)a * (double)v;
                mag += fabs((double)a * (double)v);
            }
            if (b) rounded += b[o], exact += b[o];
            const double got = y1[r * n_out + o], tight = (double)n_in * 0x1p-24 * mag, loose = 0x1p-7 * mag;
            const double et = fabs(got - rounded) / mag, el = fabs(got - exact) / mag;
            if (et > worst_tight) worst_tight = et;
            if (el > worst_loose) worst_loose = el;
            if ((fabs(got - rounded) > tight || fabs(got - exact) > loose) && bad++ < 3)
                CHECK_MSG(0, "%s %lldx%lld row %lld out %lld: %.9g, BF16 reference %.9g (±%.3g), f32 %.9g (±%.3g)",
                          seer_type_name(type), (long long)n_out, (long long)n_in, (long long)r, (long long)o, got,
                          rounded, tight, exact, loose);
        }
    free(wf), free(x), free(bias), free(y1), free(y2), free(data);
}

int main(void) {
    if (!seer_matmul_bf16_ready()) {
        printf("SKIP: no AVX512-BF16 here (or SEER_SIMD below avx512)\n");
        TEST_MAIN_END();
    }
    seer_pool *pool = seer_pool_create(2);
    const int types[] = {SEER_TYPE_F16, SEER_TYPE_F32, SEER_TYPE_BF16};
    for (int t = 0; t < 3; t++) {
        check_shape(pool, types[t], 77, 70, 71, true);    /* odd K (a K tail of 13), 4 full panels + 6 rows */
        check_shape(pool, types[t], 64, 16, 64, false);   /* one panel, whole row blocks but the last */
        check_shape(pool, types[t], 96, 33, 25, true);    /* AMX: one call of 25 rows (two row tiles), a lone last panel */
    }
    /* 48 KB panels: groups of 12 panels, 25 panels in all (3 groups, the
     * last of one panel); K of 1500 is 46 whole steps of 32 and a tail of 28 */
    check_shape(pool, SEER_TYPE_F16, 1500, 400, 67, true);
    /* rows in several parts (units of a block of panels × 256 or more
     * rows), claimed at random lengths, then in the pool's own claims */
    setenv("SEER_POOL_SHAKE", "1", 1);
    seer_pool *shaken = seer_pool_create(2);
    unsetenv("SEER_POOL_SHAKE");
    check_shape(shaken, SEER_TYPE_F16, 40, 200, 1100, true);
    check_shape(pool, SEER_TYPE_F16, 24, 1000, 1100, false);
    seer_pool_destroy(shaken);
    printf("BF16 GEMM: worst |error| / Σ|a·w|: %.3g against the BF16-rounded reference, %.3g against f32\n",
           worst_tight, worst_loose);
    seer_pool_destroy(pool);
    TEST_MAIN_END();
}
