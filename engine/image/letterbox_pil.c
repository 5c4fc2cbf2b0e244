/* llama.cpp's resize as of its Pillow-exact resamplers (img_tool::resize
 * with PAD_CEIL): the picture scaled with its aspect ratio kept to fit the
 * target (sides min(⌈side·s⌉, target), s in float32), resampled with
 * Pillow's filter, centred on black (or on `fill`); a picture already of the
 * target size is taken as it is. */
#include "image/preprocess_internal.h"

#include <stdlib.h>
#include <string.h>

int image_letterbox_pil_fill(const seer_image *src, int tw, int th, seer_pil_filter filter, const uint8_t fill[3],
                             seer_image *dst) {
    if (tw <= 0 || th <= 0 || (int64_t)tw * th > PREPROCESS_MAX_CANVAS_PIXELS) return -1;
    int iw, ih;
    image_fit_size(src->w, src->h, tw, th, &iw, &ih);
    seer_image inner, canvas = {.w = tw, .h = th, .rgb = malloc((size_t)tw * th * 3)};
    if (!canvas.rgb) return -1;
    for (size_t i = 0; i < (size_t)tw * th; i++) memcpy(canvas.rgb + i * 3, fill, 3);
    if (seer_image_resize_pil(src, iw, ih, filter, &inner) != 0) {
        seer_image_free(&canvas);
        return -1;
    }
    int ox = (tw - iw) / 2, oy = (th - ih) / 2;
    for (int y = 0; y < ih; y++)
        memcpy(canvas.rgb + ((size_t)(oy + y) * tw + ox) * 3, inner.rgb + (size_t)y * iw * 3, (size_t)iw * 3);
    seer_image_free(&inner);
    *dst = canvas;
    return 0;
}

int image_letterbox_pil(const seer_image *src, int tw, int th, seer_pil_filter filter, seer_image *dst) {
    static const uint8_t black[3] = {0, 0, 0};
    return image_letterbox_pil_fill(src, tw, th, filter, black, dst);
}

int image_inputs_append_letterbox_pil(seer_image_inputs *out, const seer_image *src, int tw, int th,
                                      seer_pil_filter filter, const seer_vision_hparams *hp) {
    if (tw <= 0 || th <= 0 || (int64_t)tw * th > PREPROCESS_MAX_CANVAS_PIXELS) return -1;
    if (src->w == tw && src->h == th) return image_inputs_append(out, src, hp);
    seer_image canvas;
    if (image_letterbox_pil(src, tw, th, filter, &canvas) != 0) return -1;
    int rc = image_inputs_append(out, &canvas, hp);
    seer_image_free(&canvas);
    return rc;
}
