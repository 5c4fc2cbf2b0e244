/* SmolVLM / Idefics3 as Idefics3ImageProcessor (Pillow) prepares an image,
 * three Lanczos resizes each rounded to 8 bits: the longest edge to
 * preproc_image_size (even other side), then each side up to a multiple of
 * the tile (aspect bent), cut into tiles row by row; the global image is
 * that canvas shrunk to one tile, last. */
#include <math.h>

#include "image/preprocess_internal.h"

/* Transformers' _resize_output_size_rescale_to_max_len. */
static void longest_edge_size(int w, int h, int max_len, int *out_w, int *out_h) {
    double aspect = (double)w / h;
    if (w >= h) {
        w = max_len;
        h = (int)(w / aspect);
        if (h % 2) h++;
    } else {
        h = max_len;
        w = (int)(h * aspect);
        if (w % 2) w++;
    }
    *out_w = w < 1 ? 1 : w;
    *out_h = h < 1 ? 1 : h;
}

/* Transformers' resize_for_vision_encoder: sides up to multiples of tile. */
static void tile_multiple_size(int w, int h, int tile, int *out_w, int *out_h) {
    double aspect = (double)w / h;
    if (w >= h) {
        w = (int)ceil((double)w / tile) * tile;
        h = (int)ceil((double)(int)(w / aspect) / tile) * tile;
    } else {
        h = (int)ceil((double)h / tile) * tile;
        w = (int)ceil((double)(int)(h * aspect) / tile) * tile;
    }
    *out_w = w < tile ? tile : w;
    *out_h = h < tile ? tile : h;
}

static int append_tiles_and_global(seer_image_inputs *out, const seer_image *canvas, int tile,
                                   const seer_vision_hparams *hp) {
    const int cols = canvas->w / tile, rows = canvas->h / tile;
    if (cols * rows == 1) return image_inputs_append(out, canvas, hp); /* not split: the image alone */
    /* the canvas is a whole number of tiles (tile_multiple_size) */
    if (image_inputs_append_cells(out, canvas, cols, rows, hp) != 0) return -1;
    return image_inputs_append_pil(out, canvas, tile, tile, SEER_PIL_LANCZOS, hp);
}

int preprocess_idefics3_original(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out,
                                 seer_error *err) {
    const int tile = hp->image_size;
    const int L = hp->preproc_image_size > 0 ? hp->preproc_image_size : tile;
    int w1, h1, w2, h2;
    longest_edge_size(img->w, img->h, L, &w1, &h1);
    tile_multiple_size(w1, h1, tile, &w2, &h2);
    if ((int64_t)w2 * h2 > PREPROCESS_MAX_CANVAS_PIXELS || (int64_t)w1 * h1 > PREPROCESS_MAX_CANVAS_PIXELS) {
        seer_error_set(err, "preprocess: %d×%d canvas too large", w2, h2);
        return -1;
    }
    seer_image first, canvas = {0};
    int rc = seer_image_resize_pil(img, w1, h1, SEER_PIL_LANCZOS, &first);
    if (rc == 0) rc = seer_image_resize_pil(&first, w2, h2, SEER_PIL_LANCZOS, &canvas);
    seer_image_free(&first);
    if (rc == 0) rc = append_tiles_and_global(out, &canvas, tile, hp);
    seer_image_free(&canvas);
    if (rc != 0) seer_error_set(err, "preprocess: %d×%d canvas: out of memory", w2, h2);
    return rc;
}
