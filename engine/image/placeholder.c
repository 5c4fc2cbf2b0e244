/* PLACEHOLDER so the tree links while this area is being written: delete this
 * file function by function as the real implementations land. */
#include <stddef.h>
#include "seer/image.h"
#include "seer/vision.h"
#pragma GCC diagnostic ignored "-Wunused-parameter"
int seer_image_load(const char *path, int64_t max_pixels, seer_image *out, seer_error *err) { return -1; }
int seer_image_load_memory(const uint8_t *buf, size_t len, const char *name, int64_t max_pixels, seer_image *out, seer_error *err) { return -1; }
void seer_image_free(seer_image *img) {  }
int seer_image_resize_bicubic(const seer_image *src, int w, int h, seer_image *dst) { return -1; }
int seer_image_resize_bilinear(const seer_image *src, int w, int h, seer_image *dst) { return -1; }
int seer_image_preprocess(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out, seer_error *err) { return -1; }
void seer_image_inputs_free(seer_image_inputs *in) {  }
