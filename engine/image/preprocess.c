/* Preprocessing entry point and the pieces every family shares: aspect-kept
 * fitting on a canvas, cropping, the encoder inputs (8-bit RGB with the
 * normalisation to apply, or its planar float32 form). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "image/preprocess_internal.h"

void image_fit_size(int w, int h, int max_w, int max_h, int *out_w, int *out_h) {
    float s = fminf((float)max_w / (float)w, (float)max_h / (float)h);
    int fw = (int)ceilf((float)w * s), fh = (int)ceilf((float)h * s);
    if (fw > max_w) fw = max_w;
    if (fh > max_h) fh = max_h;
    *out_w = fw < 1 ? 1 : fw;
    *out_h = fh < 1 ? 1 : fh;
}

int image_fit_on_canvas(const seer_image *src, int cw, int ch, const uint8_t fill[3], resize_filter filter,
                        seer_image *dst) {
    dst->rgb = NULL;
    dst->w = dst->h = 0;
    if (cw <= 0 || ch <= 0 || (int64_t)cw * ch > PREPROCESS_MAX_CANVAS_PIXELS) return -1;
    int iw, ih;
    image_fit_size(src->w, src->h, cw, ch, &iw, &ih);
    seer_image inner;
    int rc = filter == RESIZE_BICUBIC ? seer_image_resize_bicubic(src, iw, ih, &inner)
                                      : seer_image_resize_bilinear(src, iw, ih, &inner);
    if (rc != 0) return -1;
    uint8_t *canvas = malloc((size_t)cw * ch * 3);
    if (!canvas) {
        seer_image_free(&inner);
        return -1;
    }
    for (size_t i = 0; i < (size_t)cw * ch; i++) memcpy(canvas + i * 3, fill, 3);
    int ox = (cw - iw) / 2, oy = (ch - ih) / 2;
    for (int y = 0; y < ih; y++)
        memcpy(canvas + ((size_t)(oy + y) * cw + ox) * 3, inner.rgb + (size_t)y * iw * 3, (size_t)iw * 3);
    seer_image_free(&inner);
    dst->rgb = canvas;
    dst->w = cw;
    dst->h = ch;
    return 0;
}

int image_crop(const seer_image *src, int x, int y, int w, int h, seer_image *dst) {
    dst->rgb = NULL;
    dst->w = dst->h = 0;
    if (x < 0 || y < 0 || w <= 0 || h <= 0 || x + w > src->w || y + h > src->h) return -1;
    dst->rgb = malloc((size_t)w * h * 3);
    if (!dst->rgb) return -1;
    for (int r = 0; r < h; r++)
        memcpy(dst->rgb + (size_t)r * w * 3, src->rgb + ((size_t)(y + r) * src->w + x) * 3, (size_t)w * 3);
    dst->w = w;
    dst->h = h;
    return 0;
}

int image_inputs_append(seer_image_inputs *out, const seer_image *img, const seer_vision_hparams *hp) {
    seer_pixels *grown = realloc(out->inputs, sizeof *grown * (size_t)(out->n + 1));
    if (!grown) return -1;
    out->inputs = grown;
    size_t bytes = (size_t)img->w * img->h * 3;
    seer_pixels px = {.w = img->w, .h = img->h, .rgb = malloc(bytes)};
    if (!px.rgb) return -1;
    memcpy(px.rgb, img->rgb, bytes);
    memcpy(px.mean, hp->mean, sizeof px.mean);
    memcpy(px.std, hp->std, sizeof px.std);
    out->inputs[out->n++] = px;
    return 0;
}

float *seer_pixels_planes(const seer_pixels *p) {
    if (!p || (!p->data && !p->rgb) || p->w <= 0 || p->h <= 0) return NULL;
    float *planes = malloc(sizeof(float) * 3 * (size_t)p->w * (size_t)p->h);
    if (!planes) return NULL;
    float *dst = planes;
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < p->h; y++)
            for (int x = 0; x < p->w; x++) *dst++ = seer_pixel_at(p, c, y, x);
    return planes;
}

void seer_pixels_free(seer_pixels *p) {
    if (!p) return;
    free(p->data);
    free(p->rgb);
    p->data = NULL;
    p->rgb = NULL;
}

int image_inputs_append_tiles(seer_image_inputs *out, const seer_image *canvas, int tile,
                              const seer_vision_hparams *hp) {
    int cols = canvas->w / tile, rows = canvas->h / tile;
    for (int r = 0; r < rows; r++) {
        for (int c = 0; c < cols; c++) {
            seer_image t;
            if (image_crop(canvas, c * tile, r * tile, tile, tile, &t) != 0) return -1;
            int rc = image_inputs_append(out, &t, hp);
            seer_image_free(&t);
            if (rc != 0) return -1;
        }
    }
    out->grid_rows = rows;
    out->grid_cols = cols;
    return 0;
}

void seer_image_inputs_free(seer_image_inputs *in) {
    if (!in) return;
    for (int i = 0; i < in->n; i++) seer_pixels_free(&in->inputs[i]);
    free(in->inputs);
    memset(in, 0, sizeof *in);
}

int seer_image_preprocess(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out,
                          seer_error *err) {
    if (out) memset(out, 0, sizeof *out);
    if (!hp || !img || !img->rgb || img->w <= 0 || img->h <= 0 || !out) {
        seer_error_set(err, "preprocess: no image");
        return -1;
    }
    if (hp->image_size <= 0 || hp->patch_size <= 0 || hp->image_size > 4096) {
        seer_error_set(err, "preprocess: invalid encoder image size %d / patch size %d", hp->image_size,
                       hp->patch_size);
        return -1;
    }
    for (int c = 0; c < 3; c++) {
        if (!(hp->std[c] != 0.0f) || !isfinite(hp->std[c]) || !isfinite(hp->mean[c])) {
            seer_error_set(err, "preprocess: invalid image mean/std in the vision model");
            return -1;
        }
    }
    int rc;
    switch (hp->projector) {
    case SEER_PROJ_MLP:
        rc = hp->anyres ? preprocess_anyres(hp, img, out, err) : preprocess_llava15(hp, img, out, err);
        break;
    case SEER_PROJ_IDEFICS3: rc = preprocess_idefics3(hp, img, out, err); break;
    case SEER_PROJ_QWEN2VL:
    case SEER_PROJ_QWEN25VL: rc = preprocess_qwen(hp, img, out, err); break;
    default:
        seer_error_set(err, "preprocess: unsupported projector '%s'", hp->projector_name);
        rc = -1;
    }
    if (rc != 0) seer_image_inputs_free(out);
    return rc;
}
