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
/* Runs fn over [0, n) in chunks of `grain` items handed out on demand: a
 * thread that finishes early (or one that was preempted) takes more (or
 * fewer). ith identifies the calling thread (0..size-1) for per-thread
 * scratch. grain <= 0: seer_pool_grain(p, n, 1). */
typedef void (*seer_range_fn)(void *ctx, int64_t begin, int64_t end, int ith);
void seer_pool_for(seer_pool *p, int64_t n, int64_t grain, seer_range_fn fn, void *ctx);
/* A chunk size giving each thread a few chunks of [0, n), rounded up to a
 * multiple of `multiple`. */
int64_t seer_pool_grain(const seer_pool *p, int64_t n, int64_t multiple);
/* Splits [0, n) into nth nearly equal ranges; range of thread ith. */
void seer_pool_range(int64_t n, int ith, int nth, int64_t *begin, int64_t *end);
/* Number of online cores. */
int seer_cpu_count(void);

#endif
