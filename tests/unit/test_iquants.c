/* The low-bit i-quants (IQ1_S, IQ1_M, IQ2_XXS, IQ2_XS, IQ2_S, IQ3_XXS,
 * IQ3_S): their codebooks and dequantization against checksums computed
 * with llama.cpp's own Python reader (gguf-py's quants.dequantize, commit
 * de3ff81) on the same pseudo-random blocks; the SIMD dequantization and
 * unpacking and every SIMD level's row kernel against the scalar ones (same
 * bits); the dot products against the dequantized rows. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/vec_dot_internal.h"
#include "seer/tensor.h"
#include "tensor/dequantize_internal.h"
#include "tensor/iq_grids_internal.h"
#include "tensor/iq_unpack.h"
#include "testlib.h"

/* gguf-py's numbers (see the top): the dequantized blocks' weighted sums,
 * and each codebook's weighted sum (grid_sum) over ggml-common.h's table. */
#define IQ2_XXS_SUM 750.53990173339844
#define IQ2_XS_SUM -993.32048034667969
#define IQ2_S_SUM -1140.301155090332
#define IQ3_XXS_SUM -5457.1854858398438
#define IQ3_S_SUM 1061.4194946289062
#define IQ1_S_SUM -96.786575317382812
#define IQ1_M_SUM 234.31227111816406
#define IQ2XXS_GRID_SUM 4822435LL
#define IQ2XS_GRID_SUM 10096824LL
#define IQ2S_GRID_SUM 21014389LL
#define IQ3XXS_GRID_SUM 3196546LL
#define IQ3S_GRID_SUM 1608610LL
#define IQ1S_GRID_SUM -3227LL

typedef struct iq_case {
    int type;
    double dequant_sum; /* Σ_e y_e · (e mod 13 − 6) over BLOCKS blocks, from gguf-py */
} iq_case;

#define BLOCKS 16
static const iq_case cases[] = {
    {SEER_TYPE_IQ2_XXS, IQ2_XXS_SUM}, {SEER_TYPE_IQ2_XS, IQ2_XS_SUM}, {SEER_TYPE_IQ2_S, IQ2_S_SUM},
    {SEER_TYPE_IQ3_XXS, IQ3_XXS_SUM}, {SEER_TYPE_IQ3_S, IQ3_S_SUM},   {SEER_TYPE_IQ1_S, IQ1_S_SUM},
    {SEER_TYPE_IQ1_M, IQ1_M_SUM},
};

static uint32_t rng;
static uint32_t next_u32(void) {
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

/* n blocks of random bytes with a block scale between 2^-4 and 2^-3 (an
 * F16 0x2c00..0x2fff; IQ1_M keeps it in the top nibbles of its scales). */
static void random_blocks(int type, uint8_t *w, int n, uint32_t seed) {
    const size_t bb = seer_type_get(type)->block_bytes;
    rng = seed;
    for (size_t i = 0; i < bb * (size_t)n; i++) w[i] = (uint8_t)next_u32();
    for (int b = 0; b < n; b++) {
        uint8_t *p = w + bb * (size_t)b;
        const uint16_t d = (uint16_t)(0x2c00 | (next_u32() & 0x3ff));
        if (type == SEER_TYPE_IQ1_M)
            for (int k = 0; k < 4; k++) /* the high byte of scale word k */
                p[48 + 2 * k + 1] = (uint8_t)((p[48 + 2 * k + 1] & 0x0f) | ((d >> 4 * k) & 15) << 4);
        else p[0] = (uint8_t)d, p[1] = (uint8_t)(d >> 8);
    }
}

static void check_dequant(const iq_case *c) {
    const seer_type_info *ti = seer_type_get(c->type);
    uint8_t *w = malloc(ti->block_bytes * BLOCKS);
    float *y = malloc(sizeof(float) * 256 * BLOCKS);
    random_blocks(c->type, w, BLOCKS, 1000u + (uint32_t)c->type);
    seer_dequantize_row(c->type, w, y, 256 * BLOCKS);
    float *ys = malloc(sizeof(float) * 256 * BLOCKS);
    seer_dequantize_row_scalar(c->type, w, ys, 256 * BLOCKS); /* the SIMD path gives the same bits */
    CHECK_MSG(memcmp(y, ys, sizeof(float) * 256 * BLOCKS) == 0, "%s: SIMD and scalar dequantization differ", ti->name);
    free(ys);
    for (int b = 0; b < BLOCKS; b++) { /* the int8 GEMM's packer's unpacking, SIMD and scalar */
        seer_iq_block fast, scalar;
        memset(&fast, 0, sizeof fast), memset(&scalar, 0, sizeof scalar);
        seer_iq_unpacker_fast(c->type)(w + ti->block_bytes * (size_t)b, &fast);
        seer_iq_unpacker(c->type)(w + ti->block_bytes * (size_t)b, &scalar);
        CHECK_MSG(memcmp(&fast, &scalar, sizeof fast) == 0, "%s block %d: SIMD and scalar unpacking differ", ti->name,
                  b);
    }
    double sum = 0;
    for (int e = 0; e < 256 * BLOCKS; e++) sum += (double)y[e] * (e % 13 - 6);
    CHECK_MSG(fabs(sum - c->dequant_sum) <= 1e-9 * fabs(c->dequant_sum) + 1e-9, "%s dequantized: %.17g, gguf-py %.17g",
              ti->name, sum, c->dequant_sum);
    free(w);
    free(y);
}

/* Rows of k blocks: random, and at the extremes (every byte 0xFF: the last
 * points, all signs, the largest scales) against activations at ±127. */
static void check_dots(const iq_case *c) {
    const seer_type_info *ti = seer_type_get(c->type);
    for (int k = 1; k <= 9; k++)
        for (int mode = 0; mode < 3; mode++) {
            const int64_t n = 256 * k;
            uint8_t *w = malloc(ti->block_bytes * (size_t)k + 2), *wu = w + 2; /* off vector alignment on purpose */
            uint8_t *a = malloc(seer_row_bytes(SEER_TYPE_Q8_K, n));
            const size_t row_floats = sizeof(float) * (size_t)n;
            float *x = malloc(row_floats), *wd = malloc(row_floats), *ad = malloc(row_floats);
            random_blocks(c->type, wu, k, 77u * (uint32_t)k + (uint32_t)mode);
            if (mode == 2) memset(wu, 0xFF, ti->block_bytes * (size_t)k);
            for (int64_t e = 0; e < n; e++)
                x[e] = mode ? (next_u32() & 1 ? 1.f : -1.f) : (float)(next_u32() % 2001) / 1000.f - 1.f;
            seer_quantize_row(SEER_TYPE_Q8_K, x, a, n);
            seer_dequantize_row(c->type, wu, wd, n);
            seer_dequantize_row(SEER_TYPE_Q8_K, a, ad, n);
            double want = 0, mag = 0;
            for (int64_t e = 0; e < n; e++) want += (double)wd[e] * ad[e], mag += fabs((double)wd[e] * ad[e]);
            const float scalar = seer_vec_dot_kernel(SEER_SIMD_SCALAR, c->type)(n, wu, a);
            CHECK_MSG(fabs(scalar - want) <= 1e-5 * mag || !isfinite(want),
                      "%s scalar dot n=%lld mode %d: %.9g, dequantized %.9g", ti->name, (long long)n, mode, scalar,
                      want);
            for (int level = 1; level < SEER_SIMD_LEVELS; level++) {
                seer_vec_dot_fn f = seer_vec_dot_kernel(level, c->type);
                if (!f) continue;
                const float got = f(n, wu, a);
                CHECK_MSG(memcmp(&got, &scalar, sizeof got) == 0, "%s %s n=%lld mode %d: %.9g vs scalar %.9g",
                          seer_simd_level_name(level), ti->name, (long long)n, mode, got, scalar);
            }
            free(w), free(a), free(x), free(wd), free(ad);
        }
}

/* Σ_i Σ_k value · ((8 i + k) mod 251 + 1) over a codebook, as gguf-py's tables give it. */
static long long grid_sum(const int8_t *v, int points, int width) {
    long long s = 0;
    for (int i = 0; i < points; i++)
        for (int k = 0; k < width; k++) s += v[i * width + k] * ((8 * i + k) % 251 + 1);
    return s;
}

int main(void) {
    const seer_iq_grids *g = seer_iq_grids_get();
    CHECK(grid_sum(&g->iq2xxs[0][0], 256, 8) == IQ2XXS_GRID_SUM);
    CHECK(grid_sum(&g->iq2xs[0][0], 512, 8) == IQ2XS_GRID_SUM);
    CHECK(grid_sum(&g->iq2s[0][0], 1024, 8) == IQ2S_GRID_SUM);
    CHECK(grid_sum(&g->iq3xxs[0][0], 256, 4) == IQ3XXS_GRID_SUM);
    CHECK(grid_sum(&g->iq3s[0][0], 512, 4) == IQ3S_GRID_SUM);
    CHECK(grid_sum(&g->iq1s[0][0], 2048, 8) == IQ1S_GRID_SUM);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CHECK(seer_type_get(cases[i].type) != NULL);
        check_dequant(&cases[i]);
        check_dots(&cases[i]);
    }
    TEST_MAIN_END();
}
