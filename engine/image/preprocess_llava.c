/* LLaVA-1.5 (and BakLLaVA): aspect-kept bicubic fit into the encoder square,
 * padded with llama.cpp's grey (not the HF processor's pad-then-resize).
 * MobileVLM's files get the same fit resampled as the llama.cpp their cases
 * pin does it (Pillow bicubic, letterbox_pil.c); the LLaVA cases pin an
 * older llama.cpp whose bicubic is seer's own. */
#include "image/preprocess_internal.h"

/* llama.cpp's padding colour for CLIP: the CLIP mean in 8-bit. */
static const uint8_t LLAVA_PAD_GREY[3] = {122, 116, 104};

static int fit_on_grey(const seer_vision_hparams *hp, const seer_image *img, bool pil, seer_image_inputs *out,
                       seer_error *err) {
    const int n = hp->image_size;
    int rc;
    if (img->w == n && img->h == n) {
        rc = image_inputs_append(out, img, hp);
    } else {
        seer_image canvas = {0};
        rc = pil ? image_letterbox_pil_fill(img, n, n, SEER_PIL_BICUBIC, LLAVA_PAD_GREY, &canvas)
                 : image_fit_on_canvas(img, n, n, LLAVA_PAD_GREY, RESIZE_BICUBIC, &canvas);
        if (rc == 0) rc = image_inputs_append(out, &canvas, hp);
        seer_image_free(&canvas);
    }
    if (rc != 0) seer_error_set(err, "preprocess: %d×%d input too large or out of memory", n, n);
    return rc;
}

int preprocess_llava15(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out, seer_error *err) {
    return fit_on_grey(hp, img, false, out, err);
}

int preprocess_mobilevlm(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out,
                         seer_error *err) {
    return fit_on_grey(hp, img, true, out, err);
}
