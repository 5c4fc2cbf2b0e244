/* One place decides which SIMD kernels run: the CPU's best level, lowered by
 * SEER_SIMD, lowered further by the tests' override. Every dispatch site asks
 * seer_simd_level(), so one switch moves the whole engine (valgrind, which
 * cannot decode AVX-512, runs seer with SEER_SIMD=avx2). */
#include "seer/cpu.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#endif
#if defined(__x86_64__)
#include <cpuid.h>
#endif

/* The levels' names, and the SEER_SIMD values that choose them: x86-64's
 * two, or aarch64's one (NEON with dotprod); NULL past the last. */
#if defined(__aarch64__)
static const char *const level_names[SEER_SIMD_LEVELS] = {"scalar", "neon-dotprod", NULL};
static const char *const accepted[SEER_SIMD_LEVELS] = {"scalar", "neon", NULL};
#define ACCEPTED_LIST "scalar, neon"
#else
static const char *const level_names[SEER_SIMD_LEVELS] = {"scalar", "avx2", "avx512-vnni"};
static const char *const accepted[SEER_SIMD_LEVELS] = {"scalar", "avx2", "avx512"};
#define ACCEPTED_LIST "scalar, avx2, avx512"
#endif

static int cpu_best;        /* set once by init */
static int avx2_build;      /* SEER_AVX2_* */
static int env_level;       /* SEER_SIMD applied to cpu_best */
static int amd_family;      /* set once by init */
static char env_problem[160];
static atomic_int active = -1; /* what seer_simd_level returns; -1 until init */
static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static int detect_best(void) {
#if defined(__x86_64__)
    __builtin_cpu_init();
    /* every AVX2 CPU has F16C (and clang cannot test for it by name) */
    if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) return SEER_SIMD_SCALAR;
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512vnni"))
        return SEER_SIMD_AVX512;
    return SEER_SIMD_AVX2;
#elif defined(__aarch64__) && defined(__linux__) && defined(HWCAP_ASIMDDP)
    return getauxval(AT_HWCAP) & HWCAP_ASIMDDP ? SEER_SIMD_NEON : SEER_SIMD_SCALAR;
#else
    return SEER_SIMD_SCALAR;
#endif
}

#if defined(__x86_64__)
/* AVX-VNNI: CPUID leaf 7 sub-leaf 1, EAX bit 4 (its VEX encodings need
 * nothing from the OS beyond AVX's registers, which AVX2 implies). */
static bool has_avx_vnni(void) {
    unsigned a, b, c, d;
    return __get_cpuid_count(7, 1, &a, &b, &c, &d) && (a & (1u << 4));
}

static int detect_avx2_build(int best, const char *env) {
    if (best < SEER_SIMD_AVX2 || (env && strcmp(env, "0") == 0)) return SEER_AVX2_PLAIN;
    /* "evex" runs the AVX-512 build's 256-bit kernels even where the CPU has
     * AVX-VNNI, so a host with both tests both encodings */
    if (env && strcmp(env, "evex") == 0 && best >= SEER_SIMD_AVX512) return SEER_AVX2_VNNI_EVEX;
    if (has_avx_vnni()) return SEER_AVX2_VNNI_VEX;
    return env && strcmp(env, "1") == 0 && best >= SEER_SIMD_AVX512 ? SEER_AVX2_VNNI_EVEX : SEER_AVX2_PLAIN;
}
#endif

int seer_simd_parse(const char *value, int best) {
    if (!value || !*value) return best;
    for (int level = 0; level < SEER_SIMD_LEVELS && accepted[level]; level++)
        if (strcmp(value, accepted[level]) == 0) return level < best ? level : best;
    return -1;
}

static int detect_amd_family(void) {
#if defined(__x86_64__)
    unsigned a, b, c, d;
    if (!__get_cpuid(0, &a, &b, &c, &d) || b != 0x68747541u) return 0; /* "Auth"enticAMD */
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    return (int)(((a >> 8) & 0xF) + ((a >> 20) & 0xFF));
#else
    return 0;
#endif
}

static void init(void) {
    cpu_best = detect_best();
    amd_family = detect_amd_family();
#if defined(__x86_64__)
    avx2_build = detect_avx2_build(cpu_best, getenv("SEER_AVX2_VNNI"));
#endif
    const char *value = getenv("SEER_SIMD");
    env_level = seer_simd_parse(value, cpu_best);
    if (env_level < 0) {
        /* Keep the value short and printable: it ends up on a terminal. */
        char shown[24];
        size_t n = 0;
        for (const char *p = value; *p && n + 1 < sizeof shown; p++)
            shown[n++] = (*p >= 0x20 && *p < 0x7f) ? *p : '?';
        shown[n] = 0;
        snprintf(env_problem, sizeof env_problem, "SEER_SIMD=%s%s is not one of " ACCEPTED_LIST, shown,
                 value[n] ? "..." : "");
        env_level = cpu_best;
    }
    atomic_store(&active, env_level);
}

/* Asked for on every product's path: CPUID traps to the hypervisor in a
 * VM (two per call were 5% of a one-thread decode on a Zen 5 VM), so it
 * is asked once. */
bool seer_cpu_avx512_halved(void) {
    pthread_once(&init_once, init);
    return amd_family == 0x19;
}

int seer_cpu_amd_family(void) {
    pthread_once(&init_once, init);
    return amd_family;
}

long seer_cpu_l2_bytes(void) {
    static _Atomic long bytes;
    long b = atomic_load_explicit(&bytes, memory_order_relaxed);
    if (!b) {
        const long got = sysconf(_SC_LEVEL2_CACHE_SIZE);
        b = got >= (128 << 10) ? got : 1 << 20;
        atomic_store_explicit(&bytes, b, memory_order_relaxed);
    }
    return b;
}

long seer_cpu_llc_bytes(void) {
    const long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
    if (l3 > 0) return l3;
    const long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
    return l2 > 0 ? l2 : 0;
}

int seer_cpu_simd_best(void) {
    pthread_once(&init_once, init);
    return cpu_best;
}

int seer_simd_allowed(void) {
    pthread_once(&init_once, init);
    return env_level;
}

int seer_simd_level(void) {
    int level = atomic_load_explicit(&active, memory_order_relaxed);
    if (level >= 0) return level;
    pthread_once(&init_once, init);
    return atomic_load(&active);
}

void seer_simd_set_level(int level) {
    pthread_once(&init_once, init);
    atomic_store(&active, level < 0 || level > env_level ? env_level : level);
}

void seer_simd_force_scalar(bool on) { seer_simd_set_level(on ? SEER_SIMD_SCALAR : -1); }

int seer_cpu_avx2_build(void) {
    pthread_once(&init_once, init);
    return avx2_build;
}

const char *seer_simd_level_name(int level) {
#if defined(__x86_64__)
    if (level == SEER_SIMD_AVX2 && seer_cpu_avx2_build() != SEER_AVX2_PLAIN) return "avx2-vnni";
#endif
    return level >= 0 && level < SEER_SIMD_LEVELS && level_names[level] ? level_names[level] : "unknown";
}

const char *seer_simd_env_problem(void) {
    pthread_once(&init_once, init);
    return env_problem[0] ? env_problem : NULL;
}
