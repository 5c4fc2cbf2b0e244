/* What the int8 prompt kernels' other instructions cost VPDPBUSD on the
 * core this runs on: a pass of 12 independent VPDPBUSD alone, then with
 * each companion the K-quant kernels issue beside it (the blocks' float
 * multiply-adds, int32 -> float conversions, integer adds and multiplies,
 * the activations' broadcasts), in register-only loops, one thread's CPU
 * time, best of 30 alternated runs. A companion that shares VPDPBUSD's
 * pipes shows as a lower rate; one that has pipes of its own leaves it
 * near 1. Then the same question for the AVX2 lane's VPMADDUBSW. Build
 * and run: tools/kernel-bench/mix-probe.sh (x86-64; a lane the CPU lacks
 * is said and skipped). */
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#if defined(__x86_64__)
#include <immintrin.h>

#define PASSES 2000000L
#define TARGET __attribute__((target("avx512f,avx512vnni")))
#define TARGET_AVX2 __attribute__((target("avx2,fma")))
#define KEEP(v) __asm__("" : "+v"(v)) /* a value stays in its register, every chain its own */

static double thread_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int32_t acts[6][16] __attribute__((aligned(64))); /* six activation rows' words */

enum companion { NONE, FMA, CVT, IADD, IMUL, BCAST_SHARED, BCAST_EMBEDDED };

/* 12 VPDPBUSD a pass (two weight vectors x six rows, as the in-place
 * kernels' two groups of six rows) plus `per_pass` companions of `kind`
 * in chains of their own; returns seconds for PASSES passes. Inlined into
 * one function a case, so that kind and per_pass are constants. */
TARGET static inline __attribute__((always_inline)) double run(enum companion kind, int per_pass) {
    __m512i acc[12], w[2] = {_mm512_set1_epi8(3), _mm512_set1_epi8(5)}, ia[6];
    __m512 f[6];
    const __m512 m = _mm512_set1_ps(0.999999f), c = _mm512_set1_ps(1e-7f);
    __m512i one = _mm512_set1_epi32(1), mul = _mm512_set1_epi32(3);
    KEEP(one); /* opaque to the compiler: a multiply by a known 1 or 3 was folded into adds and shifts */
    KEEP(mul);
    /* every loop over the arrays unrolled: a loop left rolled kept them on the stack (every pass loading and storing) */
#pragma GCC unroll 12
    for (int k = 0; k < 12; k++) acc[k] = _mm512_set1_epi32(k);
#pragma GCC unroll 6
    for (int k = 0; k < 6; k++) f[k] = _mm512_set1_ps((float)k), ia[k] = _mm512_set1_epi32(k);
    const int32_t *a = &acts[0][0];
    const double t0 = thread_seconds();
    for (long pass = 0; pass < PASSES; pass++) {
        __asm__ volatile("" : "+r"(a));
        const int32_t *word = a + (pass & 7); /* a row's next four bytes, as the kernels step along */
#pragma GCC unroll 6
        for (int r = 0; r < 6; r++) {
            __m512i bc = _mm512_set1_epi8(-2);
            if (kind == BCAST_SHARED) __asm__("vpbroadcastd %1, %0" : "=v"(bc) : "m"(word[16 * r]));
#pragma GCC unroll 2
            for (int g = 0; g < 2; g++) {
                if (kind == BCAST_EMBEDDED)
                    __asm__("vpdpbusd %1%{1to16%}, %2, %0" : "+v"(acc[2 * r + g]) : "m"(word[16 * r]), "v"(w[g]));
                else acc[2 * r + g] = _mm512_dpbusd_epi32(acc[2 * r + g], w[g], bc);
                KEEP(acc[2 * r + g]);
            }
        }
#pragma GCC unroll 6
        for (int k = 0; k < per_pass; k++) {
            if (kind == FMA) f[k] = _mm512_fmadd_ps(f[k], m, c);
            if (kind == CVT) f[k] = _mm512_cvtepi32_ps(_mm512_castps_si512(f[k]));
            if (kind == IADD) ia[k] = _mm512_add_epi32(ia[k], one);
            if (kind == IMUL) ia[k] = _mm512_add_epi32(_mm512_mullo_epi32(ia[k], mul), one);
            KEEP(f[k]);
            KEEP(ia[k]);
        }
    }
    const double s = thread_seconds() - t0;
#pragma GCC unroll 12
    for (int k = 1; k < 12; k++) acc[0] = _mm512_add_epi32(acc[0], acc[k]);
#pragma GCC unroll 6
    for (int k = 0; k < 6; k++) acc[0] = _mm512_add_epi32(acc[0], _mm512_add_epi32(ia[k], _mm512_castps_si512(f[k])));
    volatile int sink = _mm_cvtsi128_si32(_mm512_castsi512_si128(acc[0]));
    (void)sink;
    return s;
}

#define CASE(NAME, KIND, PER_PASS) \
    TARGET __attribute__((noinline)) static double NAME(void) { return run(KIND, PER_PASS); }
CASE(alone, NONE, 0)
CASE(fma3, FMA, 3)
CASE(fma6, FMA, 6)
CASE(cvt3, CVT, 3)
CASE(cvt6, CVT, 6)
CASE(iadd6, IADD, 6)
CASE(imul3, IMUL, 3)
CASE(imul6, IMUL, 6)
CASE(bcast_shared, BCAST_SHARED, 0)
CASE(bcast_embedded, BCAST_EMBEDDED, 0)

enum companion_avx2 { ALONE2, SIGN2, MADDWD2, ADD2, SHUFFLE2, WIDEN2, UNPACK2, FMA2 };

/* The AVX2 lane's question: on this core, which of the 256-bit
 * instructions the AVX2 prompt kernels (without VNNI) issue beside
 * VPMADDUBSW take its pipes. Q8_0's kernel spends a VPSIGNB on every
 * product's signs and a VPMADDWD on every pair sum; if both share
 * VPMADDUBSW's pipes, three instructions there are its floor a 32-byte
 * product. 8 VPMADDUBSW chains (AVX2's 16 registers hold no more beside
 * the companions' 4): a companion that shares their pipes shows as 0.67.
 * One case: 8 VPMADDUBSW a pass plus 4 companions of `kind`; returns
 * seconds for PASSES passes. Inlined into one function a case, so that
 * kind is a constant. */
TARGET_AVX2 static inline __attribute__((always_inline)) double run_avx2(enum companion_avx2 kind) {
    __m256i acc[8], c[4], w = _mm256_set1_epi8(3);
    const __m256 m = _mm256_set1_ps(0.999999f), e = _mm256_set1_ps(1e-7f);
    __m128i narrow = _mm_set1_epi8(2);
    KEEP(w); /* opaque: products of known constants were folded */
    KEEP(narrow);
#pragma GCC unroll 8
    for (int k = 0; k < 8; k++) acc[k] = _mm256_set1_epi8((char)(k + 1));
#pragma GCC unroll 4
    for (int k = 0; k < 4; k++) c[k] = _mm256_set1_epi8((char)k);
    const double t0 = thread_seconds();
    for (long pass = 0; pass < PASSES; pass++) {
#pragma GCC unroll 8
        for (int k = 0; k < 8; k++) {
            acc[k] = _mm256_maddubs_epi16(acc[k], w);
            KEEP(acc[k]);
        }
#pragma GCC unroll 4
        for (int k = 0; k < 4; k++) {
            if (kind == SIGN2) c[k] = _mm256_sign_epi8(c[k], w);
            if (kind == MADDWD2) c[k] = _mm256_madd_epi16(c[k], w);
            if (kind == ADD2) c[k] = _mm256_add_epi32(c[k], w);
            if (kind == SHUFFLE2) c[k] = _mm256_shuffle_epi8(c[k], w);
            if (kind == WIDEN2) c[k] = _mm256_cvtepi8_epi16(narrow);
            if (kind == UNPACK2) c[k] = _mm256_unpacklo_epi8(c[k], w);
            if (kind == FMA2) c[k] = _mm256_castps_si256(_mm256_fmadd_ps(_mm256_castsi256_ps(c[k]), m, e));
            if (kind != ALONE2) KEEP(c[k]);
        }
    }
    const double s = thread_seconds() - t0;
#pragma GCC unroll 8
    for (int k = 1; k < 8; k++) acc[0] = _mm256_add_epi32(acc[0], acc[k]);
#pragma GCC unroll 4
    for (int k = 0; k < 4; k++) acc[0] = _mm256_add_epi32(acc[0], c[k]);
    volatile int sink = _mm_cvtsi128_si32(_mm256_castsi256_si128(acc[0]));
    (void)sink;
    return s;
}

#define CASE_AVX2(NAME, KIND) \
    TARGET_AVX2 __attribute__((noinline)) static double NAME(void) { return run_avx2(KIND); }
CASE_AVX2(alone2, ALONE2)
CASE_AVX2(sign4, SIGN2)
CASE_AVX2(maddwd4, MADDWD2)
CASE_AVX2(add4, ADD2)
CASE_AVX2(shuffle4, SHUFFLE2)
CASE_AVX2(widen4, WIDEN2)
CASE_AVX2(unpack4, UNPACK2)
CASE_AVX2(fma4, FMA2)

typedef struct {
    double (*run)(void);
    const char *what;
} probe_case;

/* Each case's best of 30 runs, the cases alternated; ops_per_pass > 0
 * also prints GOP/s. */
#define MAX_CASES 16
static void report(const char *title, const probe_case *cases, int n, double ops_per_pass) {
    double best[MAX_CASES];
    if (n > MAX_CASES) n = MAX_CASES;
    for (int i = 0; i < n; i++) best[i] = 1e30;
    for (int rep = 0; rep < 30; rep++)
        for (int i = 0; i < n; i++) {
            const double s = cases[i].run();
            if (s < best[i]) best[i] = s;
        }
    printf("%s, one thread, best of 30\n", title);
    for (int i = 0; i < n; i++) {
        printf("  %-34s %6.3f ns a pass", cases[i].what, best[i] / PASSES * 1e9);
        if (ops_per_pass > 0) printf("  %5.0f GOP/s", ops_per_pass * PASSES / best[i] / 1e9);
        printf("  %.2f of the first line\n", best[0] / best[i]);
    }
}

int main(void) {
    __builtin_cpu_init();
    static const probe_case vnni[] = {
        {alone, "12 VPDPBUSD, register operands"},
        {fma3, "+ 3 FP32 FMA"},
        {fma6, "+ 6 FP32 FMA"},
        {cvt3, "+ 3 VCVTDQ2PS"},
        {cvt6, "+ 6 VCVTDQ2PS"},
        {iadd6, "+ 6 VPADDD"},
        {imul3, "+ 3 VPMULLD + VPADDD"},
        {imul6, "+ 6 VPMULLD + VPADDD"},
        {bcast_shared, "6 VPBROADCASTD m32, each to 2"},
        {bcast_embedded, "12 embedded {1to16} m32"},
    };
    static const probe_case avx2[] = {
        {alone2, "8 VPMADDUBSW, register operands"},
        {sign4, "+ 4 VPSIGNB"},
        {maddwd4, "+ 4 VPMADDWD"},
        {add4, "+ 4 VPADDD"},
        {shuffle4, "+ 4 VPSHUFB"},
        {widen4, "+ 4 VPMOVSXBW xmm -> ymm"},
        {unpack4, "+ 4 VPUNPCKLBW"},
        {fma4, "+ 4 FP32 FMA"},
    };
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vnni"))
        report("VPDPBUSD with companions (GOP/s: 12 x 64 x 2 a pass)", vnni, (int)(sizeof vnni / sizeof vnni[0]),
               12.0 * 64 * 2);
    else printf("mix-probe: this CPU has no AVX-512 VNNI\n");
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        report("VPMADDUBSW (256-bit) with companions", avx2, (int)(sizeof avx2 / sizeof avx2[0]), 0);
    else printf("mix-probe: this CPU has no AVX2 and FMA\n");
    return 0;
}
#else
int main(void) {
    printf("mix-probe: x86-64 only\n");
    return 0;
}
#endif
