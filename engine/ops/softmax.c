/* Softmax of one row (max subtracted): the SIMD exp kernels, as attention
 * spends a large share of a long prompt's time here. */
#include "ops/exp_kernels.h"
#include "seer/ops.h"

void seer_softmax(float *x, int64_t n) { seer_exp_softmax(x, n); }
