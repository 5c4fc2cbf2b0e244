/* LLaVA-1.6 "anyres": pick the grid pinpoint that keeps the most of the
 * image, cut the fitted picture into encoder-sized tiles, then add a
 * stretched overview. Tiles first, overview last (llama.cpp's order). */
#include <math.h>

#include "image/preprocess_internal.h"

int anyres_best_pinpoint(const seer_vision_hparams *hp, int w, int h) {
    int best = -1;
    int64_t best_eff = -1, best_waste = INT64_MAX;
    for (int i = 0; i < hp->n_pinpoints; i++) {
        int cw = hp->pinpoints[i][0], ch = hp->pinpoints[i][1];
        if (cw <= 0 || ch <= 0) continue;
        float s = fminf((float)cw / (float)w, (float)ch / (float)h);
        int64_t dw = (int64_t)((float)w * s), dh = (int64_t)((float)h * s);
        int64_t eff = dw * dh;
        if (eff > (int64_t)w * h) eff = (int64_t)w * h;
        int64_t waste = (int64_t)cw * ch - eff;
        if (eff > best_eff || (eff == best_eff && waste < best_waste)) {
            best = i;
            best_eff = eff;
            best_waste = waste;
        }
    }
    return best;
}

static int append_overview(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out) {
    seer_image ov;
    if (seer_image_resize_bilinear(img, hp->image_size, hp->image_size, &ov) != 0) return -1;
    int rc = image_inputs_append(out, &ov, hp);
    seer_image_free(&ov);
    return rc;
}

int preprocess_anyres(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out, seer_error *err) {
    const int n = hp->image_size;
    if (img->w <= n && img->h <= n) { /* small enough: the overview alone */
        if (append_overview(hp, img, out) == 0) return 0;
        seer_error_set(err, "preprocess: out of memory");
        return -1;
    }
    int best = anyres_best_pinpoint(hp, img->w, img->h);
    if (best < 0) {
        seer_error_set(err, "preprocess: the vision model lists no usable image_grid_pinpoints");
        return -1;
    }
    int cw = hp->pinpoints[best][0], ch = hp->pinpoints[best][1];
    if (cw % n != 0 || ch % n != 0 || (int64_t)(cw / n) * (ch / n) > 64) {
        seer_error_set(err, "preprocess: grid pinpoint %d×%d is not a small multiple of the %d-pixel tile", cw, ch, n);
        return -1;
    }
    canvas_spec canvas = {.src = img, .cw = cw, .ch = ch, .filter = RESIZE_BICUBIC};
    if (image_inputs_append_tiles(out, &canvas, n, hp) != 0) {
        seer_error_set(err, "preprocess: %d×%d canvas too large or out of memory", cw, ch);
        return -1;
    }
    int rc = append_overview(hp, img, out);
    if (rc != 0) seer_error_set(err, "preprocess: out of memory");
    return rc;
}
