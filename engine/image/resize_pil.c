/* Pillow's resampling (Image.resize with BILINEAR, BICUBIC or LANCZOS), as
 * the original models' processors run it: a separable convolution whose
 * support widens with the downscale factor (antialiasing), weights rounded
 * to 22-bit fixed point, one 8-bit horizontal pass then one 8-bit vertical
 * pass, each rounded as Pillow rounds. Same integers, same pixels. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "seer/image.h"

/* 32-bit accumulators: 8 bits of pixel, 2 of headroom for the sums. */
#define PIL_PRECISION_BITS (32 - 8 - 2)

static double filter_support(seer_pil_filter f) {
    switch (f) {
    case SEER_PIL_BILINEAR: return 1.0;
    case SEER_PIL_BICUBIC: return 2.0;
    default: return 3.0;
    }
}

static double sinc(double x) {
    if (x == 0.0) return 1.0;
    x *= M_PI;
    return sin(x) / x;
}

static double filter_weight(seer_pil_filter f, double x) {
    if (f == SEER_PIL_LANCZOS) return (-3.0 <= x && x < 3.0) ? sinc(x) * sinc(x / 3.0) : 0.0;
    if (x < 0.0) x = -x;
    if (f == SEER_PIL_BILINEAR) return x < 1.0 ? 1.0 - x : 0.0;
    const double a = -0.5; /* Pillow's bicubic */
    if (x < 1.0) return ((a + 2.0) * x - (a + 3.0)) * x * x + 1.0;
    if (x < 2.0) return (((x - 5.0) * x + 8.0) * x - 4.0) * a;
    return 0.0;
}

/* One axis: for each output index, the first source index, the count, and
 * ksize fixed-point weights. */
typedef struct {
    int ksize;
    int *first, *count;
    int32_t *weights;
} pil_axis;

static void axis_free(pil_axis *a) {
    free(a->first);
    free(a->count);
    free(a->weights);
}

static int axis_make(pil_axis *a, int in_size, int out_size, seer_pil_filter f) {
    double scale = (double)in_size / out_size, filterscale = scale < 1.0 ? 1.0 : scale;
    double support = filter_support(f) * filterscale;
    a->ksize = (int)ceil(support) * 2 + 1;
    a->first = malloc(sizeof *a->first * (size_t)out_size);
    a->count = malloc(sizeof *a->count * (size_t)out_size);
    a->weights = calloc((size_t)out_size * a->ksize, sizeof *a->weights);
    double *w = malloc(sizeof *w * (size_t)a->ksize);
    if (!a->first || !a->count || !a->weights || !w) {
        free(w);
        axis_free(a);
        return -1;
    }
    for (int xx = 0; xx < out_size; xx++) {
        double center = (xx + 0.5) * scale, ss = 1.0 / filterscale, total = 0.0;
        int xmin = (int)(center - support + 0.5), xmax = (int)(center + support + 0.5);
        if (xmin < 0) xmin = 0;
        if (xmax > in_size) xmax = in_size;
        xmax -= xmin;
        for (int x = 0; x < xmax; x++) {
            w[x] = filter_weight(f, (x + xmin - center + 0.5) * ss);
            total += w[x];
        }
        int32_t *k = a->weights + (size_t)xx * a->ksize;
        for (int x = 0; x < xmax; x++) {
            double v = total != 0.0 ? w[x] / total : w[x];
            k[x] = (int32_t)(v < 0 ? -0.5 + v * (1 << PIL_PRECISION_BITS) : 0.5 + v * (1 << PIL_PRECISION_BITS));
        }
        a->first[xx] = xmin;
        a->count[xx] = xmax;
    }
    free(w);
    return 0;
}

static inline uint8_t pil_clip8(int32_t ss) {
    ss >>= PIL_PRECISION_BITS;
    return (uint8_t)(ss < 0 ? 0 : ss > 255 ? 255 : ss);
}

/* The picture a resize reads: src placed at (x, y) on a cw×ch canvas of
 * colour fill (or src alone), one row at a time, never made whole. */
typedef struct pil_canvas {
    const seer_image *src;
    int cw, ch, x, y;
    uint8_t fill[3];
} pil_canvas;

/* Row r of the canvas: src's own row when it covers the canvas width,
 * otherwise made in buf (cw pixels). */
static const uint8_t *canvas_row(const pil_canvas *c, int r, uint8_t *buf) {
    const seer_image *s = c->src;
    bool inside = r >= c->y && r < c->y + s->h;
    if (inside && c->x == 0 && s->w == c->cw) return s->rgb + (size_t)(r - c->y) * s->w * 3;
    for (int i = 0; i < c->cw; i++) memcpy(buf + (size_t)i * 3, c->fill, 3);
    if (inside) memcpy(buf + (size_t)c->x * 3, s->rgb + (size_t)(r - c->y) * s->w * 3, (size_t)s->w * 3);
    return buf;
}

/* One canvas row (cw pixels) → dw pixels. */
static void pass_horizontal(const uint8_t *row, const pil_axis *a, int dw, uint8_t *o) {
    for (int xx = 0; xx < dw; xx++, o += 3) {
        const int32_t *k = a->weights + (size_t)xx * a->ksize;
        const uint8_t *p = row + (size_t)a->first[xx] * 3;
        int32_t s0 = 1 << (PIL_PRECISION_BITS - 1), s1 = s0, s2 = s0;
        for (int x = 0; x < a->count[xx]; x++) {
            s0 += p[x * 3 + 0] * k[x];
            s1 += p[x * 3 + 1] * k[x];
            s2 += p[x * 3 + 2] * k[x];
        }
        o[0] = pil_clip8(s0);
        o[1] = pil_clip8(s1);
        o[2] = pil_clip8(s2);
    }
}

/* src (w×sh) → dst (w×dh) along columns. */
static void pass_vertical(const uint8_t *src, int w, const pil_axis *a, int dh, uint8_t *dst) {
    const size_t stride = (size_t)w * 3;
    for (int yy = 0; yy < dh; yy++) {
        const int32_t *k = a->weights + (size_t)yy * a->ksize;
        const uint8_t *first = src + (size_t)a->first[yy] * stride;
        uint8_t *o = dst + (size_t)yy * stride;
        for (size_t q = 0; q < stride; q++) {
            int32_t s = 1 << (PIL_PRECISION_BITS - 1);
            for (int y = 0; y < a->count[yy]; y++) s += first[(size_t)y * stride + q] * k[y];
            o[q] = pil_clip8(s);
        }
    }
}

/* Pillow's order: the horizontal pass (skipped when the width stays) into a
 * w×ch picture, then the vertical pass (skipped when the height stays). */
static int resize_canvas(const pil_canvas *c, int w, int h, seer_pil_filter filter, seer_image *dst) {
    dst->rgb = NULL;
    dst->w = dst->h = 0;
    if (!c->src || !c->src->rgb || c->src->w <= 0 || c->src->h <= 0 || c->x < 0 || c->y < 0 ||
        c->x > c->cw - c->src->w || c->y > c->ch - c->src->h || w <= 0 || h <= 0 ||
        (int64_t)w * h > SEER_IMAGE_DEFAULT_MAX_PIXELS || (int64_t)w * c->ch > SEER_IMAGE_DEFAULT_MAX_PIXELS)
        return -1;
    pil_axis ax = {0}, ay = {0};
    uint8_t *row = malloc((size_t)c->cw * 3), *mid = malloc((size_t)w * c->ch * 3), *out = NULL;
    int rc = -1;
    if (!row || !mid || axis_make(&ax, c->cw, w, filter) != 0) goto done;
    if (axis_make(&ay, c->ch, h, filter) != 0) goto done_x;
    for (int r = 0; r < c->ch; r++) {
        const uint8_t *in = canvas_row(c, r, row);
        if (w != c->cw) pass_horizontal(in, &ax, w, mid + (size_t)r * w * 3);
        else memcpy(mid + (size_t)r * w * 3, in, (size_t)w * 3);
    }
    if (h != c->ch) {
        if (!(out = malloc((size_t)w * h * 3))) goto done_y;
        pass_vertical(mid, w, &ay, h, out);
    } else {
        out = mid; /* already w×h */
        mid = NULL;
    }
    dst->rgb = out;
    dst->w = w;
    dst->h = h;
    rc = 0;
done_y:
    axis_free(&ay);
done_x:
    axis_free(&ax);
done:
    free(row);
    free(mid);
    return rc;
}

int seer_image_resize_pil(const seer_image *src, int w, int h, seer_pil_filter filter, seer_image *dst) {
    if (!dst) return -1;
    pil_canvas c = {.src = src, .cw = src ? src->w : 0, .ch = src ? src->h : 0};
    return resize_canvas(&c, w, h, filter, dst);
}

int seer_image_resize_pil_on_canvas(const seer_image *src, int cw, int ch, int x, int y, const uint8_t fill[3], int w,
                                    int h, seer_pil_filter filter, seer_image *dst) {
    if (!dst || !fill) return -1;
    pil_canvas c = {.src = src, .cw = cw, .ch = ch, .x = x, .y = y, .fill = {fill[0], fill[1], fill[2]}};
    return resize_canvas(&c, w, h, filter, dst);
}
