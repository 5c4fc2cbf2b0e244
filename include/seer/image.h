/* Decoded images (8-bit RGB) and llama.cpp-exact resize filters. */
#ifndef SEER_IMAGE_H
#define SEER_IMAGE_H

#include "seer/common.h"

typedef struct seer_image {
    int w, h;
    uint8_t *rgb;   /* w*h*3 bytes, row-major */
} seer_image;

#define SEER_IMAGE_DEFAULT_MAX_PIXELS (64LL * 1000 * 1000)

/* Decodes any format stb_image reads. Grey → RGB, alpha dropped, 16-bit → 8.
 * The header is checked first: images over max_pixels (<= 0: default) are
 * refused. Errors name the file. */
int seer_image_load(const char *path, int64_t max_pixels, seer_image *out, seer_error *err);
int seer_image_load_memory(const uint8_t *buf, size_t len, const char *name, int64_t max_pixels,
                           seer_image *out, seer_error *err);
void seer_image_free(seer_image *img);
/* A 64-bit FNV-1a hash of the size and pixels: what a server compares to
 * tell whether an image it is sent is one whose rows it already holds. Never 0. */
uint64_t seer_image_hash(const seer_image *img);

/* llama.cpp's filters (see the conformance README): bicubic with rounding,
 * corner-aligned bilinear with truncation. dst is allocated. */
int seer_image_resize_bicubic(const seer_image *src, int w, int h, seer_image *dst);
/* The rw×rh rectangle at (x0, y0) of src resized to w×h, each pixel as
 * seer_image_resize_bicubic makes it, written to dst (rows dst_stride bytes
 * apart). */
int seer_image_resize_bicubic_rect(const seer_image *src, int w, int h, int x0, int y0, int rw, int rh, uint8_t *dst,
                                   size_t dst_stride);
int seer_image_resize_bilinear(const seer_image *src, int w, int h, seer_image *dst);

/* Pillow's Image.resize (what the models' own processors run): separable,
 * antialiased when shrinking (support scaled by the factor), bicubic a=-0.5,
 * Lanczos a=3, 22-bit fixed-point passes with Pillow's rounding. dst is
 * allocated. */
typedef enum seer_pil_filter { SEER_PIL_BILINEAR, SEER_PIL_BICUBIC, SEER_PIL_LANCZOS } seer_pil_filter;
int seer_image_resize_pil(const seer_image *src, int w, int h, seer_pil_filter filter, seer_image *dst);
/* The same resize of src placed at (x, y) on a cw×ch canvas of colour fill,
 * the canvas never made whole (a tall panorama padded to a square). */
int seer_image_resize_pil_on_canvas(const seer_image *src, int cw, int ch, int x, int y, const uint8_t fill[3], int w,
                                    int h, seer_pil_filter filter, seer_image *dst);

#endif
