/* InternVL's dynamic tiles as llama.cpp makes them (mtmd's internvl
 * preprocessor, its llava-uhd rule over the tile grids of
 * clip.vision.preproc_min/max_tiles): an image no larger than one tile is
 * the overview alone; otherwise the grid llama.cpp's select_best_resolution
 * picks, the image fitted into it (Pillow bicubic, aspect kept, centred on
 * black) and cut into tiles row by row, then the whole image stretched to
 * one tile (Pillow bicubic) as the overview. Tiles first, overview last. */
#include "image/preprocess_internal.h"

int preprocess_internvl(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out,
                        seer_error *err) {
    const int n = hp->image_size;
    if (img->w > n || img->h > n) {
        int best = anyres_best_pinpoint(hp, img->w, img->h);
        if (best < 0) {
            seer_error_set(err, "preprocess: the vision model has no tile grids");
            return -1;
        }
        int cw = hp->pinpoints[best][0], ch = hp->pinpoints[best][1];
        seer_image canvas;
        if (image_letterbox_pil(img, cw, ch, SEER_PIL_BICUBIC, &canvas) != 0) {
            seer_error_set(err, "preprocess: %d×%d tile canvas too large or out of memory", cw, ch);
            return -1;
        }
        int rc = image_inputs_append_cells(out, &canvas, cw / n, ch / n, hp);
        seer_image_free(&canvas);
        if (rc != 0) {
            seer_error_set(err, "preprocess: out of memory");
            return -1;
        }
    }
    int rc = img->w == n && img->h == n ? image_inputs_append(out, img, hp)
                                        : image_inputs_append_pil(out, img, n, n, SEER_PIL_BICUBIC, hp);
    if (rc != 0) seer_error_set(err, "preprocess: out of memory");
    return rc;
}
