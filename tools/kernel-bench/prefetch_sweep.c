/* Decode prefetch distances compared in one process: a model decodes token
 * by token while the distances (every SIMD level's) change every two
 * tokens, so each setting sees the same host noise, caches and KV length.
 * Prints each setting's median token time. Build and run:
 *   tools/kernel-bench/prefetch-sweep.sh MODEL.gguf THREADS TOKENS L1,L2 [L1,L2 ...]
 * (prefetch.c records what was measured with it on each CPU.) */
#include <stdio.h>
#include <stdlib.h>

#include "kernels/prefetch.h"
#include "seer/bench.h"
#include "seer/common.h"
#include "seer/llm.h"
#include "seer/threadpool.h"

#define MOST 8

int main(int argc, char **argv) {
    if (argc < 5 || argc - 4 > MOST) {
        fprintf(stderr, "usage: %s MODEL.gguf THREADS TOKENS L1,L2 [L1,L2 ...] (at most %d settings)\n", argv[0], MOST);
        return 2;
    }
    const int threads = atoi(argv[2]), tokens = atoi(argv[3]), n_set = argc - 4;
    if (threads < 1 || tokens < 2 * n_set) {
        fprintf(stderr, "THREADS must be at least 1 and TOKENS at least 2 per setting\n");
        return 2;
    }
    seer_prefetch_distances set[MOST];
    for (int s = 0; s < n_set; s++)
        if (sscanf(argv[4 + s], "%d,%d", &set[s].l1, &set[s].l2) != 2) {
            fprintf(stderr, "%s: not L1,L2\n", argv[4 + s]);
            return 2;
        }
    seer_error err = {0};
    seer_llm *llm = seer_llm_load(argv[1], NULL, NULL, &err);
    seer_pool *pool = llm ? seer_pool_create(threads) : NULL;
    seer_ctx *ctx = pool ? seer_ctx_new(llm, tokens + 8, SEER_KV_F16, pool, &err) : NULL;
    double *ms = calloc((size_t)tokens, sizeof *ms), *mine = calloc((size_t)tokens, sizeof *mine);
    if (!ctx || !ms || !mine) {
        fprintf(stderr, "%s\n", err.msg[0] ? err.msg : "out of memory");
        return 1;
    }
    seer_llm_page_in(llm);
    seer_prefetch_choose(); /* now, or the kernels' first call would overwrite the settings below */
    int32_t token = 1;
    for (int i = 0; i < tokens; i++) {
        const int s = i / 2 % n_set;
        for (int k = 0; k < SEER_SIMD_LEVELS; k++) seer_prefetch_at[k] = set[s];
        seer_batch one = {.n = 1, .tokens = &token};
        const double t0 = seer_time_ms();
        if (seer_ctx_decode(ctx, &one, NULL, &err) != 0) {
            fprintf(stderr, "decode: %s\n", err.msg);
            return 1;
        }
        ms[i] = seer_time_ms() - t0;
        token = (int32_t)((unsigned)(token * 2654435761u) % (unsigned)seer_llm_get_info(llm)->n_vocab);
    }
    for (int s = 0; s < n_set; s++) {
        int n = 0;
        for (int i = 2 * n_set; i < tokens; i++) /* the first round warms up */
            if (i / 2 % n_set == s) mine[n++] = ms[i];
        const double median = seer_bench_median(mine, n, NULL); /* sorts mine */
        printf("%5d,%-5d %3d tokens  median %.2f ms  %.2f tok/s  (quartiles %.2f-%.2f ms)\n", set[s].l1, set[s].l2, n,
               median, median > 0 ? 1e3 / median : 0, n ? mine[n / 4] : 0, n ? mine[3 * n / 4] : 0);
    }
    free(mine);
    free(ms);
    seer_ctx_free(ctx);
    seer_pool_destroy(pool);
    seer_llm_free(llm);
    return 0;
}
