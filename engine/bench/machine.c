/* The machine's own limits, measured with the engine's thread pool: read
 * bandwidth of a buffer far larger than the caches, f32 GEMM throughput
 * of seer_sgemm (OpenBLAS) on model-like shapes, and the vision encoder's
 * own product (F16 weights through seer_matmul) at its sizes. */
#include "seer/bench.h"

#include <stdlib.h>
#include <string.h>

#include "kernels/prefetch.h"
#include "seer/cpu.h"
#include "seer/matmul.h"
#include "seer/tensor.h"

/* Reads `lines` lines from p and returns their sum (read_lines16 etc.). */
typedef uint64_t (*read_lines_fn)(const char *p, int64_t lines, seer_prefetch_distances ahead);

typedef struct stream_task {
    const uint64_t *buf;
    size_t n_words;
    seer_prefetch_distances ahead;
    read_lines_fn read_lines; /* one load width's loop (read_lines_of) */
    uint64_t sums[64]; /* one per thread, so the reads cannot be optimised away */
} stream_task;

/* The probe's loop, built once per load width: a line in 64 / BYTES
 * loads into four accumulators (loads, not additions, are the limit),
 * `ask` adding the decode kernels' requests ahead into L1 and L2 for each
 * line (kernels/prefetch.c). A step takes four vectors (1, 2 or 4 lines);
 * the tail goes line by line. */
#define DEFINE_READ_LINES(NAME, BYTES, TARGET)                                                                       \
    typedef uint64_t NAME##_vec __attribute__((vector_size(BYTES)));                                                \
    TARGET static inline __attribute__((always_inline)) uint64_t NAME##_body(const char *p, int64_t lines,          \
                                                                             seer_prefetch_distances ahead,          \
                                                                             const bool ask) {                       \
        enum { STEP = 4 * BYTES / 64 };                                                                              \
        NAME##_vec a0 = {0}, a1 = a0, a2 = a0, a3 = a0;                                                              \
        int64_t i = 0;                                                                                               \
        for (; i + STEP <= lines; i += STEP, p += 64 * STEP) {                                                       \
            _Pragma("GCC unroll 4") for (int l = 0; l < STEP && ask; l++) {                                           \
                __builtin_prefetch(p + 64 * l + ahead.l1);                                                           \
                __builtin_prefetch(p + 64 * l + ahead.l2, 0, 2);                                                     \
            }                                                                                                        \
            const NAME##_vec *v = (const NAME##_vec *)p;                                                             \
            a0 += v[0], a1 += v[1], a2 += v[2], a3 += v[3];                                                          \
        }                                                                                                            \
        for (; i < lines; i++, p += 64)                                                                              \
            for (int k = 0; k < 64 / BYTES; k++) a0 += ((const NAME##_vec *)p)[k];                                   \
        const NAME##_vec a = a0 + a1 + a2 + a3;                                                                      \
        uint64_t sum = 0;                                                                                            \
        for (int k = 0; k < BYTES / 8; k++) sum += a[k];                                                             \
        return sum;                                                                                                  \
    }                                                                                                                \
    /* the requests' test outside the timed loop: a pass without them carries none */                             \
    TARGET static uint64_t NAME(const char *p, int64_t lines, seer_prefetch_distances ahead) {                     \
        return ahead.l1 || ahead.l2 ? NAME##_body(p, lines, ahead, true) : NAME##_body(p, lines, ahead, false);      \
    }

DEFINE_READ_LINES(read_lines16, 16, )
#if defined(__x86_64__)
DEFINE_READ_LINES(read_lines32, 32, __attribute__((target("avx2"))))
DEFINE_READ_LINES(read_lines64, 64, __attribute__((target("avx512f"))))
#endif

/* The widest loads the kernels' SIMD level runs (SEER_SIMD lowers it). */
static int widest_load(void) {
#if defined(__x86_64__)
    if (seer_simd_level() >= SEER_SIMD_AVX512) return 64;
    if (seer_simd_level() >= SEER_SIMD_AVX2) return 32;
#endif
    return 16;
}

/* The loop of `width`-byte loads (16, or up to widest_load()). */
static read_lines_fn read_lines_of(int width) {
#if defined(__x86_64__)
    if (width == 64) return read_lines64;
    if (width == 32) return read_lines32;
#endif
    (void)width;
    return read_lines16;
}

static void stream_read(void *ctx, int ith, int nth) {
    stream_task *t = ctx;
    int64_t begin, end;
    seer_pool_range((int64_t)(t->n_words / 8), ith, nth, &begin, &end);
    const uint64_t sum = t->read_lines((const char *)(t->buf + begin * 8), end - begin, t->ahead);
    if (ith < 64) t->sums[ith] = sum;
}

typedef struct fill_task {
    uint64_t *buf;
    size_t n_words;
} fill_task;

/* Each thread first-touches its own part (pages land near the thread that reads them). */
static void fill_words(void *ctx, int ith, int nth) {
    fill_task *t = ctx;
    int64_t begin, end;
    seer_pool_range((int64_t)t->n_words, ith, nth, &begin, &end);
    for (int64_t i = begin; i < end; i++) t->buf[i] = (uint64_t)i * 0x9e3779b97f4a7c15ull;
}

/* The best GB/s of `reps` passes over each of the prefetch distances
 * below, reading the pieces of *st (st->buf, st->n_words words a piece,
 * pieces `stride` words apart) one after another, each by every thread. */
static double read_passes(seer_pool *pool, stream_task *st, int pieces, size_t stride, int reps) {
    seer_prefetch_choose();
    /* The best of the kernels' distances and a few others: which one a
     * plain read loop likes can differ from what the kernels like (on a Zen
     * 4 core the kernels streamed 23 GB/s with 256 / 2048 bytes, the
     * earlier eight-scalar-loads loop 12.5 with those and 17.7 with 1 KiB /
     * 4 KiB), and the probe is meant to say what the machine can read.
     * {0, 0}: no requests at all (a Zen 5 VM's core read 29-30 GB/s so
     * against 26 with the kernels' 4 KiB / 4 KiB, 2026-12-05). */
    const seer_prefetch_distances tries[] = {seer_prefetch_at[seer_simd_level()], {1024, 4096}, {256, 2048}, {0, 0}};
    const uint64_t *first = st->buf;
    double best = 0;
    /* Every load width the CPU runs: which one reads most moved with the
     * buffer on a Zen 5 VM (one 1 GiB buffer, alternated, one core: 64-byte
     * loads 33.1 GB/s against 16-byte 31.1; another buffer 32-byte 37.3,
     * 16-byte 35.4, 64-byte 33.9; 2026-12-05). */
    for (int width = 16; width <= widest_load(); width *= 2) {
        st->read_lines = read_lines_of(width);
        for (size_t k = 0; k < sizeof tries / sizeof tries[0]; k++) {
            if (k > 0 && tries[k].l1 == tries[0].l1 && tries[k].l2 == tries[0].l2) continue;
            st->ahead = tries[k];
            for (int r = 0; r < (reps > 0 ? reps : 1); r++) {
                double t0 = seer_time_ms();
                for (int p = 0; p < pieces; p++) {
                    st->buf = first + (size_t)p * stride;
                    seer_pool_run(pool, stream_read, st);
                }
                double s = (seer_time_ms() - t0) / 1e3;
                double gb_s = s > 0 ? (double)(st->n_words * sizeof *st->buf) * pieces / s / 1e9 : 0;
                if (gb_s > best) best = gb_s;
            }
        }
    }
    st->buf = first;
    volatile uint64_t sink = 0;
    for (int i = 0; i < 64; i++) sink += st->sums[i];
    (void)sink;
    return best;
}

size_t seer_bench_beyond_caches(size_t floor) {
    size_t want = 2 * (size_t)seer_cpu_llc_bytes();
    if (want > (size_t)4 << 30) want = (size_t)4 << 30;
    return want > floor ? want : floor;
}

double seer_bench_mem_bandwidth(seer_pool *pool, size_t bytes, int reps) {
    size_t n_words = bytes / 64 * 8;
    if (n_words == 0) return 0;
    /* the best the machine does: 2 MiB pages, as the weights and the KV cache get */
    uint64_t *buf = seer_huge_alloc(n_words * sizeof *buf);
    if (!buf) return 0;
    seer_prefetch_choose();
    fill_task ft = {buf, n_words};
    seer_pool_run(pool, fill_words, &ft);
    stream_task st = {.buf = buf, .n_words = n_words, .ahead = seer_prefetch_at[seer_simd_level()],
                      .read_lines = read_lines16};
    seer_pool_run(pool, stream_read, &st); /* warm-up */
    double best = read_passes(pool, &st, 1, 0, reps);
    free(buf);
    return best;
}

double seer_bench_read_gb_s(seer_pool *pool, const void *buf, size_t bytes, size_t max_bytes, int reps) {
    if (!buf || bytes < 64 * 16 || max_bytes < 64 * 16) return 0;
    const uintptr_t start = ((uintptr_t)buf + 63) / 64 * 64;
    const size_t lines = (bytes - (size_t)(start - (uintptr_t)buf)) / 64;
    /* past max_bytes: 16 pieces spread evenly over the buffer */
    const int pieces = lines * 64 > max_bytes ? 16 : 1;
    const size_t piece_lines = pieces > 1 ? max_bytes / 64 / 16 : lines;
    stream_task st = {.buf = (const uint64_t *)start, .n_words = piece_lines * 8};
    return read_passes(pool, &st, pieces, pieces > 1 ? lines / 16 * 8 : 0, reps);
}

/* n values uniform in [-1, 1) */
static void fill_uniform(float *v, size_t n, uint32_t *s) {
    for (size_t i = 0; i < n; i++) v[i] = (float)((*s = *s * 1664525u + 1013904223u) >> 9) * 0x1p-23f - 1;
}

double seer_bench_sgemm_gflops(seer_pool *pool, int m, int n, int k, int reps) {
    if (m <= 0 || n <= 0 || k <= 0) return 0;
    float *a = malloc((size_t)m * k * sizeof *a), *b = malloc((size_t)n * k * sizeof *b);
    float *c = malloc((size_t)m * n * sizeof *c);
    if (!a || !b || !c) {
        free(a), free(b), free(c);
        return 0;
    }
    uint32_t s = 1;
    fill_uniform(a, (size_t)m * k, &s);
    fill_uniform(b, (size_t)n * k, &s);
    seer_sgemm(pool, m, n, k, 1.0f, a, k, b, k, true, 0.0f, c, n); /* warm-up */
    double best = 0;
    for (int r = 0; r < (reps > 0 ? reps : 1); r++) {
        double t0 = seer_time_ms();
        seer_sgemm(pool, m, n, k, 1.0f, a, k, b, k, true, 0.0f, c, n);
        double sec = (seer_time_ms() - t0) / 1e3;
        double gf = sec > 0 ? 2.0 * m * n * k / sec / 1e9 : 0;
        if (gf > best) best = gf;
    }
    free(a), free(b), free(c);
    return best;
}

double seer_bench_encoder_gemm_gflops(seer_pool *pool, int m, int n, int k, int reps) {
    if (m <= 0 || n <= 0 || k <= 0) return 0;
    const size_t row_bytes = seer_row_bytes(SEER_TYPE_F16, k);
    float *x = malloc((size_t)m * k * sizeof *x), *wf = malloc((size_t)k * sizeof *wf);
    float *y = malloc((size_t)m * n * sizeof *y);
    char *data = malloc(row_bytes * (size_t)n);
    if (!x || !wf || !y || !data) {
        free(x), free(wf), free(y), free(data);
        return 0;
    }
    uint32_t s = 1;
    fill_uniform(x, (size_t)m * k, &s);
    for (int o = 0; o < n; o++) {
        fill_uniform(wf, (size_t)k, &s);
        seer_quantize_row(SEER_TYPE_F16, wf, data + (size_t)o * row_bytes, k);
    }
    seer_weight w = {.type = SEER_TYPE_F16, .n_in = k, .n_out = n, .data = data, .row_bytes = row_bytes};
    seer_matmul(pool, &w, x, m, y, NULL); /* warm-up */
    double best = 0;
    for (int r = 0; r < (reps > 0 ? reps : 1); r++) {
        double t0 = seer_time_ms();
        seer_matmul(pool, &w, x, m, y, NULL);
        double sec = (seer_time_ms() - t0) / 1e3;
        double gf = sec > 0 ? 2.0 * m * n * k / sec / 1e9 : 0;
        if (gf > best) best = gf;
    }
    free(x), free(wf), free(y), free(data);
    return best;
}
