/* The machine's own limits, measured with the engine's thread pool: read
 * bandwidth of a buffer far larger than the caches, and f32 GEMM throughput
 * of seer_sgemm (OpenBLAS) on model-like shapes. */
#include "seer/bench.h"

#include <stdlib.h>
#include <string.h>

#include "seer/matmul.h"

typedef struct stream_task {
    const uint64_t *buf;
    size_t n_words;
    uint64_t sums[64]; /* one per thread, so the reads cannot be optimised away */
} stream_task;

static void stream_read(void *ctx, int ith, int nth) {
    stream_task *t = ctx;
    int64_t begin, end;
    seer_pool_range((int64_t)(t->n_words / 8), ith, nth, &begin, &end);
    const uint64_t *p = t->buf + begin * 8;
    /* eight independent accumulators: loads, not additions, are the limit;
     * each line asked for 1 KiB ahead into L1 and 4 KiB ahead into L2, as
     * the decode kernels do (on some CPUs a core streams faster with it:
     * 18 against 15 GB/s measured on a Xeon with one 4 KiB prefetch, and
     * the pair reads 1-2% more than that one) */
    uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0;
    for (int64_t i = begin; i < end; i++, p += 8) {
        __builtin_prefetch(p + 128);
        __builtin_prefetch(p + 512, 0, 2);
        a0 += p[0]; a1 += p[1]; a2 += p[2]; a3 += p[3];
        a4 += p[4]; a5 += p[5]; a6 += p[6]; a7 += p[7];
    }
    if (ith < 64) t->sums[ith] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
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

double seer_bench_mem_bandwidth(seer_pool *pool, size_t bytes, int reps) {
    size_t n_words = bytes / 64 * 8;
    if (n_words == 0) return 0;
    /* the best the machine does: 2 MiB pages, as the weights and the KV cache get */
    uint64_t *buf = seer_huge_alloc(n_words * sizeof *buf);
    if (!buf) return 0;
    fill_task ft = {buf, n_words};
    seer_pool_run(pool, fill_words, &ft);
    stream_task st = {.buf = buf, .n_words = n_words};
    seer_pool_run(pool, stream_read, &st); /* warm-up */
    double best = 0;
    for (int r = 0; r < (reps > 0 ? reps : 1); r++) {
        double t0 = seer_time_ms();
        seer_pool_run(pool, stream_read, &st);
        double s = (seer_time_ms() - t0) / 1e3;
        double gb_s = s > 0 ? (double)(n_words * sizeof *buf) / s / 1e9 : 0;
        if (gb_s > best) best = gb_s;
    }
    volatile uint64_t sink = 0;
    for (int i = 0; i < 64; i++) sink += st.sums[i];
    (void)sink;
    free(buf);
    return best;
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
    for (size_t i = 0; i < (size_t)m * k; i++) a[i] = (float)((s = s * 1664525u + 1013904223u) >> 9) * 0x1p-23f - 1;
    for (size_t i = 0; i < (size_t)n * k; i++) b[i] = (float)((s = s * 1664525u + 1013904223u) >> 9) * 0x1p-23f - 1;
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
