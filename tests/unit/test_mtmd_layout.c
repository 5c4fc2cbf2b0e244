/* Multimodal prompt rules beyond the conformance prompts: images without a
 * marker go first, marker/image count mismatches and the hard limits are
 * clear errors, BOS/EOS follow the vocabulary, pixels travel with their
 * chunks. Uses the Qwen and LLaVA vocabularies of the conformance suite
 * (skips without it) and hand-made vision hyper-parameters. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seer/gguf.h"
#include "seer/mtmd.h"
#include "seer/tokenizer.h"
#include "testlib.h"

static seer_vocab *load_vocab(const char *root, const char *rel, gguf_file **g) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    seer_error err;
    *g = gguf_open(path, &err);
    if (!*g) return NULL;
    seer_vocab *v = seer_vocab_load(*g, &err);
    if (!v) gguf_close(*g);
    return v;
}

static seer_image make_image(int w, int h) {
    seer_image img = {w, h, malloc((size_t)w * h * 3)};
    for (int i = 0; i < w * h * 3; i++) img.rgb[i] = (uint8_t)(i * 7);
    return img;
}

static void qwen_hparams(seer_vision_hparams *hp, int patch) {
    memset(hp, 0, sizeof *hp);
    hp->projector = SEER_PROJ_QWEN25VL;
    hp->image_size = 560;
    hp->patch_size = patch;
    hp->n_embd_out = 16;
    for (int c = 0; c < 3; c++) { hp->mean[c] = 0.5f; hp->std[c] = 0.5f; }
}

static void test_qwen(seer_vocab *v) {
    seer_vision_hparams hp;
    qwen_hparams(&hp, 14);
    int32_t vs = seer_vocab_find(v, "<|vision_start|>"), ve = seer_vocab_find(v, "<|vision_end|>");
    CHECK(vs >= 0 && ve >= 0);
    seer_image imgs[2] = {make_image(90, 50), make_image(112, 84)};
    seer_mm_prompt p;
    seer_error err = {{0}};

    /* No marker: both images first (each wrapped), then the text. */
    int rc = seer_mtmd_tokenize_hparams(v, &hp, "Hi", imgs, 2, true, &p, &err);
    CHECK_MSG(rc == 0, "tokenize: %s", err.msg);
    if (rc == 0) {
        /* [vs] img [ve vs] img [ve "Hi"] */
        CHECK(p.n_chunks == 5);
        CHECK(p.mrope);
        CHECK(p.chunks[0].type == SEER_CHUNK_TEXT && p.chunks[0].n_tokens == 1 && p.chunks[0].tokens[0] == vs);
        CHECK(p.chunks[1].type == SEER_CHUNK_IMAGE && p.chunks[1].image_index == 0);
        /* 90×50 → 112×84 → 4×3 cells, 4 positions */
        CHECK(p.chunks[1].nx == 4 && p.chunks[1].ny == 3 && p.chunks[1].n_tokens == 12 && p.chunks[1].n_pos == 4);
        CHECK(p.chunks[1].pixels.w == 112 && p.chunks[1].pixels.h == 84 && p.chunks[1].pixels.rgb != NULL);
        CHECK(p.chunks[2].n_tokens == 2 && p.chunks[2].tokens[0] == ve && p.chunks[2].tokens[1] == vs);
        CHECK(p.chunks[3].image_index == 1 && p.chunks[3].n_tokens == 12 && p.chunks[3].n_pos == 4);
        CHECK(p.chunks[3].pixels.w == 112 && p.chunks[3].pixels.h == 84); /* already a multiple of 28: as is */
        CHECK(p.chunks[4].tokens[0] == ve && p.chunks[4].n_tokens >= 2);
        CHECK(p.n_tokens == 1 + 12 + 2 + 12 + p.chunks[4].n_tokens);
        CHECK(p.n_pos == 1 + 4 + 2 + 4 + p.chunks[4].n_tokens);
        int32_t start[5];
        CHECK(seer_mtmd_positions(&p, 10, start) == 10 + p.n_pos);
        CHECK(start[1] == 11 && start[2] == 15 && start[3] == 17 && start[4] == 21);
        seer_mm_prompt_free(&p);
        CHECK(p.chunks == NULL && p.n_chunks == 0);
    }

    /* Marker count must match. */
    rc = seer_mtmd_tokenize_hparams(v, &hp, "a <__media__> b", imgs, 2, true, &p, &err);
    CHECK(rc != 0 && strstr(err.msg, "1 image marker but 2 images") != NULL);
    rc = seer_mtmd_tokenize_hparams(v, &hp, "<__media__><__media__>", imgs, 1, true, &p, &err);
    CHECK(rc != 0 && strstr(err.msg, "2 image markers but 1 image") != NULL);
    /* Images need a vision model. */
    rc = seer_mtmd_tokenize_hparams(v, NULL, "<__media__>", imgs, 1, true, &p, &err);
    CHECK(rc != 0 && strstr(err.msg, "vision model") != NULL);
    rc = seer_mtmd_tokenize(v, NULL, "x", imgs, 1, true, &p, &err);
    CHECK(rc != 0 && strstr(err.msg, "vision model") != NULL);
    /* A marker with nothing around it: the prompt is just the wrapped image. */
    rc = seer_mtmd_tokenize_hparams(v, &hp, "<__media__>", imgs, 1, true, &p, &err);
    CHECK(rc == 0 && p.n_chunks == 3 && p.chunks[2].n_tokens == 1);
    seer_mm_prompt_free(&p);
    /* Text only: one chunk, no BOS for Qwen. */
    rc = seer_mtmd_tokenize_hparams(v, NULL, "hello", NULL, 0, true, &p, &err);
    CHECK(rc == 0 && p.n_chunks == 1 && p.chunks[0].tokens[0] != seer_vocab_bos(v));
    seer_mm_prompt_free(&p);

    /* Too many image tokens: patch 1 → 2-pixel cells, at most 4096 tokens per
     * image; nine 128×128 images ask for 9 × 4096. */
    seer_vision_hparams tiny;
    qwen_hparams(&tiny, 1);
    seer_image many[SEER_MTMD_MAX_IMAGES + 1];
    for (int i = 0; i <= SEER_MTMD_MAX_IMAGES; i++) many[i] = make_image(128, 128);
    rc = seer_mtmd_tokenize_hparams(v, &tiny, "", many, 9, true, &p, &err);
    CHECK_MSG(rc != 0 && strstr(err.msg, "over the limit of 32768") != NULL, "token limit: rc %d, '%s'", rc, err.msg);
    CHECK(p.chunks == NULL && p.n_chunks == 0);
    rc = seer_mtmd_tokenize_hparams(v, &tiny, "", many, 8, true, &p, &err);
    CHECK_MSG(rc == 0 && p.n_tokens == 8 * 4096 + 16, "8 images: rc %d (%s), %d tokens", rc, err.msg, p.n_tokens);
    seer_mm_prompt_free(&p);
    rc = seer_mtmd_tokenize_hparams(v, &tiny, "", many, SEER_MTMD_MAX_IMAGES + 1, true, &p, &err);
    CHECK(rc != 0 && strstr(err.msg, "over the limit of 64") != NULL);
    for (int i = 0; i <= SEER_MTMD_MAX_IMAGES; i++) seer_image_free(&many[i]);
    for (int i = 0; i < 2; i++) seer_image_free(&imgs[i]);
}

static void test_llava(seer_vocab *v) {
    seer_vision_hparams hp;
    memset(&hp, 0, sizeof hp);
    hp.projector = SEER_PROJ_MLP;
    hp.image_size = 56;
    hp.patch_size = 14;
    for (int c = 0; c < 3; c++) { hp.mean[c] = 0.5f; hp.std[c] = 0.5f; }
    seer_image img = make_image(30, 20);
    seer_mm_prompt p;
    seer_error err = {{0}};
    /* BOS goes in front even when the image comes first. */
    int rc = seer_mtmd_tokenize_hparams(v, &hp, "Describe", &img, 1, true, &p, &err);
    CHECK_MSG(rc == 0, "tokenize: %s", err.msg);
    if (rc == 0) {
        CHECK(p.n_chunks == 3 && !p.mrope);
        CHECK(p.chunks[0].n_tokens == 1 && p.chunks[0].tokens[0] == seer_vocab_bos(v));
        CHECK(p.chunks[1].type == SEER_CHUNK_IMAGE && p.chunks[1].n_tokens == 16 && p.chunks[1].n_pos == 16);
        CHECK(p.chunks[1].pixels.w == 56 && p.chunks[1].pixels.h == 56);
        CHECK(seer_mtmd_positions(&p, 0, NULL) == p.n_tokens);
        seer_mm_prompt_free(&p);
    }
    /* Without add_special: no BOS. */
    rc = seer_mtmd_tokenize_hparams(v, &hp, "<__media__>", &img, 1, false, &p, &err);
    CHECK(rc == 0 && p.n_chunks == 1 && p.chunks[0].type == SEER_CHUNK_IMAGE);
    seer_mm_prompt_free(&p);
    /* LLaVA-1.6: tiles then overview, nothing between. */
    hp.anyres = true;
    hp.n_pinpoints = 2;
    hp.pinpoints[0][0] = 112; hp.pinpoints[0][1] = 56;
    hp.pinpoints[1][0] = 56; hp.pinpoints[1][1] = 112;
    seer_image wide = make_image(100, 40);
    rc = seer_mtmd_tokenize_hparams(v, &hp, "<__media__>", &wide, 1, false, &p, &err);
    CHECK_MSG(rc == 0 && p.n_chunks == 3, "anyres: rc %d (%s), %d chunks", rc, err.msg, p.n_chunks);
    for (int i = 0; rc == 0 && i < p.n_chunks; i++)
        CHECK(p.chunks[i].type == SEER_CHUNK_IMAGE && p.chunks[i].image_index == 0 && p.chunks[i].n_tokens == 16);
    seer_mm_prompt_free(&p);
    seer_image_free(&wide);
    seer_image_free(&img);
}

int main(void) {
    const char *root = test_conformance_dir();
    if (!root) {
        printf("SKIP: conformance folder not found (set CONFORMANCE_DIR)\n");
        return 0;
    }
    gguf_file *g;
    seer_vocab *v = load_vocab(root, "cases/qwen25vl-f32/model.gguf", &g);
    if (!v) {
        printf("SKIP: GGUF reader or tokenizer not available\n");
        return 0;
    }
    test_qwen(v);
    seer_vocab_free(v);
    gguf_close(g);
    v = load_vocab(root, "vocab/ggml-vocab-llama-spm.gguf", &g);
    CHECK(v != NULL);
    if (v) {
        test_llava(v);
        seer_vocab_free(v);
        gguf_close(g);
    }
    TEST_MAIN_END();
}
