/* soak_session: many turns of one conversation through the session API (the
 * same path the TUI's worker drives), with an image attached every few turns,
 * checking after every turn that the conversation and the KV cache agree, and
 * reporting resident memory at the start and the end.
 *
 *   soak_session --model M.gguf [--mmproj P.gguf --image IMG] [--turns N]
 *                [--image-every K] [--n-predict N] [--ctx N] [--threads N]
 *                [--cancel SEED]
 *
 * --cancel SEED: every turn is interrupted at a random point (image encode,
 * prefill, or after a random number of generated tokens), chosen by SEED, and
 * the conversation must stay consistent: a cancelled encode attaches nothing,
 * a cancelled prefill leaves cache and messages as they were, a cancelled
 * reply is kept exactly as streamed. Every 20 turns the conversation is
 * cleared, and while it holds no image rows the cache built turn by turn is
 * compared with one prefill of the same tokens in a fresh context. A session
 * holds at most SEER_MTMD_MAX_IMAGES images: at that point the soak clears it,
 * as a user would with /clear.
 * Prints "soak: ..." lines and exits 1 on the first inconsistency. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "seer/mtmd.h"
#include "seer/session.h"
#include "seer/threadpool.h"

static long rss_kb(void) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmRSS: %ld kB", &kb) == 1) break;
    if (f) fclose(f);
    return kb;
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static uint64_t rng_state = 1;
static uint32_t rnd(uint32_t n) {
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return n ? (uint32_t)(rng_state >> 33) % n : 0;
}

/* The reply as streamed, and where to stop it (-1: never). */
typedef struct reply {
    char *text;
    size_t len, cap;
    int stop_after, n_tokens;
    bool prefilled;            /* on_prefill ran: the turn is in the cache */
} reply;

static void on_prefill(void *ud, int n_tokens, double ms, int shifted) {
    ((reply *)ud)->prefilled = true;
}

static int on_token(void *ud, const seer_gen_token *t) {
    reply *r = ud;
    if (r->len + (size_t)t->text_len + 1 > r->cap) {
        r->cap = (r->len + (size_t)t->text_len + 1) * 2;
        r->text = realloc(r->text, r->cap);
        if (!r->text) abort();
    }
    memcpy(r->text + r->len, t->text, (size_t)t->text_len);
    r->len += (size_t)t->text_len;
    r->text[r->len] = 0;
    if (t->id < 0) return 0; /* the end-of-reply flush of held-back bytes */
    r->n_tokens++;
    return r->stop_after >= 0 && r->n_tokens >= r->stop_after;
}

/* A timer that raises the cancel flag after a delay (microseconds). */
typedef struct timer {
    volatile int *flag;
    unsigned delay_us;
} timer;
static void *timer_run(void *p) {
    timer *t = p;
    usleep(t->delay_us);
    *t->flag = 1;
    return NULL;
}

#define FAIL(...)                                                                                                    \
    do {                                                                                                           \
        fprintf(stderr, "soak: FAIL at turn %d: ", turn);                                                          \
        fprintf(stderr, __VA_ARGS__);                                                                              \
        fprintf(stderr, "\n");                                                                                     \
        return 1;                                                                                                  \
    } while (0)

/* The incremental cache equals one prefill of its tokens (text-only caches):
 * a probe token decoded after each gives the same logits. (The context's
 * logits buffer itself is scratch: a cancelled prefill leaves it stale.) The
 * probe is then truncated away, leaving the session's cache as it was. */
static int same_as_fresh(seer_session *s, const seer_llm *m, seer_pool *pool, double *rel) {
    int n = 0;
    const int32_t *ids = seer_session_cached_tokens(s, &n);
    for (int i = 0; i < n; i++)
        if (ids[i] < 0) return -1; /* image rows: not comparable this way */
    seer_ctx *c = seer_session_ctx(s);
    if (n == 0 || n + 1 > seer_ctx_size(c)) return -1;
    seer_error err = {{0}};
    seer_ctx *fresh = seer_ctx_new(m, seer_ctx_size(c), seer_ctx_kv_type(c), pool, &err);
    if (!fresh) return 1;
    int32_t *all = malloc(sizeof *all * (size_t)(n + 1));
    if (!all) return 1;
    memcpy(all, ids, sizeof *all * (size_t)n);
    all[n] = ids[n - 1]; /* the probe */
    seer_batch b = {.n = n + 1, .tokens = all}, probe = {.n = 1, .tokens = all + n};
    const int32_t next_pos = seer_ctx_next_pos(c);
    seer_ctx_mark(c); /* the probe's truncation comes back here (a conv state, for hybrid models) */
    int rc = seer_ctx_decode(fresh, &b, NULL, &err);
    rc |= seer_ctx_decode(c, &probe, NULL, &err);
    const float *la = rc == 0 ? seer_ctx_logits(c, 0) : NULL, *lb = rc == 0 ? seer_ctx_logits(fresh, 0) : NULL;
    double num = 0, den = 0;
    for (int i = 0; la && lb && i < seer_llm_get_info(m)->n_vocab; i++) {
        num += (la[i] - lb[i]) * (double)(la[i] - lb[i]);
        den += (double)lb[i] * lb[i];
    }
    seer_ctx_truncate(c, n, next_pos);
    seer_ctx_free(fresh);
    free(all);
    if (!la || !lb) return 1;
    *rel = sqrt(num / (den > 0 ? den : 1));
    return *rel < 1e-3 ? 0 : 1;
}

int main(int argc, char **argv) {
    const char *model = NULL, *mmproj = NULL, *image = NULL;
    int turns = 500, image_every = 1, n_predict = 8, n_ctx = 512, n_threads = 2;
    long cancel_seed = -1;
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *a = argv[i], *v = argv[i + 1];
        if (!strcmp(a, "--model")) model = v;
        else if (!strcmp(a, "--mmproj")) mmproj = v;
        else if (!strcmp(a, "--image")) image = v;
        else if (!strcmp(a, "--turns")) turns = atoi(v);
        else if (!strcmp(a, "--image-every")) image_every = atoi(v);
        else if (!strcmp(a, "--n-predict")) n_predict = atoi(v);
        else if (!strcmp(a, "--ctx")) n_ctx = atoi(v);
        else if (!strcmp(a, "--threads")) n_threads = atoi(v);
        else if (!strcmp(a, "--cancel")) cancel_seed = atol(v);
        else {
            fprintf(stderr, "soak_session: unknown option %s\n", a);
            return 2;
        }
    }
    if (!model || (mmproj && !image)) {
        fprintf(stderr, "usage: soak_session --model M.gguf [--mmproj P.gguf --image IMG] [--turns N] [--cancel SEED]\n");
        return 2;
    }
    if (cancel_seed >= 0) rng_state = (uint64_t)cancel_seed * 2654435761u + 1;
    int turn = 0;
    seer_error err = {{0}};
    seer_llm *m = seer_llm_load(model, NULL, NULL, &err);
    if (!m) FAIL("%s", err.msg);
    seer_vision *vis = NULL;
    if (mmproj && !(vis = seer_vision_load(mmproj, &err))) FAIL("%s", err.msg);
    seer_pool *pool = seer_pool_create(n_threads);
    seer_session_params p = seer_session_params_default();
    p.n_ctx = n_ctx;
    p.n_predict = n_predict;
    p.sampling.temp = 0.8f;
    p.sampling.seed = 42;
    seer_session *s = seer_session_new(m, vis, pool, &p, &err);
    if (!s) FAIL("%s", err.msg);

    const double t0 = now_ms();
    long rss_start = 0, rss_max = 0;
    int n_images = 0, n_shifted = 0, n_cancel_encode = 0, n_cancel_prefill = 0, n_cancel_gen = 0, n_fresh = 0, n_clears = 0;
    double worst_rel = 0;
    reply r = {0};
    for (turn = 1; turn <= turns; turn++) {
        const bool cancelling = cancel_seed >= 0;
        if (cancelling && turn % 20 == 0) seer_session_clear(s);
        /* image: encode (maybe cancelled by a timer) */
        if (vis && (turn - 1) % image_every == 0) {
            volatile int flag = 0;
            pthread_t th;
            timer tm = {&flag, rnd(20000)};
            const bool arm = cancelling && rnd(3) == 0;
            if (arm) pthread_create(&th, NULL, timer_run, &tm);
            if (seer_session_n_images(s) == SEER_MTMD_MAX_IMAGES) { /* the user's /clear */
                seer_session_clear(s);
                n_clears++;
            }
            const int before = seer_session_n_images(s);
            const int idx = seer_session_attach_image(s, image, &flag, &err);
            if (arm) pthread_join(th, NULL);
            if (idx < 0 && !(arm && flag)) FAIL("attach: %s", err.msg);
            if (idx < 0 && seer_session_n_images(s) != before) FAIL("a cancelled encode attached an image");
            if (idx >= 0) n_images++;
            else n_cancel_encode++;
        }
        /* the turn: maybe cancelled during prefill (timer) or generation (hook) */
        const int used_before = seer_ctx_used(seer_session_ctx(s)), msgs_before = seer_session_n_messages(s);
        volatile int flag = 0;
        pthread_t th;
        timer tm = {&flag, rnd(8000)};
        const int mode = cancelling ? (int)rnd(3) : 0; /* 0 none, 1 timer, 2 after k tokens */
        r.len = 0;
        r.n_tokens = 0;
        r.prefilled = false;
        if (r.text) r.text[0] = 0;
        r.stop_after = mode == 2 ? (int)rnd((uint32_t)n_predict + 1) : -1;
        if (r.stop_after == 0) r.stop_after = 1;
        if (mode == 1) pthread_create(&th, NULL, timer_run, &tm);
        seer_session_hooks hooks = {.ud = &r, .on_prefill = on_prefill, .on_token = on_token};
        seer_turn_stats st;
        char msg[64];
        snprintf(msg, sizeof msg, "turn %d: what is in the picture?", turn);
        const int rc = seer_session_send(s, msg, &hooks, &flag, &st, &err);
        if (mode == 1) pthread_join(th, NULL);
        if (rc != 0) FAIL("send: %s", err.msg);
        n_shifted += st.shifted_turns;
        /* consistency: cache rows == the conversation's tokens */
        int n_ids = 0;
        seer_session_cached_tokens(s, &n_ids);
        const int used = seer_ctx_used(seer_session_ctx(s));
        if (n_ids != used) FAIL("cache holds %d rows, the conversation %d tokens", used, n_ids);
        if (st.n_used != used) FAIL("stats say %d rows used, the cache %d", st.n_used, used);
        const int nm = seer_session_n_messages(s);
        if (st.stop == SEER_STOP_CANCELLED && !r.prefilled) {
            /* cancelled during the prefill: the turn is dropped (a cancel
             * after it, before the first token, keeps an empty reply) */
            if (r.n_tokens || st.gen_tokens) FAIL("tokens generated without a prefill");
            n_cancel_prefill++;
            if (st.shifted_turns == 0 && (used != used_before || nm != msgs_before))
                FAIL("a cancelled prefill changed the conversation: rows %d -> %d, messages %d -> %d", used_before,
                     used, msgs_before, nm);
        } else {
            if (st.stop == SEER_STOP_CANCELLED) n_cancel_gen++;
            if (st.stop == SEER_STOP_ERROR) FAIL("stop: error");
            if (st.gen_tokens != r.n_tokens) FAIL("%d tokens streamed, stats say %d", r.n_tokens, st.gen_tokens);
            seer_chat_msg last = seer_session_message(s, nm - 1);
            if (!last.role || strcmp(last.role, "assistant") != 0) FAIL("last message is not the reply");
            if (strcmp(last.content ? last.content : "", r.text ? r.text : "") != 0)
                FAIL("reply kept as '%s', streamed as '%s'", last.content, r.text ? r.text : "");
            /* messages are C strings: a NUL byte the model emits ends them */
            const char *cached = seer_session_cached_text(s), *rt = r.text ? r.text : "";
            const size_t cl = strlen(cached), rl = strlen(rt);
            if (cl < rl || memcmp(cached + cl - rl, rt, rl) != 0)
                FAIL("the cached text does not end with the reply (stop %s, %d tokens, shifted %d): reply '%s', "
                     "cached text ends '%s'",
                     seer_stop_reason_name(st.stop), st.gen_tokens, st.shifted_turns, rt,
                     cl > rl + 40 ? cached + cl - rl - 40 : cached);
        }
        if (cancelling && turn % 5 == 0) {
            double rel = 0;
            const int same = same_as_fresh(s, m, pool, &rel);
            if (same > 0)
                FAIL("cache differs from a fresh prefill of its tokens (rel L2 %g; %d rows, next position %d)", rel,
                     seer_ctx_used(seer_session_ctx(s)), (int)seer_ctx_next_pos(seer_session_ctx(s)));
            if (same == 0) {
                n_fresh++;
                if (rel > worst_rel) worst_rel = rel;
            }
        }
        const long rss = rss_kb();
        if (turn == 10 || (turn < 10 && turn == turns)) rss_start = rss;
        if (rss > rss_max) rss_max = rss;
        if (turn % 100 == 0)
            printf("soak: turn %d rss %ld kB rows %d/%d messages %d (%.1f s)\n", turn, rss, used, n_ctx, nm,
                   (now_ms() - t0) / 1e3);
    }
    turn--;
    const long rss_end = rss_kb();
    printf("soak: %d turns in %.1f s, %d images encoded, %d turns shifted out, %d clears at the image limit; rss after turn 10 %ld kB, at the end "
           "%ld kB, max %ld kB\n",
           turn, (now_ms() - t0) / 1e3, n_images, n_shifted, n_clears, rss_start, rss_end, rss_max);
    if (cancel_seed >= 0)
        printf("soak: cancelled %d encodes, %d prefills, %d replies; %d fresh-prefill checks (worst rel L2 %.2g)\n",
               n_cancel_encode, n_cancel_prefill, n_cancel_gen, n_fresh, worst_rel);
    free(r.text);
    seer_session_free(s);
    seer_pool_destroy(pool);
    seer_vision_free(vis);
    seer_llm_free(m);
    return 0;
}
