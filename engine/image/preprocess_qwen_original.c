/* Qwen2-VL / Qwen2.5-VL as Qwen2VLImageProcessor prepares an image: smart
 * resize computed in double with Python's rounding (half to even), then one
 * bicubic antialiased resize to exactly that size — no bars, the aspect
 * ratio bent by at most half a 28-pixel cell. */
#include <math.h>

#include "image/preprocess_internal.h"

/* The processor refuses more extreme images. */
#define QWEN_MAX_ASPECT 200

static int imax(int a, int b) { return a > b ? a : b; }

static void smart_size_hf(int w, int h, int f, double min_pixels, double max_pixels, int *out_w, int *out_h) {
    int hb = (int)rint((double)h / f) * f, wb = (int)rint((double)w / f) * f;
    if ((double)hb * wb > max_pixels) {
        double beta = sqrt((double)h * w / max_pixels);
        hb = imax(f, (int)floor((double)h / beta / f) * f);
        wb = imax(f, (int)floor((double)w / beta / f) * f);
    } else if ((double)hb * wb < min_pixels) {
        double beta = sqrt(min_pixels / ((double)h * w));
        hb = (int)ceil((double)h * beta / f) * f;
        wb = (int)ceil((double)w * beta / f) * f;
    }
    *out_w = wb;
    *out_h = hb;
}

int preprocess_qwen_original(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out,
                             seer_error *err) {
    const int f = hp->patch_size * QWEN_MERGE;
    const double unit = (double)f * f;
    int lo = img->w < img->h ? img->w : img->h, hi = img->w < img->h ? img->h : img->w;
    if (hi > (int64_t)QWEN_MAX_ASPECT * lo) {
        seer_error_set(err, "preprocess: a %d×%d image is too narrow for this model (aspect ratio over %d:1)", img->w,
                       img->h, QWEN_MAX_ASPECT);
        return -1;
    }
    const int max_tokens = hp->max_image_tokens > 0 ? hp->max_image_tokens : QWEN_MAX_TOKENS;
    int W, H;
    smart_size_hf(img->w, img->h, f, QWEN_MIN_TOKENS * unit, max_tokens * unit, &W, &H);
    if (W <= 0 || H <= 0 || (double)W * H > max_tokens * unit * 1.01 ||
        image_inputs_append_pil(out, img, W, H, SEER_PIL_BICUBIC, hp) != 0) {
        seer_error_set(err, "preprocess: %d×%d input too large or out of memory", W, H);
        return -1;
    }
    return 0;
}
