/* PLACEHOLDER so the tree links while this area is being written: delete this
 * file function by function as the real implementations land. */
#include <stddef.h>
#include "seer/sampler.h"
#pragma GCC diagnostic ignored "-Wunused-parameter"
seer_sampling seer_sampling_default(void) { seer_sampling s = {0}; return s; }
seer_sampler *seer_sampler_new(const seer_sampling *s, int n_vocab) { return NULL; }
void seer_sampler_free(seer_sampler *s) {  }
void seer_sampler_set(seer_sampler *s, const seer_sampling *params) {  }
int32_t seer_sampler_sample(seer_sampler *s, const float *logits, float *prob) { return -1; }
void seer_sampler_accept(seer_sampler *s, int32_t id) {  }
void seer_sampler_reset(seer_sampler *s) {  }
