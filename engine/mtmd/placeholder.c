/* PLACEHOLDER so the tree links while this area is being written: delete this
 * file function by function as the real implementations land. */
#include <stddef.h>
#include "seer/mtmd.h"
#pragma GCC diagnostic ignored "-Wunused-parameter"
int seer_mtmd_tokenize(const seer_vocab *vocab, const seer_vision *vision, const char *text, const seer_image *images, int n_images, bool add_special, seer_mm_prompt *out, seer_error *err) { return -1; }
void seer_mm_prompt_free(seer_mm_prompt *p) {  }
int seer_mtmd_encode(seer_vision *vision, seer_pool *pool, seer_mm_prompt *p, const volatile int *cancel, seer_error *err) { return -1; }
int seer_mtmd_eval(seer_ctx *ctx, const seer_mm_prompt *p, const volatile int *cancel, seer_error *err) { return -1; }
void seer_mrope_image_positions(int32_t P, int nx, int ny, int32_t *pos) {  }
