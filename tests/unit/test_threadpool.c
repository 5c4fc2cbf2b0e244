/* The worker pool: every thread index runs exactly once per job, jobs see
 * each other's results in order, ranges partition, sleeping workers wake,
 * jobs flush denormals to zero and the caller gets its own mode back. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "seer/common.h"
#include "seer/threadpool.h"
#include "threads/pool_scratch.h"
#include "testlib.h"

typedef struct {
    _Atomic int hits[16];
    _Atomic int calls;
    int nth_seen[16];
    int64_t *data;
    int64_t n;
} job;

static void mark(void *ctx, int ith, int nth) {
    job *j = ctx;
    atomic_fetch_add(&j->hits[ith], 1);
    atomic_fetch_add(&j->calls, 1);
    j->nth_seen[ith] = nth;
}

/* Each thread adds 1 to its range; the next job must see the previous one. */
static void add_one(void *ctx, int ith, int nth) {
    job *j = ctx;
    int64_t b, e;
    seer_pool_range(j->n, ith, nth, &b, &e);
    for (int64_t i = b; i < e; i++) j->data[i] += 1;
}

static void check_pool(int n_threads) {
    seer_pool *p = seer_pool_create(n_threads);
    CHECK(p != NULL);
    if (!p) return;
    int nth = seer_pool_size(p);
    CHECK(nth == (n_threads > 0 ? n_threads : seer_cpu_count()));
    if (nth > 16) { seer_pool_destroy(p); return; }

    job j = {0};
    for (int rep = 0; rep < 300; rep++) seer_pool_run(p, mark, &j);
    CHECK(atomic_load(&j.calls) == 300 * nth);
    for (int i = 0; i < nth; i++) {
        CHECK_MSG(atomic_load(&j.hits[i]) == 300, "thread %d ran %d times", i, atomic_load(&j.hits[i]));
        CHECK(j.nth_seen[i] == nth);
    }

    int64_t n = 10007;
    int64_t *data = calloc((size_t)n, sizeof *data);
    job k = {.data = data, .n = n};
    for (int rep = 0; rep < 500; rep++) seer_pool_run(p, add_one, &k);
    int bad = 0;
    for (int64_t i = 0; i < n; i++) bad += data[i] != 500;
    CHECK_MSG(bad == 0, "%d elements not incremented exactly 500 times", bad);

    /* Let the workers fall asleep, then make sure they still wake up. */
    struct timespec ts = {0, 30 * 1000 * 1000};
    nanosleep(&ts, NULL);
    seer_pool_run(p, add_one, &k);
    bad = 0;
    for (int64_t i = 0; i < n; i++) bad += data[i] != 501;
    CHECK_MSG(bad == 0, "after sleeping: %d elements wrong", bad);
    free(data);
    seer_pool_destroy(p);
}

static void check_ranges(void) {
    for (int64_t n = 0; n < 50; n++) {
        for (int nth = 1; nth <= 7; nth++) {
            int64_t expect_begin = 0, max_len = 0, min_len = n + 1;
            for (int ith = 0; ith < nth; ith++) {
                int64_t b, e;
                seer_pool_range(n, ith, nth, &b, &e);
                CHECK(b == expect_begin);
                CHECK(e >= b);
                expect_begin = e;
                if (e - b > max_len) max_len = e - b;
                if (e - b < min_len) min_len = e - b;
            }
            CHECK(expect_begin == n);
            CHECK(max_len - min_len <= 1);
        }
    }
}

typedef struct {
    _Atomic int hits[1000];
    _Atomic int per_thread[16];
    _Atomic int slow_thread; /* who took item 0, which sleeps */
    int size;
    _Atomic int bad_ith;
} for_job;

static void count_items(void *ctx, int64_t b, int64_t e, int ith) {
    for_job *j = ctx;
    if (ith < 0 || ith >= j->size) atomic_fetch_add(&j->bad_ith, 1);
    for (int64_t i = b; i < e; i++) {
        atomic_fetch_add(&j->hits[i], 1);
        if (ith >= 0 && ith < 16) atomic_fetch_add(&j->per_thread[ith], 1);
        if (i == 0 && j->slow_thread >= 0) {
            j->slow_thread = ith;
            nanosleep(&(struct timespec){0, 200000000}, NULL);
        }
    }
}

typedef void (*pool_for_fn)(seer_pool *p, int64_t n, int64_t grain, seer_range_fn fn, void *ctx);

/* seer_pool_for (and its streaming form, whose first claim is a thread's
 * whole share) covers every item exactly once, whatever the grain, and a
 * thread stuck on a slow item (its first claim, of first_claim items) leaves
 * the rest to the others. */
static void check_for_with(int n_threads, pool_for_fn pool_for, int first_claim) {
    seer_pool *p = n_threads ? seer_pool_create(n_threads) : NULL;
    static for_job j;
    for (int64_t n = 0; n <= 1000; n += n < 20 ? 1 : 245) {
        for (int64_t grain = 0; grain <= 7; grain += grain < 3 ? 1 : 4) {
            memset(&j, 0, sizeof j);
            j.size = seer_pool_size(p);
            j.slow_thread = -1;
            pool_for(p, n, grain, count_items, &j);
            int bad = 0;
            for (int64_t i = 0; i < n; i++) bad += j.hits[i] != 1;
            CHECK_MSG(bad == 0, "%d threads, n %lld, grain %lld: %d items not run once", n_threads, (long long)n,
                      (long long)grain, bad);
            CHECK(j.bad_ith == 0);
        }
    }
    if (seer_pool_size(p) == 2) {
        memset(&j, 0, sizeof j);
        j.size = 2;
        pool_for(p, 100, 1, count_items, &j);
        int slow = j.slow_thread;
        CHECK_MSG(slow >= 0 && j.per_thread[slow] == first_claim, "the thread sleeping on item 0 ran %d of 100 items",
                  slow >= 0 ? (int)j.per_thread[slow] : -1);
    }
    seer_pool_destroy(p);
}

static void check_for(int n_threads) {
    check_for_with(n_threads, seer_pool_for, 25);
    check_for_with(n_threads, seer_pool_for_streams, 50);
}

/* seer_pool_for_fixed cuts every claim `chunk` items long (the last one
 * shorter) whatever the timing, also where SEER_POOL_SHAKE makes
 * seer_pool_for's claims 1-5 grains at random (which is checked too). */
typedef struct claims {
    _Atomic int n, bad_cut, long_claim, hits[1000];
    int64_t chunk;
} claims;

static void record_claim(void *ctx, int64_t b, int64_t e, int ith) {
    (void)ith;
    claims *c = ctx;
    atomic_fetch_add(&c->n, 1);
    if (b % c->chunk != 0 || (e - b != c->chunk && e != 1000)) atomic_fetch_add(&c->bad_cut, 1);
    if (e - b > 5 * c->chunk) atomic_fetch_add(&c->long_claim, 1);
    for (int64_t i = b; i < e; i++) atomic_fetch_add(&c->hits[i], 1);
}

static void check_for_fixed(int n_threads, bool shake) {
    if (shake) setenv("SEER_POOL_SHAKE", "1", 1);
    seer_pool *p = seer_pool_create(n_threads);
    unsetenv("SEER_POOL_SHAKE");
    static claims c;
    for (int64_t chunk = 1; chunk <= 96; chunk += 19) {
        memset(&c, 0, sizeof c);
        c.chunk = chunk;
        seer_pool_for_fixed(p, 1000, chunk, record_claim, &c);
        int bad = 0;
        for (int i = 0; i < 1000; i++) bad += c.hits[i] != 1;
        CHECK_MSG(bad == 0 && c.bad_cut == 0, "%d threads, chunk %lld: %d items not run once, %d claims cut elsewhere",
                  n_threads, (long long)chunk, bad, (int)c.bad_cut);
        if (n_threads > 1)
            CHECK_MSG(c.n == (1000 + chunk - 1) / chunk, "%d threads, chunk %lld: %d claims", n_threads,
                      (long long)chunk, (int)c.n);
    }
    if (shake && n_threads > 1) { /* guided, the first claim would be 250 items */
        memset(&c, 0, sizeof c);
        c.chunk = 1;
        seer_pool_for(p, 1000, 1, record_claim, &c);
        CHECK_MSG(c.long_claim == 0, "SEER_POOL_SHAKE: %d of seer_pool_for's claims longer than 5 grains",
                  (int)c.long_claim);
    }
    seer_pool_destroy(p);
}

/* seer_pool_split: every item once, each thread one range starting at a
 * multiple of the grain, and the same range for the same thread next time
 * (what the decoder's row passes count on). */
typedef struct split_seen {
    int owner[103];
    int begins[16];
} split_seen;

static void record_split(void *ctx, int64_t b, int64_t e, int ith) {
    split_seen *s = ctx;
    s->begins[ith] = (int)b;
    for (int64_t i = b; i < e; i++) s->owner[i] += ith + 1; /* each item once: one owner, no sum of two */
}

static void check_split(int n_threads) {
    seer_pool *p = seer_pool_create(n_threads);
    split_seen first, again;
    for (int round = 0; round < 2; round++) {
        split_seen *s = round ? &again : &first;
        memset(s, 0, sizeof *s);
        for (int i = 0; i < 16; i++) s->begins[i] = -1;
        seer_pool_split(p, 103, 16, record_split, s);
    }
    for (int i = 0; i < 103; i++) {
        CHECK_MSG(first.owner[i] >= 1 && first.owner[i] <= seer_pool_size(p), "item %d: owner sum %d", i, first.owner[i]);
        CHECK_MSG(first.owner[i] == again.owner[i], "item %d moved from thread %d to %d", i, first.owner[i] - 1,
                  again.owner[i] - 1);
    }
    for (int t = 0; t < seer_pool_size(p) && t < 16; t++)
        CHECK_MSG(first.begins[t] < 0 || first.begins[t] % 16 == 0, "thread %d starts at %d", t, first.begins[t]);
    seer_pool_destroy(p);
}

/* Work buffers: 64-byte aligned for the vector kernels; from 2 MiB on huge
 * pages, so 2 MiB aligned (the pool's scratch, the decoder's and the
 * encoder's buffers come from here). */
static void check_buffers(void) {
    const size_t sizes[] = {0, 100, ((size_t)2 << 20) - 64, (size_t)2 << 20, (size_t)5 << 20};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        unsigned char *b = seer_buffer_alloc(sizes[i]);
        CHECK(b != NULL);
        if (!b) continue;
        CHECK((uintptr_t)b % 64 == 0);
        if (sizes[i] >= ((size_t)2 << 20)) CHECK_MSG((uintptr_t)b % ((size_t)2 << 20) == 0, "%zu bytes", sizes[i]);
        if (sizes[i]) b[0] = 1, b[sizes[i] - 1] = 2;
        free(b);
    }
    seer_pool *pool = seer_pool_create(1);
    unsigned char *s = seer_pool_scratch_get(pool, 0, (size_t)3 << 20);
    CHECK(s && (uintptr_t)s % ((size_t)2 << 20) == 0);
    seer_pool_destroy(pool);
}

/* Whether this thread makes a denormal (FLT_MIN / 2) and reads one
 * (d + 0 is d); both 0 where denormals are flushed. */
static volatile float flt_min = FLT_MIN, half = 0.5f, zero = 0.0f;
static bool keeps_denormals(void) {
    const float made = flt_min * half;
    volatile float d = made;
    return made != 0.0f && d + zero != 0.0f;
}

typedef struct {
    _Atomic int kept; /* jobs' threads that kept a denormal */
} denormal_seen;

static void denormal_task(void *ctx, int ith, int nth) {
    (void)ith, (void)nth;
    if (keeps_denormals()) atomic_fetch_add(&((denormal_seen *)ctx)->kept, 1);
}
static void denormal_range(void *ctx, int64_t b, int64_t e, int ith) {
    (void)b, (void)e;
    denormal_task(ctx, ith, 0);
}

/* Every way into the pool (and seer_pool_for without one) runs its job with
 * denormals flushed, on the caller's thread as on the workers', and hands
 * the caller back the mode it had. */
static void check_denormals(int n_threads) {
#if defined(__x86_64__) || defined(__aarch64__)
    CHECK(keeps_denormals()); /* the test thread's own mode: IEEE */
    seer_pool *p = n_threads ? seer_pool_create(n_threads) : NULL;
    denormal_seen seen = {0};
    for (int round = 0; round < 3; round++) { /* later rounds find the workers spinning */
        seer_pool_run(p, denormal_task, &seen);
        seer_pool_for(p, 64, 1, denormal_range, &seen);
        seer_pool_for_streams(p, 64, 16, denormal_range, &seen);
        seer_pool_for_fixed(p, 64, 8, denormal_range, &seen);
        seer_pool_split(p, 64, 16, denormal_range, &seen);
        CHECK_MSG(keeps_denormals(), "%d threads: the caller's mode was not given back", n_threads);
    }
    CHECK_MSG(atomic_load(&seen.kept) == 0, "%d threads: %d job parts kept denormals", n_threads, atomic_load(&seen.kept));
    seer_pool_destroy(p);
#else
    (void)n_threads;
#endif
}

int main(void) {
    check_denormals(0);
    check_denormals(1);
    check_denormals(2);
    check_denormals(4);
    check_buffers();
    check_ranges();
    check_split(1);
    check_split(2);
    check_split(4);
    check_for(0);
    check_for(1);
    check_for(2);
    check_for(4);
    check_for_fixed(1, false);
    check_for_fixed(2, false);
    check_for_fixed(2, true);
    check_for_fixed(4, true);
    check_pool(1);
    check_pool(2);
    check_pool(4); /* more threads than cores must still work */
    check_pool(0);
    CHECK(seer_cpu_count() >= 1);
    seer_pool_destroy(NULL);
    TEST_MAIN_END();
}
