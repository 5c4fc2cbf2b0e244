/* A recurrent state follows the KV cache: decoding A, marking
 * it, decoding B, truncating back to A and decoding C gives the logits of A
 * then C decoded fresh; so does a cancelled decode followed by C, and a
 * cleared context. Truncating where no mark is (into A, or to a mark a
 * later truncation dropped) empties the cache instead of keeping a wrong
 * state. Only the attention layers have a KV cache. Runs on two conformance
 * models (random weights): lfm2vl-f32 (LFM2's short-convolution rows, conv
 * layers 0, 1, 3, 5) and qwen35-f32 (Qwen3.5's Gated DeltaNet conv rows and
 * d×d matrices, layers 0-2; decodes of 4 rows and more take the chunked
 * form, a single row the step form). */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "seer/llm.h"
#include "testlib.h"

enum { NA = 20, NB = 7, NC = 6 };

static float max_diff(const float *a, const float *b, int n) {
    float m = 0.0f;
    for (int i = 0; i < n; i++) m = fmaxf(m, fabsf(a[i] - b[i]));
    return m;
}

/* Logits after a rollback against the same rows decoded from an empty
 * context: a batch splits the rows into other chunks there (the gated
 * delta's chunked form, LFM2's convolution windows), so they agree to
 * rounding, a few tens of ulps of the largest logit (Qwen3.5's: 8-11 ulps
 * of 13.1 at every SIMD level), where one conv-state value restored 0.01
 * off already moves them by 5.9e-4. */
static bool same_logits(const float *got, const float *ref, int n) {
    float big = 0.0f;
    for (int i = 0; i < n; i++) big = fmaxf(big, fabsf(ref[i]));
    return max_diff(got, ref, n) <= 4e-6f * big;
}

/* Decodes toks (one batch, or one token a step), all rows' logits copied to out. */
static int decode(seer_ctx *c, const int32_t *toks, int n, bool stepwise, const volatile int *cancel, float *out,
                  int V) {
    seer_error err = {{0}};
    for (int i = 0; i < n;) {
        const int k = stepwise ? 1 : n;
        seer_batch b = {.n = k, .tokens = toks + i, .logits_all = true};
        if (seer_ctx_decode(c, &b, cancel, &err) != 0) return -1;
        for (int j = 0; out && j < k; j++) memcpy(out + (size_t)(i + j) * V, seer_ctx_logits(c, j), sizeof(float) * V);
        i += k;
    }
    return 0;
}

/* Sets *stop after a delay: a cancel that lands inside a long decode. */
typedef struct canceller {
    volatile int *stop;
    long delay_us;
} canceller;

static void *cancel_later(void *arg) {
    const canceller *k = arg;
    nanosleep(&(struct timespec){k->delay_us / 1000000, (k->delay_us % 1000000) * 1000}, NULL);
    *k->stop = 1;
    return NULL;
}

/* A decode of two forward passes cancelled at ever later moments: whenever
 * it reports the cancel, the cache is back at A (the conv state of the
 * layers it went through included) and C gives A + C's logits. The
 * reference decodes A then C as batches too, the same arithmetic (a single
 * batch of C takes the chunked form, a stepwise reference the step form,
 * which differ in the last bits on other hosts). Returns how many attempts
 * were cancelled. */
static int cancel_mid_decode(const seer_llm *m, seer_pool *pool, const int32_t *a, const int32_t *cc, float *fresh_c,
                             float *got, int V) {
    seer_error err = {{0}};
    seer_ctx *c = seer_ctx_new(m, 1024, SEER_KV_F32, pool, &err);
    CHECK_MSG(c != NULL, "%s", err.msg);
    if (!c) return 0;
    CHECK(decode(c, a, NA, false, NULL, NULL, V) == 0);
    CHECK(decode(c, cc, NC, false, NULL, fresh_c, V) == 0);
    seer_ctx_truncate(c, 0, 0);
    static int32_t longer[700];
    for (int i = 0; i < 700; i++) longer[i] = (int32_t)((i * 71 + 3) % 700);
    CHECK(decode(c, a, NA, false, NULL, NULL, V) == 0);
    seer_ctx_mark(c);
    int cancelled = 0;
    for (int k = 0; k < 16; k++) {
        volatile int stop = 0;
        canceller arg = {&stop, 300L * k};
        pthread_t t;
        pthread_create(&t, NULL, cancel_later, &arg);
        seer_batch lb = {.n = 700, .tokens = longer};
        const int rc = seer_ctx_decode(c, &lb, &stop, &err);
        pthread_join(t, NULL);
        if (rc == 0) {
            seer_ctx_truncate(c, NA, NA);
            continue;
        }
        cancelled++;
        CHECK(seer_ctx_used(c) == NA);
        CHECK(decode(c, cc, NC, false, NULL, got, V) == 0);
        CHECK_MSG(max_diff(got, fresh_c, NC * V) < 1e-5f, "cancelled after %ld us: %g", arg.delay_us,
                  max_diff(got, fresh_c, NC * V));
        seer_ctx_truncate(c, NA, NA);
    }
    seer_ctx_free(c);
    return cancelled;
}

/* The model's expected layout: layers with a KV cache, and the state's bytes. */
typedef struct recurrent_model {
    const char *path;
    int n_layer_kv;
    uint64_t state_bytes;
} recurrent_model;

static void check_model(const recurrent_model *rm) {
    seer_error err = {{0}};
    seer_llm *m = seer_llm_load(rm->path, NULL, NULL, &err);
    CHECK_MSG(m != NULL, "%s", err.msg);
    if (!m) return;
    seer_pool *pool = seer_pool_create(2);
    seer_ctx *c = seer_ctx_new(m, 64, SEER_KV_F32, pool, &err);
    CHECK_MSG(c != NULL, "%s", err.msg);
    const int V = seer_llm_get_info(m)->n_vocab;
    int32_t a[NA], b[NB], cc[NC], ac[NA + NC];
    for (int i = 0; i < NA; i++) a[i] = (int32_t)((i * 37 + 11) % 700);
    for (int i = 0; i < NB; i++) b[i] = (int32_t)((i * 53 + 5) % 700);
    for (int i = 0; i < NC; i++) cc[i] = (int32_t)((i * 29 + 17) % 700);
    memcpy(ac, a, sizeof a);
    memcpy(ac + NA, cc, sizeof cc);
    static float fresh[(NA + NC) * 1024], got[(NA + NC) * 1024];
    CHECK(V <= 1024);

    const seer_llm_info *info = seer_llm_get_info(m);
    CHECK_MSG(info->n_layer_kv == rm->n_layer_kv, "%s: %d layers with a KV cache", rm->path, info->n_layer_kv);
    CHECK(seer_kv_cache_bytes(info, 64, SEER_KV_F32) == 2.0 * rm->n_layer_kv * 64 * info->n_head_kv * info->head_dim * 4);
    CHECK_MSG(info->state_bytes == rm->state_bytes, "%s: state of %llu bytes, expected %llu", rm->path,
              (unsigned long long)info->state_bytes, (unsigned long long)rm->state_bytes);

    for (int stepwise = 0; stepwise < 2; stepwise++) {
        const char *how = stepwise ? "stepwise" : "batch";
        /* reference: A + C from an empty context */
        seer_ctx_truncate(c, 0, 0);
        CHECK(decode(c, ac, NA + NC, stepwise, NULL, fresh, V) == 0);

        /* A, mark, B, back to A, C */
        seer_ctx_truncate(c, 0, 0);
        CHECK(decode(c, a, NA, stepwise, NULL, NULL, V) == 0);
        seer_ctx_mark(c);
        CHECK(decode(c, b, NB, stepwise, NULL, NULL, V) == 0);
        seer_ctx_truncate(c, NA, NA);
        CHECK(seer_ctx_used(c) == NA);
        CHECK(decode(c, cc, NC, stepwise, NULL, got, V) == 0);
        CHECK_MSG(same_logits(got, fresh + (size_t)NA * V, NC * V), "%s: rollback to A (%s): %g", rm->path, how,
                  max_diff(got, fresh + (size_t)NA * V, NC * V));

        /* a cancelled decode leaves the state as it was */
        seer_ctx_truncate(c, NA, NA);
        volatile int stop = 1;
        CHECK(decode(c, b, NB, false, &stop, NULL, V) != 0);
        CHECK(seer_ctx_used(c) == NA);
        CHECK(decode(c, cc, NC, stepwise, NULL, got, V) == 0);
        CHECK_MSG(same_logits(got, fresh + (size_t)NA * V, NC * V), "after cancel (%s)", how);
        /* a one-row decode cancelled before it begins (such calls, once
         * begun, run to their end: they keep no copy of the state) */
        seer_ctx_truncate(c, NA, NA);
        CHECK(decode(c, b, 1, true, &stop, NULL, V) != 0);
        CHECK(seer_ctx_used(c) == NA);
        CHECK(decode(c, cc, NC, stepwise, NULL, got, V) == 0);
        CHECK_MSG(same_logits(got, fresh + (size_t)NA * V, NC * V), "after a one-row cancel (%s)", how);

        /* into A: no state is known there, the cache empties; A + C again is the reference */
        seer_ctx_truncate(c, 9, 9);
        CHECK_MSG(seer_ctx_used(c) == 0, "truncated into A without a mark: %d rows kept", seer_ctx_used(c));
        seer_ctx_truncate(c, 0, 0);
        CHECK(decode(c, ac, NA + NC, stepwise, NULL, got, V) == 0);
        CHECK_MSG(max_diff(got, fresh, (NA + NC) * V) < 1e-5f, "after emptying (%s)", how);

        /* a mark goes with a truncation below it: B B B written over A cannot come back to A's state */
        seer_ctx_truncate(c, 0, 0);
        CHECK(decode(c, a, NA, stepwise, NULL, NULL, V) == 0);
        seer_ctx_mark(c);
        CHECK(decode(c, b, NB, stepwise, NULL, NULL, V) == 0);
        seer_ctx_truncate(c, NA, NA);
        CHECK(seer_ctx_used(c) == NA); /* the mark at A is there */
        seer_ctx_truncate(c, 0, 0);
        for (int k = 0; k < 3; k++) CHECK(decode(c, b, NB, stepwise, NULL, NULL, V) == 0);
        seer_ctx_truncate(c, NA, NA);
        CHECK_MSG(seer_ctx_used(c) == 0, "a dropped mark was used: %d rows kept", seer_ctx_used(c));
    }
    CHECK_MSG(cancel_mid_decode(m, pool, a, cc, fresh, got, V) > 0, "no decode was cancelled");
    seer_ctx_free(c);
    seer_pool_destroy(pool);
    seer_llm_free(m);
}

int main(void) {
    static const recurrent_model models[] = {
        /* 4 conv layers × 2 rows × 128 */
        {"tests/conformance/cases/lfm2vl-f32/model.gguf", 2, 4 * 2 * 128 * 4},
        /* 3 DeltaNet layers × (3 rows × 256 channels + 4 heads × 32 × 32) */
        {"tests/conformance/cases/qwen35-f32/model.gguf", 1, 3 * (3 * 256 + 4 * 32 * 32) * 4},
    };
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++) check_model(&models[i]);
    TEST_MAIN_END();
}
