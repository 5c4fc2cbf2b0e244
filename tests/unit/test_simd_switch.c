/* The one SIMD switch (seer/cpu.h): SEER_SIMD values, and that every
 * dispatch site follows it. Under each level this CPU allows, the sites hand
 * out that level's kernels (dot products, attention loops, ViT math,
 * dequantization), and seer_matmul on one and many rows agrees with the
 * scalar level. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decoder/attention_kernels.h"
#include "kernels/vec_dot_internal.h"
#include "seer/cpu.h"
#include "seer/matmul.h"
#include "tensor/dequantize_internal.h"
#include "testlib.h"
#include "ops/exp_kernels.h"

static void check_parse(void) {
    for (int best = 0; best < SEER_SIMD_LEVELS; best++) {
        CHECK(seer_simd_parse(NULL, best) == best);
        CHECK(seer_simd_parse("", best) == best);
        CHECK(seer_simd_parse("scalar", best) == SEER_SIMD_SCALAR);
#if defined(__aarch64__)
        CHECK(seer_simd_parse("neon", best) == (best < SEER_SIMD_NEON ? best : SEER_SIMD_NEON));
        CHECK(seer_simd_parse("avx2", best) == -1); /* x86's names choose nothing here */
#else
        CHECK(seer_simd_parse("avx2", best) == (best < SEER_SIMD_AVX2 ? best : SEER_SIMD_AVX2));
        CHECK(seer_simd_parse("avx512", best) == best);
#endif
        CHECK(seer_simd_parse("AVX2", best) == -1);
        CHECK(seer_simd_parse("sse", best) == -1);
        CHECK(seer_simd_parse("avx2 ", best) == -1);
    }
    /* run with SEER_SIMD unset or valid (the e2e test covers a bad value) */
    CHECK(seer_simd_env_problem() == NULL);
}

static float frand(unsigned *s) {
    *s = *s * 1103515245u + 12345u;
    return (float)((*s >> 8) & 0xffff) / 32768.0f - 1.0f;
}

/* Each site hands out the kernels of the current level. */
static void check_sites(int level) {
    static const int types[] = {SEER_TYPE_F32, SEER_TYPE_F16, SEER_TYPE_Q8_0, SEER_TYPE_Q4_K, SEER_TYPE_Q6_K};
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
        CHECK_MSG(seer_vec_dot_get(types[t]) == seer_vec_dot_kernel(level, types[t]), "vec_dot %s at %s", seer_type_name(types[t]),
                  seer_simd_level_name(level));
        CHECK(seer_vec_dot4_get(types[t]) == seer_vec_dot4_kernel(level, types[t]));
    }
    for (int f16 = 0; f16 < 2; f16++) {
        attn_kernels a = attn_kernels_select(f16), at_level = attn_kernels_for(level, f16);
        CHECK_MSG(a.scores == at_level.scores && a.mix == at_level.mix && a.axpy == at_level.axpy,
                  "attention kernels (%s cache) at %s", f16 ? "f16" : "f32", seer_simd_level_name(level));
#if defined(__x86_64__) /* aarch64's level has no attention kernels of its own yet */
        if (level > SEER_SIMD_SCALAR) CHECK(a.scores != attn_kernels_for(level - 1, f16).scores);
#endif
        CHECK(a.scores != attn_kernels_select(!f16).scores && a.mix != attn_kernels_select(!f16).mix);
    }
    CHECK(seer_tensor_have_avx2() == (level >= SEER_SIMD_AVX2));
    CHECK(strcmp(seer_simd_name(), seer_simd_level_name(level)) == 0);

    /* The ViT math gives exactly what that level's kernel gives. */
    enum { N = 77 };
    float x[N], want[N];
    unsigned seed = 7;
    for (int i = 0; i < N; i++) x[i] = want[i] = 6 * frand(&seed);
    seer_exp_gate(SEER_GATE_GELU_TANH, x, NULL, N);
    switch (level) {
#if defined(__x86_64__)
    case SEER_SIMD_AVX512: seer_exp_gate_avx512(SEER_GATE_GELU_TANH, want, NULL, N); break;
    case SEER_SIMD_AVX2: seer_exp_gate_avx2(SEER_GATE_GELU_TANH, want, NULL, N); break;
#endif
    default: seer_exp_gate_scalar(SEER_GATE_GELU_TANH, want, NULL, N); break;
    }
    CHECK_MSG(memcmp(x, want, sizeof x) == 0, "seer_exp_gate at %s is not that level's kernel", seer_simd_level_name(level));
}

/* y = x·Wᵀ for one row (dot products) and 40 rows (GEMM paths). */
static void matmul(int type, const void *w, int64_t n_in, int64_t n_out, const float *x, int64_t rows, float *y) {
    seer_weight wt = {.type = type, .n_in = n_in, .n_out = n_out, .data = w, .row_bytes = seer_row_bytes(type, n_in)};
    seer_matmul(NULL, &wt, x, rows, y, NULL);
}

#if defined(__x86_64__)
/* Whether /proc/cpuinfo lists this flag (what the kernel says the CPU has,
 * read independently of seer's CPUID code). */
static bool cpuinfo_has(const char *flag) {
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[8192];
    bool found = false;
    while (f && !found && fgets(line, sizeof line, f)) {
        if (strncmp(line, "flags", 5) != 0) continue;
        for (char *t = strtok(strchr(line, ':'), " :\n"); t && !found; t = strtok(NULL, " \n")) found = strcmp(t, flag) == 0;
        break;
    }
    if (f) fclose(f);
    return found;
}

/* The family /proc/cpuinfo gives an AMD CPU ("cpu family"), 0 for another
 * vendor's: what seer's prefetch distances and Zen 4's kernel choices key on. */
static int cpuinfo_amd_family(void) {
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    bool amd = false;
    int family = -1;
    while (f && family < 0 && fgets(line, sizeof line, f)) {
        if (strncmp(line, "vendor_id", 9) == 0) amd = strstr(line, "AuthenticAMD") != NULL;
        else if (strncmp(line, "cpu family", 10) == 0) family = atoi(strchr(line, ':') + 1);
    }
    if (f) fclose(f);
    return amd && family > 0 ? family : 0;
}
#endif

static void check_amd_family(void) {
#if defined(__x86_64__)
    CHECK(seer_cpu_amd_family() == cpuinfo_amd_family());
    CHECK(seer_cpu_avx512_halved() == (seer_cpu_amd_family() == 0x19));
#else
    CHECK(seer_cpu_amd_family() == 0);
#endif
}

/* The AVX2 level's build follows SEER_AVX2_VNNI (run_unit.sh runs this
 * test with 0, 1 and, where the CPU has both encodings, evex) and names
 * itself. On a CPU with AVX-VNNI, 1 is the VEX build on real hardware. */
static void check_avx2_build(void) {
    const char *env = getenv("SEER_AVX2_VNNI");
    int build = seer_cpu_avx2_build();
#if defined(__x86_64__)
    if (env && strcmp(env, "0") == 0) CHECK(build == SEER_AVX2_PLAIN);
    if (env && strcmp(env, "1") == 0 && seer_cpu_simd_best() >= SEER_SIMD_AVX512) CHECK(build != SEER_AVX2_PLAIN);
    if (env && strcmp(env, "1") == 0 && cpuinfo_has("avx_vnni")) CHECK(build == SEER_AVX2_VNNI_VEX);
    if (env && strcmp(env, "evex") == 0 && seer_cpu_simd_best() >= SEER_SIMD_AVX512) CHECK(build == SEER_AVX2_VNNI_EVEX);
    CHECK(strcmp(seer_simd_level_name(SEER_SIMD_AVX2), build == SEER_AVX2_PLAIN ? "avx2" : "avx2-vnni") == 0);
#else
    (void)env;
    CHECK(build == SEER_AVX2_PLAIN);
#endif
}

int main(void) {
    check_parse();
    check_avx2_build();
    check_amd_family();
    const int top = seer_simd_allowed();
    CHECK(seer_simd_level() == top && top <= seer_cpu_simd_best());
    printf("levels: scalar..%s (CPU best %s)\n", seer_simd_level_name(top), seer_simd_level_name(seer_cpu_simd_best()));

    enum { N_IN = 512, N_OUT = 24, ROWS = 40 };
    static const int types[] = {SEER_TYPE_F16, SEER_TYPE_Q8_0, SEER_TYPE_Q4_K};
    static float wf[N_OUT * N_IN], x[ROWS * N_IN], ref[ROWS * N_OUT], got[ROWS * N_OUT];
    unsigned seed = 1;
    for (int i = 0; i < N_OUT * N_IN; i++) wf[i] = frand(&seed);
    for (int i = 0; i < ROWS * N_IN; i++) x[i] = frand(&seed);
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
        int type = types[t];
        size_t rb = seer_row_bytes(type, N_IN);
        unsigned char *w = malloc(rb * N_OUT);
        for (int o = 0; o < N_OUT; o++) seer_quantize_row(type, wf + o * N_IN, w + o * rb, N_IN);
        for (int64_t rows = 1; rows <= ROWS; rows += ROWS - 1) {
            seer_simd_set_level(SEER_SIMD_SCALAR);
            matmul(type, w, N_IN, N_OUT, x, rows, ref);
            for (int level = 0; level <= top; level++) {
                seer_simd_set_level(level);
                CHECK(seer_simd_level() == level);
                check_sites(level);
                matmul(type, w, N_IN, N_OUT, x, rows, got);
                for (int i = 0; i < rows * N_OUT; i++)
                    CHECK_MSG(fabsf(got[i] - ref[i]) <= 1e-3f * (1 + fabsf(ref[i])), "%s matmul %s rows=%lld [%d]: %g vs scalar %g",
                              seer_simd_level_name(level), seer_type_name(type), (long long)rows, i, got[i], ref[i]);
            }
        }
        free(w);
    }
    seer_simd_set_level(SEER_SIMD_LEVELS); /* above the allowed level: clamped */
    CHECK(seer_simd_level() == top);
    seer_simd_set_level(-1);
    CHECK(seer_simd_level() == top);
    TEST_MAIN_END();
}
