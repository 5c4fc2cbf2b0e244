/* Preprocessing in the original mode against the models' own processors
 * (HF transformers, conformance/preprocess/): for every entry of its
 * index.json, seer's encoder inputs for the source image must have the same
 * count and sizes (so Qwen's grid) and lie within relative L2 1e-2 of the
 * stored ones (README's tolerance). llama.cpp mode's distance is printed
 * next to it where the sizes agree. Skips when the folder is absent. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "seer/image.h"
#include "seer/vision.h"
#include "test_image_json.h"
#include "testlib.h"

#define REL_L2_TOLERANCE 1e-2

/* The processors' settings (index.json "processor") as a vision model's
 * hyper-parameters; only what preprocessing reads. */
static int family_hparams(const char *family, seer_vision_hparams *hp) {
    memset(hp, 0, sizeof *hp);
    if (strcmp(family, "qwen25vl") == 0) {
        hp->projector = SEER_PROJ_QWEN25VL;
        hp->image_size = 560;
        hp->patch_size = 14;
    } else if (strcmp(family, "llava15pad") == 0) {
        hp->projector = SEER_PROJ_MLP;
        hp->image_size = 336;
        hp->patch_size = 14;
    } else if (strcmp(family, "smolvlm") == 0) {
        hp->projector = SEER_PROJ_IDEFICS3;
        hp->image_size = 512;
        hp->patch_size = 16;
        hp->scale_factor = 4;
        hp->preproc_image_size = 2048;
    } else {
        return -1;
    }
    snprintf(hp->projector_name, sizeof hp->projector_name, "%s", family);
    return 0;
}

/* Relative L2 of seer's normalised input against the stored 8-bit image
 * normalised the same way; -1 when the sizes differ. */
static double rel_l2(const seer_pixels *px, const seer_image *ref, const seer_vision_hparams *hp, int *max_abs8) {
    if (px->w != ref->w || px->h != ref->h) return -1;
    float *planes = seer_pixels_planes(px);
    if (!planes) return -1;
    double num = 0, den = 0;
    *max_abs8 = 0;
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < ref->h; y++)
            for (int x = 0; x < ref->w; x++) {
                double r = ((double)ref->rgb[((size_t)y * ref->w + x) * 3 + c] / 255.0 - hp->mean[c]) / hp->std[c];
                double d = planes[((size_t)c * ref->h + y) * ref->w + x] - r;
                num += d * d;
                den += r * r;
                int d8 = (int)lround(fabs(d) * hp->std[c] * 255.0);
                if (d8 > *max_abs8) *max_abs8 = d8;
            }
    free(planes);
    return den > 0 ? sqrt(num / den) : sqrt(num);
}

static void run_entry(const char *root, const tj *e) {
    const tj *family = tj_get(e, "family"), *image = tj_get(e, "image"), *files = tj_get(e, "files");
    const tj *mean = tj_get(e, "mean"), *std = tj_get(e, "std"), *grid = tj_get(e, "grid_thw");
    seer_vision_hparams hp;
    if (!family || !image || !files || !mean || !std || family_hparams(family->str, &hp) != 0) {
        CHECK_MSG(0, "index.json: an entry this test cannot read (family %s)", family ? family->str : "?");
        return;
    }
    for (int c = 0; c < 3; c++) {
        hp.mean[c] = (float)mean->kids[c].num;
        hp.std[c] = (float)std->kids[c].num;
    }
    char path[1024];
    seer_image img;
    seer_error err;
    snprintf(path, sizeof path, "%s/images/%s", root, image->str);
    if (seer_image_load(path, 0, &img, &err) != 0) {
        CHECK_MSG(0, "%s", err.msg);
        return;
    }
    seer_image_inputs orig, cpp;
    hp.preproc = SEER_PREPROC_ORIGINAL;
    int rc = seer_image_preprocess(&hp, &img, &orig, &err);
    CHECK_MSG(rc == 0, "%s %s: %s", family->str, image->str, err.msg);
    hp.preproc = SEER_PREPROC_LLAMACPP;
    CHECK_MSG(seer_image_preprocess(&hp, &img, &cpp, &err) == 0, "%s %s llamacpp: %s", family->str, image->str, err.msg);
    seer_image_free(&img);
    CHECK_MSG(orig.n == files->n, "%s %s: %d encoder inputs, the processor made %d", family->str, image->str, orig.n,
              files->n);
    if (grid && orig.n == 1)
        CHECK_MSG(orig.inputs[0].h / hp.patch_size == (int)grid->kids[1].num &&
                      orig.inputs[0].w / hp.patch_size == (int)grid->kids[2].num,
                  "%s %s: patch grid %dx%d, the processor's %dx%d", family->str, image->str,
                  orig.inputs[0].h / hp.patch_size, orig.inputs[0].w / hp.patch_size, (int)grid->kids[1].num,
                  (int)grid->kids[2].num);
    double worst = 0, worst_cpp = 0;
    int worst8 = 0, same_sizes = cpp.n == files->n;
    for (int i = 0; i < files->n && i < orig.n; i++) {
        seer_image ref;
        snprintf(path, sizeof path, "%s/preprocess/%s", root, files->kids[i].str);
        if (seer_image_load(path, 0, &ref, &err) != 0) {
            CHECK_MSG(0, "%s", err.msg);
            continue;
        }
        int d8;
        double d = rel_l2(&orig.inputs[i], &ref, &hp, &d8);
        CHECK_MSG(d >= 0 && d <= REL_L2_TOLERANCE, "%s: %dx%d vs %dx%d, relative L2 %.3g (tolerance %g)",
                  files->kids[i].str, orig.inputs[i].w, orig.inputs[i].h, ref.w, ref.h, d, REL_L2_TOLERANCE);
        if (d > worst) worst = d;
        if (d8 > worst8) worst8 = d8;
        int c8;
        double dc = same_sizes ? rel_l2(&cpp.inputs[i], &ref, &hp, &c8) : -1;
        if (dc < 0) same_sizes = 0;
        else if (dc > worst_cpp) worst_cpp = dc;
        seer_image_free(&ref);
    }
    char cpp_text[64];
    if (same_sizes) snprintf(cpp_text, sizeof cpp_text, "%.4g", worst_cpp);
    else snprintf(cpp_text, sizeof cpp_text, "other sizes (%d inputs, first %dx%d)", cpp.n,
                  cpp.n ? cpp.inputs[0].w : 0, cpp.n ? cpp.inputs[0].h : 0);
    printf("%-10s %-22s %2d inputs %4dx%-4d original rel_l2 %.3g (max %d/255)  llamacpp %s\n", family->str,
           image->str, orig.n, orig.n ? orig.inputs[0].w : 0, orig.n ? orig.inputs[0].h : 0, worst, worst8, cpp_text);
    seer_image_inputs_free(&orig);
    seer_image_inputs_free(&cpp);
}

/* Pillow's resampling on a case worked by hand: a 4×1 ramp (0, 10, 20, 31)
 * halved with the triangle filter, its support doubled to 2 source pixels:
 * output 0 (centre 1.0) weighs pixels 0..2 by 0.75, 0.75, 0.25 (the edge
 * cuts the fourth tap; renormalised by 1.75): 12.5/1.75 = 7.14 → 7; output 1
 * (centre 3.0) pixels 1..3 by 0.25, 0.75, 0.75: 40.75/1.75 = 23.3 → 23. */
static void check_pil_by_hand(void) {
    uint8_t px[12] = {0, 0, 0, 10, 10, 10, 20, 20, 20, 31, 31, 31};
    seer_image src = {.w = 4, .h = 1, .rgb = px}, dst;
    CHECK(seer_image_resize_pil(&src, 2, 1, SEER_PIL_BILINEAR, &dst) == 0);
    CHECK_MSG(dst.rgb[0] == 7 && dst.rgb[3] == 23, "bilinear halving: %d %d", dst.rgb[0], dst.rgb[3]);
    seer_image_free(&dst);
    CHECK(seer_image_resize_pil(&src, 0, 1, SEER_PIL_BICUBIC, &dst) != 0 && dst.rgb == NULL);
}

/* LLaVA's square of a panorama is never made whole: 20000×3 pixels padded
 * to 20000² (400 M pixels) becomes one 336² input, grey above and below. */
static void check_panorama(void) {
    seer_vision_hparams hp;
    family_hparams("llava15pad", &hp);
    for (int c = 0; c < 3; c++) hp.mean[c] = hp.std[c] = 0.5f;
    seer_image pano = {.w = 20000, .h = 3, .rgb = malloc(20000 * 3 * 3)};
    if (!pano.rgb) return;
    memset(pano.rgb, 255, 20000 * 3 * 3);
    seer_image_inputs in;
    seer_error err;
    CHECK_MSG(seer_image_preprocess(&hp, &pano, &in, &err) == 0 && in.n == 1, "panorama: %s", err.msg);
    if (in.n == 1) {
        const seer_pixels *p = &in.inputs[0];
        CHECK(p->w == 336 && p->h == 336);
        CHECK_MSG(p->rgb[0] == 127 && p->rgb[((size_t)168 * 336 + 100) * 3] > 127, "panorama: corner %d, middle %d",
                  p->rgb[0], p->rgb[((size_t)168 * 336 + 100) * 3]);
    }
    seer_image_inputs_free(&in);
    seer_image_free(&pano);
}

/* Qwen's two smart resizes disagree by a cell where a side is an odd
 * multiple of 14 pixels: 70/28 = 2.5 rounds to 2 in Python (half to even,
 * the processor) and to 3 in llama.cpp (half away from zero). */
static void check_qwen_rounding(void) {
    seer_vision_hparams hp;
    family_hparams("qwen25vl", &hp);
    for (int c = 0; c < 3; c++) hp.mean[c] = hp.std[c] = 0.5f;
    seer_image img = {.w = 1000, .h = 70, .rgb = calloc(1000 * 70, 3)};
    const int want_h[2] = {56, 84};
    for (int mode = 0; mode < 2 && img.rgb; mode++) {
        hp.preproc = mode ? SEER_PREPROC_LLAMACPP : SEER_PREPROC_ORIGINAL;
        seer_image_inputs in;
        seer_error err;
        CHECK_MSG(seer_image_preprocess(&hp, &img, &in, &err) == 0 && in.n == 1, "%s", err.msg);
        if (in.n == 1)
            CHECK_MSG(in.inputs[0].w == 1008 && in.inputs[0].h == want_h[mode], "qwen 1000x70 mode %d: %dx%d", mode,
                      in.inputs[0].w, in.inputs[0].h);
        seer_image_inputs_free(&in);
    }
    seer_image_free(&img);
}

int main(void) {
    check_pil_by_hand();
    check_panorama();
    check_qwen_rounding();
    const char *root = test_conformance_dir();
    char path[1024];
    snprintf(path, sizeof path, "%s/preprocess/index.json", root ? root : ".");
    tj index;
    if (!root || tj_load(path, &index) != 0) {
        printf("SKIP: %s not found (set CONFORMANCE_DIR)\n", path);
        TEST_MAIN_END();
    }
    CHECK_MSG(index.type == TJ_ARR && index.n > 0, "%s: not a list", path);
    for (int i = 0; i < index.n; i++) run_entry(root, &index.kids[i]);
    tj_free(&index);
    TEST_MAIN_END();
}
