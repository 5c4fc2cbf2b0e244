/* Vision encoder + projector against llama.cpp: for every conformance case
 * with an mmproj, every media chunk whose encoder input is stored
 * (expected/image_input_<k>.f32) is encoded from exactly those pixels and
 * compared with expected/image_embd_<k>.f32 by rel_l2 against the case's
 * image_embd_rel_l2. This isolates the ViT from decoding and resizing.
 * Skips a conformance folder that is absent. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seer/threadpool.h"
#include "seer/vision.h"
#include "test_image_json.h"
#include "testlib.h"

static float *read_f32(const char *path, size_t *n) {
    size_t len;
    char *buf = tj_read_file(path, &len);
    if (!buf) return NULL;
    *n = len / sizeof(float);
    return (float *)buf;
}

static double rel_l2(const float *x, const float *ref, size_t n) {
    double num = 0, den = 0;
    for (size_t i = 0; i < n; i++) {
        double d = (double)x[i] - ref[i];
        num += d * d;
        den += (double)ref[i] * ref[i];
    }
    return den > 0 ? sqrt(num / den) : sqrt(num);
}

/* Checks one media chunk; returns 1 when it was compared. */
static int check_chunk(const char *dir, const char *name, seer_vision *v, seer_pool *pool, const tj *ch, double tol) {
    int k = (int)tj_get(ch, "index")->num;
    char path[1200];
    snprintf(path, sizeof path, "%s/expected/image_input_%d.f32", dir, k);
    size_t n_in = 0;
    float *pixels = read_f32(path, &n_in);
    if (!pixels) return 0; /* not kept (image_inputs_kept) */
    const tj *shapes = tj_get(ch, "input_shapes");
    CHECK_MSG(shapes && shapes->n == 1 && shapes->kids[0].n == 4, "%s chunk %d: expected one input shape", name, k);
    if (!shapes || shapes->n != 1 || shapes->kids[0].n != 4) {
        free(pixels);
        return 0;
    }
    seer_pixels px = {.h = (int)shapes->kids[0].kids[2].num, .w = (int)shapes->kids[0].kids[3].num, .data = pixels};
    CHECK_MSG((size_t)px.w * px.h * 3 == n_in, "%s chunk %d: input file has %zu floats for %dx%d", name, k, n_in, px.w,
              px.h);

    snprintf(path, sizeof path, "%s/expected/image_embd_%d.f32", dir, k);
    size_t n_ref = 0;
    float *ref = read_f32(path, &n_ref);
    CHECK_MSG(ref != NULL, "%s: cannot read %s", name, path);
    const seer_vision_hparams *hp = seer_vision_get_hparams(v);
    int nx, ny;
    seer_vision_out_grid(v, px.w, px.h, &nx, &ny);
    int n_tokens = (int)tj_get(ch, "n_tokens")->num, rows = seer_projector_tokens(hp->projector, nx, ny);
    CHECK_MSG(rows == n_tokens, "%s chunk %d: out grid %dx%d (%d rows), expected %d tokens", name, k, nx, ny, rows,
              n_tokens);
    CHECK_MSG((int)tj_get(ch, "n_embd")->num == hp->n_embd_out, "%s: n_embd_out %d, expected %d", name,
              hp->n_embd_out, (int)tj_get(ch, "n_embd")->num);
    size_t n_out = (size_t)rows * hp->n_embd_out;
    if (ref && n_out == n_ref) {
        float *out = malloc(n_out * sizeof(float));
        seer_error err = {{0}};
        double flops = 0, t0 = seer_time_ms();
        int rc = seer_vision_encode(v, pool, &px, out, NULL, &flops, &err);
        CHECK_MSG(rc == 0, "%s chunk %d: encode failed: %s", name, k, err.msg);
        if (rc == 0) {
            double d = rel_l2(out, ref, n_out);
            printf("  %-22s chunk %-2d %4dx%-4d -> %4d x %-3d rel_l2 %.2e (tol %.0e) %.1f ms, %.2f GFLOP\n", name, k,
                   px.w, px.h, rows, hp->n_embd_out, d, tol, seer_time_ms() - t0, flops * 1e-9);
            CHECK_MSG(d <= tol, "%s chunk %d: image_embd rel_l2 %.3e > %.1e", name, k, d, tol);
            CHECK_MSG(flops > 0, "%s chunk %d: no FLOPs counted", name, k);
        }
        free(out);
    } else {
        CHECK_MSG(0, "%s chunk %d: %zu expected floats, the encoder makes %zu", name, k, n_ref, n_out);
    }
    free(ref);
    free(pixels);
    return 1;
}

static int run_case(const char *root, const char *name, void *pool_ctx) {
    seer_pool *pool = pool_ctx;
    char dir[1024], path[1200];
    snprintf(dir, sizeof dir, "%s/cases/%s", root, name);
    snprintf(path, sizeof path, "%s/case.json", dir);
    tj cs, tokens;
    if (tj_load(path, &cs) != 0) return 0;
    const tj *mmproj = tj_get(&cs, "mmproj");
    if (!mmproj || mmproj->type != TJ_STR) {
        tj_free(&cs);
        return 0;
    }
    double tol = 0;
    const tj *t = tj_get(tj_get(&cs, "tolerance"), "image_embd_rel_l2");
    if (t && t->type == TJ_NUM) tol = t->num;
    CHECK_MSG(tol > 0, "%s: no image_embd_rel_l2 tolerance", name);

    snprintf(path, sizeof path, "%s/%s", dir, mmproj->str);
    seer_error err = {{0}};
    seer_vision *v = seer_vision_load(path, &err);
    CHECK_MSG(v != NULL, "%s: load failed: %s", name, err.msg);
    snprintf(path, sizeof path, "%s/expected/tokens.json", dir);
    int compared = 0;
    if (v && tj_load(path, &tokens) == 0) {
        const tj *chunks = tj_get(&tokens, "chunks");
        for (int c = 0; chunks && c < chunks->n; c++) {
            const tj *ch = &chunks->kids[c];
            if (strcmp(tj_get(ch, "type")->str, "image") == 0) compared += check_chunk(dir, name, v, pool, ch, tol);
        }
        tj_free(&tokens);
        CHECK_MSG(compared > 0, "%s: no stored encoder input to compare", name);
    }
    seer_vision_free(v);
    tj_free(&cs);
    return compared;
}

/* The shared cases (CONFORMANCE_DIR) and the project's own (Qwen3-VL,
 * Gemma 3, …). */
int main(void) {
    int shared;
    seer_pool *pool = seer_pool_create(2);
    int total = test_each_conformance_case(run_case, pool, &shared);
    seer_pool_destroy(pool);
    printf("vision conformance: %d chunks\n", total);
    CHECK_MSG(total > 0 || !shared, "no vision chunk was compared");
    TEST_MAIN_END();
}
