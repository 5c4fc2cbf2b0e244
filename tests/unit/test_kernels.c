/* Quantizers (llama.cpp's activation rounding, round-trip error of the
 * weight quantizers) and dot products: every type on hand-built blocks
 * against a double-precision sum of the values the blocks stand for, and
 * every SIMD kernel against the scalar one. */
#include <math.h>

#include "seer/tensor.h"
#include "tensor/blocks.h"
#include "tensor/quantize_internal.h"
#include "test_tensor_pack.h"
#include "testlib.h"

static const int dot_types[] = {SEER_TYPE_F32, SEER_TYPE_F16, SEER_TYPE_BF16, SEER_TYPE_Q4_0, SEER_TYPE_Q4_1,
                                SEER_TYPE_Q5_0, SEER_TYPE_Q5_1, SEER_TYPE_Q8_0, SEER_TYPE_Q8_1, SEER_TYPE_Q2_K,
                                SEER_TYPE_Q3_K, SEER_TYPE_Q4_K, SEER_TYPE_Q5_K, SEER_TYPE_Q6_K, SEER_TYPE_Q8_K,
                            SEER_TYPE_IQ4_NL, SEER_TYPE_IQ4_XS};
#define N_DOT_TYPES (sizeof dot_types / sizeof dot_types[0])

static float gaussian(void) {
    float u = rnd_float(1e-6f, 1), v = rnd_float(0, 1);
    return sqrtf(-2 * logf(u)) * cosf(6.2831853f * v);
}

/* --- activation quantizers reproduce the documented rounding ----------- */

static void check_q8_0_rounding(void) {
    enum { N = 256 };
    float x[N];
    for (int i = 0; i < N; i++) x[i] = gaussian() * (i < 32 ? 0 : 1); /* first block all zero */
    x[40] = 3.5f;
    uint8_t buf[8 * 34];
    CHECK(seer_quantize_row(SEER_TYPE_Q8_0, x, buf, N) == sizeof buf);
    int bad = 0;
    for (int b = 0; b < N / 32; b++) {
        float amax = 0;
        for (int j = 0; j < 32; j++) amax = fmaxf(amax, fabsf(x[32 * b + j]));
        uint16_t d;
        memcpy(&d, buf + 34 * b, 2);
        bad += d != seer_f32_to_fp16(amax / 127);
        for (int j = 0; j < 32; j++) {
            int want = amax ? (int)nearbyintf(x[32 * b + j] * (127.f / amax)) : 0;
            bad += (int8_t)buf[34 * b + 2 + j] != want;
        }
    }
    CHECK_MSG(bad == 0, "Q8_0 quantization differs from max|x|/127 rounding in %d places", bad);

    uint8_t b1[8 * 36];
    CHECK(seer_quantize_row(SEER_TYPE_Q8_1, x, b1, N) == sizeof b1);
    for (int b = 0; b < N / 32; b++) {
        CHECK(memcmp(b1 + 36 * b, buf + 34 * b, 2) == 0);
        CHECK(memcmp(b1 + 36 * b + 4, buf + 34 * b + 2, 32) == 0);
        int sum = 0;
        for (int j = 0; j < 32; j++) sum += (int8_t)b1[36 * b + 4 + j];
        float amax = 0;
        for (int j = 0; j < 32; j++) amax = fmaxf(amax, fabsf(x[32 * b + j]));
        uint16_t s;
        memcpy(&s, b1 + 36 * b + 2, 2);
        CHECK(s == seer_f32_to_fp16(amax / 127 * (float)sum));
    }
}

static void check_q8_K_rounding(void) {
    enum { N = 512 };
    float x[N];
    for (int i = 0; i < N; i++) x[i] = gaussian();
    x[7] = -5; /* the extreme maps to -127 whatever its sign */
    x[256 + 37] = 6, x[256 + 211] = -6; /* of two extremes, the first sets the scale's sign */
    uint8_t buf[2 * 292];
    CHECK(seer_quantize_row(SEER_TYPE_Q8_K, x, buf, N) == sizeof buf);
    int bad = 0;
    for (int b = 0; b < 2; b++) {
        const float *xb = x + 256 * b;
        float amax = 0, max = 0;
        for (int j = 0; j < 256; j++) if (fabsf(xb[j]) > amax) { amax = fabsf(xb[j]); max = xb[j]; }
        float iscale = -127.f / max, d;
        memcpy(&d, buf + 292 * b, 4);
        bad += d != 1 / iscale;
        for (int j = 0; j < 256; j++) {
            int want = (int)nearbyintf(iscale * xb[j]);
            if (want > 127) want = 127;
            bad += (int8_t)buf[292 * b + 4 + j] != want;
        }
        for (int g = 0; g < 16; g++) {
            int sum = 0;
            for (int l = 0; l < 16; l++) sum += (int8_t)buf[292 * b + 4 + 16 * g + l];
            int16_t bs;
            memcpy(&bs, buf + 292 * b + 260 + 2 * g, 2);
            bad += bs != sum;
        }
    }
    CHECK_MSG(bad == 0, "Q8_K quantization wrong in %d places", bad);
    CHECK((int8_t)buf[4 + 7] == -127);
    CHECK((int8_t)buf[292 + 4 + 37] == -127 && (int8_t)buf[292 + 4 + 211] == 127);
}

/* --- round trips -------------------------------------------------------- */

static void check_round_trip(int type, double max_rel_rms) {
    enum { N = 4096 };
    static float x[N], y[N];
    static uint8_t buf[N * 4];
    for (int i = 0; i < N; i++) x[i] = gaussian() * (1 + (float)(i / 256)); /* scale varies by block */
    size_t bytes = seer_quantize_row(type, x, buf, N);
    CHECK_MSG(bytes == seer_row_bytes(type, N), "%s: quantize wrote %zu bytes", seer_type_name(type), bytes);
    seer_dequantize_row(type, buf, y, N);
    double se = 0, sx = 0;
    for (int i = 0; i < N; i++) { se += (x[i] - y[i]) * (x[i] - y[i]); sx += (double)x[i] * x[i]; }
    double rel = sqrt(se / sx);
    CHECK_MSG(rel <= max_rel_rms, "%s round trip: relative rms error %g > %g", seer_type_name(type), rel, max_rel_rms);
    /* a zero row stays zero */
    memset(x, 0, sizeof x);
    seer_quantize_row(type, x, buf, N);
    seer_dequantize_row(type, buf, y, N);
    int nz = 0;
    for (int i = 0; i < N; i++) nz += y[i] != 0;
    CHECK_MSG(nz == 0, "%s: zeros come back as %d non-zeros", seer_type_name(type), nz);
}

static void check_quantize_api(void) {
    int can[] = {SEER_TYPE_F32, SEER_TYPE_F16, SEER_TYPE_BF16, SEER_TYPE_Q8_0, SEER_TYPE_Q8_1, SEER_TYPE_Q8_K,
                 SEER_TYPE_Q4_0, SEER_TYPE_Q5_0, SEER_TYPE_Q4_K, SEER_TYPE_Q6_K};
    for (size_t i = 0; i < sizeof can / sizeof can[0]; i++) CHECK(seer_can_quantize(can[i]));
    CHECK(!seer_can_quantize(5));
    CHECK(!seer_can_quantize(-3));
    float x[64] = {0};
    uint8_t buf[512];
    CHECK(seer_quantize_row(SEER_TYPE_Q8_0, x, buf, 48) == 0); /* not a whole block */
    CHECK(seer_quantize_row(99, x, buf, 32) == 0);
    float v[3] = {1.5f, -0.1f, 70000.f};
    uint16_t h[3];
    CHECK(seer_quantize_row(SEER_TYPE_F16, v, h, 3) == 6);
    CHECK(h[0] == 0x3E00 && h[1] == seer_f32_to_fp16(-0.1f) && h[2] == 0x7C00);
    CHECK(seer_quantize_row(SEER_TYPE_BF16, v, h, 3) == 6);
    CHECK(h[0] == 0x3FC0);
}

/* --- dot products on hand-built blocks ---------------------------------- */

typedef struct dot_case {
    uint8_t *w, *a;
    double want, mag;
} dot_case;

/* Random weight row of `type` and activation row of its vec_dot type, with
 * the exact dot product of the values they encode. */
static dot_case make_dot_case(int type, int64_t n) {
    const seer_type_info *ti = seer_type_get(type), *ta = seer_type_get(ti->vec_dot_type);
    dot_case c = {malloc(seer_row_bytes(type, n) + 64), malloc(seer_row_bytes(ti->vec_dot_type, n) + 64), 0, 0};
    if (ti->block_size == 1) {
        for (int64_t i = 0; i < n; i++) {
            float wv = rnd_float(-1, 1), av = rnd_float(-2, 2);
            if (type == SEER_TYPE_F32) { memcpy(c.w + 4 * i, &wv, 4); memcpy(c.a + 4 * i, &av, 4); }
            else {
                uint16_t hw = type == SEER_TYPE_F16 ? seer_f32_to_fp16(wv) : seer_f32_to_bf16(wv);
                uint16_t ha = type == SEER_TYPE_F16 ? seer_f32_to_fp16(av) : seer_f32_to_bf16(av);
                memcpy(c.w + 2 * i, &hw, 2);
                memcpy(c.a + 2 * i, &ha, 2);
                wv = type == SEER_TYPE_F16 ? seer_fp16_to_f32(hw) : seer_bf16_to_f32(hw);
                av = type == SEER_TYPE_F16 ? seer_fp16_to_f32(ha) : seer_bf16_to_f32(ha);
            }
            c.want += (double)wv * av;
            c.mag += fabs((double)wv * av);
        }
        return c;
    }
    int bs = ti->block_size;
    for (int64_t b = 0; b < n / bs; b++) {
        logical_block lw, la;
        random_logical(type, &lw);
        random_logical(ti->vec_dot_type, &la);
        pack_block(type, &lw, c.w + b * ti->block_bytes);
        pack_block(ti->vec_dot_type, &la, c.a + b * ta->block_bytes);
        for (int e = 0; e < bs; e++) {
            double wv = logical_value(type, &lw, e), av = logical_value(ti->vec_dot_type, &la, e);
            c.want += wv * av;
            c.mag += fabs(wv * av);
        }
        if (ti->vec_dot_type == SEER_TYPE_Q8_1 && type != SEER_TYPE_Q8_1) {
            /* the min term uses the activation's stored s = fp16(d·Σq) */
            uint16_t s;
            memcpy(&s, c.a + b * ta->block_bytes + 2, 2);
            double sum = 0;
            for (int e = 0; e < bs; e++) sum += logical_value(ti->vec_dot_type, &la, e);
            c.want += (double)lw.dmin * (seer_fp16_to_f32(s) - sum);
        }
    }
    return c;
}

static void check_dot_exact(int type, int64_t n) {
    dot_case c = make_dot_case(type, n);
    seer_simd_force_scalar(true);
    float got = seer_vec_dot(type, n, c.w, c.a);
    seer_simd_force_scalar(false);
    CHECK_MSG(fabs(got - c.want) <= 1e-5 * c.mag + 1e-9, "scalar dot %s n=%lld: %.9g, want %.9g", seer_type_name(type),
              (long long)n, got, c.want);
    got = seer_vec_dot(type, n, c.w, c.a);
    CHECK_MSG(fabs(got - c.want) <= 1e-5 * c.mag + 1e-9, "%s dot %s n=%lld: %.9g, want %.9g", seer_simd_name(),
              seer_type_name(type), (long long)n, got, c.want);
    free(c.w);
    free(c.a);
}

/* SIMD against scalar on activations from the real quantizer. */
static void check_simd_vs_scalar(int type, int64_t n) {
    const seer_type_info *ti = seer_type_get(type);
    dot_case c = make_dot_case(type, n);
    float *x = malloc(sizeof(float) * (size_t)n);
    for (int64_t i = 0; i < n; i++) x[i] = gaussian();
    seer_quantize_row(ti->vec_dot_type, x, c.a, n);
    seer_simd_force_scalar(true);
    float ref = seer_vec_dot(type, n, c.w, c.a);
    seer_simd_force_scalar(false);
    float got = seer_vec_dot(type, n, c.w, c.a);
    double mag = dot_rounding_magnitude(type, c.w, c.a, n);
    CHECK_MSG(fabs(got - ref) <= 2e-6 * mag + 1e-9, "%s vs scalar, %s n=%lld: %.9g vs %.9g", seer_simd_name(),
              seer_type_name(type), (long long)n, got, ref);
    free(x);
    free(c.w);
    free(c.a);
}

/* The SIMD activation quantizers give the scalar ones' bytes exactly, also
 * on rows built to find the corners: ties at .5 after scaling, the largest
 * magnitude repeated with both signs (the first one sets the sign of a
 * Q8_K scale), zero blocks, NaNs (passed over) and tiny values. */
static void check_quantize_simd_exact(int type, int pattern) {
    enum { N = 1024 };
    float x[N];
    for (int i = 0; i < N; i++) {
        x[i] = gaussian();
        if (pattern == 1) x[i] = (float)rnd_int(-254, 254) * 0.5f; /* halves: ties once scaled by 127/127 */
        if (pattern == 2 && i % 256 < 128) x[i] = 0;
        if (pattern == 3) x[i] *= 1e-30f;
    }
    x[17] = 127, x[100] = -127, x[300] = -127, x[301] = 127; /* repeated maxima, both signs first */
    if (pattern == 4) x[5] = NAN, x[600] = NAN;
    uint8_t simd[N / 32 * 36 + N / 256 * 292], scalar[sizeof simd];
    /* blocks of 32: 29 of them, whole batches of 8 or 16 and the blocks after */
    const int64_t n = type == SEER_TYPE_Q8_K ? N : N - 96;
    memset(scalar, 0x55, sizeof scalar);
    seer_simd_force_scalar(true);
    seer_quantize_row(type, x, scalar, n);
    seer_simd_force_scalar(false);
    /* every level this CPU runs (AVX2 and AVX-512 each have their own) */
    for (int level = SEER_SIMD_SCALAR + 1; level <= seer_simd_allowed(); level++) {
        seer_simd_set_level(level);
        memset(simd, 0xAA, sizeof simd);
        size_t bytes = seer_quantize_row(type, x, simd, n);
        CHECK_MSG(bytes == seer_row_bytes(type, n) && memcmp(simd, scalar, bytes) == 0,
                  "%s quantization under %s differs from the scalar one (pattern %d)", seer_type_name(type),
                  seer_simd_level_name(level), pattern);
    }
    seer_simd_set_level(-1);
}

/* The int8 GEMM's Q8_0 activations straight from floats (AVX-512) are the
 * block format's quants (XOR the offset), its F16 scales as floats and its
 * quants' sums times the multiplier, value for value: 34 blocks, two
 * batches of 16 and two alone. */
static void check_q8_0_gemm_row(void) {
    if (seer_simd_allowed() < SEER_SIMD_AVX512) return;
    enum { N = 1088, NB = N / 32 };
    float x[N];
    for (int pattern = 0; pattern < 6; pattern++) {
        for (int i = 0; i < N; i++) x[i] = pattern == 1 ? (float)rnd_int(-254, 254) * 0.5f : gaussian();
        if (pattern == 2) for (int i = 0; i < 64; i++) x[i] = 0;
        if (pattern == 4) x[5] = x[N - 3] = NAN;
        if (pattern == 5) for (int i = 0; i < N; i++) x[i] *= (float)(1 + i / 32) * 0.25f; /* scales block by block */
        uint8_t blocks[NB * 34], u8[N];
        float d[NB];
        int32_t corr[NB];
        seer_quantize_row(SEER_TYPE_Q8_0, x, blocks, N);
        const uint8_t offset = pattern % 2 ? 0x80 : 0;
        seer_q8_0_gemm_row_avx512(x, N, offset, u8, d, corr, 16);
        int bad = 0;
        for (int b = 0; b < NB; b++) {
            uint16_t h;
            memcpy(&h, blocks + 34 * b, 2);
            int sum = 0;
            for (int k = 0; k < 32; k++) {
                const int8_t q = (int8_t)blocks[34 * b + 2 + k];
                sum += q;
                bad += u8[32 * b + k] != (uint8_t)(q ^ (int8_t)offset);
            }
            const float want = seer_fp16_to_f32(h);
            bad += memcmp(&d[b], &want, 4) != 0 || corr[b] != 16 * sum;
        }
        CHECK_MSG(bad == 0, "Q8_0 GEMM activations differ from the block format's in %d places (pattern %d)", bad, pattern);
    }
}

/* The same for Q8_K: quants, the scale per block of 32, the sums by 16
 * and by 32 as the block format's bsums give them. */
static void check_q8_K_gemm_row(void) {
    if (seer_simd_allowed() < SEER_SIMD_AVX512) return;
    enum { N = 768, NSB = N / 256, NB = N / 32 };
    float x[N];
    for (int pattern = 0; pattern < 5; pattern++) {
        for (int i = 0; i < N; i++) x[i] = pattern == 1 ? (float)rnd_int(-254, 254) * 0.5f : gaussian();
        if (pattern == 2) for (int i = 256; i < 512; i++) x[i] = 0;
        if (pattern == 3) for (int i = 0; i < N; i++) x[i] *= (float)(1 + i / 16); /* sums that differ chunk by chunk */
        if (pattern == 4) x[300] = NAN;
        block_q8_K blocks[NSB];
        uint8_t u8[N];
        float d[NB];
        int16_t by16[2 * NB], by32[NB];
        seer_quantize_row(SEER_TYPE_Q8_K, x, blocks, N);
        const uint8_t offset = pattern % 2 ? 0x80 : 0;
        seer_q8_K_gemm_row_avx512(x, N, offset, u8, d, by16, true);
        seer_q8_K_gemm_row_avx512(x, N, offset, u8, d, by32, false);
        int bad = 0;
        for (int b = 0; b < NB; b++) {
            const block_q8_K *sb = &blocks[b / 8];
            for (int k = 0; k < 32; k++) bad += u8[32 * b + k] != (uint8_t)(sb->qs[32 * (b % 8) + k] ^ (int8_t)offset);
            const int16_t lo = sb->bsums[2 * (b % 8)], hi = sb->bsums[2 * (b % 8) + 1];
            bad += memcmp(&d[b], &sb->d, 4) != 0 || by16[2 * b] != lo || by16[2 * b + 1] != hi || by32[b] != lo + hi;
        }
        CHECK_MSG(bad == 0, "Q8_K GEMM activations differ from the block format's in %d places (pattern %d)", bad, pattern);
    }
}

int main(void) {
    check_q8_0_rounding();
    check_q8_K_rounding();
    check_quantize_api();
    check_q8_0_gemm_row();
    check_q8_K_gemm_row();
    for (int pattern = 0; pattern < 5; pattern++) {
        check_quantize_simd_exact(SEER_TYPE_Q8_0, pattern);
        check_quantize_simd_exact(SEER_TYPE_Q8_K, pattern);
    }
    check_round_trip(SEER_TYPE_Q8_0, 0.008);
    check_round_trip(SEER_TYPE_Q8_1, 0.008);
    check_round_trip(SEER_TYPE_Q8_K, 0.01);
    check_round_trip(SEER_TYPE_F16, 0.0004);
    check_round_trip(SEER_TYPE_BF16, 0.003);
    check_round_trip(SEER_TYPE_Q6_K, 0.025);
    check_round_trip(SEER_TYPE_Q5_0, 0.055);
    check_round_trip(SEER_TYPE_Q4_0, 0.11);
    check_round_trip(SEER_TYPE_Q4_K, 0.095);

    printf("dot products: %s\n", seer_simd_name());
    for (size_t t = 0; t < N_DOT_TYPES; t++) {
        int type = dot_types[t], bs = seer_type_get(type)->block_size;
        for (int rep = 0; rep < 10; rep++) {
            check_dot_exact(type, bs == 1 ? 37 + rep : bs * (1 + rep));
            check_dot_exact(type, bs == 1 ? 4096 : 4096);
            check_simd_vs_scalar(type, bs == 1 ? 131 + rep : bs * (1 + rep));
            check_simd_vs_scalar(type, 4096);
        }
    }
    seer_simd_force_scalar(true);
    CHECK(strcmp(seer_simd_name(), "scalar") == 0);
    seer_simd_force_scalar(false);
    TEST_MAIN_END();
}
