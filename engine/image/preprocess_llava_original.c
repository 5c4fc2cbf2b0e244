/* LLaVA-1.5 as its authors run it: pad the image to a square with the mean
 * colour (expand2square), then CLIPImageProcessor: shortest edge to the
 * encoder size, bicubic with antialiasing (the centre crop of a square is
 * the whole square). */
#include <stdlib.h>
#include <string.h>

#include "image/preprocess_internal.h"

int preprocess_llava15_original(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out,
                                seer_error *err) {
    const int side = img->w > img->h ? img->w : img->h;
    uint8_t fill[3];
    for (int c = 0; c < 3; c++) { /* int(mean * 255), as the authors' code truncates it */
        float v = hp->mean[c] * 255.0f;
        fill[c] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
    }
    seer_image square = {.w = side, .h = side, .rgb = malloc((size_t)side * side * 3)};
    if (!square.rgb) {
        seer_error_set(err, "preprocess: out of memory for a %d×%d square", side, side);
        return -1;
    }
    for (size_t i = 0; i < (size_t)side * side; i++) memcpy(square.rgb + i * 3, fill, 3);
    const int ox = (side - img->w) / 2, oy = (side - img->h) / 2;
    for (int y = 0; y < img->h; y++)
        memcpy(square.rgb + ((size_t)(oy + y) * side + ox) * 3, img->rgb + (size_t)y * img->w * 3, (size_t)img->w * 3);
    const int n = hp->image_size;
    int rc = image_inputs_append_pil(out, &square, n, n, SEER_PIL_BICUBIC, hp);
    seer_image_free(&square);
    if (rc != 0) seer_error_set(err, "preprocess: %d×%d input too large or out of memory", n, n);
    return rc;
}
