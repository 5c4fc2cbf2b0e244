/* InternVL as its authors' load_image / dynamic_preprocess prepares it
 * (SEER_PREPROC_ORIGINAL): among the grids i×j with min ≤ i·j ≤ max tiles,
 * sorted by tile count, the one whose aspect ratio i/j is closest to the
 * image's (on a tie the later grid wins when the image has more than half
 * its pixels); the image stretched to that grid (Pillow bicubic, no bars)
 * and cut into tiles row by row; then, unless there is a single tile, the
 * whole image stretched to one tile as the thumbnail. */
#include <math.h>

#include "image/preprocess_internal.h"

/* The grid dynamic_preprocess picks for a w×h image; cols·rows tiles. */
void internvl_original_grid(int w, int h, int image_size, int min_tiles, int max_tiles, int *cols, int *rows) {
    double aspect = (double)w / (double)h, area = (double)w * (double)h, best_diff = INFINITY;
    *cols = *rows = 1;
    /* target_ratios sorted by tile count (ties in the order of i, then j) */
    for (int n = 1; n <= max_tiles; n++)
        for (int i = 1; i <= n; i++) {
            if (n % i != 0 || n < min_tiles) continue;
            int j = n / i;
            double diff = fabs(aspect - (double)i / (double)j);
            if (diff < best_diff) {
                best_diff = diff;
                *cols = i;
                *rows = j;
            } else if (diff == best_diff && area > 0.5 * image_size * image_size * i * j) {
                *cols = i;
                *rows = j;
            }
        }
}

int preprocess_internvl_original(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out,
                                 seer_error *err) {
    const int n = hp->image_size;
    int cols, rows;
    internvl_original_grid(img->w, img->h, n, hp->min_tiles, hp->max_tiles, &cols, &rows);
    seer_image resized;
    if ((int64_t)cols * rows * n * n > PREPROCESS_MAX_CANVAS_PIXELS ||
        seer_image_resize_pil(img, cols * n, rows * n, SEER_PIL_BICUBIC, &resized) != 0) {
        seer_error_set(err, "preprocess: %d×%d tile canvas too large or out of memory", cols * n, rows * n);
        return -1;
    }
    int rc = 0;
    for (int t = 0; t < cols * rows && rc == 0; t++) {
        seer_image tile;
        rc = image_crop(&resized, (t % cols) * n, (t / cols) * n, n, n, &tile);
        if (rc == 0) {
            rc = image_inputs_append(out, &tile, hp);
            seer_image_free(&tile);
        }
    }
    seer_image_free(&resized);
    if (rc == 0 && cols * rows > 1) rc = image_inputs_append_pil(out, img, n, n, SEER_PIL_BICUBIC, hp);
    if (rc != 0) {
        seer_error_set(err, "preprocess: out of memory");
        return -1;
    }
    out->grid_cols = cols;
    out->grid_rows = rows;
    return 0;
}
