/* Idefics3 with tiles that are not a multiple of the patch (SmolVLM-Instruct:
 * 384 px over 14 px patches, pixel shuffle 3): the patch convolution drops
 * the last columns and rows, as llama.cpp's does. Here on a tiny tower at
 * 88 px / 14 px / shuffle 3 (a 6×6 grid, 4 tokens): an 88×88 input encodes
 * exactly as its top-left 84×84, the token grid says 4, preprocessing in
 * both modes gives 88×88 tiles the encoder takes, and an input whose grid
 * does not divide by the shuffle is refused with one clear line. */
#include "seer/vision.h"
#include "test_vision_synth.h"
#include "testlib.h"

enum { TILE = 88, PATCH = 14, SHUFFLE = 3, CROP = 84 };

static float *encode(seer_vision *v, seer_pool *pool, const float *planes, int w, int h, int *n_out,
                     seer_error *err) {
    seer_pixels px = {.w = w, .h = h, .data = (float *)planes};
    int nx = 0, ny = 0;
    seer_vision_out_grid(v, w, h, &nx, &ny);
    *n_out = nx * ny * seer_vision_get_hparams(v)->n_embd_out;
    float *out = malloc(sizeof *out * (size_t)(*n_out > 0 ? *n_out : 1));
    if (out && seer_vision_encode(v, pool, &px, out, NULL, NULL, err) == 0) return out;
    free(out);
    return NULL;
}

int main(void) {
    synth_spec spec = {.family = SYNTH_SIGLIP, .image_size = TILE, .patch = PATCH, .n_embd = 32, .n_ff = 64,
                       .n_layer = 2, .n_head = 2, .n_out = 16, .matrix_type = SEER_TYPE_F32,
                       .patch_type = SEER_TYPE_F32, .scale_factor = SHUFFLE, .seed = 7};
    char path[512];
    snprintf(path, sizeof path, "%s/idefics3-88.gguf", test_tmpdir());
    seer_error err = {{0}};
    CHECK_MSG(synth_write(&spec, path, &err) == 0, "%s", err.msg);
    seer_vision *v = seer_vision_load(path, &err);
    CHECK_MSG(v != NULL, "%s", err.msg);
    if (!v) TEST_MAIN_END();
    seer_pool *pool = seer_pool_create(2);

    int nx = 0, ny = 0;
    seer_vision_out_grid(v, TILE, TILE, &nx, &ny);
    CHECK_MSG(nx * ny == 4, "88 px tile: %d tokens, want (6/3)² = 4", nx * ny);

    /* Random planes; the crop is the top-left 84×84 of each plane. */
    float *whole = malloc(sizeof *whole * 3 * TILE * TILE), *crop = malloc(sizeof *crop * 3 * CROP * CROP);
    uint64_t st = 99;
    for (int i = 0; i < 3 * TILE * TILE; i++) whole[i] = synth_rand(&st);
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < CROP; y++)
            memcpy(crop + ((size_t)c * CROP + y) * CROP, whole + ((size_t)c * TILE + y) * TILE, sizeof *crop * CROP);
    int n_whole = 0, n_crop = 0;
    float *a = encode(v, pool, whole, TILE, TILE, &n_whole, &err);
    CHECK_MSG(a != NULL, "88x88 input refused: %s", err.msg);
    float *b = encode(v, pool, crop, CROP, CROP, &n_crop, &err);
    CHECK_MSG(b != NULL, "84x84 input refused: %s", err.msg);
    if (a && b) {
        CHECK(n_whole == n_crop && n_whole == 4 * 16);
        int differ = 0;
        for (int i = 0; i < n_whole && n_whole == n_crop; i++) differ += a[i] != b[i];
        CHECK_MSG(differ == 0, "%d outputs differ between 88x88 and its 84x84 crop (the dropped pixels leaked in)",
                  differ);
    }
    free(a);
    free(b);

    /* 98 px: a 7×7 grid, not whole 3×3 cells. */
    float *odd = calloc(3 * 98 * 98, sizeof *odd);
    int n_odd = 0;
    float *c = encode(v, pool, odd, 98, 98, &n_odd, &err);
    CHECK_MSG(c == NULL && strstr(err.msg, "7x7 patch grid") != NULL && strchr(err.msg, '\n') == NULL,
              "98x98: %s", err.msg);
    free(c);
    free(odd);

    /* Preprocessing in both modes makes tiles and an overview of 88 px. */
    seer_image img = {.w = 200, .h = 130, .rgb = malloc(200 * 130 * 3)};
    for (int i = 0; i < 200 * 130 * 3; i++) img.rgb[i] = (uint8_t)(i * 7);
    for (int mode = 0; mode < 2; mode++) {
        seer_vision_set_preproc(v, mode ? SEER_PREPROC_LLAMACPP : SEER_PREPROC_ORIGINAL);
        seer_image_inputs in;
        CHECK_MSG(seer_image_preprocess(seer_vision_get_hparams(v), &img, &in, &err) == 0, "%s", err.msg);
        CHECK_MSG(in.n == in.grid_rows * in.grid_cols + 1 && in.n > 1, "mode %d: %d inputs, grid %dx%d", mode, in.n,
                  in.grid_cols, in.grid_rows);
        for (int i = 0; i < in.n; i++) {
            CHECK(in.inputs[i].w == TILE && in.inputs[i].h == TILE);
            float *planes = seer_pixels_planes(&in.inputs[i]);
            int n = 0;
            float *e = planes ? encode(v, pool, planes, TILE, TILE, &n, &err) : NULL;
            CHECK_MSG(e != NULL, "mode %d tile %d: %s", mode, i, err.msg);
            free(e);
            free(planes);
        }
        seer_image_inputs_free(&in);
    }
    seer_image_free(&img);
    free(whole);
    free(crop);
    seer_pool_destroy(pool);
    seer_vision_free(v);
    TEST_MAIN_END();
}
