/* Runtime dispatch of the dot products: one table per SIMD level (scalar for
 * anything a level does not cover), built once; each call takes the table of
 * seer_simd_level() (the CPU's best unless SEER_SIMD or a test lowers it). */
#include <pthread.h>
#include <string.h>

#include "kernels/gemm_q8_internal.h"
#include "kernels/interleave_internal.h"
#include "kernels/prefetch.h"
#include "kernels/vec_dot_internal.h"

typedef struct dispatch {
    seer_vec_dot_fn level[SEER_SIMD_LEVELS][SEER_TYPE_COUNT];
    seer_vec_dot4_fn level4[SEER_SIMD_LEVELS][SEER_TYPE_COUNT]; /* NULL: use the one-row kernel */
    seer_vec_dot16_fn level16[SEER_SIMD_LEVELS][SEER_TYPE_COUNT]; /* interleaved rows; NULL: none */
    bool has_level[SEER_SIMD_LEVELS];
} dispatch;

static dispatch tables;
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void build_tables(void);
static const dispatch *get_tables(void) {
    pthread_once(&tables_once, build_tables);
    return &tables;
}

/* Only the levels this process may use are filled: the fill functions are
 * built for their level too (the compiler vectorises them). Each level starts
 * from the one below, so gaps fall back. */
static void build_tables(void) {
    typedef void (*fill_fn)(seer_vec_dot_fn[SEER_TYPE_COUNT], seer_vec_dot4_fn[SEER_TYPE_COUNT],
                            seer_vec_dot16_fn[SEER_TYPE_COUNT]);
#if defined(__aarch64__)
    static const fill_fn fill[SEER_SIMD_LEVELS] = {NULL, seer_vec_dot_fill_neon, NULL};
#else
    static const fill_fn avx2_builds[] = {[SEER_AVX2_PLAIN] = seer_x86_fill_avx2,
                                          [SEER_AVX2_VNNI_VEX] = seer_x86_fill_avxvnni,
                                          [SEER_AVX2_VNNI_EVEX] = seer_x86_fill_avx512};
    const fill_fn fill[SEER_SIMD_LEVELS] = {NULL, avx2_builds[seer_cpu_avx2_build()], seer_vec_dot_fill_avx512};
#endif
    seer_prefetch_choose(); /* before any kernel is handed out */
    for (int level = 0; level <= seer_simd_allowed(); level++) tables.has_level[level] = true;
    seer_vec_dot_fill_scalar(tables.level[SEER_SIMD_SCALAR], tables.level16[SEER_SIMD_SCALAR]);
    for (int level = SEER_SIMD_SCALAR + 1; level < SEER_SIMD_LEVELS; level++) {
        memcpy(tables.level[level], tables.level[level - 1], sizeof tables.level[0]);
        memcpy(tables.level16[level], tables.level16[level - 1], sizeof tables.level16[0]);
        if (tables.has_level[level]) fill[level](tables.level[level], tables.level4[level], tables.level16[level]);
    }
}

/* Whether (level, type) names a table entry this process may use. */
static bool in_tables(const dispatch *d, int level, int type) {
    return level >= 0 && level < SEER_SIMD_LEVELS && d->has_level[level] && type >= 0 && type < SEER_TYPE_COUNT;
}

seer_vec_dot_fn seer_vec_dot_kernel(int level, int type) {
    const dispatch *d = get_tables();
    if (!in_tables(d, level, type)) return NULL;
    return d->level[level][type];
}

float seer_vec_dot(int type, int64_t n, const void *w_row, const void *act) {
    const dispatch *d = get_tables();
    if (type < 0 || type >= SEER_TYPE_COUNT) return 0;
    seer_vec_dot_fn f = d->level[seer_simd_level()][type];
    return f ? f(n, w_row, act) : 0;
}

static float dot_none(int64_t n, const void *w, const void *a) { (void)n; (void)w; (void)a; return 0; }

seer_vec_dot_fn seer_vec_dot_get(int type) {
    const dispatch *d = get_tables();
    if (type < 0 || type >= SEER_TYPE_COUNT) return dot_none;
    seer_vec_dot_fn f = d->level[seer_simd_level()][type];
    return f ? f : dot_none;
}

seer_vec_dot4_fn seer_vec_dot4_get(int type) {
    const dispatch *d = get_tables();
    if (type < 0 || type >= SEER_TYPE_COUNT) return NULL;
    return d->level4[seer_simd_level()][type];
}

seer_vec_dot4_fn seer_vec_dot4_kernel(int level, int type) {
    const dispatch *d = get_tables();
    if (!in_tables(d, level, type)) return NULL;
    return d->level4[level][type];
}

seer_vec_dot16_fn seer_vec_dot16_kernel(int level, int type) {
    const dispatch *d = get_tables();
    if (!in_tables(d, level, type)) return NULL;
    return d->level16[level][type];
}

seer_vec_dot16_fn seer_vec_dot16_get(int type) { return seer_vec_dot16_kernel(seer_simd_level(), type); }

seer_vec_dot16_rows_fn seer_vec_dot16_rows_kernel(int level, int type) {
    const dispatch *d = get_tables();
    if (!in_tables(d, level, type)) return NULL;
    seer_vec_dot16_rows_fn f = NULL;
#if defined(__aarch64__)
    if (level >= SEER_SIMD_NEON) f = seer_vec_dot16_rows_neon(type);
#else
    if (level >= SEER_SIMD_AVX512 && d->has_level[SEER_SIMD_AVX512]) f = seer_vec_dot16_rows_avx512(type);
    static seer_vec_dot16_rows_fn (*const avx2_builds[])(int) = {[SEER_AVX2_PLAIN] = seer_x86_dot16_rows_avx2,
                                                                [SEER_AVX2_VNNI_VEX] = seer_x86_dot16_rows_avxvnni,
                                                                [SEER_AVX2_VNNI_EVEX] = seer_x86_dot16_rows_avx512};
    if (!f && level >= SEER_SIMD_AVX2 && d->has_level[SEER_SIMD_AVX2]) f = avx2_builds[seer_cpu_avx2_build()](type);
#endif
    return f;
}

seer_vec_dot16_rows_fn seer_vec_dot16_rows_get(int type) { return seer_vec_dot16_rows_kernel(seer_simd_level(), type); }

int seer_vec_dot16_rows_most(int level, int type) {
#if defined(__x86_64__)
    /* 6 only where the level's choice (above) is the 512-bit kernel */
    const seer_vec_dot16_rows_fn f = seer_vec_dot16_rows_kernel(level, type);
    if (f && f == seer_vec_dot16_rows_avx512(type)) return seer_vec_dot16_rows_avx512_most(type);
#endif
    (void)level, (void)type;
    return 4;
}

void seer_q8_0_tail_fill(void *row, int64_t n) {
    const block_q8_0 *blocks = row;
    for (int64_t b = 0; b < n / 32; b++) {
        uint64_t words[4];
        memcpy(words, blocks[b].qs, sizeof words);
        const int16_t sum = (int16_t)seer_signed_bytes_sum32(words); /* |Σ| <= 32 · 128 */
        memcpy((char *)row + seer_q8_0_row_sum_at(n, b), &sum, sizeof sum);
        const float d = seer_fp16_to_f32(blocks[b].d);
        memcpy((char *)row + seer_q8_0_row_scale_at(n, b), &d, sizeof d);
    }
}

const char *seer_simd_name(void) { return seer_simd_level_name(seer_simd_level()); }

seer_q8_panel_fn seer_q8_panel_kernel(void) {
    const dispatch *d = get_tables();
    return d->has_level[SEER_SIMD_AVX512] && seer_q8_panel_avx512_built() ? seer_q8_panel_avx512 : NULL;
}

seer_q8_panel_fn seer_q8_panel_get(void) {
    return seer_simd_level() >= SEER_SIMD_AVX512 ? seer_q8_panel_kernel() : NULL;
}
