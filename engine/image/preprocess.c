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

int canvas_rect(const canvas_spec *c, int x, int y, int w, int h, uint8_t *dst) {
    if (x < 0 || y < 0 || w <= 0 || h <= 0 || x > c->cw - w || y > c->ch - h) return -1;
    for (size_t i = 0; i < (size_t)w * h; i++) memcpy(dst + i * 3, c->fill, 3);
    int iw, ih;
    image_fit_size(c->src->w, c->src->h, c->cw, c->ch, &iw, &ih);
    int ox = (c->cw - iw) / 2, oy = (c->ch - ih) / 2;
    /* the resized image's part inside the rectangle, in canvas coordinates */
    int x0 = x > ox ? x : ox, y0 = y > oy ? y : oy;
    int x1 = x + w < ox + iw ? x + w : ox + iw, y1 = y + h < oy + ih ? y + h : oy + ih;
    if (x0 >= x1 || y0 >= y1) return 0;
    uint8_t *at = dst + ((size_t)(y0 - y) * w + (x0 - x)) * 3;
    if (c->filter == RESIZE_BICUBIC)
        return seer_image_resize_bicubic_rect(c->src, iw, ih, x0 - ox, y0 - oy, x1 - x0, y1 - y0, at, (size_t)w * 3);
    seer_image inner;
    if (seer_image_resize_bilinear(c->src, iw, ih, &inner) != 0) return -1;
    for (int r = y0; r < y1; r++)
        memcpy(at + (size_t)(r - y0) * w * 3, inner.rgb + ((size_t)(r - oy) * iw + (x0 - ox)) * 3, (size_t)(x1 - x0) * 3);
    seer_image_free(&inner);
    return 0;
}

int image_fit_on_canvas(const seer_image *src, int cw, int ch, const uint8_t fill[3], resize_filter filter,
                        seer_image *dst) {
    dst->rgb = NULL;
    dst->w = dst->h = 0;
    if (cw <= 0 || ch <= 0 || (int64_t)cw * ch > PREPROCESS_MAX_CANVAS_PIXELS) return -1;
    canvas_spec c = {.src = src, .cw = cw, .ch = ch, .fill = {fill[0], fill[1], fill[2]}, .filter = filter};
    uint8_t *canvas = malloc((size_t)cw * ch * 3);
    if (!canvas || canvas_rect(&c, 0, 0, cw, ch, canvas) != 0) {
        free(canvas);
        return -1;
    }
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

/* Appends px with the family's normalisation; on failure out is unchanged
 * and px still the caller's. */
static int inputs_push(seer_image_inputs *out, seer_pixels px, const seer_vision_hparams *hp) {
    seer_pixels *grown = realloc(out->inputs, sizeof *grown * (size_t)(out->n + 1));
    if (!grown) return -1;
    out->inputs = grown;
    memcpy(px.mean, hp->mean, sizeof px.mean);
    memcpy(px.std, hp->std, sizeof px.std);
    out->inputs[out->n++] = px;
    return 0;
}

int image_inputs_append_pil(seer_image_inputs *out, const seer_image *src, int w, int h, seer_pil_filter filter,
                            const seer_vision_hparams *hp) {
    seer_image r;
    if (seer_image_resize_pil(src, w, h, filter, &r) != 0) return -1;
    int rc = image_inputs_append(out, &r, hp);
    seer_image_free(&r);
    return rc;
}

int image_inputs_append_cells(seer_image_inputs *out, const seer_image *canvas, int cols, int rows,
                              const seer_vision_hparams *hp) {
    const int cw = canvas->w / cols, ch = canvas->h / rows;
    int rc = 0;
    for (int r = 0; r < rows && rc == 0; r++)
        for (int c = 0; c < cols && rc == 0; c++) {
            seer_image cell;
            rc = image_crop(canvas, c * cw, r * ch, cw, ch, &cell);
            if (rc == 0) {
                rc = image_inputs_append(out, &cell, hp);
                seer_image_free(&cell);
            }
        }
    if (rc == 0) {
        out->grid_cols = cols;
        out->grid_rows = rows;
    }
    return rc;
}

int image_inputs_append(seer_image_inputs *out, const seer_image *img, const seer_vision_hparams *hp) {
    size_t bytes = (size_t)img->w * img->h * 3;
    seer_pixels px = {.w = img->w, .h = img->h, .rgb = malloc(bytes)};
    if (!px.rgb) return -1;
    memcpy(px.rgb, img->rgb, bytes);
    if (inputs_push(out, px, hp) == 0) return 0;
    free(px.rgb);
    return -1;
}

float *seer_pixels_planes(const seer_pixels *p) {
    seer_pixels tmp = {0};
    if (!p || !seer_pixels_present(p) || p->w <= 0 || p->h <= 0 || !(p = seer_pixels_readable(p, &tmp))) return NULL;
    float *planes = malloc(sizeof(float) * 3 * (size_t)p->w * (size_t)p->h);
    float *dst = planes;
    for (int c = 0; c < 3 && planes; c++)
        for (int y = 0; y < p->h; y++)
            for (int x = 0; x < p->w; x++) *dst++ = seer_pixel_at(p, c, y, x);
    seer_pixels_free(&tmp);
    return planes;
}

void seer_pixels_free(seer_pixels *p) {
    if (!p) return;
    free(p->data);
    free(p->rgb);
    pixels_source_release(p->source);
    p->data = NULL;
    p->rgb = NULL;
    p->source = NULL;
}

int image_inputs_append_tiles(seer_image_inputs *out, const canvas_spec *canvas, int tile,
                              const seer_vision_hparams *hp) {
    int cols = canvas->cw / tile, rows = canvas->ch / tile;
    if (cols <= 0 || rows <= 0 || (int64_t)canvas->cw * canvas->ch > PREPROCESS_MAX_CANVAS_PIXELS) return -1;
    if ((int64_t)canvas->src->w * canvas->src->h < (int64_t)canvas->cw * canvas->ch) {
        seer_pixels_source *src = pixels_source_new(canvas, rows * cols);
        if (!src) return -1;
        for (int i = 0; i < rows * cols; i++) {
            seer_pixels px = {.w = tile, .h = tile, .source = src, .source_x = i % cols * tile, .source_y = i / cols * tile};
            if (inputs_push(out, px, hp) != 0) { /* the tiles not yet appended give up their references */
                for (int k = i; k < rows * cols; k++) pixels_source_release(src);
                return -1;
            }
        }
    } else {
        seer_image whole;
        if (image_fit_on_canvas(canvas->src, canvas->cw, canvas->ch, canvas->fill, canvas->filter, &whole) != 0)
            return -1;
        for (int i = 0; i < rows * cols; i++) {
            seer_image t;
            int rc = image_crop(&whole, i % cols * tile, i / cols * tile, tile, tile, &t);
            if (rc == 0) rc = image_inputs_append(out, &t, hp);
            seer_image_free(&t);
            if (rc != 0) {
                seer_image_free(&whole);
                return -1;
            }
        }
        seer_image_free(&whole);
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
    const bool original = hp->preproc == SEER_PREPROC_ORIGINAL; /* families without an original rule: llama.cpp's */
    switch (hp->projector) {
    case SEER_PROJ_MLP:
        rc = hp->anyres ? preprocess_anyres(hp, img, out, err)
             : original ? preprocess_llava15_original(hp, img, out, err)
                        : preprocess_llava15(hp, img, out, err);
        break;
    case SEER_PROJ_LDP:
    case SEER_PROJ_LDPV2:
        rc = original ? preprocess_llava15_original(hp, img, out, err) : preprocess_mobilevlm(hp, img, out, err);
        break;
    case SEER_PROJ_IDEFICS3:
        rc = original ? preprocess_idefics3_original(hp, img, out, err) : preprocess_idefics3(hp, img, out, err);
        break;
    case SEER_PROJ_QWEN2VL:
    case SEER_PROJ_QWEN25VL:
        rc = original ? preprocess_qwen_original(hp, img, out, err) : preprocess_qwen(hp, img, out, err);
        break;
    case SEER_PROJ_QWEN3VL:
    case SEER_PROJ_GLM4V: rc = preprocess_qwen3vl(hp, img, out, err); break; /* the same rule at patch 14: 28-px steps */
    case SEER_PROJ_PIXTRAL: rc = preprocess_pixtral(hp, img, out, err); break;
    case SEER_PROJ_LIGHTONOCR: rc = preprocess_longest_edge(hp, img, out, err); break; /* llama.cpp's, both modes */
    case SEER_PROJ_GEMMA4V: rc = preprocess_dyn_size(hp, img, 70, 1120, out, err); break; /* llama.cpp's, both modes */
    case SEER_PROJ_LFM2: rc = preprocess_lfm2(hp, img, out, err); break;
    case SEER_PROJ_PADDLEOCR: /* llama.cpp's, both modes */
    case SEER_PROJ_DOTS_OCR:
        rc = preprocess_dyn_size_pixels(hp, img, hp->image_min_pixels, hp->image_max_pixels, out, err);
        break;
    case SEER_PROJ_HUNYUANVL: /* llama.cpp's (PAD_NONE, Lanczos), both modes */
        rc = preprocess_dyn_size_stretch(hp, img, hp->image_min_pixels, hp->image_max_pixels, SEER_PIL_LANCZOS, out,
                                         err);
        break;
    case SEER_PROJ_RESAMPLER: rc = preprocess_minicpmv(hp, img, out, err); break;
    case SEER_PROJ_INTERNVL:
        rc = original ? preprocess_internvl_original(hp, img, out, err) : preprocess_internvl(hp, img, out, err);
        break;
    case SEER_PROJ_GEMMA3:
        rc = original ? preprocess_gemma3_original(hp, img, out, err) : preprocess_gemma3(hp, img, out, err);
        break;
    default:
        seer_error_set(err, "preprocess: unsupported projector '%s'", hp->projector_name);
        rc = -1;
    }
    if (rc != 0) seer_image_inputs_free(out);
    return rc;
}
