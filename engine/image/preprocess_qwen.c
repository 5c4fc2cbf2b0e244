/* Qwen2-VL / Qwen2.5-VL: dynamic resolution. The image is brought to a size
 * that is a multiple of patch×merge with a bounded token count, keeping its
 * aspect ratio (bilinear) with black padding where the rounding left room. */
#include <math.h>

#include "image/preprocess_internal.h"

static const uint8_t BLACK[3] = {0, 0, 0};

static int round_by(float x, int f) { return (int)roundf(x / (float)f) * f; }
static int floor_by(float x, int f) { return (int)floorf(x / (float)f) * f; }
static int ceil_by(float x, int f) { return (int)ceilf(x / (float)f) * f; }
static int imax(int a, int b) { return a > b ? a : b; }

void qwen_smart_size(int w, int h, int f, int64_t min_pixels, int64_t max_pixels, int *out_w, int *out_h) {
    int hb = imax(f, round_by((float)h, f));
    int wb = imax(f, round_by((float)w, f));
    if ((int64_t)hb * wb > max_pixels) {
        float beta = sqrtf((float)((double)h * w) / (float)max_pixels);
        hb = imax(f, floor_by((float)h / beta, f));
        wb = imax(f, floor_by((float)w / beta, f));
    } else if ((int64_t)hb * wb < min_pixels) {
        float beta = sqrtf((float)min_pixels / (float)((double)h * w));
        hb = ceil_by((float)h * beta, f);
        wb = ceil_by((float)w * beta, f);
    }
    *out_w = wb;
    *out_h = hb;
}

int qwen_llamacpp_size(const seer_vision_hparams *hp, const seer_image *img, int *W, int *H, seer_error *err) {
    const int f = hp->patch_size * QWEN_MERGE;
    const int64_t unit = (int64_t)f * f;
    qwen_smart_size(img->w, img->h, f, QWEN_MIN_TOKENS * unit, QWEN_MAX_TOKENS * unit, W, H);
    if ((int64_t)*W * *H > QWEN_MAX_TOKENS * unit) { /* only for absurd aspect ratios */
        seer_error_set(err, "preprocess: a %d×%d image is too narrow for this model (aspect ratio over %d:1)", img->w,
                       img->h, QWEN_MAX_TOKENS);
        return -1;
    }
    return 0;
}

int preprocess_qwen(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out, seer_error *err) {
    int W, H;
    if (qwen_llamacpp_size(hp, img, &W, &H, err) != 0) return -1;
    int rc;
    if (W == img->w && H == img->h) {
        rc = image_inputs_append(out, img, hp);
    } else {
        seer_image canvas;
        rc = image_fit_on_canvas(img, W, H, BLACK, RESIZE_BILINEAR, &canvas);
        if (rc == 0) rc = image_inputs_append(out, &canvas, hp);
        seer_image_free(&canvas);
    }
    if (rc != 0) seer_error_set(err, "preprocess: %d×%d input too large or out of memory", W, H);
    return rc;
}
