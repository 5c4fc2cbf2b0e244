/* The machine's arithmetic peaks, per thread times threads: register-only
 * loops of independent chains (no loads, enough accumulators to cover each
 * instruction's latency on two pipes), at the widest vectors the CPU runs.
 * seer bench relates prompt and encode speed to these, not to OpenBLAS's
 * or seer's own rate. x86-64 kernels are compiled per function for their
 * instruction set (target attributes) and only entered where CPUID says the
 * CPU has it and SEER_SIMD allows it; aarch64's live in peak_neon.c. */
#include "seer/bench.h"

#include <stdint.h>
#include <string.h>

#include "bench/peak_internal.h"
#include "seer/common.h"
#include "seer/cpu.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define CHAINS 12 /* latency 4 x 2 pipes plus slack */
/* Each chain's value stays in its register, and the loops around it are
 * unrolled: without them GCC 12 kept the accumulators of the three int8
 * loops (AVX-512 VNNI, AVX-VNNI, AVX2) on the stack and loaded or stored
 * them every pass, so those peaks were timed with memory traffic in them
 * (the AVX2 VPMADDUBSW loop: 250-300 GOP/s on a Zen 3 core, whose two
 * multipliers issue 400-410). "v": any vector register (AVX-512's 32). */
#define KEEP(v) __asm__("" : "+x"(v))
#define KEEP512(v) __asm__("" : "+v"(v))

__attribute__((target("avx512f"))) static double fma_avx512(int64_t iters) {
    __m512 acc[CHAINS];
    const __m512 m = _mm512_set1_ps(0.999999f), c = _mm512_set1_ps(1e-7f);
    _Pragma("GCC unroll 24") for (int k = 0; k < CHAINS; k++) acc[k] = _mm512_set1_ps((float)k);
    for (int64_t i = 0; i < iters; i++)
        _Pragma("GCC unroll 16") for (int k = 0; k < CHAINS; k++) { acc[k] = _mm512_fmadd_ps(acc[k], m, c); KEEP512(acc[k]); }
    __m512 s = acc[0];
    _Pragma("GCC unroll 24") for (int k = 1; k < CHAINS; k++) s = _mm512_add_ps(s, acc[k]);
    return (double)_mm512_reduce_add_ps(s);
}

__attribute__((target("avx2,fma"))) static double fma_avx2(int64_t iters) {
    __m256 acc[CHAINS];
    const __m256 m = _mm256_set1_ps(0.999999f), c = _mm256_set1_ps(1e-7f);
    _Pragma("GCC unroll 24") for (int k = 0; k < CHAINS; k++) acc[k] = _mm256_set1_ps((float)k);
    for (int64_t i = 0; i < iters; i++)
        _Pragma("GCC unroll 16") for (int k = 0; k < CHAINS; k++) { acc[k] = _mm256_fmadd_ps(acc[k], m, c); KEEP(acc[k]); }
    __m256 s = acc[0];
    _Pragma("GCC unroll 24") for (int k = 1; k < CHAINS; k++) s = _mm256_add_ps(s, acc[k]);
    float out[8];
    _mm256_storeu_ps(out, s);
    return (double)out[0];
}

__attribute__((target("avx512f,avx512vnni"))) static double dot_avx512vnni(int64_t iters) {
    __m512i acc[CHAINS];
    const __m512i a = _mm512_set1_epi8(3), b = _mm512_set1_epi8(-2);
    _Pragma("GCC unroll 24") for (int k = 0; k < CHAINS; k++) acc[k] = _mm512_set1_epi32(k);
    for (int64_t i = 0; i < iters; i++)
        _Pragma("GCC unroll 16") for (int k = 0; k < CHAINS; k++) { acc[k] = _mm512_dpbusd_epi32(acc[k], a, b); KEEP512(acc[k]); }
    __m512i s = acc[0];
    _Pragma("GCC unroll 24") for (int k = 1; k < CHAINS; k++) s = _mm512_add_epi32(s, acc[k]);
    return (double)_mm_cvtsi128_si32(_mm512_castsi512_si128(s)); /* one lane, no C arithmetic: the sums wrap */
}

__attribute__((target("avx2,avxvnni"))) static double dot_avxvnni(int64_t iters) {
    __m256i acc[CHAINS];
    const __m256i a = _mm256_set1_epi8(3), b = _mm256_set1_epi8(-2);
    _Pragma("GCC unroll 24") for (int k = 0; k < CHAINS; k++) acc[k] = _mm256_set1_epi32(k);
    for (int64_t i = 0; i < iters; i++)
        _Pragma("GCC unroll 16") for (int k = 0; k < CHAINS; k++) { acc[k] = _mm256_dpbusd_avx_epi32(acc[k], a, b); KEEP(acc[k]); }
    __m256i s = acc[0];
    _Pragma("GCC unroll 24") for (int k = 1; k < CHAINS; k++) s = _mm256_add_epi32(s, acc[k]);
    return (double)_mm256_extract_epi32(s, 0);
}

/* Without VNNI the byte multiplier is VPMADDUBSW (byte products summed in
 * pairs to 16 bits); a kernel adds its results in 16 bits and widens them
 * to 32 only now and then (seer's AVX2 prompt kernels: once per 4-8), so
 * its rate is the peak. Each chain feeds its result back in: with constant
 * operands the compiler had hoisted the products (then a widening
 * multiply-add) out of the loop, and the loop timed vector adds. */
__attribute__((target("avx2"))) static double dot_avx2(int64_t iters) {
    __m256i acc[CHAINS];
    const __m256i b = _mm256_set1_epi8(-2);
    _Pragma("GCC unroll 24") for (int k = 0; k < CHAINS; k++) acc[k] = _mm256_set1_epi32(k);
    for (int64_t i = 0; i < iters; i++)
        _Pragma("GCC unroll 16") for (int k = 0; k < CHAINS; k++) { acc[k] = _mm256_maddubs_epi16(acc[k], b); KEEP(acc[k]); }
    __m256i s = acc[0];
    _Pragma("GCC unroll 24") for (int k = 1; k < CHAINS; k++) s = _mm256_add_epi32(s, acc[k]);
    return (double)_mm256_extract_epi32(s, 0);
}

/* VDPBF16PS has a longer latency than an FMA (6 cycles on Zen 4 / Zen 5):
 * 12 chains left the loop latency-bound below the rate the BF16 GEMM's 24
 * accumulators reach (240-277 vs 280-296 GFLOP/s a thread on Zen 5). */
#define BF16_CHAINS 24

__attribute__((target("avx512f,avx512bf16"))) static double bf16_avx512(int64_t iters) {
    __m512 acc[BF16_CHAINS];
    const __m512bh a = (__m512bh)_mm512_set1_epi16(0x3f80), b = (__m512bh)_mm512_set1_epi16(0x3380); /* 1, ~6e-8 */
    _Pragma("GCC unroll 24") for (int k = 0; k < BF16_CHAINS; k++) acc[k] = _mm512_set1_ps((float)k);
    for (int64_t i = 0; i < iters; i++)
        _Pragma("GCC unroll 24") for (int k = 0; k < BF16_CHAINS; k++) { acc[k] = _mm512_dpbf16_ps(acc[k], a, b); KEEP512(acc[k]); }
    __m512 s = acc[0];
    _Pragma("GCC unroll 24") for (int k = 1; k < BF16_CHAINS; k++) s = _mm512_add_ps(s, acc[k]);
    return (double)_mm512_reduce_add_ps(s);
}

void seer_bench_peak_kernels(seer_peak_kernel out[SEER_PEAK_KINDS]) {
    memset(out, 0, sizeof(seer_peak_kernel) * SEER_PEAK_KINDS);
    __builtin_cpu_init();
    /* what the process may run (SEER_SIMD lowers it: valgrind cannot run AVX-512) */
    const int allowed = seer_simd_allowed();
    const bool avx512 = allowed >= SEER_SIMD_AVX512 && __builtin_cpu_supports("avx512f");
    const bool avx2 = allowed >= SEER_SIMD_AVX2 && __builtin_cpu_supports("avx2");
    /* per call of fn(1): chains x lanes x 2 operations (multiply and add) */
    if (avx512) out[SEER_PEAK_FP32] = (seer_peak_kernel){fma_avx512, CHAINS * 16 * 2, "avx512 fma"};
    else if (avx2 && __builtin_cpu_supports("fma"))
        out[SEER_PEAK_FP32] = (seer_peak_kernel){fma_avx2, CHAINS * 8 * 2, "avx2 fma"};
    if (avx512 && __builtin_cpu_supports("avx512vnni"))
        out[SEER_PEAK_INT8] = (seer_peak_kernel){dot_avx512vnni, CHAINS * 64 * 2, "avx512-vnni vpdpbusd"};
    else if (avx2 && seer_cpu_avx2_build() == SEER_AVX2_VNNI_VEX) /* not under SEER_AVX2_VNNI=0 (valgrind) */
        out[SEER_PEAK_INT8] = (seer_peak_kernel){dot_avxvnni, CHAINS * 32 * 2, "avx-vnni vpdpbusd"};
    else if (avx2)
        out[SEER_PEAK_INT8] = (seer_peak_kernel){dot_avx2, CHAINS * 32 * 2, "avx2 vpmaddubsw"};
    if (avx512 && __builtin_cpu_supports("avx512bf16"))
        out[SEER_PEAK_BF16] = (seer_peak_kernel){bf16_avx512, BF16_CHAINS * 32 * 2, "avx512-bf16 vdpbf16ps"};
    if (avx512) seer_bench_peak_kernels_amx(out);
}
#elif !defined(__aarch64__)
void seer_bench_peak_kernels(seer_peak_kernel out[SEER_PEAK_KINDS]) {
    memset(out, 0, sizeof(seer_peak_kernel) * SEER_PEAK_KINDS);
}
#endif

typedef struct peak_task {
    double (*fn)(int64_t);
    int64_t iters;
    double sink[64];
    double ms[64]; /* each thread's own time for its run */
} peak_task;

static void run_peak(void *ctx, int ith, int nth) {
    (void)nth;
    peak_task *t = ctx;
    const double t0 = seer_time_ms();
    const double r = t->fn(t->iters);
    if (ith < 64) t->sink[ith] = r, t->ms[ith] = seer_time_ms() - t0;
}

/* Operations per second of one kernel on every pool thread: the loop length
 * grows until a run takes 20 ms, then the best of five, each thread timed
 * on its own and their rates added: a worker woken late or preempted for a
 * moment then costs its own rate that run, not every thread's (timed as a
 * whole, a make compare line on a Zen 3 measured its two-thread peaks so
 * low that its prompt came out at 0.87 of the int8 peak and its encode at
 * 1.27 of the FP32 one, where the one-thread line said 0.42 and 0.70). */
static double measure(seer_pool *pool, const seer_peak_kernel *k) {
    if (!k->fn) return 0;
    peak_task t = {.fn = k->fn, .iters = 1 << 12};
    const int nth = seer_pool_size(pool) < 64 ? seer_pool_size(pool) : 64;
    double best = 0;
    for (; t.iters < ((int64_t)1 << 34); t.iters *= 4) {
        seer_pool_run(pool, run_peak, &t);
        if (t.ms[0] >= 20) break;
    }
    for (int r = 0; r < 5; r++) {
        seer_pool_run(pool, run_peak, &t);
        double ops = 0;
        for (int i = 0; i < nth; i++) ops += t.ms[i] > 0 ? (double)t.iters * k->ops_per_iter / (t.ms[i] / 1e3) : 0;
        if (ops > best) best = ops;
    }
    volatile double sink = 0;
    for (int i = 0; i < 64; i++) sink += t.sink[i];
    (void)sink;
    return best;
}

seer_bench_peaks seer_bench_peaks_measure(seer_pool *pool) {
    seer_peak_kernel k[SEER_PEAK_KINDS];
    seer_bench_peak_kernels(k);
    seer_bench_peaks p = {0};
    p.fp32_gflop_s = measure(pool, &k[SEER_PEAK_FP32]) / 1e9;
    p.int8_gop_s = measure(pool, &k[SEER_PEAK_INT8]) / 1e9;
    p.bf16_gflop_s = measure(pool, &k[SEER_PEAK_BF16]) / 1e9;
    p.amx_int8_gop_s = measure(pool, &k[SEER_PEAK_AMX_INT8]) / 1e9;
    p.amx_bf16_gflop_s = measure(pool, &k[SEER_PEAK_AMX_BF16]) / 1e9;
    p.fp32_kernel = k[SEER_PEAK_FP32].name ? k[SEER_PEAK_FP32].name : "none";
    p.int8_kernel = k[SEER_PEAK_INT8].name ? k[SEER_PEAK_INT8].name : "none";
    p.bf16_kernel = k[SEER_PEAK_BF16].name ? k[SEER_PEAK_BF16].name : "none";
    p.amx_int8_kernel = k[SEER_PEAK_AMX_INT8].name ? k[SEER_PEAK_AMX_INT8].name : "none";
    p.amx_bf16_kernel = k[SEER_PEAK_AMX_BF16].name ? k[SEER_PEAK_AMX_BF16].name : "none";
    return p;
}
