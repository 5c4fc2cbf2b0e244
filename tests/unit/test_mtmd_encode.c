/* The whole multimodal path on two small conformance cases: images decoded,
 * seer_mtmd_tokenize with the loaded vision model (its token grids),
 * seer_mtmd_encode (embeddings within image_embd_rel_l2 of llama.cpp's,
 * timings recorded, pixels released, a second call a no-op, progress
 * reported over all its passes), then
 * seer_mtmd_eval (prefill logits within logits_rel_l2). Skips what cannot
 * run (no conformance folder, vision or decoder missing). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seer/llm.h"
#include "seer/mtmd.h"
#include "test_image_json.h"
#include "testlib.h"

static const char *str_of(const tj *j) { return j && j->type == TJ_STR ? j->str : ""; }
static double num_of(const tj *j, double def) { return j && j->type == TJ_NUM ? j->num : def; }

static double rel_l2(const float *x, const float *ref, size_t n) {
    double num = 0, den = 0;
    for (size_t i = 0; i < n; i++) {
        num += ((double)x[i] - ref[i]) * ((double)x[i] - ref[i]);
        den += (double)ref[i] * ref[i];
    }
    return den > 0 ? sqrt(num / den) : sqrt(num);
}

/* The encoder's progress reports over one seer_mtmd_encode call. */
typedef struct progress_log {
    int n;
    float last, at_half; /* the last report, and the first at or past one half */
    bool rising;
} progress_log;

static void log_progress(void *user, float fraction) {
    progress_log *l = user;
    l->rising &= fraction > l->last && fraction <= 1.0f;
    if (l->at_half == 0 && fraction >= 0.5f) l->at_half = fraction;
    l->last = fraction;
    l->n++;
}

static void run_case(const char *root, const char *name, seer_pool *pool) {
    char path[1024];
    snprintf(path, sizeof path, "%s/cases/%s/case.json", root, name);
    tj cs;
    if (tj_load(path, &cs) != 0) {
        printf("%-22s SKIP: no case.json\n", name);
        return;
    }
    const tj *tol = tj_get(&cs, "tolerance");
    seer_error err = {{0}};
    snprintf(path, sizeof path, "%s/cases/%s/%s", root, name, str_of(tj_get(&cs, "mmproj")));
    seer_vision *vision = seer_vision_load(path, &err);
    seer_vision_set_preproc(vision, tj_case_preproc(&cs)); /* as the reference prepared its images */
    snprintf(path, sizeof path, "%s/cases/%s/%s", root, name, str_of(tj_get(&cs, "llm")));
    seer_llm *llm = vision ? seer_llm_load(path, NULL, NULL, &err) : NULL;
    if (!vision || !llm) {
        printf("%-22s SKIP: %s\n", name, err.msg);
        if (vision) seer_vision_free(vision);
        tj_free(&cs);
        return;
    }
    const tj *images = tj_get(&cs, "images");
    seer_image imgs[4] = {{0}};
    int n_img = images->n < 4 ? images->n : 4;
    for (int i = 0; i < n_img; i++) {
        snprintf(path, sizeof path, "%s/cases/%s/%s", root, name, images->kids[i].str);
        CHECK_MSG(seer_image_load(path, 0, &imgs[i], &err) == 0, "%s: %s", name, err.msg);
    }
    snprintf(path, sizeof path, "%s/cases/%s/%s", root, name, str_of(tj_get(&cs, "prompt_file")));
    char *prompt = tj_read_file(path, NULL);
    seer_mm_prompt p;
    int rc = seer_mtmd_tokenize(seer_llm_vocab(llm), vision, prompt, imgs, n_img, true, &p, &err);
    CHECK_MSG(rc == 0, "%s: tokenize: %s", name, err.msg);
    tj tokens;
    snprintf(path, sizeof path, "%s/cases/%s/expected/tokens.json", root, name);
    CHECK(tj_load(path, &tokens) == 0);
    if (rc == 0) {
        CHECK_MSG(p.n_tokens == (int)num_of(tj_get(&tokens, "n_tokens"), -1) &&
                      p.n_pos == (int)num_of(tj_get(&tokens, "n_pos"), -1),
                  "%s: %d tokens / %d positions with the vision model's grids", name, p.n_tokens, p.n_pos);
        /* Cancelled before it starts: nothing encoded, pixels kept for later. */
        volatile int cancel = 1;
        CHECK(seer_mtmd_encode(vision, pool, &p, &cancel, &err) != 0);
        for (int i = 0; i < p.n_chunks; i++)
            if (p.chunks[i].type == SEER_CHUNK_IMAGE) CHECK(p.chunks[i].embd == NULL && seer_pixels_present(&p.chunks[i].pixels));
        /* Progress rises to 1 over all the chunks, one report per block of
         * each pass: the chunks share one pass where the tower takes
         * several (Qwen2.5-VL), else with two equal-depth encodes half-way
         * is the first one's end. */
        progress_log log = {.rising = true};
        seer_vision_set_progress(vision, log_progress, &log);
        rc = seer_mtmd_encode(vision, pool, &p, NULL, &err);
        seer_vision_set_progress(vision, NULL, NULL);
        CHECK_MSG(rc == 0, "%s: encode: %s", name, err.msg);
        int n_chunks = 0;
        for (int i = 0; i < p.n_chunks; i++) n_chunks += p.chunks[i].type == SEER_CHUNK_IMAGE;
        const int n_layer = seer_vision_get_hparams(vision)->n_layer;
        const int n_passes = seer_vision_batchable(vision) ? 1 : n_chunks; /* these images fit one pass */
        CHECK_MSG(log.n == n_passes * n_layer && log.rising && fabsf(log.last - 1.0f) < 1e-6f,
                  "%s: %d progress reports for %d passes of %d blocks, rising %d, last %.3f", name, log.n, n_passes,
                  n_layer, log.rising, (double)log.last);
        if (n_passes == 2) CHECK_MSG(fabsf(log.at_half - 0.5f) < 1e-6f, "%s: half-way at %.3f", name, (double)log.at_half);
    }
    if (rc == 0) {
        int k = 0;
        double worst = 0;
        for (int i = 0; i < p.n_chunks; i++) {
            const seer_chunk *c = &p.chunks[i];
            if (c->type != SEER_CHUNK_IMAGE) continue;
            CHECK(c->embd != NULL && !seer_pixels_present(&c->pixels) && c->encode_ms > 0);
            snprintf(path, sizeof path, "%s/cases/%s/expected/image_embd_%d.f32", root, name, k++);
            size_t len;
            float *ref = (float *)tj_read_file(path, &len);
            size_t n = (size_t)c->n_tokens * (size_t)p.n_embd;
            CHECK_MSG(ref && len == n * sizeof(float), "%s: %s missing or of another size", name, path);
            if (ref && len == n * sizeof(float)) {
                double d = rel_l2(c->embd, ref, n);
                if (d > worst) worst = d;
                CHECK_MSG(d <= num_of(tj_get(tol, "image_embd_rel_l2"), 2e-3), "%s: image chunk %d rel_l2 %.3g", name,
                          k - 1, d);
            }
            free(ref);
        }
        /* Nothing left to encode: the second call changes nothing. */
        const float *first = NULL;
        for (int i = 0; i < p.n_chunks && !first; i++) first = p.chunks[i].embd;
        CHECK(seer_mtmd_encode(vision, pool, &p, NULL, &err) == 0);
        for (int i = 0; i < p.n_chunks; i++)
            if (p.chunks[i].embd) {
                CHECK(p.chunks[i].embd == first);
                break;
            }
        seer_ctx *ctx = seer_ctx_new(llm, 4096, SEER_KV_F32, pool, &err);
        CHECK_MSG(ctx != NULL, "%s: context: %s", name, err.msg);
        if (ctx) {
            CHECK_MSG(seer_mtmd_eval(ctx, &p, NULL, &err) == 0, "%s: eval: %s", name, err.msg);
            snprintf(path, sizeof path, "%s/cases/%s/expected/logits_prefill.f32", root, name);
            size_t len;
            float *ref = (float *)tj_read_file(path, &len);
            int n_vocab = seer_llm_get_info(llm)->n_vocab;
            if (ref && len == sizeof(float) * (size_t)n_vocab) {
                double d = rel_l2(seer_ctx_logits(ctx, 0), ref, (size_t)n_vocab);
                CHECK_MSG(d <= num_of(tj_get(tol, "logits_rel_l2"), 1e-3), "%s: logits rel_l2 %.3g", name, d);
                printf("%-22s %d image chunks: embeddings rel_l2 ≤ %.2e, logits rel_l2 %.2e\n", name, k, worst, d);
            } else {
                CHECK_MSG(0, "%s: no reference logits", name);
            }
            free(ref);
            seer_ctx_free(ctx);
        }
    }
    if (rc == 0) seer_mm_prompt_free(&p);
    tj_free(&tokens);
    free(prompt);
    for (int i = 0; i < n_img; i++) seer_image_free(&imgs[i]);
    seer_llm_free(llm);
    seer_vision_free(vision);
    tj_free(&cs);
}

/* Mismatched files are refused before any image reaches the decoder. */
static void check_pairs(const char *root) {
    char path[1024];
    seer_error err = {{0}};
    snprintf(path, sizeof path, "%s/cases/llava15-f32/mmproj.gguf", root);
    seer_vision *llava_v = seer_vision_load(path, &err);
    snprintf(path, sizeof path, "%s/cases/qwen25vl-f32/mmproj.gguf", root);
    seer_vision *qwen_v = seer_vision_load(path, &err);
    snprintf(path, sizeof path, "%s/cases/llava15-f32/model.gguf", root);
    seer_llm *llava_m = seer_llm_load(path, NULL, NULL, &err);
    snprintf(path, sizeof path, "%s/cases/qwen25vl-f32/model.gguf", root);
    seer_llm *qwen_m = seer_llm_load(path, NULL, NULL, &err);
    if (llava_v && qwen_v && llava_m && qwen_m) {
        CHECK(seer_mtmd_check_pair(llava_m, llava_v, &err) == 0);
        CHECK(seer_mtmd_check_pair(qwen_m, qwen_v, &err) == 0);
        CHECK(seer_mtmd_check_pair(qwen_m, llava_v, &err) != 0 && strstr(err.msg, "64-wide") && strstr(err.msg, "128"));
        CHECK(seer_mtmd_check_pair(llava_m, qwen_v, &err) != 0 && strstr(err.msg, "width") != NULL);
        printf("mismatched pairs refused\n");
    } else {
        printf("pair check SKIPPED: %s\n", err.msg);
    }
    if (llava_v) seer_vision_free(llava_v);
    if (qwen_v) seer_vision_free(qwen_v);
    if (llava_m) seer_llm_free(llava_m);
    if (qwen_m) seer_llm_free(qwen_m);
}

int main(void) {
    const char *root = test_conformance_dir();
    if (!root) {
        printf("SKIP: conformance folder not found (set CONFORMANCE_DIR)\n");
        return 0;
    }
    seer_pool *pool = seer_pool_create(2);
    /* Small ones: 1-D positions with one LLaVA image; M-RoPE across two Qwen images. */
    run_case(root, "llava15-f32-smallimg", pool);
    run_case(root, "qwen25vl-f32-twoimg", pool);
    check_pairs(root);
    seer_pool_destroy(pool);
    TEST_MAIN_END();
}
