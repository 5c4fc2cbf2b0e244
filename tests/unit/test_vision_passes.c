/* Shared vision passes change no result: for every conformance case with
 * an mmproj, the encoder inputs of a small scene and of its mirror image
 * (up to 6: a tiled tower cuts them into many) are encoded one a pass and
 * then several a pass (seer_vision_encode_passes), and every embedding
 * must be the same bit for bit. A tower that takes several inputs a pass
 * must have made fewer passes than inputs; one that does not (a class
 * token) one each. Cases whose inputs the tower refuses are skipped; most
 * must run. The pool cuts its work at random places (SEER_POOL_SHAKE), so
 * an embedding that depends on the cuts fails here too. Under an emulator (TEST_RUNNER) the project's cases only, two
 * inputs each. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seer/threadpool.h"
#include "seer/vision.h"
#include "test_image_json.h"
#include "testlib.h"

#define MAX_INPUTS 6

typedef struct inputs {
    seer_pixels px[MAX_INPUTS];
    int n, cap; /* cap <= MAX_INPUTS: the inputs kept */
} inputs;

/* Appends the encoder inputs of img, mirrored left to right when asked
 * (a second, different picture of the same size). */
static void add_image(const seer_vision_hparams *hp, const seer_image *src, bool mirror, inputs *in) {
    seer_error err = {{0}};
    seer_image img = {src->w, src->h, malloc((size_t)src->w * src->h * 3)};
    if (!img.rgb) return;
    for (int y = 0; y < img.h; y++)
        for (int x = 0; x < img.w; x++)
            memcpy(img.rgb + ((size_t)y * img.w + x) * 3,
                   src->rgb + ((size_t)y * img.w + (mirror ? img.w - 1 - x : x)) * 3, 3);
    seer_image_inputs made;
    int rc = seer_image_preprocess(hp, &img, &made, &err);
    free(img.rgb);
    if (rc != 0) return;
    for (int i = 0; i < made.n && in->n < in->cap; i++) {
        in->px[in->n++] = made.inputs[i];
        memset(&made.inputs[i], 0, sizeof made.inputs[i]); /* the pixels are ours now */
    }
    seer_image_inputs_free(&made);
}

/* Encodes all inputs into one buffer, input i at out[i]; NULL on failure. */
static float *encode_all(seer_vision *v, seer_pool *pool, const inputs *in, int max_patches, float **out,
                         seer_vision_passes *passes, size_t *floats) {
    const seer_vision_hparams *hp = seer_vision_get_hparams(v);
    size_t at[MAX_INPUTS + 1] = {0};
    for (int i = 0; i < in->n; i++) {
        int nx, ny;
        seer_vision_out_grid(v, in->px[i].w, in->px[i].h, &nx, &ny);
        at[i + 1] = at[i] + (size_t)seer_projector_tokens(hp->projector, nx, ny) * (size_t)hp->n_embd_out;
    }
    float *all = malloc(at[in->n] * sizeof(float));
    if (!all) return NULL;
    for (int i = 0; i < in->n; i++) out[i] = all + at[i];
    seer_error err = {{0}};
    if (seer_vision_encode_passes(v, pool, in->px, in->n, out, max_patches, NULL, passes, NULL, NULL, &err) != 0) {
        free(all);
        return NULL;
    }
    *floats = at[in->n];
    return all;
}

typedef struct run_ctx {
    seer_pool *pool;
    const seer_image *scene;
    int cap; /* inputs a tower */
} run_ctx;

static int run_case(const char *root, const char *name, void *ctx) {
    seer_pool *pool = ((run_ctx *)ctx)->pool;
    const seer_image *scene = ((run_ctx *)ctx)->scene;
    char path[1200];
    snprintf(path, sizeof path, "%s/cases/%s/case.json", root, name);
    tj cs;
    if (tj_load(path, &cs) != 0) return 0;
    const tj *mm = tj_get(&cs, "mmproj");
    if (!mm || mm->type != TJ_STR) {
        tj_free(&cs);
        return 0;
    }
    snprintf(path, sizeof path, "%s/cases/%s/%s", root, name, mm->str);
    seer_error err = {{0}};
    seer_vision *v = seer_vision_load(path, &err);
    CHECK_MSG(v != NULL, "%s: %s", name, err.msg);
    int ran = 0;
    inputs in = {.n = 0, .cap = ((run_ctx *)ctx)->cap};
    if (v) {
        const seer_vision_hparams *hp = seer_vision_get_hparams(v);
        /* a small scene and its mirror image: a tiled tower cuts even these into several inputs */
        add_image(hp, scene, false, &in);
        add_image(hp, scene, true, &in);
    }
    float *one[MAX_INPUTS], *shared[MAX_INPUTS];
    seer_vision_passes p_one = {0}, p_shared = {0};
    size_t n_one = 0, n_shared = 0;
    float *a = in.n > 1 ? encode_all(v, pool, &in, 0, one, &p_one, &n_one) : NULL;
    float *b = a ? encode_all(v, pool, &in, SEER_VISION_PASS_PATCHES, shared, &p_shared, &n_shared) : NULL;
    if (!a) {
        printf("%-26s SKIP: %d inputs, or the tower refuses them\n", name, in.n);
    } else {
        CHECK_MSG(b != NULL, "%s: the shared passes failed where single ones did not", name);
        if (b) {
            CHECK_MSG(n_one == n_shared && memcmp(a, b, n_one * sizeof(float)) == 0,
                      "%s: %d inputs, the embeddings differ between one input a pass and several", name, in.n);
            CHECK_MSG(p_one.calls == in.n, "%s: %d passes for %d inputs one a pass", name, p_one.calls, in.n);
            if (seer_vision_batchable(v))
                CHECK_MSG(p_shared.calls < in.n, "%s: %d inputs took %d shared passes", name, in.n, p_shared.calls);
            else
                CHECK_MSG(p_shared.calls == in.n, "%s: a tower without shared passes made %d for %d inputs", name,
                          p_shared.calls, in.n);
            printf("%-26s %2d inputs: %2d passes alone, %2d shared, same bits\n", name, in.n, p_one.calls,
                   p_shared.calls);
            ran = seer_vision_batchable(v) ? 1 : 0;
        }
    }
    free(a);
    free(b);
    for (int i = 0; i < in.n; i++) seer_pixels_free(&in.px[i]);
    if (v) seer_vision_free(v);
    tj_free(&cs);
    return ran;
}

int main(void) {
    unsetenv("SEER_VISION_PASS_PATCHES"); /* the test sets the budget itself */
    /* the pool's on-demand claims of random lengths: a result that depends on where the work is cut (which the
     * timing decides) differs between the two encodes instead of only on a loaded machine */
    setenv("SEER_POOL_SHAKE", "1", 1);
    seer_image scene;
    seer_error err = {{0}};
    if (seer_image_load("tests/conformance/images/scene-90x140.png", 0, &scene, &err) != 0) {
        CHECK_MSG(0, "scene-90x140.png: %s", err.msg);
        TEST_MAIN_END();
    }
    run_ctx ctx = {seer_pool_create(2), &scene, MAX_INPUTS};
    /* under an emulator (make CROSS=aarch64's qemu: TEST_RUNNER) the project's towers only, two inputs each: the
     * whole set took minutes there */
    const char *emulated = getenv("TEST_RUNNER");
    ctx.cap = emulated && *emulated ? 2 : MAX_INPUTS;
    int shared_dir = 0;
    const int batched = ctx.cap < MAX_INPUTS ? test_each_case("tests/conformance", run_case, &ctx)
                                             : test_each_conformance_case(run_case, &ctx, &shared_dir);
    /* the project's cases alone hold 27 towers that share passes (SigLIP, Qwen, Pixtral, ...) */
    CHECK_MSG(batched >= 15, "only %d cases encoded in shared passes", batched);
    printf("%d cases encoded in shared passes, the same bits as one input a pass\n", batched);
    seer_pool_destroy(ctx.pool);
    seer_image_free(&scene);
    TEST_MAIN_END();
}
