/* llama.cpp's own resize filters (not Pillow's): the reference pixels were
 * made with them, so the float32 arithmetic below follows the conformance
 * README step by step, including evaluation order. */
#include <math.h>
#include <stdlib.h>

#include "seer/image.h"

static inline int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

/* roundf (half away from zero) and clamp to a byte, without a libm call:
 * v − trunc(v) is exact, so the comparison with 0.5 is too. */
static inline uint8_t round_to_u8(float v) {
    if (!(v > -1024.0f && v < 1024.0f)) return v > 0 ? 255 : 0;
    int t = (int)v;
    float frac = v - (float)t;
    if (frac >= 0.5f) t++;
    else if (frac <= -0.5f) t--;
    return (uint8_t)(t < 0 ? 0 : t > 255 ? 255 : t);
}

static int alloc_dst(seer_image *dst, int w, int h) {
    dst->w = dst->h = 0;
    dst->rgb = NULL;
    if (w <= 0 || h <= 0) return -1;
    dst->rgb = malloc((size_t)w * h * 3);
    if (!dst->rgb) return -1;
    dst->w = w;
    dst->h = h;
    return 0;
}

/* One cubic step around p1 from the four samples p0..p3 at fraction t.
 * Coefficients are computed in double and stored as float, as the reference
 * does; the polynomial is evaluated in float. */
static inline float cubic(float p0, float p1, float p2, float p3, float t) {
    float a0 = p1;
    float d0 = p0 - a0, d2 = p2 - a0, d3 = p3 - a0;
    float a1 = (float)(-1.0 / 3 * d0 + d2 - 1.0 / 6 * d3);
    float a2 = (float)(1.0 / 2 * d0 + 1.0 / 2 * d2);
    float a3 = (float)(-1.0 / 6 * d0 - 1.0 / 2 * d2 + 1.0 / 6 * d3);
    return a0 + a1 * t + a2 * t * t + a3 * t * t * t;
}

/* Separable evaluation with the reference's exact arithmetic: the
 * horizontal pass of a source row depends only on (row, output column), so
 * each needed row is filtered once and kept in a 4-slot ring (the rows an
 * output row needs are 4 consecutive indices, distinct modulo 4); the
 * vertical pass then combines four filtered rows. A rectangle of the
 * output is computed pixel for pixel as the whole resize computes it. */
int seer_image_resize_bicubic_rect(const seer_image *src, int w, int h, int x0, int y0, int rw, int rh, uint8_t *dst,
                                   size_t dst_stride) {
    if (!src || !src->rgb || src->w <= 0 || src->h <= 0 || !dst || w <= 0 || h <= 0 || rw <= 0 || rh <= 0 ||
        x0 < 0 || y0 < 0 || x0 > w - rw || y0 > h - rh)
        return -1;
    const int sw = src->w, sh = src->h;
    const float tx = (float)sw / (float)w, ty = (float)sh / (float)h;
    const uint8_t *s = src->rgb;
    int *cols = malloc(sizeof *cols * 4 * (size_t)rw);
    float *dxs = malloc(sizeof *dxs * (size_t)rw);
    float *ring = malloc(sizeof *ring * 4 * 3 * (size_t)rw);
    if (!cols || !dxs || !ring) {
        free(cols);
        free(dxs);
        free(ring);
        return -1;
    }
    for (int j = 0; j < rw; j++) {
        int x = (int)(tx * (float)(x0 + j));
        dxs[j] = tx * (float)(x0 + j) - (float)x;
        for (int k = 0; k < 4; k++) cols[j * 4 + k] = clampi(x - 1 + k, 0, sw - 1);
    }
    int tag[4] = {-1, -1, -1, -1};
    for (int i = 0; i < rh; i++) {
        int y = (int)(ty * (float)(y0 + i));
        float dy = ty * (float)(y0 + i) - (float)y;
        const float *C[4];
        for (int k = 0; k < 4; k++) {
            int r = clampi(y - 1 + k, 0, sh - 1);
            float *slot = ring + (size_t)(r & 3) * 3 * rw;
            if (tag[r & 3] != r) { /* horizontal pass of source row r */
                const uint8_t *row = s + (size_t)r * sw * 3;
                for (int j = 0; j < rw; j++) {
                    const int *cj = cols + j * 4;
                    for (int c = 0; c < 3; c++)
                        slot[j * 3 + c] = cubic(row[cj[0] * 3 + c], row[cj[1] * 3 + c], row[cj[2] * 3 + c],
                                                row[cj[3] * 3 + c], dxs[j]);
                }
                tag[r & 3] = r;
            }
            C[k] = slot;
        }
        uint8_t *out = dst + (size_t)i * dst_stride;
        for (int q = 0; q < rw * 3; q++) {
            out[q] = round_to_u8(cubic(C[0][q], C[1][q], C[2][q], C[3][q], dy));
        }
    }
    free(cols);
    free(dxs);
    free(ring);
    return 0;
}

int seer_image_resize_bicubic(const seer_image *src, int w, int h, seer_image *dst) {
    if (!src || !src->rgb || src->w <= 0 || src->h <= 0 || alloc_dst(dst, w, h) != 0) return -1;
    if (seer_image_resize_bicubic_rect(src, w, h, 0, 0, w, h, dst->rgb, (size_t)w * 3) != 0) {
        seer_image_free(dst);
        return -1;
    }
    return 0;
}

static inline float lerp(float a, float b, float t) { return a + (b - a) * t; }

int seer_image_resize_bilinear(const seer_image *src, int w, int h, seer_image *dst) {
    if (!src || !src->rgb || src->w <= 0 || src->h <= 0 || alloc_dst(dst, w, h) != 0) return -1;
    const int sw = src->w, sh = src->h;
    /* Corner-aligned: first and last output pixels sit on the source corners. */
    const float rx = w > 1 ? (float)(sw - 1) / (float)(w - 1) : 0.0f;
    const float ry = h > 1 ? (float)(sh - 1) / (float)(h - 1) : 0.0f;
    const uint8_t *s = src->rgb;
    for (int y = 0; y < h; y++) {
        float py = ry * (float)y;
        int y0 = (int)py;
        if (y0 > sh - 1) y0 = sh - 1;
        int y1 = y0 + 1 < sh ? y0 + 1 : sh - 1;
        float fy = py - (float)y0;
        for (int x = 0; x < w; x++) {
            float px = rx * (float)x;
            int x0 = (int)px;
            if (x0 > sw - 1) x0 = sw - 1;
            int x1 = x0 + 1 < sw ? x0 + 1 : sw - 1;
            float fx = px - (float)x0;
            for (int c = 0; c < 3; c++) {
                float top = lerp(s[((size_t)y0 * sw + x0) * 3 + c], s[((size_t)y0 * sw + x1) * 3 + c], fx);
                float bot = lerp(s[((size_t)y1 * sw + x0) * 3 + c], s[((size_t)y1 * sw + x1) * 3 + c], fx);
                float v = lerp(top, bot, fy);
                v = v < 0.0f ? 0.0f : v > 255.0f ? 255.0f : v;
                dst->rgb[((size_t)y * w + x) * 3 + c] = (uint8_t)v; /* truncation, no rounding */
            }
        }
    }
    return 0;
}
