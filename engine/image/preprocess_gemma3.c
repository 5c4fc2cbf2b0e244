/* Gemma 3 as llama.cpp prepares it: one image_size² input (896), the
 * picture fitted with its aspect ratio kept by Pillow bilinear resampling and
 * letterboxed on black (the HF processor stretches instead). */
#include "image/preprocess_internal.h"

int preprocess_gemma3(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out,
                      seer_error *err) {
    const int n = hp->image_size;
    if (image_inputs_append_letterbox_pil(out, img, n, n, SEER_PIL_BILINEAR, hp) != 0) {
        seer_error_set(err, "preprocess: %d×%d input too large or out of memory", n, n);
        return -1;
    }
    return 0;
}
