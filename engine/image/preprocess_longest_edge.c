/* llama.cpp's longest-edge preprocessing (mtmd_image_preprocessor_longest_edge),
 * as LightOnOCR uses it: the image scaled so that its longer side is the
 * file's longest edge (up or down), each side then rounded up to a multiple
 * of patch × merge, Pillow bicubic into that letterbox; no token budget.
 * The arithmetic is float, as there, so the rounding lands the same. */
#include <math.h>

#include "image/preprocess_internal.h"

int preprocess_longest_edge(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out,
                            seer_error *err) {
    const int align = hp->patch_size * (hp->scale_factor > 0 ? hp->scale_factor : 1);
    const int edge = hp->preproc_image_size;
    if (align <= 0 || edge <= 0 || img->w <= 0 || img->h <= 0) {
        seer_error_set(err, "preprocess: no longest edge for a %d×%d image", img->w, img->h);
        return -1;
    }
    const float sw = (float)edge / (float)img->w, sh = (float)edge / (float)img->h, scale = sw < sh ? sw : sh;
    const int W = (int)ceilf((float)img->w * scale / (float)align) * align;
    const int H = (int)ceilf((float)img->h * scale / (float)align) * align;
    if (image_inputs_append_letterbox_pil(out, img, W, H, SEER_PIL_BICUBIC, hp) != 0) {
        seer_error_set(err, "preprocess: %d×%d input too large or out of memory", W, H);
        return -1;
    }
    return 0;
}
