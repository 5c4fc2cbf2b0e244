/* PLACEHOLDER so the tree links while this area is being written: delete this
 * file function by function as the real implementations land. */
#include <stddef.h>
#include "seer/ops.h"
#pragma GCC diagnostic ignored "-Wunused-parameter"
void seer_rmsnorm(float *x, const float *w, int64_t n_rows, int64_t n, float eps) {  }
void seer_layernorm(const float *x, float *out, const float *w, const float *b, int64_t n_rows, int64_t n, float eps) {  }
void seer_silu(float *x, int64_t n) {  }
void seer_gelu_tanh(float *x, int64_t n) {  }
void seer_gelu_erf(float *x, int64_t n) {  }
void seer_quick_gelu(float *x, int64_t n) {  }
void seer_swiglu(float *a, const float *b, int64_t n) {  }
void seer_softmax(float *x, int64_t n) {  }
void seer_add(float *dst, const float *src, int64_t n) {  }
void seer_rope_normal(float *x, int d, int n_rot, float pos, float base) {  }
void seer_rope_neox(float *x, int d, int n_rot, float pos, float base) {  }
void seer_rope_multi(float *x, int d, const int sections[4], const float pos[4], float base) {  }
