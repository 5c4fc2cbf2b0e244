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
/* Runs fn over [0, n) in chunks handed out on demand (guided: long runs
 * first, shorter ones as the work runs out, each a multiple of `grain`
 * items except the last), so a thread that finishes early or was preempted
 * evens out. ith identifies the calling thread (0..size-1) for per-thread
 * scratch. grain <= 0 means 1. */
typedef void (*seer_range_fn)(void *ctx, int64_t begin, int64_t end, int ith);
void seer_pool_for(seer_pool *p, int64_t n, int64_t grain, seer_range_fn fn, void *ctx);
/* seer_pool_for for work that streams through memory (single-token matrix
 * products): every claim starts a new stream, so claims are twice as long
 * and half as many. */
void seer_pool_for_streams(seer_pool *p, int64_t n, int64_t grain, seer_range_fn fn, void *ctx);
/* Runs fn over [0, n) in claims of exactly `chunk` items (the last one
 * shorter) handed out on demand: the ranges are cut at the same places
 * whatever the timing, for work whose results depend on where they are cut
 * (OpenBLAS's sgemm rounds a slice's outputs differently at different slice
 * widths). With the environment's SEER_POOL_SHAKE set, seer_pool_for's
 * claims are of random lengths instead (tests: results that depend on the
 * cuts then differ between runs); this one's stay fixed. */
void seer_pool_for_fixed(seer_pool *p, int64_t n, int64_t chunk, seer_range_fn fn, void *ctx);
/* Runs fn over [0, n) cut into one range per thread, in multiples of
 * `grain` items, thread ith always taking the ith range: passes over the
 * same rows one after another then find what the previous pass wrote in
 * their own core's cache. */
void seer_pool_split(seer_pool *p, int64_t n, int64_t grain, seer_range_fn fn, void *ctx);
/* Thread ith's range [*begin, *end) in seer_pool_split(n, grain) over nth
 * threads (for sizing what each thread's range needs). */
void seer_pool_split_range(int64_t n, int64_t grain, int ith, int nth, int64_t *begin, int64_t *end);
/* Splits [0, n) into nth nearly equal ranges; range of thread ith. */
void seer_pool_range(int64_t n, int ith, int nth, int64_t *begin, int64_t *end);
/* Number of online cores. */
int seer_cpu_count(void);

#endif
