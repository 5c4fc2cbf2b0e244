/* LFM2-VL as llama.cpp prepares it (mtmd_image_preprocessor_lfm2): the
 * whole image resized (Pillow bilinear, stretched) to the smart size with sides
 * multiples of patch × merge and 64..256 tokens of (patch·merge)² pixels.
 * Images that llama.cpp tiles (sides rounded to the unit, area over twice
 * the 256-token maximum) are refused for now: the 512-px tile grid is not
 * implemented. */
#include <math.h>

#include "image/preprocess_internal.h"

#define LFM2_MIN_TOKENS 64
#define LFM2_MAX_TOKENS 256
#define LFM2_TILE_TOLERANCE 2.0

static int64_t round_to(int v, int f) { return (int64_t)nearbyint((double)v / f) * f; }

int preprocess_lfm2(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out, seer_error *err) {
    const int f = hp->patch_size * (hp->scale_factor > 0 ? hp->scale_factor : 1);
    const int64_t unit = (int64_t)f * f;
    int64_t rw = round_to(img->w, f), rh = round_to(img->h, f);
    if (rw < hp->patch_size) rw = hp->patch_size;
    if (rh < hp->patch_size) rh = hp->patch_size;
    if ((double)rw * (double)rh > (double)(LFM2_MAX_TOKENS * unit) * LFM2_TILE_TOLERANCE) {
        seer_error_set(err, "preprocess: a %d×%d image would be tiled by LFM2-VL, which seer does not do yet", img->w,
                       img->h);
        return -1;
    }
    int W, H;
    qwen_smart_size(img->w, img->h, f, LFM2_MIN_TOKENS * unit, LFM2_MAX_TOKENS * unit, &W, &H);
    if (image_inputs_append_pil(out, img, W, H, SEER_PIL_BILINEAR, hp) != 0) {
        seer_error_set(err, "preprocess: %d×%d input too large or out of memory", W, H);
        return -1;
    }
    return 0;
}
