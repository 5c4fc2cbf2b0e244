/* PLACEHOLDER so the tree links while this area is being written: delete this
 * file function by function as the real implementations land. */
#include <stddef.h>
#include "seer/matmul.h"
#pragma GCC diagnostic ignored "-Wunused-parameter"
bool seer_weight_from_tensor(seer_weight *w, const struct gguf_tensor *t) { return false; }
void seer_matmul(seer_pool *pool, const seer_weight *w, const float *x, int64_t n_rows, float *y, const float *bias) {  }
void seer_sgemm(seer_pool *pool, int64_t m, int64_t n, int64_t k, float alpha, const float *a, int64_t lda, const float *b, int64_t ldb, bool b_transposed, float beta, float *c, int64_t ldc) {  }
void seer_weight_get_row(const seer_weight *w, int64_t row, float *dst) {  }
