/* seer's FP32 GEMM with f32 activations as the packed operand (the ViT
 * attention's Q·Kᵀ and P·V, gemm_f32_packed.c) at every SIMD level this
 * CPU allows, against a double-precision sum: |got - ref| <= K·2^-23·Σ|a·b|
 * (FP32 products and sums, any order). Shapes: K of 1 to 300 (three K
 * slices of 128, the last partial), outputs that end inside a panel and
 * inside a block of panels, rows that end inside a block of rows; strides
 * wider than the rows, and the floats past each output row must stay as
 * they were; the packed operand given as f32 and as F16 (the decoders'
 * F16 KV cache), rows of 1 to 300 values (past one widening run of 64).
 * Adding to c (the gated delta's chunk sums): c's values before the
 * product are part of the reference. With a bias (the encoders' weight
 * products, seer_f32_gemm_packed_bias): the bias is in the reference, and
 * the bits must be those of the product with the bias added after it. A dropped K value or slice, a panel
 * shifted by one output, a widening run cut short, a product written over
 * c instead of added, or a write past n exceeds this many times over. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/gemm_f32_internal.h"
#include "seer/cpu.h"
#include "seer/tensor.h"
#include "testlib.h"

#define SENTINEL 12345.0f

static uint32_t state = 43;
static float rnd(void) {
    state = state * 1664525u + 1013904223u;
    return (float)((int32_t)(state >> 8) - (1 << 23)) / (float)(1 << 23);
}

static double worst;

/* transposed: b holds the outputs as rows (c = a·bᵀ·scale), else as
 * columns (c = a·b); f16: b is packed from its F16 copy (b rounded); add:
 * c += the product; with_bias: c = the product + a bias per output. */
static void check(const seer_f32_kernel *kern, int64_t m, int64_t n, int64_t k, bool transposed, bool f16, bool add,
                  bool with_bias) {
    const size_t lda = (size_t)k + 3, ldc = (size_t)n + 5;
    const size_t ldb = transposed ? (size_t)k + 2 : (size_t)n + 7, b_rows = transposed ? (size_t)n : (size_t)k;
    const float scale = transposed ? 0.125f : 1.0f;
    float *a = malloc(sizeof(float) * (size_t)m * lda), *b = malloc(sizeof(float) * b_rows * ldb);
    float *c = malloc(sizeof(float) * (size_t)m * ldc), *panels = malloc(sizeof(float) * seer_f32_packed_floats(n, k));
    for (size_t i = 0; i < (size_t)m * lda; i++) a[i] = rnd();
    uint16_t *b16 = malloc(sizeof(uint16_t) * b_rows * ldb);
    for (size_t i = 0; i < b_rows * ldb; i++) {
        b16[i] = seer_f32_to_fp16(rnd());
        b[i] = seer_fp16_to_f32(b16[i]);
    }
    float *c0 = malloc(sizeof(float) * (size_t)m * ldc);
    for (size_t i = 0; i < (size_t)m * ldc; i++) c0[i] = c[i] = add && i % ldc < (size_t)n ? rnd() : SENTINEL;
    const void *src = f16 ? (const void *)b16 : (const void *)b;
    if (transposed) seer_f32_pack_rows(src, f16, ldb, n, k, scale, panels);
    else seer_f32_pack_cols(src, f16, ldb, k, n, panels);
    if (transposed) { /* the vector transposes pack the scalar code's floats */
        const int level = seer_simd_level();
        float *scalar = malloc(sizeof(float) * seer_f32_packed_floats(n, k));
        seer_simd_set_level(SEER_SIMD_SCALAR);
        seer_f32_pack_rows(src, f16, ldb, n, k, scale, scalar);
        seer_simd_set_level(level);
        CHECK_MSG(memcmp(scalar, panels, sizeof(float) * seer_f32_packed_floats(n, k)) == 0,
                  "%s n %lld k %lld%s: packed rows differ from the scalar packing", kern->name, (long long)n,
                  (long long)k, f16 ? " (F16)" : "");
        free(scalar);
    }
    float *bias = malloc(sizeof(float) * (size_t)n);
    for (int64_t o = 0; o < n; o++) bias[o] = rnd();
    if (with_bias) {
        seer_f32_gemm_packed(kern, m, n, k, a, lda, panels, c0, ldc, false); /* then the bias added after it */
        for (int64_t r = 0; r < m; r++)
            for (int64_t o = 0; o < n; o++) c0[(size_t)r * ldc + o] += bias[o];
        seer_f32_gemm_packed_bias(kern, m, n, k, a, lda, panels, c, ldc, bias);
    } else {
        seer_f32_gemm_packed(kern, m, n, k, a, lda, panels, c, ldc, add);
    }
    for (int64_t r = 0; r < m; r++) {
        for (int64_t o = 0; o < n && with_bias; o++)
            if (c[(size_t)r * ldc + o] != c0[(size_t)r * ldc + o]) {
                CHECK_MSG(0, "%s m %lld n %lld k %lld: c[%lld][%lld] = %.9g with the bias, %.9g with it added after",
                          kern->name, (long long)m, (long long)n, (long long)k, (long long)r, (long long)o,
                          c[(size_t)r * ldc + o], c0[(size_t)r * ldc + o]);
                goto done;
            }
        for (int64_t o = 0; o < n; o++) {
            double ref = add ? c0[(size_t)r * ldc + o] : with_bias ? bias[o] : 0, mag = fabs(ref);
            for (int64_t kk = 0; kk < k; kk++) {
                const double bv = (double)scale * (transposed ? b[(size_t)o * ldb + kk] : b[(size_t)kk * ldb + o]);
                ref += (double)a[(size_t)r * lda + kk] * bv;
                mag += fabs((double)a[(size_t)r * lda + kk] * bv);
            }
            const double e = fabs(c[(size_t)r * ldc + o] - ref);
            if (mag > 0 && e / mag > worst) worst = e / mag;
            if (e > (double)k * ldexp(1.0, -23) * mag + 1e-30) {
                CHECK_MSG(0, "%s %s%s%s%s m %lld n %lld k %lld: c[%lld][%lld] = %.9g, reference %.9g", kern->name,
                          add ? "c + " : "", with_bias ? "bias + " : "", transposed ? "a·bᵀ" : "a·b", f16 ? " (F16 b)" : "", (long long)m, (long long)n, (long long)k, (long long)r,
                          (long long)o, c[(size_t)r * ldc + o], ref);
                goto done;
            }
        }
        for (size_t o = (size_t)n; o < ldc; o++)
            if (c[(size_t)r * ldc + o] != SENTINEL) {
                CHECK_MSG(0, "%s m %lld n %lld k %lld: row %lld written past n", kern->name, (long long)m,
                          (long long)n, (long long)k, (long long)r);
                goto done;
            }
    }
done:
    free(bias);
    free(a);
    free(b);
    free(b16);
    free(c);
    free(c0);
    free(panels);
}

int main(void) {
    const int64_t shapes[][3] = {
        {1, 1, 1},     {7, 17, 80},  /* a score tile: outputs end one past a panel */
        {13, 72, 300}, /* a value product: 72 outputs end inside the fifth panel, K over three slices */
        {256, 80, 64}, {6, 64, 128},  {5, 100, 129},
    };
    for (int level = 0; level < SEER_SIMD_LEVELS; level++) { /* scalar, AVX2 / NEON, AVX-512 */
        seer_simd_set_level(level);
        if (seer_simd_level() != level) continue;
        worst = 0;
        /* the kernel as chosen (its K slice a quarter of this CPU's L2),
         * and with the shortest slice so that K 300 spans three of them */
        seer_f32_kernel kern = seer_f32_kernel_get();
        for (int short_slices = 0; short_slices < 2; short_slices++) {
            if (short_slices) kern.kc = SEER_F32_KC_SUM;
            for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
                for (int t = 0; t < 12; t++) /* bit 2: add, bit 3: bias */
                    check(&kern, shapes[s][0], shapes[s][1], shapes[s][2], t & 1, t & 2, t & 4, t & 8);
        }
        printf("FP32 GEMM, packed activations (%s): worst |error| / Σ|a·b| %.3g\n", kern.name, worst);
    }
    seer_simd_set_level(-1);
    TEST_MAIN_END();
}
