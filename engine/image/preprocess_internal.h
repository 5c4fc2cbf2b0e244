/* Building blocks shared by the per-family preprocessors (engine/image only). */
#ifndef SEER_IMAGE_PREPROCESS_INTERNAL_H
#define SEER_IMAGE_PREPROCESS_INTERNAL_H

#include "seer/vision.h"

typedef enum { RESIZE_BICUBIC, RESIZE_BILINEAR } resize_filter;

/* Largest size with the image's aspect ratio that fits max_w×max_h:
 * s = min(max_w/w, max_h/h) in float32, each side min(ceil(side·s), max). */
void image_fit_size(int w, int h, int max_w, int max_h, int *out_w, int *out_h);

/* Largest canvas a family may ask for: real models stay under 5 M pixels; a
 * hostile mmproj (huge patch or pinpoint sizes) must not get gigabytes. */
#define PREPROCESS_MAX_CANVAS_PIXELS (16LL * 1024 * 1024)

/* Resizes src (aspect kept, image_fit_size) and centres it on a cw×ch canvas
 * filled with `fill`. dst is allocated. Fails on canvases over
 * PREPROCESS_MAX_CANVAS_PIXELS. */
int image_fit_on_canvas(const seer_image *src, int cw, int ch, const uint8_t fill[3], resize_filter filter,
                        seer_image *dst);

/* Copy of the w×h rectangle at (x, y); it must lie inside src. */
int image_crop(const seer_image *src, int x, int y, int w, int h, seer_image *dst);

/* Appends the normalised planes of img ((v/255 − mean)/std, float32) to out. */
int image_inputs_append(seer_image_inputs *out, const seer_image *img, const seer_vision_hparams *hp);

/* Appends the tiles (tile×tile crops, row-major) of a canvas whose sides are
 * multiples of tile, and records the grid. */
int image_inputs_append_tiles(seer_image_inputs *out, const seer_image *canvas, int tile,
                              const seer_vision_hparams *hp);

/* Per family. Each fills out (already zeroed) or returns -1 with err set. */
int preprocess_llava15(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out, seer_error *err);
int preprocess_anyres(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out, seer_error *err);
int preprocess_idefics3(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out, seer_error *err);
int preprocess_qwen(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out, seer_error *err);

/* Qwen2/2.5-VL smart resize: the W̄×H̄ encoder size for an image. */
void qwen_smart_size(int w, int h, int factor, int64_t min_pixels, int64_t max_pixels, int *out_w, int *out_h);

#endif
