/* Kernel benchmark: memory bandwidth, decode matmul (1 row, memory-bound)
 * and prefill matmul (512 rows, compute-bound) against plain sgemm, with 1
 * and 2 threads, and the dot/gemm crossover. Build and run: tools/kernel-bench/run.sh
 * Options: -n N_IN (4096; a multiple of 32: types whose blocks do not divide it are left out)
 * -m N_OUT (4096) -r PREFILL_ROWS (512) -q (quick)
 * -d (decode only) -P (prefill only) -R N (prefill: best of N calls, 3) -w (wall time also for 1 thread; default is its CPU time)
 * -t TYPE (that weight type alone, by its name: f16, q4_K, ...).
 * Weights are interleaved in groups of 16 rows where the type has them, as
 * a loaded model's are, so both lines run the kernels a model runs. */
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "kernels/matmul_internal.h"
#include "seer/bench.h"
#include "seer/matmul.h"
#include "seer/tensor.h"

/* With one thread the benchmark times the caller's CPU time, so numbers
 * stay meaningful on a machine shared with other work; with more threads
 * it can only use wall time. */
static bool single_thread_cpu_time = true;
static double clock_ms(const seer_pool *pool) {
    if (single_thread_cpu_time && seer_pool_size(pool) == 1) {
        struct timespec ts;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
    }
    return seer_time_ms();
}

static float frand(unsigned *s) {
    *s = *s * 1664525u + 1013904223u;
    return (float)(*s >> 8) / 16777216.0f * 2 - 1;
}

/* A weight of `type`: 64 distinct quantized rows repeated (values do not
 * matter for speed, the memory traffic does). */
static void *make_weight(int type, int64_t n_in, int64_t n_out, seer_weight *w) {
    size_t rb = seer_row_bytes(type, n_in);
    uint8_t *data = aligned_alloc(64, (rb * (size_t)n_out + 63) / 64 * 64);
    float *row = malloc(sizeof(float) * (size_t)n_in);
    unsigned s = 1;
    for (int64_t o = 0; o < n_out; o++) {
        if (o < 64) {
            for (int64_t k = 0; k < n_in; k++) row[k] = frand(&s);
            if (!seer_quantize_row(type, row, data + (size_t)o * rb, n_in)) /* a type seer does not write (IQ4_XS): */
                for (size_t b = 0; b < rb; b++) /* bytes 0x10-0x3B, so that any F16 scale among them is normal and below 1 */
                    data[(size_t)o * rb + b] = (uint8_t)(0x10 + (unsigned)((frand(&s) + 1.0f) * 21.99f));
        } else {
            memcpy(data + (size_t)o * rb, data + (size_t)(o % 64) * rb, rb);
        }
    }
    free(row);
    *w = (seer_weight){.type = type, .n_in = n_in, .n_out = n_out, .data = data, .row_bytes = rb};
    return data;
}

/* Groups of 16 rows where the type has them, as a loaded model's weights
 * get (the decode kernels and the int8 GEMM's in-place kernels read them). */
static void interleave_as_loaded(seer_weight *w, seer_pool *pool) {
    size_t ib = seer_weight_interleaved_bytes(w);
    if (ib) seer_weight_interleave(w, seer_huge_alloc(ib), pool);
}

/* The read bandwidth seer bench reports (2 MiB pages, as a model's
 * weights get): the decode lines' yardstick. */
static double bandwidth(seer_pool *pool) { return seer_bench_mem_bandwidth(pool, seer_bench_beyond_caches((size_t)512 << 20), 3); }

static double time_matmul(seer_pool *pool, const seer_weight *w, const float *x, int64_t rows, float *y, int path, int reps) {
    seer_matmul_path(pool, w, x, rows, y, NULL, path); /* warm-up: scratch, page faults */
    double best = 1e30;
    for (int rep = 0; rep < reps; rep++) {
        double t0 = clock_ms(pool);
        seer_matmul_path(pool, w, x, rows, y, NULL, path);
        double t = clock_ms(pool) - t0;
        if (t < best) best = t;
    }
    return best;
}

int main(int argc, char **argv) {
    int64_t n_in = 4096, n_out = 4096, prefill_rows = 512;
    bool quick = false, decode_only = false, prefill_only = false;
    int prefill_reps = 3;
    const char *only_type = NULL;
    int opt;
    while ((opt = getopt(argc, argv, "n:m:r:R:qdPwt:")) != -1) {
        if (opt == 'n') n_in = atoll(optarg);
        else if (opt == 'm') n_out = atoll(optarg);
        else if (opt == 'r') prefill_rows = atoll(optarg);
        else if (opt == 'q') quick = true;
        else if (opt == 'd') decode_only = true;
        else if (opt == 'P') prefill_only = true;
        else if (opt == 'R') prefill_reps = atoi(optarg) > 0 ? atoi(optarg) : 3;
        else if (opt == 'w') single_thread_cpu_time = false;
        else if (opt == 't') only_type = optarg;
        else { fprintf(stderr, "usage: %s [-n n_in] [-m n_out] [-r prefill_rows] [-q quick] [-d decode only] [-P prefill only] [-R prefill reps] [-w wall time for 1 thread] [-t weight type]\n", argv[0]); return 2; }
    }
    if (n_in < 32 || n_in % 32 || n_out < 16 || n_out % 16 || prefill_rows < 1) {
        fprintf(stderr, "kernel-bench: -n must be a multiple of 32 (a block; the K-quants' 256), -m of 16 (a group), -r at least 1\n");
        return 2;
    }
    int types[] = {SEER_TYPE_Q8_0, SEER_TYPE_Q4_K, SEER_TYPE_Q6_K, SEER_TYPE_Q5_K, SEER_TYPE_IQ4_XS, SEER_TYPE_Q5_0, SEER_TYPE_Q4_0,
                   SEER_TYPE_Q3_K, SEER_TYPE_Q2_K, SEER_TYPE_IQ4_NL, SEER_TYPE_Q5_1, SEER_TYPE_Q4_1, SEER_TYPE_F16,
                   SEER_TYPE_F32};
    int n_types = quick ? 4 : (int)(sizeof types / sizeof types[0]); /* quick: the types of Q8_0, Q4_K_M and Q5_K_M files */
    if (only_type) {
        int found = 0;
        for (int t = 0; t < (int)(sizeof types / sizeof types[0]) && !found; t++)
            if (!strcasecmp(seer_type_name(types[t]), only_type)) types[found++] = types[t];
        if (!found) {
            fprintf(stderr, "kernel-bench: -t %s: not a weight type it times (f16, f32, q8_0, q4_K, ...)\n", only_type);
            return 2;
        }
        n_types = 1;
    }
    /* the types whose blocks divide a row of n_in (SmolVLM's 576: not the K-quants) */
    int kept = 0;
    for (int t = 0; t < n_types; t++)
        if (n_in % seer_type_get(types[t])->block_size == 0) types[kept++] = types[t];
    if (kept < n_types) printf("(types whose blocks do not divide %lld inputs left out)\n", (long long)n_in);
    n_types = kept;
    if (n_types == 0) {
        fprintf(stderr, "kernel-bench: no type asked for has rows of %lld inputs\n", (long long)n_in);
        return 2;
    }
    seer_pool *pools[2] = {seer_pool_create(1), seer_pool_create(2)};
    printf("1-thread columns: %s\n", single_thread_cpu_time ? "thread CPU time" : "wall time");
    printf("kernels: %s, %d cpus, W = %lld x %lld\n", seer_simd_name(), seer_cpu_count(), (long long)n_out, (long long)n_in);
    double read_gb_s[2];
    for (int p = 0; p < 2; p++) {
        read_gb_s[p] = bandwidth(pools[p]);
        printf("memory read bandwidth, %d thread(s): %.1f GB/s\n", p + 1, read_gb_s[p]);
    }

    const int64_t x_rows = prefill_rows > 32 ? prefill_rows : 32; /* the crossover lines go to 32 rows */
    float *x = malloc(sizeof(float) * (size_t)(x_rows * n_in));
    float *y = malloc(sizeof(float) * (size_t)(x_rows * n_out));
    unsigned s = 7;
    for (int64_t i = 0; i < x_rows * n_in; i++) x[i] = frand(&s);

    /* Decode cycles through enough copies of the matrix to exceed any cache,
     * as a model's layers do: this measures DRAM-bound speed. Each copy is
     * laid out as a loaded model's (2 MiB pages, groups of 16 rows where
     * the type has them); the fraction is of the read bandwidth above. */
    if (!prefill_only) printf("\ndecode (1 row, weights from DRAM):  1 thread                  2 threads\n");
    for (int t = 0; t < (prefill_only ? 0 : n_types); t++) {
        seer_weight w;
        void *data = make_weight(types[t], n_in, n_out, &w);
        size_t bytes = w.row_bytes * (size_t)n_out;
        int copies = (int)(seer_bench_beyond_caches((size_t)192 << 20) / bytes) + 1;
        seer_weight *ws = calloc((size_t)copies, sizeof *ws);
        for (int c = 0; c < copies; c++) {
            ws[c] = w;
            void *d = seer_huge_alloc(bytes);
            memcpy(d, data, bytes);
            ws[c].data = d;
            interleave_as_loaded(&ws[c], pools[1]);
        }
        printf("  %-5s %6.1f MB x%-3d %s ", seer_type_name(types[t]), (double)bytes / 1e6, copies, ws[0].interleaved ? "x16" : "   ");
        for (int p = 0; p < 2; p++) {
            for (int c = 0; c < copies; c++) seer_matmul_path(pools[p], &ws[c], x, 1, y, NULL, SEER_MATMUL_DOT);
            double t0 = clock_ms(pools[p]);
            int reps = 3;
            for (int r = 0; r < reps; r++)
                for (int c = 0; c < copies; c++) seer_matmul_path(pools[p], &ws[c], x, 1, y, NULL, SEER_MATMUL_DOT);
            double ms = (clock_ms(pools[p]) - t0) / (reps * copies);
            double gb_s = (double)bytes / 1e9 / (ms * 1e-3);
            printf("   %7.3f ms %5.1f GB/s %.2f", ms, gb_s, gb_s / read_gb_s[p]);
        }
        printf("\n");
        for (int c = 0; c < copies; c++) {
            free((void *)ws[c].data);
            free(ws[c].interleaved);
        }
        free(ws);
        free(data);
    }

    if (!decode_only) {
        double flop = 2.0 * (double)prefill_rows * (double)n_in * (double)n_out;
        printf("\nprefill (%lld rows):        1 thread            2 threads\n", (long long)prefill_rows);
        {
            float *wf = malloc(sizeof(float) * (size_t)(n_in * n_out));
            for (int64_t i = 0; i < n_in * n_out; i++) wf[i] = frand(&s);
            printf("  sgemm f32 (seer_sgemm)");
            for (int p = 0; p < 2; p++) {
                seer_sgemm(pools[p], prefill_rows, n_out, n_in, 1, x, n_in, wf, n_in, true, 0, y, n_out);
                double best = 1e30;
                for (int rep = 0; rep < 3; rep++) {
                    double t0 = clock_ms(pools[p]);
                    seer_sgemm(pools[p], prefill_rows, n_out, n_in, 1, x, n_in, wf, n_in, true, 0, y, n_out);
                    double ms = clock_ms(pools[p]) - t0;
                    if (ms < best) best = ms;
                }
                printf("  %7.1f ms %5.1f GF/s", best, flop / (best * 1e-3) / 1e9);
            }
            printf("\n");
            free(wf);
        }
        for (int t = 0; t < n_types; t++) {
            seer_weight w;
            void *data = make_weight(types[t], n_in, n_out, &w);
            interleave_as_loaded(&w, pools[1]);
            /* AUTO = what a model's prompt runs (the int8 GEMM, or at AVX2 the several-row dot kernels), GEMM_F32 =
             * dequantize + sgemm */
            const int paths[2] = {SEER_MATMUL_AUTO, SEER_MATMUL_GEMM_F32};
            for (int pi = 0; pi < 2; pi++) {
                const int path = paths[pi];
                if (path == SEER_MATMUL_GEMM_F32 && (types[t] == SEER_TYPE_F16 || types[t] == SEER_TYPE_F32)) continue;
                printf("  %-5s %-17s", seer_type_name(types[t]), path == SEER_MATMUL_AUTO ? "matmul (as run)" : "dequant+sgemm");
                for (int p = 0; p < 2; p++) {
                    double ms = time_matmul(pools[p], &w, x, prefill_rows, y, path, prefill_reps);
                    printf("  %7.1f ms %5.1f GF/s", ms, flop / (ms * 1e-3) / 1e9);
                }
                printf("\n");
            }
            free(w.interleaved);
            free(data);
        }

        printf("\ncrossover, 1 thread, ms (dot path / best gemm path):\n");
        for (int t = 0; t < 2 && t < n_types; t++) {
            seer_weight w;
            void *data = make_weight(types[t], n_in, n_out, &w);
            interleave_as_loaded(&w, pools[1]); /* the dot path's group kernels, as a model's few-row products run */
            printf("  %-5s", seer_type_name(types[t]));
            for (int64_t rows = 1; rows <= 32; rows *= 2) {
                double a = time_matmul(pools[0], &w, x, rows, y, SEER_MATMUL_DOT, 3);
                double b = time_matmul(pools[0], &w, x, rows, y, SEER_MATMUL_GEMM, 3);
                printf("  %lld: %.2f/%.2f", (long long)rows, a, b);
            }
            printf("\n");
            free(w.interleaved);
            free(data);
        }
    }
    free(x);
    free(y);
    seer_pool_destroy(pools[0]);
    seer_pool_destroy(pools[1]);
    return 0;
}
