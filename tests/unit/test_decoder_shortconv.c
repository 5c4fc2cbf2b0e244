/* LFM2's short-convolution state follows the KV cache: decoding A then B,
 * truncating back to A (or into A) and decoding C gives the logits of A
 * then C decoded fresh; so does a cancelled decode followed by C, and a
 * cleared context. Runs on the lfm2vl-f32 conformance model (random
 * weights, conv layers 0, 1, 3, 5). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "seer/llm.h"
#include "testlib.h"

#define MODEL "tests/conformance/cases/lfm2vl-f32/model.gguf"
enum { NA = 20, NB = 7, NC = 6 };

static float max_diff(const float *a, const float *b, int n) {
    float m = 0.0f;
    for (int i = 0; i < n; i++) m = fmaxf(m, fabsf(a[i] - b[i]));
    return m;
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

int main(void) {
    seer_error err = {{0}};
    seer_llm *m = seer_llm_load(MODEL, NULL, NULL, &err);
    CHECK_MSG(m != NULL, "%s", err.msg);
    if (!m) TEST_MAIN_END();
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

    for (int stepwise = 0; stepwise < 2; stepwise++) {
        /* reference: A + C from an empty context */
        seer_ctx_truncate(c, 0, 0);
        CHECK(decode(c, ac, NA + NC, stepwise, NULL, fresh, V) == 0);

        /* A + B, back to A, C */
        seer_ctx_truncate(c, 0, 0);
        CHECK(decode(c, a, NA, stepwise, NULL, NULL, V) == 0);
        CHECK(decode(c, b, NB, stepwise, NULL, NULL, V) == 0);
        seer_ctx_truncate(c, NA, NA);
        CHECK(decode(c, cc, NC, stepwise, NULL, got, V) == 0);
        CHECK_MSG(max_diff(got, fresh + (size_t)NA * V, NC * V) < 1e-5f, "rollback to A (%s): %g",
                  stepwise ? "stepwise" : "batch", max_diff(got, fresh + (size_t)NA * V, NC * V));

        /* into A: keep 9 tokens (the conv state then spans the cut), redo the rest of A, then C */
        seer_ctx_truncate(c, 9, 9);
        CHECK(decode(c, ac + 9, NA + NC - 9, stepwise, NULL, got, V) == 0);
        CHECK_MSG(max_diff(got, fresh + (size_t)9 * V, (NA + NC - 9) * V) < 1e-5f, "rollback into A (%s)",
                  stepwise ? "stepwise" : "batch");

        /* a cancelled decode leaves the state as it was */
        seer_ctx_truncate(c, NA, NA);
        volatile int stop = 1;
        CHECK(decode(c, b, NB, false, &stop, NULL, V) != 0);
        CHECK(seer_ctx_used(c) == NA);
        CHECK(decode(c, cc, NC, stepwise, NULL, got, V) == 0);
        CHECK_MSG(max_diff(got, fresh + (size_t)NA * V, NC * V) < 1e-5f, "after cancel (%s)",
                  stepwise ? "stepwise" : "batch");
    }
    seer_ctx_free(c);
    seer_pool_destroy(pool);
    seer_llm_free(m);
    TEST_MAIN_END();
}
