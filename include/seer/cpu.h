/* The SIMD level every kernel dispatch site asks for: the best this CPU has,
 * lowered by the environment variable SEER_SIMD=scalar|avx2|avx512 on x86-64,
 * scalar|neon on aarch64 (valgrind cannot run AVX-512 code; tests compare
 * the paths against each other). */
#ifndef SEER_CPU_H
#define SEER_CPU_H

#include <stdbool.h>

/* Ordered: a level implies every level below it. AVX2 means AVX2+FMA+F16C;
 * AVX-512 means F, BW, VL, DQ and VNNI (what the AVX-512 kernels are built with).
 * On aarch64 level 1 is NEON with the dot-product instructions (ARMv8.2
 * dotprod) and there is no level 2; x86 code is not built there. */
enum { SEER_SIMD_SCALAR = 0, SEER_SIMD_AVX2 = 1, SEER_SIMD_AVX512 = 2, SEER_SIMD_LEVELS = 3 };
enum { SEER_SIMD_NEON = 1 };

/* The highest level this CPU has (ignores SEER_SIMD). */
int seer_cpu_simd_best(void);
/* The highest level this process may use: the CPU's best lowered by SEER_SIMD.
 * Code built for a higher level must not even be entered (valgrind stops
 * at the first AVX-512 instruction, wherever it is). */
int seer_simd_allowed(void);
/* The level the kernels use now: seer_simd_allowed() lowered by the test
 * override. Cheap. */
int seer_simd_level(void);
/* Test override: lowers the level to `level` (never above what SEER_SIMD and
 * the CPU allow); a negative level returns to that choice. */
void seer_simd_set_level(int level);
/* Shorthand for the override: scalar on, back to the normal choice off. */
void seer_simd_force_scalar(bool on);
/* The AVX2 level's build: plain AVX2, or with VNNI's byte dot products.
 * VNNI where the CPU has AVX-VNNI (VEX: Intel since Alder Lake, AMD Zen 5);
 * SEER_AVX2_VNNI=0 keeps the plain AVX2 kernels (llama.cpp's AVX2-only
 * build's peer), SEER_AVX2_VNNI=1 asks for the VNNI ones on a CPU with
 * AVX-512 VNNI but no AVX-VNNI too, where they run EVEX-encoded (the
 * AVX-512 build's 256-bit kernels, the same source): how hosts without
 * AVX-VNNI test them. SEER_AVX2_VNNI=evex picks the EVEX ones on a CPU
 * that has both (Zen 5, Sapphire Rapids), so such a host tests both. */
enum { SEER_AVX2_PLAIN = 0, SEER_AVX2_VNNI_VEX = 1, SEER_AVX2_VNNI_EVEX = 2 };
int seer_cpu_avx2_build(void);

/* Whether this CPU splits 512-bit vector operations into two 256-bit
 * halves (AMD Zen 4, family 0x19), where kernels tuned for full-width
 * AVX-512 (Zen 5, Intel) are not the fastest choice. */
bool seer_cpu_avx512_halved(void);

/* An AMD CPU's family (0x19: Zen 3 and Zen 4, 0x1A: Zen 5), 0 on any
 * other CPU. */
int seer_cpu_amd_family(void);

/* L2 bytes per core, 1 MiB where the system does not say; asked once
 * (glibc answers from CPUID, a VM exit each time on some hosts), and any
 * thread may ask first. */
long seer_cpu_l2_bytes(void);

/* The last-level cache's bytes (L3, else L2) as the system reports it
 * (a VM: the host's), 0 where it does not say. */
long seer_cpu_llc_bytes(void);

/* "scalar", "avx2" (or "avx2-vnni"), "avx512-vnni" ("neon-dotprod" on
 * aarch64; "unknown" outside the range). */
const char *seer_simd_level_name(int level);

/* Parses a SEER_SIMD value ("scalar", "avx2", "avx512"; "scalar", "neon" on
 * aarch64; NULL or "" mean the CPU's best). Returns the level to use, or -1
 * for an unknown value. A level above `best` is lowered to `best`. */
int seer_simd_parse(const char *value, int best);
/* NULL when SEER_SIMD is unset or valid; otherwise a one-line message naming
 * the variable (the engine then uses the CPU's best level). */
const char *seer_simd_env_problem(void);

#endif
