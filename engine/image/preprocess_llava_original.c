/* LLaVA-1.5 as its authors run it: pad the image to a square with the mean
 * colour (expand2square), then CLIPImageProcessor: shortest edge to the
 * encoder size, bicubic with antialiasing (the centre crop of a square is
 * the whole square). */
#include "image/preprocess_internal.h"

int preprocess_llava15_original(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out,
                                seer_error *err) {
    const int side = img->w > img->h ? img->w : img->h, n = hp->image_size;
    uint8_t fill[3];
    for (int c = 0; c < 3; c++) { /* int(mean * 255), as the authors' code truncates it */
        float v = hp->mean[c] * 255.0f;
        fill[c] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
    }
    seer_image r;
    int rc = seer_image_resize_pil_on_canvas(img, side, side, (side - img->w) / 2, (side - img->h) / 2, fill, n, n,
                                             SEER_PIL_BICUBIC, &r);
    if (rc == 0) rc = image_inputs_append(out, &r, hp);
    seer_image_free(&r);
    if (rc != 0) seer_error_set(err, "preprocess: a %d×%d image on its %d-pixel square: too large or out of memory",
                                img->w, img->h, side);
    return rc;
}
