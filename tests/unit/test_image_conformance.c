/* Preprocessing against llama.cpp: for every conformance case with images,
 * decode + preprocess each image and compare every stored
 * expected/image_input_<k>.f32 (max abs ≤ the case's image_input_max_abs,
 * 1e-5 by default: the PNG cases and, with stb as decoder, the JPEG ones are
 * reproduced exactly). Skips a conformance folder that is absent. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seer/image.h"
#include "seer/vision.h"
#include "test_image_hparams.h"
#include "test_image_json.h"
#include "testlib.h"

static float *read_f32(const char *path, size_t *n) {
    size_t len;
    char *buf = tj_read_file(path, &len);
    if (!buf) return NULL;
    *n = len / 4;
    return (float *)buf;
}

static int run_case(const char *root, const char *name, void *ctx) {
    (void)ctx;
    char path[1024];
    snprintf(path, sizeof path, "%s/cases/%s/case.json", root, name);
    tj cs;
    if (tj_load(path, &cs) != 0) return 0;
    const tj *mmproj = tj_get(&cs, "mmproj");
    const tj *images = tj_get(&cs, "images");
    if (!mmproj || mmproj->type != TJ_STR || !images || images->n == 0) {
        tj_free(&cs);
        return 0;
    }
    double tol = 1e-5;
    const tj *t = tj_get(tj_get(&cs, "tolerance"), "image_input_max_abs");
    if (t && t->type == TJ_NUM) tol = t->num;

    seer_vision_hparams hp;
    int via_engine;
    snprintf(path, sizeof path, "%s/cases/%s/%s", root, name, mmproj->str);
    if (test_vision_hparams(path, &hp, &via_engine) != 0) {
        CHECK_MSG(0, "%s: cannot read %s", name, path);
        tj_free(&cs);
        return 0;
    }
    hp.preproc = tj_case_preproc(&cs);
    tj tokens;
    snprintf(path, sizeof path, "%s/cases/%s/expected/tokens.json", root, name);
    CHECK_MSG(tj_load(path, &tokens) == 0, "%s: cannot read tokens.json", name);

    /* All encoder inputs of all images, in prompt order = media chunk order. */
    seer_image_inputs all[8];
    int n_img = images->n < 8 ? images->n : 8, total = 0, compared = 0;
    for (int i = 0; i < n_img; i++) {
        seer_image img;
        seer_error err;
        snprintf(path, sizeof path, "%s/cases/%s/%s", root, name, images->kids[i].str);
        memset(&all[i], 0, sizeof all[i]);
        if (seer_image_load(path, 0, &img, &err) != 0) {
            CHECK_MSG(0, "%s: load failed: %s", name, err.msg);
            continue;
        }
        CHECK_MSG(seer_image_preprocess(&hp, &img, &all[i], &err) == 0, "%s: preprocess failed: %s", name, err.msg);
        total += all[i].n;
        seer_image_free(&img);
    }
    int k = 0;
    const tj *chunks = tj_get(&tokens, "chunks");
    for (int c = 0; chunks && c < chunks->n; c++) {
        const tj *ch = &chunks->kids[c];
        if (strcmp(tj_get(ch, "type")->str, "image") != 0) continue;
        int idx = (int)tj_get(ch, "index")->num;
        /* Find input number idx across the images. */
        const seer_pixels *px = NULL;
        for (int i = 0, base = 0; i < n_img; base += all[i].n, i++)
            if (idx >= base && idx < base + all[i].n) px = &all[i].inputs[idx - base];
        k++;
        const tj *shapes = tj_get(ch, "input_shapes");
        if (!px) {
            CHECK_MSG(0, "%s: media chunk %d has no encoder input (we made %d)", name, idx, total);
            continue;
        }
        if (shapes && shapes->n == 1) {
            int eh = (int)shapes->kids[0].kids[2].num, ew = (int)shapes->kids[0].kids[3].num;
            CHECK_MSG(px->w == ew && px->h == eh, "%s: chunk %d input is %dx%d, expected %dx%d", name, idx, px->w,
                      px->h, ew, eh);
        }
        snprintf(path, sizeof path, "%s/cases/%s/expected/image_input_%d.f32", root, name, idx);
        size_t n;
        float *ref = read_f32(path, &n);
        if (!ref) continue; /* not kept for this chunk */
        compared++;
        if (n != (size_t)3 * px->w * px->h) {
            CHECK_MSG(0, "%s: image_input_%d has %zu values, we have %d", name, idx, n, 3 * px->w * px->h);
            free(ref);
            continue;
        }
        float *planes = seer_pixels_planes(px);
        CHECK_MSG(planes != NULL, "%s: out of memory", name);
        double max_abs = 0;
        size_t worst = 0;
        for (size_t i = 0; planes && i < n; i++) {
            double d = fabs((double)planes[i] - ref[i]);
            if (d > max_abs) { max_abs = d; worst = i; }
        }
        size_t plane = (size_t)px->w * px->h;
        CHECK_MSG(max_abs <= tol, "%s: image_input_%d max abs %.3g > %.3g (channel %zu, y %zu, x %zu)", name, idx,
                  max_abs, tol, worst / plane, worst % plane / px->w, worst % px->w);
        free(planes);
        free(ref);
    }
    CHECK_MSG(k == total, "%s: %d media chunks expected, preprocessing made %d inputs", name, k, total);
    printf("%-24s %d inputs, %d compared (hparams via %s)\n", name, total, compared,
           via_engine ? "engine" : "test reader");
    for (int i = 0; i < n_img; i++) seer_image_inputs_free(&all[i]);
    tj_free(&tokens);
    tj_free(&cs);
    return compared;
}

int main(void) {
    int shared;
    int compared = test_each_conformance_case(run_case, NULL, &shared);
    CHECK_MSG(compared > 0 || !shared, "no image_input file compared");
    TEST_MAIN_END();
}
