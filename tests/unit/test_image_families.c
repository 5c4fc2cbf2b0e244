/* Qwen3-VL, Gemma 3, InternVL and MiniCPM-V image rules on synthetic pictures: Gemma 3 in
 * llama.cpp mode letterboxes a wide picture on black inside image_size²,
 * in original mode (Gemma3ImageProcessor) stretches it (no bars); Qwen3-VL
 * sizes are multiples of 32 within 8..4096 tokens, aspect kept, in both
 * modes. (Pixel values against llama.cpp are test_image_conformance's.) */
#include <math.h>
#include <string.h>

#include "seer/vision.h"
#include "testlib.h"

/* A picture with no black pixel: every channel at least 40. */
static seer_image picture(int w, int h) {
    seer_image img = {.w = w, .h = h, .rgb = malloc((size_t)w * h * 3)};
    for (int i = 0; i < w * h * 3; i++) img.rgb[i] = (uint8_t)(40 + (i * 37) % 200);
    return img;
}

static seer_vision_hparams family(seer_projector p, int image_size, int patch, seer_preproc_mode mode) {
    seer_vision_hparams hp;
    memset(&hp, 0, sizeof hp);
    hp.projector = p;
    hp.image_size = image_size;
    hp.patch_size = patch;
    hp.scale_factor = 4;
    hp.preproc = mode;
    for (int c = 0; c < 3; c++) hp.mean[c] = hp.std[c] = 0.5f;
    return hp;
}

/* Black in normalised units: (0/255 − 0.5)/0.5. */
static bool row_is_black(const seer_pixels *px, int y) {
    for (int c = 0; c < 3; c++)
        for (int x = 0; x < px->w; x++)
            if (seer_pixel_at(px, c, y, x) != -1.0f) return false;
    return true;
}

static void test_gemma3(void) {
    seer_image img = picture(300, 100);
    for (int m = 0; m < 2; m++) {
        seer_vision_hparams hp = family(SEER_PROJ_GEMMA3, 224, 14, m ? SEER_PREPROC_LLAMACPP : SEER_PREPROC_ORIGINAL);
        seer_image_inputs in;
        seer_error err = {{0}};
        CHECK_MSG(seer_image_preprocess(&hp, &img, &in, &err) == 0, "%s", err.msg);
        CHECK(in.n == 1 && in.inputs[0].w == 224 && in.inputs[0].h == 224);
        if (in.n == 1) {
            /* 300×100 into 224²: content 224×75 at y 74 (llama.cpp), or all 224 rows (original) */
            bool top = row_is_black(&in.inputs[0], 0), mid = row_is_black(&in.inputs[0], 112);
            bool edge = row_is_black(&in.inputs[0], 73), inside = row_is_black(&in.inputs[0], 74);
            if (m) CHECK_MSG(top && edge && !inside && !mid, "llama.cpp mode: bars wrong");
            else CHECK_MSG(!top && !mid, "original mode: bars in a stretched picture");
        }
        seer_image_inputs_free(&in);
    }
    seer_image_free(&img);
}

static void test_qwen3vl(void) {
    static const int sizes[][2] = {{300, 100}, {90, 140}, {4000, 3000}, {33, 2000}};
    for (int m = 0; m < 2; m++) {
        seer_vision_hparams hp = family(SEER_PROJ_QWEN3VL, 768, 16, m ? SEER_PREPROC_LLAMACPP : SEER_PREPROC_ORIGINAL);
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            seer_image img = picture(sizes[i][0], sizes[i][1]);
            seer_image_inputs in;
            seer_error err = {{0}};
            CHECK_MSG(seer_image_preprocess(&hp, &img, &in, &err) == 0, "%s", err.msg);
            if (in.n == 1) {
                int w = in.inputs[0].w, h = in.inputs[0].h, tokens = (w / 32) * (h / 32);
                CHECK_MSG(w % 32 == 0 && h % 32 == 0 && tokens >= 8 && tokens <= 4096, "%dx%d -> %dx%d", sizes[i][0],
                          sizes[i][1], w, h);
                double ar = (double)sizes[i][0] / sizes[i][1], got = (double)w / h;
                CHECK_MSG(fabs(log(got / ar)) < log(1.6), "%dx%d -> %dx%d: aspect lost", sizes[i][0], sizes[i][1], w,
                          h);
            } else {
                CHECK_MSG(0, "%dx%d: %d inputs", sizes[i][0], sizes[i][1], in.n);
            }
            seer_image_inputs_free(&in);
            seer_image_free(&img);
        }
    }
}

/* InternVL original mode (dynamic_preprocess, 112-px tiles, 1 to 6 of them):
 * the grid closest in aspect ratio, a tie going to the larger grid only when
 * the image has more than half its pixels; a thumbnail unless one tile. In
 * llama.cpp mode an image within one tile is the overview alone. */
static void test_internvl(void) {
    static const struct { int w, h, mode, cols, rows, n; } cases[] = {
        {250, 170, 0, 3, 2, 7}, {90, 140, 0, 2, 3, 7}, {112, 112, 0, 1, 1, 1},
        {300, 300, 0, 2, 2, 5}, {100, 100, 0, 1, 1, 1}, {100, 80, 1, 0, 0, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        seer_vision_hparams hp = family(SEER_PROJ_INTERNVL, 112, 14,
                                        cases[i].mode ? SEER_PREPROC_LLAMACPP : SEER_PREPROC_ORIGINAL);
        hp.scale_factor = 2;
        hp.min_tiles = 1;
        hp.max_tiles = 6;
        seer_image img = picture(cases[i].w, cases[i].h);
        seer_image_inputs in;
        seer_error err = {{0}};
        CHECK_MSG(seer_image_preprocess(&hp, &img, &in, &err) == 0, "%s", err.msg);
        CHECK_MSG(in.n == cases[i].n && in.grid_cols == cases[i].cols && in.grid_rows == cases[i].rows,
                  "%dx%d: %d inputs, grid %dx%d", cases[i].w, cases[i].h, in.n, in.grid_cols, in.grid_rows);
        for (int k = 0; k < in.n; k++) {
            CHECK(in.inputs[k].w == 112 && in.inputs[k].h == 112);
            CHECK_MSG(!row_is_black(&in.inputs[k], 0), "%dx%d input %d: a bar in a stretched tile", cases[i].w,
                      cases[i].h, k);
        }
        seer_image_inputs_free(&in);
        seer_image_free(&img);
    }
}

/* MiniCPM-V (both modes: llama.cpp's llava-uhd rule): the overview first
 * (112x112 stretched when the picture fits in a slice, else about 112² px
 * with the aspect kept), then the slices of the best grid, all of equal
 * size. Sizes as llama.cpp's dumps of these pictures have them. */
static void test_minicpmv(void) {
    static const struct { int w, h, n, cols, rows, ow, oh, sw, sh; } cases[] = {
        {250, 170, 5, 2, 2, 140, 98, 140, 98},  {90, 140, 3, 1, 2, 84, 140, 126, 98},
        {60, 40, 1, 0, 0, 112, 112, 0, 0},      {113, 112, 3, 2, 1, 112, 112, 84, 154},
        {2000, 37, 8, 7, 1, 812, 14, 308, 42},  {97, 1500, 10, 1, 9, 28, 434, 84, 140},
        {1000, 1000, 10, 3, 3, 112, 112, 112, 112},
        {150, 150, 3, 1, 2, 112, 112, 154, 84}, /* 1x2 and 2x1 tie: the first grid */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        seer_vision_hparams hp = family(SEER_PROJ_RESAMPLER, 112, 14, SEER_PREPROC_ORIGINAL);
        seer_image img = picture(cases[i].w, cases[i].h);
        seer_image_inputs in;
        seer_error err = {{0}};
        CHECK_MSG(seer_image_preprocess(&hp, &img, &in, &err) == 0, "%s", err.msg);
        CHECK_MSG(in.n == cases[i].n && in.grid_cols == cases[i].cols && in.grid_rows == cases[i].rows,
                  "%dx%d: %d inputs, grid %dx%d", cases[i].w, cases[i].h, in.n, in.grid_cols, in.grid_rows);
        if (in.n == cases[i].n) {
            CHECK_MSG(in.inputs[0].w == cases[i].ow && in.inputs[0].h == cases[i].oh, "%dx%d: overview %dx%d",
                      cases[i].w, cases[i].h, in.inputs[0].w, in.inputs[0].h);
            CHECK(!row_is_black(&in.inputs[0], 0));
            for (int k = 1; k < in.n; k++)
                CHECK_MSG(in.inputs[k].w == cases[i].sw && in.inputs[k].h == cases[i].sh, "%dx%d: slice %d %dx%d",
                          cases[i].w, cases[i].h, k, in.inputs[k].w, in.inputs[k].h);
        }
        seer_image_inputs_free(&in);
        seer_image_free(&img);
    }
}

int main(void) {
    test_gemma3();
    test_qwen3vl();
    test_internvl();
    test_minicpmv();
    TEST_MAIN_END();
}
