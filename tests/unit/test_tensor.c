/* Element types: table, fp16/bf16 conversion, dequantization of every
 * quantized format from blocks built by hand from the format definition. */
#include <math.h>

#include "seer/cpu.h"
#include "seer/tensor.h"
#include "tensor/dequantize_internal.h"
#include "test_tensor_pack.h"
#include "testlib.h"

static const int quant_types[] = {SEER_TYPE_Q4_0, SEER_TYPE_Q4_1, SEER_TYPE_Q5_0, SEER_TYPE_Q5_1,
                                  SEER_TYPE_Q8_0, SEER_TYPE_Q8_1, SEER_TYPE_Q2_K, SEER_TYPE_Q3_K,
                                  SEER_TYPE_Q4_K, SEER_TYPE_Q5_K, SEER_TYPE_Q6_K, SEER_TYPE_Q8_K, SEER_TYPE_IQ4_NL, SEER_TYPE_IQ4_XS};

static void check_table(void) {
    struct { int type; const char *name; int bs; size_t bytes; int vt; } want[] = {
        {SEER_TYPE_F32, "F32", 1, 4, SEER_TYPE_F32},       {SEER_TYPE_F16, "F16", 1, 2, SEER_TYPE_F16},
        {SEER_TYPE_BF16, "BF16", 1, 2, SEER_TYPE_BF16},    {SEER_TYPE_Q4_0, "Q4_0", 32, 18, SEER_TYPE_Q8_0},
        {SEER_TYPE_Q4_1, "Q4_1", 32, 20, SEER_TYPE_Q8_1},  {SEER_TYPE_Q5_0, "Q5_0", 32, 22, SEER_TYPE_Q8_0},
        {SEER_TYPE_Q5_1, "Q5_1", 32, 24, SEER_TYPE_Q8_1},  {SEER_TYPE_Q8_0, "Q8_0", 32, 34, SEER_TYPE_Q8_0},
        {SEER_TYPE_Q8_1, "Q8_1", 32, 36, SEER_TYPE_Q8_1},  {SEER_TYPE_Q2_K, "Q2_K", 256, 84, SEER_TYPE_Q8_K},
        {SEER_TYPE_Q3_K, "Q3_K", 256, 110, SEER_TYPE_Q8_K}, {SEER_TYPE_Q4_K, "Q4_K", 256, 144, SEER_TYPE_Q8_K},
        {SEER_TYPE_Q5_K, "Q5_K", 256, 176, SEER_TYPE_Q8_K}, {SEER_TYPE_Q6_K, "Q6_K", 256, 210, SEER_TYPE_Q8_K},
        {SEER_TYPE_Q8_K, "Q8_K", 256, 292, SEER_TYPE_Q8_K}, {SEER_TYPE_IQ4_NL, "IQ4_NL", 32, 18, SEER_TYPE_Q8_0},
        {SEER_TYPE_IQ4_XS, "IQ4_XS", 256, 136, SEER_TYPE_Q8_K},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const seer_type_info *ti = seer_type_get(want[i].type);
        CHECK(ti != NULL);
        if (!ti) continue;
        CHECK(strcmp(ti->name, want[i].name) == 0);
        CHECK(strcmp(seer_type_name(want[i].type), want[i].name) == 0);
        CHECK(ti->block_size == want[i].bs);
        CHECK(ti->block_bytes == want[i].bytes);
        CHECK(ti->vec_dot_type == want[i].vt);
        CHECK(seer_row_bytes(want[i].type, 4096) == (size_t)(4096 / want[i].bs) * want[i].bytes);
    }
    CHECK(seer_type_get(4) == NULL); /* removed Q4_2 */
    CHECK(seer_type_get(-1) == NULL);
    CHECK(seer_type_get(SEER_TYPE_COUNT) == NULL);
    CHECK(seer_type_get(1000) == NULL);
    CHECK(strcmp(seer_type_name(5), "unknown") == 0);
    CHECK(seer_row_bytes(77, 32) == 0);
}

/* The value of a half from its bit fields, in double. */
static double half_value(uint16_t h) {
    int s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : ldexp(1024 + m, e - 25);
    if (e == 31) v = m ? NAN : INFINITY;
    return s ? -v : v;
}

static void check_fp16(void) {
    /* Every half converts exactly, and back to itself. */
    int bad = 0, bad_back = 0;
    for (uint32_t h = 0; h < 65536; h++) {
        double want = half_value((uint16_t)h);
        float got = seer_fp16_to_f32((uint16_t)h);
        if (isnan(want)) { bad += !isnan(got); bad_back += !isnan(seer_fp16_to_f32(seer_f32_to_fp16(got))); continue; }
        bad += (double)got != want;
        bad_back += seer_f32_to_fp16(got) != h;
    }
    CHECK_MSG(bad == 0, "%d halves decode wrongly", bad);
    CHECK_MSG(bad_back == 0, "%d halves do not round-trip", bad_back);

    /* Rounding to nearest, ties to even. */
    CHECK(seer_f32_to_fp16(1.0f) == 0x3C00);
    CHECK(seer_f32_to_fp16(-2.0f) == 0xC000);
    CHECK(seer_f32_to_fp16(0.1f) == 0x2E66);
    CHECK(seer_f32_to_fp16(1.0f + ldexpf(1, -11)) == 0x3C00);          /* tie -> even */
    CHECK(seer_f32_to_fp16(1.0f + 3 * ldexpf(1, -11)) == 0x3C02);      /* tie -> even (up) */
    CHECK(seer_f32_to_fp16(1.0f + ldexpf(1, -11) + ldexpf(1, -20)) == 0x3C01);
    CHECK(seer_f32_to_fp16(65504.0f) == 0x7BFF);
    CHECK(seer_f32_to_fp16(65519.0f) == 0x7BFF);
    CHECK(seer_f32_to_fp16(65520.0f) == 0x7C00);
    CHECK(seer_f32_to_fp16(1e10f) == 0x7C00);
    CHECK(seer_f32_to_fp16(-INFINITY) == 0xFC00);
    CHECK(seer_f32_to_fp16(ldexpf(1, -24)) == 0x0001);
    CHECK(seer_f32_to_fp16(ldexpf(1, -25)) == 0x0000);                 /* tie -> even (0) */
    CHECK(seer_f32_to_fp16(3 * ldexpf(1, -25)) == 0x0002);             /* tie -> even (2) */
    CHECK(seer_f32_to_fp16(ldexpf(1, -14) - ldexpf(1, -26)) == 0x0400); /* rounds up into normals */
    CHECK(seer_f32_to_fp16(-0.0f) == 0x8000);
    CHECK(isnan(seer_fp16_to_f32(seer_f32_to_fp16(NAN))));

    /* Row conversion (F16C where present, at every level this CPU runs)
     * equals the scalar conversion. */
    for (int level = SEER_SIMD_SCALAR; level <= seer_simd_allowed(); level++) {
        seer_simd_set_level(level);
        float row[1000];
        uint16_t got[1000];
        for (int i = 0; i < 1000; i++) {
            uint32_t bits = rnd_u32() & 0xBFFFFFFFu; /* random finite floats of all magnitudes */
            memcpy(&row[i], &bits, 4);
            if (i % 3 == 0) row[i] = rnd_float(-70000, 70000);
        }
        row[5] = 1.0f + ldexpf(1, -11); /* a tie */
        CHECK(seer_quantize_row(SEER_TYPE_F16, row, got, 1000) == 2000);
        int bad = 0;
        for (int i = 0; i < 1000; i++) bad += got[i] != seer_f32_to_fp16(row[i]);
        CHECK_MSG(bad == 0, "%d row conversions under %s differ from the scalar conversion", bad, seer_simd_level_name(level));
        /* the one-pass round trip the F16 GEMM's activations take, in place too */
        float back[1000], inplace[1000];
        memcpy(inplace, row, sizeof row);
        seer_f32_round_fp16_row(row, back, 1000);
        seer_f32_round_fp16_row(inplace, inplace, 1000);
        bad = 0;
        for (int i = 0; i < 1000; i++) {
            const float want = seer_fp16_to_f32(seer_f32_to_fp16(row[i]));
            bad += memcmp(&back[i], &want, 4) != 0 || memcmp(&inplace[i], &want, 4) != 0;
        }
        CHECK_MSG(bad == 0, "%d round trips under %s differ from the scalar conversions", bad, seer_simd_level_name(level));
    }
    seer_simd_set_level(-1);

    /* bf16: top half of the float, rounded to nearest even. */
    CHECK(seer_f32_to_bf16(1.0f) == 0x3F80);
    CHECK(seer_bf16_to_f32(0x3F80) == 1.0f);
    CHECK(seer_bf16_to_f32(0xC040) == -3.0f);
    float tie_even, tie_odd, above;
    uint32_t u = 0x3F808000u; memcpy(&tie_even, &u, 4);
    u = 0x3F818000u; memcpy(&tie_odd, &u, 4);
    u = 0x3F808001u; memcpy(&above, &u, 4);
    CHECK(seer_f32_to_bf16(tie_even) == 0x3F80);
    CHECK(seer_f32_to_bf16(tie_odd) == 0x3F82);
    CHECK(seer_f32_to_bf16(above) == 0x3F81);
    CHECK(isnan(seer_bf16_to_f32(seer_f32_to_bf16(NAN))));
}

static void check_dequantize_type(int type) {
    const seer_type_info *ti = seer_type_get(type);
    enum { NB = 6 };
    int bs = ti->block_size;
    uint8_t *bytes = malloc(NB * ti->block_bytes);
    float *out = malloc(sizeof(float) * NB * (size_t)bs);
    logical_block lb[NB];
    for (int b = 0; b < NB; b++) {
        random_logical(type, &lb[b]);
        pack_block(type, &lb[b], bytes + b * ti->block_bytes);
    }
    seer_dequantize_row(type, bytes, out, (int64_t)NB * bs);
    /* the SIMD versions (when this CPU has them) equal the scalar code bit for bit */
    float *ref = malloc(sizeof(float) * NB * (size_t)bs);
    seer_dequantize_row_scalar(type, bytes, ref, (int64_t)NB * bs);
    CHECK_MSG(memcmp(ref, out, sizeof(float) * NB * (size_t)bs) == 0, "%s: dispatched dequantization differs from scalar", ti->name);
    free(ref);
    int bad = 0;
    double worst = 0;
    for (int b = 0; b < NB; b++) {
        for (int e = 0; e < bs; e++) {
            double want = logical_value(type, &lb[b], e);
            double err = fabs(out[b * bs + e] - want);
            if (err > 1e-6 * (fabs(want) + 0.1 * lb[b].d + lb[b].dmin * 64)) bad++;
            if (err > worst) worst = err;
        }
    }
    CHECK_MSG(bad == 0, "%s: %d values wrong (worst error %g)", ti->name, bad, worst);
    free(bytes);
    free(out);
}

static void check_dequantize_plain(void) {
    float src[64], out[64];
    uint16_t h[64];
    for (int i = 0; i < 64; i++) src[i] = rnd_float(-3, 3);
    seer_dequantize_row(SEER_TYPE_F32, src, out, 64);
    CHECK(memcmp(src, out, sizeof src) == 0);
    for (int i = 0; i < 64; i++) h[i] = (uint16_t)(rnd_u32() & 0x7BFF);
    seer_dequantize_row(SEER_TYPE_F16, h, out, 64);
    for (int i = 0; i < 64; i++) CHECK(out[i] == (float)half_value(h[i]));
    seer_dequantize_row(SEER_TYPE_F16, h + 1, out, 61); /* odd length, odd address */
    for (int i = 0; i < 61; i++) CHECK(out[i] == (float)half_value(h[i + 1]));
    seer_dequantize_row(SEER_TYPE_BF16, h, out, 64);
    for (int i = 0; i < 64; i++) {
        uint32_t u = (uint32_t)h[i] << 16;
        float f;
        memcpy(&f, &u, 4);
        CHECK(out[i] == f);
    }
}

int main(void) {
    check_table();
    check_fp16();
    check_dequantize_plain();
    for (size_t i = 0; i < sizeof quant_types / sizeof quant_types[0]; i++)
        for (int rep = 0; rep < 20; rep++) check_dequantize_type(quant_types[i]);
    TEST_MAIN_END();
}
