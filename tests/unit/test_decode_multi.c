/* seer_ctx_decode_multi (continuous batching): up to six conversations
 * with prompts of different lengths step together in one forward pass, one
 * leaving and others joining mid-way, the order of the rows changing (six
 * and five rows take the six-row kernels where a level has them); after
 * every step each context's logits are those of the same context stepping
 * alone (seer_ctx_decode of one token). Runs on conformance models (random
 * weights) covering each per-sequence part: plain attention (qwen3, f32),
 * M-RoPE on quantized weights (qwen3vl q4_k; HunyuanOCR's XD-RoPE, whose
 * fourth section is 0 for a text token), YaRN and the position's query
 * temperature (ministral3), sliding windows (gemma3),
 * short convolutions (lfm2), per-layer embeddings and shared KV layers
 * (gemma4 E), experts (qwen3moe), and Qwen3.5's Gated DeltaNet layers (each
 * row's conv and delta-rule state its context's own) beside its gated
 * full-attention layers, dense (f32) and with experts (qwen35moe q4_k). The batched rows go through the several-row kernels and a
 * single row through the one-row ones, so they agree up to rounding, not
 * bit for bit: the tolerance is relative to the logits' scale. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "seer/llm.h"
#include "testlib.h"

enum { SLOTS = 7, STEPS = 9 };

/* Which slots step at each step, in row order (-1 ends a list): slot 0
 * leaves after step 2, slot 3 joins at step 3 (its prompt prefilled then),
 * slots 4-6 at step 7. */
static const int schedule[STEPS][SLOTS + 1] = {
    {0, 1, 2, -1},    {2, 0, 1, -1}, {0, 1, 2, -1},          {3, 1, 2, -1},       {1, 3, 2, -1},
    {2, -1},          {3, 2, 1, -1}, {4, 5, 1, 6, 2, 3, -1}, {6, 3, 5, 2, 4, -1},
};
static const int prompt_len[SLOTS] = {5, 23, 11, 40, 7, 30, 16};
static const int joins_at[SLOTS] = {0, 0, 0, 3, 7, 7, 7};

static int32_t token_of(int slot, int i, int n_vocab) { return (int32_t)((slot * 131 + i * 37 + 7) % n_vocab); }

static int prefill(seer_ctx *c, int slot, int n_vocab) {
    int32_t toks[64];
    for (int i = 0; i < prompt_len[slot]; i++) toks[i] = token_of(slot, 1000 + i, n_vocab);
    seer_error err = {{0}};
    const seer_batch b = {.n = prompt_len[slot], .tokens = toks};
    return seer_ctx_decode(c, &b, NULL, &err);
}

static float rel_diff(const float *a, const float *b, int n) {
    float d = 0.0f, scale = 1e-6f;
    for (int i = 0; i < n; i++) {
        d = fmaxf(d, fabsf(a[i] - b[i]));
        scale = fmaxf(scale, fabsf(b[i]));
    }
    return d / scale;
}

/* Returns the largest relative difference seen. */
static float check_model(const char *path, float tol) {
    seer_error err = {{0}};
    seer_llm *m = seer_llm_load(path, NULL, NULL, &err);
    CHECK_MSG(m != NULL, "%s: %s", path, err.msg);
    if (!m) return 0;
    const int V = seer_llm_get_info(m)->n_vocab;
    seer_pool *pool = seer_pool_create(2);
    seer_ctx *multi[SLOTS], *alone[SLOTS];
    for (int s = 0; s < SLOTS; s++) {
        multi[s] = seer_ctx_new(m, 128, SEER_KV_F32, pool, &err);
        alone[s] = seer_ctx_new(m, 128, SEER_KV_F32, pool, &err);
        CHECK_MSG(multi[s] && alone[s], "%s", err.msg);
        if (!multi[s] || !alone[s]) return 0;
    }
    float worst = 0.0f;
    int steps_of[SLOTS] = {0};
    for (int t = 0; t < STEPS; t++) {
        for (int s = 0; s < SLOTS; s++)
            if (joins_at[s] == t) {
                CHECK(prefill(multi[s], s, V) == 0);
                CHECK(prefill(alone[s], s, V) == 0);
            }
        seer_ctx *rows[SLOTS];
        int32_t toks[SLOTS];
        int n = 0;
        for (const int *s = schedule[t]; *s >= 0; s++) {
            rows[n] = multi[*s];
            toks[n++] = token_of(*s, steps_of[*s]++, V);
        }
        CHECK_MSG(seer_ctx_decode_multi(rows, toks, n, &err) == 0, "%s", err.msg);
        for (int i = 0; i < n; i++) {
            const int s = schedule[t][i];
            const seer_batch b = {.n = 1, .tokens = &toks[i]};
            CHECK(seer_ctx_decode(alone[s], &b, NULL, &err) == 0);
            CHECK(seer_ctx_used(multi[s]) == seer_ctx_used(alone[s]));
            CHECK(seer_ctx_next_pos(multi[s]) == seer_ctx_next_pos(alone[s]));
            const float d = rel_diff(seer_ctx_logits(multi[s], 0), seer_ctx_logits(alone[s], 0), V);
            CHECK_MSG(d <= tol, "%s: step %d, slot %d (row %d of %d): logits differ by %g of their scale (tolerance %g)",
                      path, t, s, i, n, d, tol);
            worst = fmaxf(worst, d);
        }
    }
    for (int s = 0; s < SLOTS; s++) {
        seer_ctx_free(multi[s]);
        seer_ctx_free(alone[s]);
    }
    seer_pool_destroy(pool);
    seer_llm_free(m);
    return worst;
}

/* Bad steps are refused before anything is decoded. */
static void check_refusals(void) {
    seer_error err = {{0}};
    seer_llm *m = seer_llm_load("tests/conformance/cases/text-qwen3-f32/model.gguf", NULL, NULL, &err);
    CHECK_MSG(m != NULL, "%s", err.msg);
    if (!m) return;
    seer_pool *pool = seer_pool_create(1);
    seer_ctx *a = seer_ctx_new(m, 4, SEER_KV_F32, pool, &err), *b = seer_ctx_new(m, 16, SEER_KV_F32, pool, &err);
    CHECK(a && b);
    int32_t toks[4] = {1, 2, 3, 4};
    seer_ctx *twice[2] = {a, a};
    CHECK(seer_ctx_decode_multi(twice, toks, 2, &err) == -1 && strstr(err.msg, "twice"));
    const seer_batch fill = {.n = 4, .tokens = toks};
    CHECK(seer_ctx_decode(a, &fill, NULL, &err) == 0);
    seer_ctx *full[2] = {b, a};
    CHECK(seer_ctx_decode_multi(full, toks, 2, &err) == -1 && strstr(err.msg, "full"));
    CHECK(seer_ctx_used(b) == 0);
    int32_t bad[2] = {1, 1 << 30};
    seer_ctx *ok[2] = {b, a};
    seer_ctx_truncate(a, 0, 0);
    CHECK(seer_ctx_decode_multi(ok, bad, 2, &err) == -1 && strstr(err.msg, "vocabulary"));
    CHECK(seer_ctx_used(b) == 0 && seer_ctx_used(a) == 0);
    seer_ctx_free(a);
    seer_ctx_free(b);
    seer_pool_destroy(pool);
    seer_llm_free(m);
}

int main(void) {
    static const struct {
        const char *path;
        float tol;
    } models[] = {
        {"tests/conformance/cases/text-qwen3-f32/model.gguf", 1e-4f},
        {"tests/conformance/cases/qwen3vl-q4_k-twoimg/model.gguf", 1e-4f},
        {"tests/conformance/cases/hunyuanocr-q8_0-twoimg/model.gguf", 1e-4f},
        {"tests/conformance/cases/ministral3-f32/model.gguf", 1e-4f},
        {"tests/conformance/cases/gemma3-q4_k/model.gguf", 1e-4f},
        {"tests/conformance/cases/lfm2vl-q8_0/model.gguf", 1e-4f},
        {"tests/conformance/cases/text-gemma4-e-q8_0/model.gguf", 1e-4f},
        {"tests/conformance/cases/text-qwen3moe-f32/model.gguf", 1e-4f},
        {"tests/conformance/cases/text-qwen35-f32/model.gguf", 1e-4f},
        {"tests/conformance/cases/qwen35moe-q4_k-twoimg/model.gguf", 1e-4f},
    };
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++) {
        const float worst = check_model(models[i].path, models[i].tol);
        printf("%s: largest relative difference %g\n", models[i].path, worst);
    }
    check_refusals();
    TEST_MAIN_END();
}
