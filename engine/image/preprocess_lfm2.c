/* LFM2-VL as llama.cpp prepares it (mtmd_image_preprocessor_lfm2). The
 * smart size: sides multiples of patch × merge, 64..256 tokens of
 * (patch·merge)² pixels, aspect kept (Pillow bilinear, stretched).
 * An image whose sides rounded to that unit exceed twice the 256-token area
 * is tiled instead: the tile grid (2 to 10 tiles of 512 px) whose aspect
 * ratio is closest to the image's, the image fitted into the grid (Pillow
 * bilinear, aspect kept, centred on black) and cut into tiles row by row,
 * then the smart-sized image as the thumbnail. Tiles first, thumbnail last. */
#include <float.h>
#include <math.h>

#include "image/preprocess_internal.h"

#define LFM2_MIN_TOKENS 64
#define LFM2_MAX_TOKENS 256
#define LFM2_TILE_TOLERANCE 2.0
#define LFM2_TILE 512
#define LFM2_MIN_TILES 2
#define LFM2_MAX_TILES 10

static int64_t round_to(int v, int f) { return (int64_t)nearbyint((double)v / f) * f; }

/* The grid llama.cpp picks: candidates w×h with 2..10 tiles by increasing
 * tile count; the first with the smallest aspect-ratio difference wins, a
 * later one of equal difference only when the image covers more than half
 * of its area. (Candidates of equal tile count never tie at the smallest
 * difference: a square grid lies between any two of them, so their order
 * among themselves does not matter.) */
static void lfm2_grid(int w, int h, int *cols, int *rows) {
    const float aspect = (float)w / (float)h, area = (float)(w * h);
    float best_diff = FLT_MAX;
    *cols = *rows = 1;
    for (int n = LFM2_MIN_TILES; n <= LFM2_MAX_TILES; n++)
        for (int gw = 1; gw <= n; gw++) {
            if (n % gw != 0) continue;
            const int gh = n / gw;
            const float diff = fabsf(aspect - (float)gw / (float)gh);
            if (diff < best_diff || (diff == best_diff && area > 0.5f * (float)(LFM2_TILE * LFM2_TILE * n))) {
                if (diff < best_diff) best_diff = diff;
                *cols = gw;
                *rows = gh;
            }
        }
}

static int append_tiles(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out,
                        seer_error *err) {
    int cols, rows;
    lfm2_grid(img->w, img->h, &cols, &rows);
    seer_image canvas;
    if (image_letterbox_pil(img, cols * LFM2_TILE, rows * LFM2_TILE, SEER_PIL_BILINEAR, &canvas) != 0) {
        seer_error_set(err, "preprocess: %d×%d tile canvas too large or out of memory", cols * LFM2_TILE,
                       rows * LFM2_TILE);
        return -1;
    }
    int rc = image_inputs_append_cells(out, &canvas, cols, rows, hp);
    seer_image_free(&canvas);
    if (rc != 0) seer_error_set(err, "preprocess: out of memory");
    return rc;
}

int preprocess_lfm2(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out, seer_error *err) {
    const int f = hp->patch_size * (hp->scale_factor > 0 ? hp->scale_factor : 1);
    const int64_t unit = (int64_t)f * f;
    int64_t rw = round_to(img->w, f), rh = round_to(img->h, f);
    if (rw < hp->patch_size) rw = hp->patch_size;
    if (rh < hp->patch_size) rh = hp->patch_size;
    if ((double)rw * (double)rh > (double)(LFM2_MAX_TOKENS * unit) * LFM2_TILE_TOLERANCE) {
        if (LFM2_TILE % f != 0) {
            seer_error_set(err, "preprocess: LFM2-VL tiles of %d px cannot hold whole %d px merged patches",
                           LFM2_TILE, f);
            return -1;
        }
        if (append_tiles(hp, img, out, err) != 0) return -1;
    }
    int W, H;
    qwen_smart_size(img->w, img->h, f, LFM2_MIN_TOKENS * unit, LFM2_MAX_TOKENS * unit, &W, &H);
    if (image_inputs_append_pil(out, img, W, H, SEER_PIL_BILINEAR, hp) != 0) {
        seer_error_set(err, "preprocess: %d×%d input too large or out of memory", W, H);
        return -1;
    }
    return 0;
}
