/* MiniCPM-V as llama.cpp prepares it (mtmd's llava-uhd preprocessor without
 * pinpoints, S = image_size, sides rounded to multiples of the patch):
 * - an image no larger than S×S is the overview alone, stretched to S×S;
 * - otherwise the overview keeps the aspect ratio at about S² pixels
 *   (larger images only shrink), and slices follow: the grid of 2 to 10
 *   cells (from ⌈w·h/S²⌉ ± 1, at most 9) whose log aspect ratio is closest
 *   to the image's (the first on ties), each cell resized to about S²
 *   pixels, the image fitted into the grid's canvas (Pillow bicubic, aspect
 *   kept, centred on black) and cut into cells row by row.
 * Overview first (Pillow bicubic, stretched), then the slices. */
#include <math.h>

#include "image/preprocess_internal.h"

#define MINICPMV_MAX_SLICES 9

/* length rounded to a multiple of p, at least p */
static int ensure_divide(int length, int p) {
    int r = (int)(roundf((float)length / (float)p) * (float)p);
    return r > p ? r : p;
}

/* About S² pixels with the aspect kept (only when larger or upscaling), sides multiples of p. */
static void best_resize(int w, int h, int s, int p, bool upscale, int *ow, int *oh) {
    if ((int64_t)w * h > (int64_t)s * s || upscale) {
        float r = (float)w / (float)h;
        h = (int)((float)s / sqrtf(r));
        w = (int)((float)h * r);
    }
    *ow = ensure_divide(w, p);
    *oh = ensure_divide(h, p);
}

static void best_grid(int w, int h, int s, int *cols, int *rows) {
    const float log_ratio = (float)log((double)((float)w / (float)h));
    const float ratio = (float)w * (float)h / (float)((int64_t)s * s);
    int multiple = (int)fmin(ceil(ratio), MINICPMV_MAX_SLICES);
    float min_error = INFINITY;
    *cols = *rows = 1;
    for (int n = multiple - 1; n <= multiple + 1; n++) {
        if (n == 1 || n > MINICPMV_MAX_SLICES) continue;
        for (int m = 1; m <= n; m++) {
            if (n % m != 0) continue;
            float error = (float)fabs(log_ratio - log((double)m / (double)(n / m)));
            if (error < min_error) {
                min_error = error;
                *cols = m;
                *rows = n / m;
            }
        }
    }
}

static bool canvas_ok(int w, int h) { return w > 0 && h > 0 && (int64_t)w * h <= PREPROCESS_MAX_CANVAS_PIXELS; }

static int append_slices(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out,
                         seer_error *err) {
    const int s = hp->image_size, p = hp->patch_size;
    int cols, rows, cw, ch;
    best_grid(img->w, img->h, s, &cols, &rows);
    best_resize(ensure_divide(img->w, cols) / cols, ensure_divide(img->h, rows) / rows, s, p, true, &cw, &ch);
    seer_image canvas;
    if (!canvas_ok(cw * cols, ch * rows) ||
        (img->w == cw * cols && img->h == ch * rows ? image_crop(img, 0, 0, img->w, img->h, &canvas)
                                                    : image_letterbox_pil(img, cw * cols, ch * rows, SEER_PIL_BICUBIC,
                                                                          &canvas)) != 0) {
        seer_error_set(err, "preprocess: %d×%d slice canvas too large or out of memory", cw * cols, ch * rows);
        return -1;
    }
    int rc = image_inputs_append_cells(out, &canvas, cols, rows, hp);
    seer_image_free(&canvas);
    if (rc != 0) seer_error_set(err, "preprocess: out of memory");
    return rc;
}

int preprocess_minicpmv(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out,
                        seer_error *err) {
    const int s = hp->image_size;
    const bool sliced = img->w > s || img->h > s;
    int ow = s, oh = s;
    if (sliced) best_resize(img->w, img->h, s, hp->patch_size, false, &ow, &oh);
    if (!canvas_ok(ow, oh)) {
        seer_error_set(err, "preprocess: %d×%d image gives a %d×%d overview, too large", img->w, img->h, ow, oh);
        return -1;
    }
    int rc = img->w == ow && img->h == oh ? image_inputs_append(out, img, hp)
                                          : image_inputs_append_pil(out, img, ow, oh, SEER_PIL_BICUBIC, hp);
    if (rc != 0) {
        seer_error_set(err, "preprocess: out of memory");
        return -1;
    }
    return sliced ? append_slices(hp, img, out, err) : 0;
}
