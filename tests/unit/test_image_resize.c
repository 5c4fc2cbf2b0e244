/* Resize filters and per-family preprocessing on synthetic images, with
 * expected values worked out by hand from the conformance README's formulas
 * (the conformance test checks the real images bit for bit). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "seer/image.h"
#include "seer/vision.h"
#include "testlib.h"

static seer_image make(int w, int h, uint8_t (*f)(int x, int y, int c)) {
    seer_image img = {w, h, malloc((size_t)w * h * 3)};
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            for (int c = 0; c < 3; c++) img.rgb[((size_t)y * w + x) * 3 + c] = f(x, y, c);
    return img;
}
static uint8_t at(const seer_image *img, int x, int y, int c) { return img->rgb[((size_t)y * img->w + x) * 3 + c]; }
static uint8_t f_const(int x, int y, int c) { return (uint8_t)(60 + 40 * c + 0 * x * y); }
static uint8_t f_pattern(int x, int y, int c) { return (uint8_t)(x * 31 + y * 17 + c * 80); }
static uint8_t f_step(int x, int y, int c) { return (uint8_t)(x >= 2 ? 255 : 0) + 0 * y * c; }
static uint8_t f_pair(int x, int y, int c) { return (uint8_t)(x == 0 ? 10 : 101) + 0 * y * c; }

static void test_resize(void) {
    seer_image src = make(37, 23, f_const), dst;
    /* Constant pictures stay constant, both ways, both filters. */
    int sizes[][2] = {{336, 209}, {5, 3}, {1, 1}, {37, 23}};
    for (int s = 0; s < 4; s++)
        for (int bil = 0; bil < 2; bil++) {
            int w = sizes[s][0], h = sizes[s][1];
            int rc = bil ? seer_image_resize_bilinear(&src, w, h, &dst) : seer_image_resize_bicubic(&src, w, h, &dst);
            CHECK(rc == 0 && dst.w == w && dst.h == h);
            int bad = 0;
            for (int i = 0; rc == 0 && i < w * h; i++)
                for (int c = 0; c < 3; c++) bad += dst.rgb[i * 3 + c] != 60 + 40 * c;
            CHECK_MSG(bad == 0, "%s %dx%d: constant image changed in %d samples", bil ? "bilinear" : "bicubic", w, h, bad);
            seer_image_free(&dst);
        }
    seer_image_free(&src);

    /* Bicubic at integer source positions (halving) samples exactly. */
    src = make(8, 6, f_pattern);
    CHECK(seer_image_resize_bicubic(&src, 4, 3, &dst) == 0);
    int bad = 0;
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 4; x++)
            for (int c = 0; c < 3; c++) bad += at(&dst, x, y, c) != at(&src, 2 * x, 2 * y, c);
    CHECK_MSG(bad == 0, "bicubic halving: %d samples differ from the source grid", bad);
    seer_image_free(&dst);
    /* Same size: identity for both. */
    CHECK(seer_image_resize_bicubic(&src, 8, 6, &dst) == 0 && !memcmp(dst.rgb, src.rgb, 8 * 6 * 3));
    seer_image_free(&dst);
    CHECK(seer_image_resize_bilinear(&src, 8, 6, &dst) == 0 && !memcmp(dst.rgb, src.rgb, 8 * 6 * 3));
    seer_image_free(&dst);
    /* Bilinear is corner-aligned: the output corners are the source corners. */
    CHECK(seer_image_resize_bilinear(&src, 21, 13, &dst) == 0);
    for (int c = 0; c < 3; c++) {
        CHECK(at(&dst, 0, 0, c) == at(&src, 0, 0, c));
        CHECK(at(&dst, 20, 0, c) == at(&src, 7, 0, c));
        CHECK(at(&dst, 0, 12, c) == at(&src, 0, 5, c));
        CHECK(at(&dst, 20, 12, c) == at(&src, 7, 5, c));
    }
    seer_image_free(&dst);
    seer_image_free(&src);

    /* Bicubic on the step 0,0,255,255 upscaled ×2: output 3 sits at x = 1.5:
     * d0 = 0, d2 = d3 = 255 → a1 = 212.5, a2 = 127.5, a3 = −85 →
     * 106.25 + 31.875 − 10.625 = 127.5 → rounds away from zero to 128. */
    src = make(4, 1, f_step);
    CHECK(seer_image_resize_bicubic(&src, 8, 1, &dst) == 0);
    CHECK_MSG(at(&dst, 3, 0, 0) == 128, "bicubic step midpoint %d, want 128", at(&dst, 3, 0, 0));
    CHECK(at(&dst, 0, 0, 0) == 0 && at(&dst, 4, 0, 0) == 255);
    seer_image_free(&dst);
    seer_image_free(&src);
    /* Bilinear 10,101 → 3 wide: middle at 0.5 → 55.5 truncates to 55. */
    src = make(2, 1, f_pair);
    CHECK(seer_image_resize_bilinear(&src, 3, 1, &dst) == 0);
    CHECK_MSG(at(&dst, 1, 0, 0) == 55, "bilinear midpoint %d, want 55 (truncated)", at(&dst, 1, 0, 0));
    seer_image_free(&dst);
    seer_image_free(&src);
    /* Bad sizes are refused. */
    src = make(2, 2, f_const);
    CHECK(seer_image_resize_bicubic(&src, 0, 5, &dst) != 0 && dst.rgb == NULL);
    CHECK(seer_image_resize_bilinear(&src, 5, -1, &dst) != 0 && dst.rgb == NULL);
    seer_image_free(&src);

    /* Any rectangle of a bicubic resize is the same bytes as that part of
     * the whole (deferred tiles are made this way). */
    seer_image pat = make(29, 17, f_pattern), whole;
    int outs[][2] = {{100, 61}, {13, 40}, {29, 17}};
    for (int s = 0; s < 3; s++) {
        int w = outs[s][0], h = outs[s][1];
        CHECK(seer_image_resize_bicubic(&pat, w, h, &whole) == 0);
        int rects[][4] = {{0, 0, w, h}, {w / 3, h / 4, w / 2, h / 2}, {w - 1, h - 1, 1, 1}, {0, h / 2, w, h - h / 2}};
        for (int r = 0; r < 4; r++) {
            int x0 = rects[r][0], y0 = rects[r][1], rw = rects[r][2], rh = rects[r][3];
            uint8_t *part = malloc((size_t)rw * rh * 3);
            CHECK(seer_image_resize_bicubic_rect(&pat, w, h, x0, y0, rw, rh, part, (size_t)rw * 3) == 0);
            int bad = 0;
            for (int y = 0; y < rh; y++)
                bad += memcmp(part + (size_t)y * rw * 3, whole.rgb + ((size_t)(y0 + y) * w + x0) * 3, (size_t)rw * 3) != 0;
            CHECK_MSG(bad == 0, "%dx%d rect (%d,%d %dx%d): %d rows differ", w, h, x0, y0, rw, rh, bad);
            free(part);
        }
        uint8_t one[3];
        CHECK(seer_image_resize_bicubic_rect(&pat, w, h, 1, 0, w, 1, one, 3) != 0); /* past the right edge */
        seer_image_free(&whole);
    }
    seer_image_free(&pat);
}

static void hparams(seer_vision_hparams *hp, seer_projector proj, int image_size, int patch) {
    memset(hp, 0, sizeof *hp);
    hp->projector = proj;
    hp->image_size = image_size;
    hp->patch_size = patch;
    hp->preproc = SEER_PREPROC_LLAMACPP; /* these checks are llama.cpp's rules */
    const float mean[3] = {0.48145466f, 0.4578275f, 0.40821073f}, std[3] = {0.26862954f, 0.26130258f, 0.27577711f};
    memcpy(hp->mean, mean, sizeof mean);
    memcpy(hp->std, std, sizeof std);
}
static float norm(const seer_vision_hparams *hp, int v, int c) { return ((float)v / 255.0f - hp->mean[c]) / hp->std[c]; }
/* Pixel of any form (deferred tiles made for the look). */
static float px(const seer_pixels *p, int x, int y, int c) {
    seer_pixels tmp = {0};
    const seer_pixels *r = seer_pixels_readable(p, &tmp);
    float v = r ? seer_pixel_at(r, c, y, x) : NAN;
    seer_pixels_free(&tmp);
    return v;
}

static void test_preprocess(void) {
    seer_vision_hparams hp;
    seer_image_inputs in;
    seer_error err;
    seer_image tall = make(3, 500, f_pattern), dot = make(1, 1, f_pattern);

    /* LLaVA-1.5, 3×500: scale 0.672 → 3×336 at x = 166 on grey (122,116,104). */
    hparams(&hp, SEER_PROJ_MLP, 336, 14);
    CHECK(seer_image_preprocess(&hp, &tall, &in, &err) == 0 && in.n == 1 && in.grid_rows == 0);
    if (in.n == 1) {
        const seer_pixels *p = &in.inputs[0];
        CHECK(p->w == 336 && p->h == 336);
        const int grey[3] = {122, 116, 104};
        for (int c = 0; c < 3; c++) {
            CHECK(px(p, 0, 0, c) == norm(&hp, grey[c], c));
            CHECK(px(p, 165, 200, c) == norm(&hp, grey[c], c));
            CHECK(px(p, 169, 200, c) == norm(&hp, grey[c], c));
            CHECK(px(p, 166, 0, c) == norm(&hp, f_pattern(0, 0, c), c)); /* first source row at 0 */
        }
    }
    seer_image_inputs_free(&in);
    CHECK(in.n == 0 && in.inputs == NULL);
    /* 1×1 fills the whole square (ceil keeps the fitted side at 336). */
    CHECK(seer_image_preprocess(&hp, &dot, &in, &err) == 0 && in.n == 1);
    if (in.n == 1) CHECK(px(&in.inputs[0], 335, 335, 2) == norm(&hp, f_pattern(0, 0, 2), 2));
    seer_image_inputs_free(&in);

    /* LLaVA-1.6: small images give the overview alone; big ones tiles + overview. */
    hp.anyres = true;
    hp.n_pinpoints = 3;
    int pins[3][2] = {{336, 672}, {672, 336}, {672, 672}};
    memcpy(hp.pinpoints, pins, sizeof pins);
    CHECK(seer_image_preprocess(&hp, &dot, &in, &err) == 0 && in.n == 1 && in.inputs[0].w == 336);
    seer_image_inputs_free(&in);
    /* 3×500: (336,672) keeps 3×500 (fit 3×500 → eff 1500) like the others; least waste wins. */
    CHECK(seer_image_preprocess(&hp, &tall, &in, &err) == 0 && in.n == 3 && in.grid_rows == 2 && in.grid_cols == 1);
    seer_image_inputs_free(&in);

    /* SmolVLM: even 1×1 is tiled (4×4 tiles of the 2048 canvas) + overview. */
    hparams(&hp, SEER_PROJ_IDEFICS3, 512, 16);
    for (int c = 0; c < 3; c++) hp.mean[c] = hp.std[c] = 0.5f;
    hp.scale_factor = 4;
    hp.preproc_image_size = 2048;
    CHECK(seer_image_preprocess(&hp, &dot, &in, &err) == 0 && in.n == 17 && in.grid_rows == 4 && in.grid_cols == 4);
    seer_image_inputs_free(&in);
    /* 3×500: canvas ceil(3·4.096/512) = 1 × 4 tiles; 13×2048 content at x = 249. */
    CHECK(seer_image_preprocess(&hp, &tall, &in, &err) == 0 && in.n == 5 && in.grid_rows == 4 && in.grid_cols == 1);
    if (in.n == 5) {
        CHECK(px(&in.inputs[0], 0, 0, 0) == -1.0f);     /* black padding */
        CHECK(px(&in.inputs[0], 248, 0, 0) == -1.0f);
        CHECK(px(&in.inputs[0], 262, 0, 0) == -1.0f);
        CHECK(px(&in.inputs[4], 0, 0, 1) == norm(&hp, f_pattern(0, 0, 1), 1)); /* overview corner */
    }
    seer_image_inputs_free(&in);

    /* A picture smaller than its canvas: deferred tiles, each the bytes of
     * that part of the whole bicubic canvas (a 100×100 picture fills the
     * 2048² canvas); nothing is made until a tile is read. */
    seer_image sq = make(100, 100, f_pattern), big;
    CHECK(seer_image_preprocess(&hp, &sq, &in, &err) == 0 && in.n == 17);
    CHECK(seer_image_resize_bicubic(&sq, 2048, 2048, &big) == 0);
    if (in.n == 17) {
        int bad = 0;
        for (int t = 0; t < 16; t++) {
            const seer_pixels *p = &in.inputs[t];
            CHECK(p->source != NULL && p->rgb == NULL && p->data == NULL && seer_pixels_present(p));
            seer_pixels tmp = {0};
            const seer_pixels *r = seer_pixels_readable(p, &tmp);
            CHECK(r == &tmp && r->rgb != NULL);
            for (int y = 0; r && y < 512; y += 7)
                for (int x = 0; x < 512; x += 5)
                    for (int c = 0; c < 3; c++)
                        bad += r->rgb[((size_t)y * 512 + x) * 3 + c] != at(&big, t % 4 * 512 + x, t / 4 * 512 + y, c);
            seer_pixels_free(&tmp);
        }
        CHECK_MSG(bad == 0, "deferred tiles: %d pixels differ from the whole canvas", bad);
        CHECK(in.inputs[16].source == NULL && in.inputs[16].rgb != NULL); /* the overview is made at once */
    }
    seer_image_free(&big);
    seer_image_free(&sq);
    seer_image_inputs_free(&in);

    /* Qwen: 3×500 → 28×504 (rounding), content 4×504 at x = 12 on black. */
    hparams(&hp, SEER_PROJ_QWEN25VL, 560, 14);
    CHECK(seer_image_preprocess(&hp, &tall, &in, &err) == 0 && in.n == 1);
    if (in.n == 1) {
        const seer_pixels *p = &in.inputs[0];
        CHECK_MSG(p->w == 28 && p->h == 504, "qwen 3x500 → %dx%d", p->w, p->h);
        for (int c = 0; c < 3; c++) {
            CHECK(px(p, 11, 100, c) == norm(&hp, 0, c));
            CHECK(px(p, 16, 100, c) == norm(&hp, 0, c));
            CHECK(px(p, 12, 0, c) == norm(&hp, f_pattern(0, 0, c), c));
        }
    }
    seer_image_inputs_free(&in);
    /* 1×1 → the 6272-pixel minimum: 84×84. */
    CHECK(seer_image_preprocess(&hp, &dot, &in, &err) == 0 && in.n == 1 && in.inputs[0].w == 84 && in.inputs[0].h == 84);
    seer_image_inputs_free(&in);

    /* Bad hyper-parameters: clear errors, nothing allocated. */
    hp.patch_size = 0;
    CHECK(seer_image_preprocess(&hp, &dot, &in, &err) != 0 && in.n == 0 && strstr(err.msg, "patch size") != NULL);
    hparams(&hp, SEER_PROJ_MLP, 336, 14);
    hp.std[1] = 0;
    CHECK(seer_image_preprocess(&hp, &dot, &in, &err) != 0 && strstr(err.msg, "mean/std") != NULL);
    hparams(&hp, (seer_projector)99, 336, 14);
    strcpy(hp.projector_name, "ldp");
    CHECK(seer_image_preprocess(&hp, &dot, &in, &err) != 0 && strstr(err.msg, "ldp") != NULL);
    /* A hostile vision file cannot make preprocessing allocate gigabytes. */
    hparams(&hp, SEER_PROJ_MLP, 8192, 14);
    CHECK(seer_image_preprocess(&hp, &dot, &in, &err) != 0 && in.n == 0 && strstr(err.msg, "image size 8192") != NULL);
    hparams(&hp, SEER_PROJ_QWEN2VL, 560, 2000); /* minimum 8 cells of 4000² pixels */
    CHECK_MSG(seer_image_preprocess(&hp, &dot, &in, &err) != 0 && in.n == 0 && strstr(err.msg, "too large") != NULL,
              "huge qwen canvas: %s", err.msg);
    hparams(&hp, SEER_PROJ_MLP, 336, 14);
    hp.anyres = true;
    hp.n_pinpoints = 1;
    hp.pinpoints[0][0] = 336 * 9; /* 81 tiles */
    hp.pinpoints[0][1] = 336 * 9;
    CHECK(seer_image_preprocess(&hp, &tall, &in, &err) != 0 && in.n == 0);
    seer_image_free(&tall);
    seer_image_free(&dot);
}

int main(void) {
    test_resize();
    test_preprocess();
    TEST_MAIN_END();
}
