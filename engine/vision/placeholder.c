/* PLACEHOLDER so the tree links while this area is being written: delete this
 * file function by function as the real implementations land. */
#include <stddef.h>
#include "seer/vision.h"
#pragma GCC diagnostic ignored "-Wunused-parameter"
int seer_vision_hparams_read(const gguf_file *f, seer_vision_hparams *hp, seer_error *err) { return -1; }
seer_vision *seer_vision_load(const char *path, seer_error *err) { return NULL; }
void seer_vision_free(seer_vision *v) {  }
const seer_vision_hparams *seer_vision_get_hparams(const seer_vision *v) { return NULL; }
const gguf_file *seer_vision_gguf(const seer_vision *v) { return NULL; }
void seer_vision_out_grid(const seer_vision *v, int w, int h, int *nx, int *ny) {  }
int seer_vision_encode(seer_vision *v, seer_pool *pool, const seer_pixels *in, float *out, const volatile int *cancel, double *flops, seer_error *err) { return -1; }
