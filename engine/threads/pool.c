/* Persistent worker pool. The caller is thread 0; workers spin briefly on a
 * generation counter after each job (ops come ~10 per layer per token, so the
 * next one usually arrives while they spin), then sleep on a condition
 * variable so an idle engine costs no CPU. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "seer/threadpool.h"
#include "threads/denormals.h"
#include "threads/pool_scratch.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define cpu_relax() _mm_pause()
#elif defined(__aarch64__)
#define cpu_relax() __asm__ __volatile__("yield")
#else
#define cpu_relax() ((void)0)
#endif

/* How long a worker spins for the next job before it sleeps: long enough to
 * cover the gap between the ops of a layer, short enough that an idle engine
 * gives the cores back at once. */
#define SPIN_NS 200000

struct seer_pool {
    int n_threads;
    pthread_t *threads;

    /* Current job; published by bumping `generation`. */
    seer_task_fn fn;
    void *ctx;
    _Atomic unsigned generation;
    /* Workers join a job before running it: high 32 bits the job's
     * generation, then a "closed" bit, then how many joined. A job whose
     * work is handed out on demand may be closed by the caller once it has
     * run out of work: a worker that was not scheduled in time skips it
     * instead of holding the caller (the cores may be shared). */
    _Atomic uint64_t join;
    _Atomic int n_done;     /* workers finished with the current generation */
    _Atomic int n_sleepers; /* workers blocked (or about to block) on `wake` */
    _Atomic bool stop;
    /* SEER_POOL_SHAKE: on-demand claims of random lengths (tests: results
     * must not depend on where the ranges are cut) */
    bool shake;
    _Atomic unsigned shake_seq;

    pthread_mutex_t lock;
    pthread_cond_t wake;

    seer_pool_scratch scratch[SEER_POOL_SCRATCH_SLOTS];
};

typedef struct worker_arg {
    seer_pool *pool;
    int ith;
} worker_arg;

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static unsigned wait_for_new_generation(seer_pool *p, unsigned seen) {
    int64_t deadline = now_ns() + SPIN_NS;
    for (unsigned i = 1;; i++) {
        unsigned g = atomic_load_explicit(&p->generation, memory_order_acquire);
        if (g != seen) return g;
        cpu_relax();
        if ((i & 255) == 0 && now_ns() > deadline) break;
    }
    pthread_mutex_lock(&p->lock);
    /* Announce before the final check: the dispatcher bumps the generation
     * and then looks at n_sleepers, so one of the two sees the other. */
    atomic_fetch_add(&p->n_sleepers, 1);
    unsigned g;
    while ((g = atomic_load(&p->generation)) == seen) pthread_cond_wait(&p->wake, &p->lock);
    atomic_fetch_sub(&p->n_sleepers, 1);
    pthread_mutex_unlock(&p->lock);
    return g;
}

#define JOIN_CLOSED (1ull << 31)
#define JOIN_COUNT(v) ((int)((v) & (JOIN_CLOSED - 1)))

/* True when this worker may run job g (it is still open). */
static bool join_job(seer_pool *p, unsigned g) {
    uint64_t v = atomic_load_explicit(&p->join, memory_order_acquire);
    for (;;) {
        if ((unsigned)(v >> 32) != g || (v & JOIN_CLOSED)) return false;
        if (atomic_compare_exchange_weak_explicit(&p->join, &v, v + 1, memory_order_acq_rel, memory_order_acquire))
            return true;
    }
}

static void *worker_main(void *arg) {
    worker_arg wa = *(worker_arg *)arg;
    free(arg);
    seer_pool *p = wa.pool;
    unsigned seen = 0;
    (void)seer_denormals_flush(); /* a worker runs nothing but the engine's jobs */
    for (;;) {
        seen = wait_for_new_generation(p, seen);
        if (atomic_load_explicit(&p->stop, memory_order_acquire)) break;
        if (!join_job(p, seen)) continue; /* closed (or already replaced) without us */
        p->fn(p->ctx, wa.ith, p->n_threads);
        atomic_fetch_add_explicit(&p->n_done, 1, memory_order_release);
    }
    return NULL;
}

int seer_cpu_count(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

seer_pool *seer_pool_create(int n_threads) {
    if (n_threads <= 0) n_threads = seer_cpu_count();
    seer_pool *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->n_threads = n_threads;
    const char *shake = getenv("SEER_POOL_SHAKE");
    p->shake = shake && *shake && strcmp(shake, "0") != 0;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->wake, NULL);
    if (n_threads > 1) {
        p->threads = calloc((size_t)n_threads, sizeof *p->threads);
        if (!p->threads) goto fail;
        for (int i = 1; i < n_threads; i++) {
            worker_arg *wa = malloc(sizeof *wa);
            if (!wa) { p->n_threads = i; seer_pool_destroy(p); return NULL; }
            wa->pool = p;
            wa->ith = i;
            if (pthread_create(&p->threads[i], NULL, worker_main, wa) != 0) {
                free(wa);
                p->n_threads = i;
                seer_pool_destroy(p);
                return NULL;
            }
        }
    }
    return p;
fail:
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->wake);
    free(p);
    return NULL;
}

static void publish(seer_pool *p) {
    atomic_fetch_add(&p->generation, 1);
    if (atomic_load(&p->n_sleepers) > 0) {
        pthread_mutex_lock(&p->lock);
        pthread_cond_broadcast(&p->wake);
        pthread_mutex_unlock(&p->lock);
    }
}

void seer_pool_destroy(seer_pool *p) {
    if (!p) return;
    if (p->n_threads > 1 && p->threads) {
        atomic_store_explicit(&p->stop, true, memory_order_release);
        publish(p);
        for (int i = 1; i < p->n_threads; i++) pthread_join(p->threads[i], NULL);
    }
    for (int i = 0; i < SEER_POOL_SCRATCH_SLOTS; i++) free(p->scratch[i].data);
    free(p->threads);
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->wake);
    free(p);
}

int seer_pool_size(const seer_pool *p) { return p ? p->n_threads : 1; }

/* Runs fn on every thread. closable: fn hands its work out on demand, so
 * the caller, once its own call returns (no work left), closes the job and
 * waits only for the workers that joined it. */
static void run_job(seer_pool *p, seer_task_fn fn, void *ctx, bool closable) {
    const uint64_t caller_mode = seer_denormals_flush(); /* the caller's own mode back after the job */
    if (!p || p->n_threads == 1) {
        fn(ctx, 0, 1);
        seer_denormals_restore(caller_mode);
        return;
    }
    p->fn = fn;
    p->ctx = ctx;
    atomic_store_explicit(&p->n_done, 0, memory_order_relaxed);
    unsigned g = atomic_load_explicit(&p->generation, memory_order_relaxed) + 1;
    atomic_store_explicit(&p->join, (uint64_t)g << 32, memory_order_release);
    publish(p);
    fn(ctx, 0, p->n_threads);
    int want = p->n_threads - 1;
    seer_denormals_restore(caller_mode);
    if (closable) want = JOIN_COUNT(atomic_fetch_or_explicit(&p->join, JOIN_CLOSED, memory_order_acq_rel));
    /* Wait for the others; yield now and then in case a worker was preempted. */
    for (unsigned spins = 0; atomic_load_explicit(&p->n_done, memory_order_acquire) != want; spins++) {
        if ((spins & 1023) == 1023) sched_yield();
        else cpu_relax();
    }
}

void seer_pool_run(seer_pool *p, seer_task_fn fn, void *ctx) { run_job(p, fn, ctx, false); }

/* seer_pool_for, guided: each claim takes a share of what is left (half of
 * it divided among the threads, at least `grain`) from one shared counter.
 * Where the ranges are cut then depends on the timing, so the callee's
 * results must not (seer_pool_for_fixed for those whose do).
 * Early claims are long contiguous runs, the last ones short, so whoever
 * finishes first waits for little; a thread that was preempted (the cores
 * are shared) simply claims less. Streaming work claims all of what is
 * left divided among the threads: each claim starts a new stream through
 * memory, and with half-shares SmolVLM's single-token matrices (0.35-1.9
 * MB) streamed at 23-25.5 GB/s on two cores instead of 27.6-29 (2026-11-25). */
typedef struct for_job {
    seer_range_fn fn;
    void *ctx;
    int64_t n, grain;
    int share_div; /* a claim is what is left / (share_div · threads); 0: exactly `grain` */
    _Atomic unsigned *shake_seq; /* SEER_POOL_SHAKE: claims of 1-5 grains at random */
    _Atomic int64_t next;
} for_job;

static void for_task(void *ctx, int ith, int nth) {
    for_job *j = ctx;
    for (;;) {
        int64_t left = j->n - atomic_load_explicit(&j->next, memory_order_relaxed);
        int64_t take = j->share_div ? (left / (j->share_div * nth) + j->grain - 1) / j->grain * j->grain : j->grain;
        if (j->shake_seq && j->share_div) {
            unsigned r = atomic_fetch_add_explicit(j->shake_seq, 1, memory_order_relaxed) * 2654435761u;
            take = j->grain * (1 + (r >> 16) % 5);
        }
        if (take < j->grain) take = j->grain;
        int64_t b = atomic_fetch_add_explicit(&j->next, take, memory_order_relaxed);
        if (b >= j->n) break;
        j->fn(j->ctx, b, b + take < j->n ? b + take : j->n, ith);
    }
}

static void pool_for(seer_pool *p, int64_t n, int64_t grain, int share_div, seer_range_fn fn, void *ctx) {
    if (n <= 0) return;
    if (!p || p->n_threads == 1) {
        const uint64_t caller_mode = seer_denormals_flush();
        fn(ctx, 0, n, 0);
        seer_denormals_restore(caller_mode);
        return;
    }
    for_job j = {.fn = fn, .ctx = ctx, .n = n, .grain = grain > 0 ? grain : 1, .share_div = share_div,
                 .shake_seq = p->shake ? &p->shake_seq : NULL};
    atomic_init(&j.next, 0);
    run_job(p, for_task, &j, true);
}

void seer_pool_for(seer_pool *p, int64_t n, int64_t grain, seer_range_fn fn, void *ctx) {
    pool_for(p, n, grain, 2, fn, ctx);
}

void seer_pool_for_streams(seer_pool *p, int64_t n, int64_t grain, seer_range_fn fn, void *ctx) {
    pool_for(p, n, grain, 1, fn, ctx);
}

void seer_pool_for_fixed(seer_pool *p, int64_t n, int64_t chunk, seer_range_fn fn, void *ctx) {
    pool_for(p, n, chunk, 0, fn, ctx);
}

typedef struct split_job {
    seer_range_fn fn;
    void *ctx;
    int64_t n, grain;
} split_job;

/* The units of `grain` items shared as seer_pool_range does. */
void seer_pool_split_range(int64_t n, int64_t grain, int ith, int nth, int64_t *begin, int64_t *end) {
    if (grain < 1) grain = 1;
    int64_t u0, u1;
    seer_pool_range((n + grain - 1) / grain, ith, nth, &u0, &u1);
    *begin = u0 * grain < n ? u0 * grain : n;
    *end = u1 * grain < n ? u1 * grain : n;
}

static void split_task(void *ctx, int ith, int nth) {
    const split_job *j = ctx;
    int64_t b, e;
    seer_pool_split_range(j->n, j->grain, ith, nth, &b, &e);
    if (b < e) j->fn(j->ctx, b, e, ith);
}

void seer_pool_split(seer_pool *p, int64_t n, int64_t grain, seer_range_fn fn, void *ctx) {
    if (n <= 0) return;
    split_job j = {.fn = fn, .ctx = ctx, .n = n, .grain = grain};
    run_job(p, split_task, &j, false);
}

void seer_pool_range(int64_t n, int ith, int nth, int64_t *begin, int64_t *end) {
    if (nth <= 0) nth = 1;
    int64_t base = n / nth, extra = n % nth;
    int64_t b = ith * base + (ith < extra ? ith : extra);
    *begin = b;
    *end = b + base + (ith < extra ? 1 : 0);
}

void *seer_scratch_slot_get(seer_pool_scratch *s, size_t bytes) {
    if (s->size < bytes) {
        size_t want = bytes + bytes / 4;
        void *nd = seer_buffer_alloc(want); /* a prompt's activations and panels: megabytes */
        if (!nd) return NULL;
        free(s->data);
        s->data = nd;
        s->size = want;
    }
    return s->data;
}

void *seer_pool_scratch_get(seer_pool *p, int slot, size_t bytes) {
    if (!p || slot < 0 || slot >= SEER_POOL_SCRATCH_SLOTS) return NULL;
    return seer_scratch_slot_get(&p->scratch[slot], bytes);
}
