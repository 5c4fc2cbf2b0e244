/* One persistent pool of worker threads; the caller takes part as thread 0. */
#ifndef SEER_THREADPOOL_H
#define SEER_THREADPOOL_H

#include "seer/common.h"

typedef struct seer_pool seer_pool;
typedef void (*seer_task_fn)(void *ctx, int ith, int nth);

/* n_threads <= 0: number of online cores. */
seer_pool *seer_pool_create(int n_threads);
void seer_pool_destroy(seer_pool *p);
int seer_pool_size(const seer_pool *p);
/* Runs fn(ctx, ith, nth) for ith = 0..nth-1 in parallel and waits for all.
 * Not re-entrant: one run at a time per pool. */
void seer_pool_run(seer_pool *p, seer_task_fn fn, void *ctx);
/* Splits [0, n) into nth nearly equal ranges; range of thread ith. */
void seer_pool_range(int64_t n, int ith, int nth, int64_t *begin, int64_t *end);
/* Number of online cores. */
int seer_cpu_count(void);

#endif
