/* Gemma 3 as Gemma3ImageProcessor prepares an image (pan-and-scan off, its
 * default): the picture stretched to image_size² (896) with Pillow's
 * bilinear filter, aspect ratio not kept, no bars. */
#include "image/preprocess_internal.h"

int preprocess_gemma3_original(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out,
                               seer_error *err) {
    const int n = hp->image_size;
    if (image_inputs_append_pil(out, img, n, n, SEER_PIL_BILINEAR, hp) != 0) {
        seer_error_set(err, "preprocess: %d×%d input too large or out of memory", n, n);
        return -1;
    }
    return 0;
}
