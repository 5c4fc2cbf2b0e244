/* The bundled demo model, run by seer's engine, computes what PyTorch computed
 * when it was trained (tools/demo-model): the preprocessed pixels are the
 * training pixels, and the image embeddings and the logits after a held-out
 * question match the trainer's reference outputs (tests/demo/reference,
 * written by make_reference.py with the same F16-rounded weights). */
#include <math.h>
#include <string.h>

#include "seer/llm.h"
#include "seer/mtmd.h"
#include "seer/vision.h"
#include "testlib.h"

#define LLM_PATH "assets/models/demo-llm.gguf"
#define MMPROJ_PATH "assets/models/demo-mmproj.gguf"
#define SET_DIR "tests/demo"

static float *read_f32(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    float *v = malloc((size_t)size);
    *n = fread(v, 4, (size_t)size / 4, f);
    fclose(f);
    return v;
}

static double rel_l2(const float *x, const float *ref, size_t n) {
    double d = 0, r = 0;
    for (size_t i = 0; i < n; i++) {
        d += ((double)x[i] - ref[i]) * ((double)x[i] - ref[i]);
        r += (double)ref[i] * ref[i];
    }
    return sqrt(d / r);
}

static size_t argmax(const float *v, size_t n) {
    size_t best = 0;
    for (size_t i = 1; i < n; i++)
        if (v[i] > v[best]) best = i;
    return best;
}

/* First line of questions.tsv: image file and question. */
static int first_question(char *image, size_t image_cap, char *question, size_t q_cap) {
    FILE *f = fopen(SET_DIR "/questions.tsv", "r");
    if (!f) return -1;
    char line[1024];
    int ok = fgets(line, sizeof line, f) != NULL;
    fclose(f);
    if (!ok) return -1;
    char *tab1 = strchr(line, '\t'), *tab2 = tab1 ? strchr(tab1 + 1, '\t') : NULL;
    char *tab3 = tab2 ? strchr(tab2 + 1, '\t') : NULL;
    if (!tab3) return -1;
    snprintf(image, image_cap, "%s/%.*s", SET_DIR, (int)(tab1 - line), line);
    snprintf(question, q_cap, "%.*s", (int)(tab3 - tab2 - 1), tab2 + 1);
    return 0;
}

int main(void) {
    char image_path[512], question[512];
    CHECK(first_question(image_path, sizeof image_path, question, sizeof question) == 0);
    seer_error err = {{0}};
    seer_vision *vision = seer_vision_load(MMPROJ_PATH, &err);
    CHECK_MSG(vision != NULL, "%s: %s", MMPROJ_PATH, err.msg);
    /* The trainer point-sampled its pixels, which llama.cpp's bicubic gives
     * at integer multiples; the default (LLaVA's own antialiased resize) is
     * what tests/e2e/demo_model.sh's accuracy runs through. */
    seer_vision_set_preproc(vision, SEER_PREPROC_LLAMACPP);
    seer_image img = {0};
    CHECK_MSG(seer_image_load(image_path, 0, &img, &err) == 0, "%s", err.msg);
    if (!vision || !img.rgb) TEST_MAIN_END();
    const seer_vision_hparams *hp = seer_vision_get_hparams(vision);
    CHECK(hp->image_size == 64 && hp->patch_size == 8 && hp->projector == SEER_PROJ_MLP);

    /* 1. Preprocessing. The held-out images are an integer multiple of the
     * encoder size, where llama.cpp's bicubic reads source pixel (k*i, k*j)
     * exactly; the trainer fed those pixels, normalised with CLIP's mean/std. */
    seer_image_inputs in = {0};
    CHECK_MSG(seer_image_preprocess(hp, &img, &in, &err) == 0, "%s", err.msg);
    CHECK(in.n == 1 && in.inputs[0].w == 64 && in.inputs[0].h == 64);
    if (in.n == 1) {
        int step = img.w / 64;
        double worst = 0;
        for (int c = 0; c < 3; c++)
            for (int y = 0; y < 64; y++)
                for (int x = 0; x < 64; x++) {
                    float u8 = img.rgb[((size_t)(y * step) * img.w + (size_t)x * step) * 3 + c];
                    float want = (u8 / 255.0f - hp->mean[c]) / hp->std[c];
                    double d = fabs(seer_pixel_at(&in.inputs[0], c, y, x) - want);
                    if (d > worst) worst = d;
                }
        CHECK_MSG(worst <= 1e-5, "preprocessed pixels differ from the training pixels by %g", worst);
    }

    /* 2. Vision tower + projector against PyTorch. */
    int nx = 0, ny = 0;
    seer_vision_out_grid(vision, 64, 64, &nx, &ny);
    const size_t n_embd_total = (size_t)nx * ny * hp->n_embd_out;
    size_t n_ref = 0;
    float *ref_embd = read_f32(SET_DIR "/reference/embd.f32", &n_ref);
    CHECK(ref_embd != NULL && n_ref == n_embd_total);
    float *embd = malloc(sizeof(float) * n_embd_total);
    seer_pool *pool = seer_pool_create(1);
    if (ref_embd && n_ref == n_embd_total && in.n == 1) {
        CHECK_MSG(seer_vision_encode(vision, pool, &in.inputs[0], embd, NULL, NULL, &err) == 0, "%s", err.msg);
        double d = rel_l2(embd, ref_embd, n_ref);
        printf("image embeddings: rel_l2 %.2e vs PyTorch\n", d);
        CHECK_MSG(d < 5e-3, "image embeddings rel_l2 %g vs PyTorch", d);
    }

    /* 3. The whole prompt through the decoder: logits after the question. */
    seer_llm *llm = seer_llm_load(LLM_PATH, NULL, NULL, &err);
    if (!llm && err.msg[0] == 0) {
        printf("SKIP logits: seer_llm_load is not implemented yet\n");
    } else {
        CHECK_MSG(llm != NULL, "%s: %s", LLM_PATH, err.msg);
    }
    if (llm) {
        char prompt[1024];
        snprintf(prompt, sizeof prompt, "<|im_start|>user\n%s%s<|im_end|>\n<|im_start|>assistant\n",
                 "<__media__>", question);
        seer_mm_prompt p = {0};
        seer_ctx *ctx = seer_ctx_new(llm, 256, SEER_KV_F32, pool, &err);
        CHECK_MSG(ctx != NULL, "%s", err.msg);
        size_t n_logits = 0;
        float *ref_logits = read_f32(SET_DIR "/reference/logits.f32", &n_logits);
        CHECK(ref_logits && (int)n_logits == seer_llm_get_info(llm)->n_vocab);
        if (ctx && ref_logits &&
            seer_mtmd_tokenize(seer_llm_vocab(llm), vision, prompt, &img, 1, true, &p, &err) == 0 &&
            seer_mtmd_encode(vision, pool, &p, NULL, &err) == 0 && seer_mtmd_eval(ctx, &p, NULL, &err) == 0) {
            const float *logits = seer_ctx_logits(ctx, 0);
            double d = rel_l2(logits, ref_logits, n_logits);
            printf("logits: rel_l2 %.2e vs PyTorch, argmax %zu (PyTorch %zu)\n", d, argmax(logits, n_logits),
                   argmax(ref_logits, n_logits));
            CHECK_MSG(d < 1e-2, "logits rel_l2 %g vs PyTorch", d);
            CHECK(argmax(logits, n_logits) == argmax(ref_logits, n_logits));
        } else {
            CHECK_MSG(0, "prompt evaluation failed: %s", err.msg);
        }
        seer_mm_prompt_free(&p);
        free(ref_logits);
        seer_ctx_free(ctx);
        seer_llm_free(llm);
    }
    seer_pool_destroy(pool);
    free(embd);
    free(ref_embd);
    seer_image_inputs_free(&in);
    seer_image_free(&img);
    seer_vision_free(vision);
    TEST_MAIN_END();
}
