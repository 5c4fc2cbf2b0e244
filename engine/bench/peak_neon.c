/* aarch64's peak kernels for seer bench (peak.c): FP32 FMA on 128-bit NEON
 * and, with the ARMv8.2 dot-product instructions, SDOT; no BF16 kernel yet. */
#include <stdint.h>
#include <string.h>

#include "bench/peak_internal.h"
#include "seer/cpu.h"

#if defined(__aarch64__)
#include <arm_neon.h>

#define CHAINS 12
/* Each chain's value stays in its register (peak.c's KEEP: without it GCC
 * stored a dozen accumulators to the stack every pass). */
#define KEEP(v) __asm__("" : "+w"(v))

static double fma_neon(int64_t iters) {
    float32x4_t acc[CHAINS];
    const float32x4_t m = vdupq_n_f32(0.999999f), c = vdupq_n_f32(1e-7f);
    _Pragma("GCC unroll 16") for (int k = 0; k < CHAINS; k++) acc[k] = vdupq_n_f32((float)k);
    for (int64_t i = 0; i < iters; i++)
        _Pragma("GCC unroll 16") for (int k = 0; k < CHAINS; k++) { acc[k] = vfmaq_f32(acc[k], c, m); KEEP(acc[k]); } /* the accumulator as the addend: no copy */
    float32x4_t s = acc[0];
    _Pragma("GCC unroll 16") for (int k = 1; k < CHAINS; k++) s = vaddq_f32(s, acc[k]);
    return (double)vaddvq_f32(s);
}

#if defined(__ARM_FEATURE_DOTPROD)
static double dot_neon(int64_t iters) {
    int32x4_t acc[CHAINS];
    const int8x16_t a = vdupq_n_s8(3), b = vdupq_n_s8(-2);
    _Pragma("GCC unroll 16") for (int k = 0; k < CHAINS; k++) acc[k] = vdupq_n_s32(k);
    for (int64_t i = 0; i < iters; i++)
        _Pragma("GCC unroll 16") for (int k = 0; k < CHAINS; k++) { acc[k] = vdotq_s32(acc[k], a, b); KEEP(acc[k]); }
    int32x4_t s = acc[0];
    _Pragma("GCC unroll 16") for (int k = 1; k < CHAINS; k++) s = vaddq_s32(s, acc[k]);
    return (double)vaddvq_s32(s);
}
#endif

void seer_bench_peak_kernels(seer_peak_kernel out[SEER_PEAK_KINDS]) {
    memset(out, 0, sizeof(seer_peak_kernel) * SEER_PEAK_KINDS);
    out[SEER_PEAK_FP32] = (seer_peak_kernel){fma_neon, CHAINS * 4 * 2, "neon fma"};
#if defined(__ARM_FEATURE_DOTPROD)
    if (seer_simd_allowed() >= SEER_SIMD_NEON)
        out[SEER_PEAK_INT8] = (seer_peak_kernel){dot_neon, CHAINS * 16 * 2, "neon sdot"};
#endif
}
#endif
