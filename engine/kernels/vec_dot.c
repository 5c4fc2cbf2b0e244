/* Runtime dispatch of the dot products: the best SIMD level this CPU has,
 * scalar for anything a level does not cover. The tables are built once and
 * never change afterwards; only the test switch `force_scalar` is mutable. */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "kernels/gemm_q8_internal.h"
#include "kernels/vec_dot_internal.h"

typedef struct dispatch {
    seer_vec_dot_fn best[SEER_TYPE_COUNT];
    seer_vec_dot_fn scalar[SEER_TYPE_COUNT];
    seer_vec_dot_fn level[SEER_SIMD_LEVELS][SEER_TYPE_COUNT];
    seer_vec_dot4_fn level4[SEER_SIMD_LEVELS][SEER_TYPE_COUNT]; /* NULL: use the one-row kernel */
    seer_vec_dot4_fn best4[SEER_TYPE_COUNT];
    bool has_level[SEER_SIMD_LEVELS];
    const char *name;
} dispatch;

static const char *const level_names[SEER_SIMD_LEVELS] = {"scalar", "avx2", "avx512-vnni"};

static dispatch tables;
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;
static atomic_bool force_scalar;

static void build_tables(void);
static const dispatch *get_tables(void) {
    pthread_once(&tables_once, build_tables);
    return &tables;
}

static void build_tables(void) {
    seer_vec_dot_fill_scalar(tables.scalar);
    int best = SEER_SIMD_SCALAR;
    tables.has_level[SEER_SIMD_SCALAR] = true;
#if defined(__x86_64__)
    __builtin_cpu_init();
    /* every AVX2 CPU has F16C (and clang cannot test for it by name) */
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        tables.has_level[SEER_SIMD_AVX2] = true;
        best = SEER_SIMD_AVX2;
        if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
            __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") &&
            __builtin_cpu_supports("avx512vnni")) {
            tables.has_level[SEER_SIMD_AVX512] = true;
            best = SEER_SIMD_AVX512;
        }
    }
#endif
    /* Each level starts from the one below, so gaps fall back. */
    seer_vec_dot_fill_scalar(tables.level[SEER_SIMD_SCALAR]);
    memcpy(tables.level[SEER_SIMD_AVX2], tables.level[SEER_SIMD_SCALAR], sizeof tables.level[0]);
    seer_vec_dot_fill_avx2(tables.level[SEER_SIMD_AVX2], tables.level4[SEER_SIMD_AVX2]);
    memcpy(tables.level[SEER_SIMD_AVX512], tables.level[SEER_SIMD_AVX2], sizeof tables.level[0]);
    seer_vec_dot_fill_avx512(tables.level[SEER_SIMD_AVX512], tables.level4[SEER_SIMD_AVX512]);
    memcpy(tables.best, tables.level[best], sizeof tables.best);
    memcpy(tables.best4, tables.level4[best], sizeof tables.best4);
    tables.name = level_names[best];
}

seer_vec_dot_fn seer_vec_dot_kernel(int level, int type) {
    const dispatch *d = get_tables();
    if (level < 0 || level >= SEER_SIMD_LEVELS || !d->has_level[level] || type < 0 || type >= SEER_TYPE_COUNT) return NULL;
    return d->level[level][type];
}

const char *seer_simd_level_name(int level) {
    return level >= 0 && level < SEER_SIMD_LEVELS ? level_names[level] : "unknown";
}


float seer_vec_dot(int type, int64_t n, const void *w_row, const void *act) {
    const dispatch *d = get_tables();
    if (type < 0 || type >= SEER_TYPE_COUNT) return 0;
    seer_vec_dot_fn f = atomic_load_explicit(&force_scalar, memory_order_relaxed) ? d->scalar[type] : d->best[type];
    return f ? f(n, w_row, act) : 0;
}

static float dot_none(int64_t n, const void *w, const void *a) { (void)n; (void)w; (void)a; return 0; }

seer_vec_dot_fn seer_vec_dot_get(int type) {
    const dispatch *d = get_tables();
    if (type < 0 || type >= SEER_TYPE_COUNT) return dot_none;
    seer_vec_dot_fn f = atomic_load_explicit(&force_scalar, memory_order_relaxed) ? d->scalar[type] : d->best[type];
    return f ? f : dot_none;
}

seer_vec_dot4_fn seer_vec_dot4_get(int type) {
    const dispatch *d = get_tables();
    if (type < 0 || type >= SEER_TYPE_COUNT || atomic_load_explicit(&force_scalar, memory_order_relaxed)) return NULL;
    return d->best4[type];
}

seer_vec_dot4_fn seer_vec_dot4_kernel(int level, int type) {
    const dispatch *d = get_tables();
    if (level < 0 || level >= SEER_SIMD_LEVELS || !d->has_level[level] || type < 0 || type >= SEER_TYPE_COUNT) return NULL;
    return d->level4[level][type];
}


const char *seer_simd_name(void) {
    return atomic_load(&force_scalar) ? "scalar" : get_tables()->name;
}

void seer_simd_force_scalar(bool on) { atomic_store(&force_scalar, on); }

seer_q8_panel_fn seer_q8_panel_kernel(void) {
    const dispatch *d = get_tables();
    return d->has_level[SEER_SIMD_AVX512] && seer_q8_panel_avx512_built() ? seer_q8_panel_avx512 : NULL;
}

seer_q8_panel_fn seer_q8_panel_get(void) {
    return atomic_load_explicit(&force_scalar, memory_order_relaxed) ? NULL : seer_q8_panel_kernel();
}
