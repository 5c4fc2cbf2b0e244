/* seer_mtmd_eval end to end on the decoder: the conformance prompts are
 * tokenized by seer_mtmd, the image chunks get llama.cpp's own embeddings
 * (image_embd_<k>.f32, so the vision encoder is not under test here), and
 * the prefill logits must match logits_prefill.f32 within the case's
 * logits_rel_l2. This checks positions in the LLM: 1-D for LLaVA/SmolVLM,
 * M-RoPE with the max(nx, ny) jump for Qwen (qwen25vl-f32-twoimg: text,
 * image, text, image, text). Also: a cancelled eval leaves the context as it
 * was, and generation continues at the right position. Skips what cannot
 * run yet (no conformance folder, decoder or tokenizer missing). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seer/llm.h"
#include "seer/mtmd.h"
#include "test_image_hparams.h"
#include "test_image_json.h"
#include "testlib.h"

static const char *str_of(const tj *j) { return j && j->type == TJ_STR ? j->str : ""; }

static double rel_l2(const float *x, const float *ref, size_t n) {
    double num = 0, den = 0;
    for (size_t i = 0; i < n; i++) {
        num += ((double)x[i] - ref[i]) * ((double)x[i] - ref[i]);
        den += (double)ref[i] * ref[i];
    }
    return den > 0 ? sqrt(num / den) : sqrt(num);
}

/* Returns 1 when the case ran, 0 when skipped. */
static int run_case(const char *root, const char *name, void *pool_ctx) {
    seer_pool *pool = pool_ctx;
    char path[1024];
    snprintf(path, sizeof path, "%s/cases/%s/case.json", root, name);
    tj cs;
    if (tj_load(path, &cs) != 0) return 0;
    int ran = 0;
    seer_error err = {{0}};
    snprintf(path, sizeof path, "%s/cases/%s/%s", root, name, str_of(tj_get(&cs, "llm")));
    seer_llm *llm = seer_llm_load(path, NULL, NULL, &err);
    if (!llm) {
        printf("%-24s SKIP: LLM not loadable here (%s)\n", name, err.msg);
        tj_free(&cs);
        return 0;
    }
    const seer_llm_info *info = seer_llm_get_info(llm);
    seer_vision_hparams hp;
    bool have_hp = false;
    const tj *mmproj = tj_get(&cs, "mmproj");
    if (mmproj && mmproj->type == TJ_STR) {
        int via_engine;
        snprintf(path, sizeof path, "%s/cases/%s/%s", root, name, mmproj->str);
        have_hp = test_vision_hparams(path, &hp, &via_engine) == 0;
        hp.preproc = tj_case_preproc(&cs);
    }
    const tj *images = tj_get(&cs, "images");
    int n_img = images ? images->n : 0;
    seer_image imgs[8] = {{0}};
    for (int i = 0; i < n_img && i < 8; i++) {
        snprintf(path, sizeof path, "%s/cases/%s/%s", root, name, images->kids[i].str);
        CHECK_MSG(seer_image_load(path, 0, &imgs[i], &err) == 0, "%s: %s", name, err.msg);
    }
    snprintf(path, sizeof path, "%s/cases/%s/%s", root, name, str_of(tj_get(&cs, "prompt_file")));
    char *prompt = tj_read_file(path, NULL);
    seer_mm_prompt p;
    if (seer_mtmd_tokenize_hparams(seer_llm_vocab(llm), have_hp ? &hp : NULL, prompt, imgs, n_img, true, &p, &err) != 0) {
        CHECK_MSG(0, "%s: tokenize failed: %s", name, err.msg);
        goto out;
    }
    /* llama.cpp's embeddings for the image chunks, in chunk order. */
    int k = 0, width = info->n_embd_inp > 0 ? info->n_embd_inp : info->n_embd; /* Qwen3-VL: DeepStack slices too */
    bool ok = true;
    for (int i = 0; i < p.n_chunks && ok; i++) {
        seer_chunk *c = &p.chunks[i];
        if (c->type != SEER_CHUNK_IMAGE) continue;
        snprintf(path, sizeof path, "%s/cases/%s/expected/image_embd_%d.f32", root, name, k++);
        size_t len;
        char *data = tj_read_file(path, &len);
        ok = data && len == sizeof(float) * (size_t)c->n_tokens * (size_t)width;
        CHECK_MSG(ok, "%s: %s missing or not %d×%d floats", name, path, c->n_tokens, width);
        c->embd = (float *)data;
    }
    p.n_embd = width;
    seer_ctx *ctx = ok ? seer_ctx_new(llm, 4096, SEER_KV_F32, pool, &err) : NULL;
    if (ok && !ctx) CHECK_MSG(0, "%s: context: %s", name, err.msg);
    if (ctx) {
        /* A cancelled eval changes nothing. */
        volatile int cancel = 1;
        CHECK_MSG(seer_mtmd_eval(ctx, &p, &cancel, &err) != 0, "%s: cancelled eval succeeded", name);
        CHECK_MSG(seer_ctx_used(ctx) == 0 && seer_ctx_next_pos(ctx) == 0, "%s: cancelled eval left %d rows, pos %d",
                  name, seer_ctx_used(ctx), seer_ctx_next_pos(ctx));

        int rc = seer_mtmd_eval(ctx, &p, NULL, &err);
        CHECK_MSG(rc == 0, "%s: eval failed: %s", name, err.msg);
        if (rc == 0) {
            ran = 1;
            CHECK_MSG(seer_ctx_used(ctx) == p.n_tokens, "%s: %d rows in the cache, expected %d", name,
                      seer_ctx_used(ctx), p.n_tokens);
            CHECK_MSG(seer_ctx_next_pos(ctx) == p.n_pos, "%s: next position %d, expected %d", name,
                      seer_ctx_next_pos(ctx), p.n_pos);
            snprintf(path, sizeof path, "%s/cases/%s/expected/logits_prefill.f32", root, name);
            size_t len;
            float *ref = (float *)tj_read_file(path, &len);
            const float *logits = seer_ctx_logits(ctx, 0);
            double tol = 1e-3;
            const tj *t = tj_get(tj_get(&cs, "tolerance"), "logits_rel_l2");
            if (t && t->type == TJ_NUM) tol = t->num;
            if (ref && logits && len == sizeof(float) * (size_t)info->n_vocab) {
                double d = rel_l2(logits, ref, (size_t)info->n_vocab);
                CHECK_MSG(d <= tol, "%s: prefill logits rel_l2 %.3g > %.3g", name, d, tol);
                printf("%-24s %d chunks, %d tokens, %d positions: logits rel_l2 %.2e (tol %.0e)\n", name, p.n_chunks,
                       p.n_tokens, p.n_pos, d, tol);
            } else {
                CHECK_MSG(0, "%s: no logits to compare", name);
            }
            free(ref);
        }
        seer_ctx_free(ctx);
    }
    seer_mm_prompt_free(&p);
out:
    free(prompt);
    for (int i = 0; i < n_img && i < 8; i++) seer_image_free(&imgs[i]);
    seer_llm_free(llm);
    tj_free(&cs);
    return ran;
}

/* Qwen3-VL's own cases have DeepStack-wide rows, Gemma 3's a non-causal
 * image chunk. */
int main(void) {
    int shared;
    seer_pool *pool = seer_pool_create(2);
    int ran = test_each_conformance_case(run_case, pool, &shared);
    seer_pool_destroy(pool);
    if (!ran) printf("NOTE: no case ran (decoder not available yet)\n");
    TEST_MAIN_END();
}
