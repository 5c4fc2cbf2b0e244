/* SmolVLM / Idefics3: a refined canvas (multiple of the tile size, longest
 * side near preproc_image_size) cut into tiles, then a stretched overview.
 * llama.cpp always tiles and pads (Transformers stretches and skips small
 * images); llama.cpp is the reference. */
#include <math.h>

#include "image/preprocess_internal.h"

/* Upper bound on tiles per image; 2048/512 gives at most 5×5 in practice. */
#define IDEFICS3_MAX_TILES 256

int preprocess_idefics3(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out, seer_error *err) {
    const int tile = hp->image_size;
    const int L = hp->preproc_image_size > 0 ? hp->preproc_image_size : tile;
    float s = fminf((float)L / (float)img->w, (float)L / (float)img->h);
    int cols = (int)ceilf((float)img->w * s / (float)tile);
    int rows = (int)ceilf((float)img->h * s / (float)tile);
    if (cols < 1) cols = 1;
    if (rows < 1) rows = 1;
    if ((int64_t)cols * rows > IDEFICS3_MAX_TILES) {
        seer_error_set(err, "preprocess: %d×%d tiles is over the limit of %d", cols, rows, IDEFICS3_MAX_TILES);
        return -1;
    }
    canvas_spec canvas = {.src = img, .cw = cols * tile, .ch = rows * tile, .filter = RESIZE_BICUBIC};
    if (image_inputs_append_tiles(out, &canvas, tile, hp) != 0) {
        seer_error_set(err, "preprocess: %d×%d canvas too large or out of memory", cols * tile, rows * tile);
        return -1;
    }
    seer_image ov;
    int rc = seer_image_resize_bilinear(img, tile, tile, &ov);
    if (rc == 0) rc = image_inputs_append(out, &ov, hp);
    seer_image_free(&ov);
    if (rc != 0) seer_error_set(err, "preprocess: out of memory");
    return rc;
}
