/* Numerically stable softmax of one row (max subtracted; sum in double). */
#include <math.h>

#include "seer/ops.h"

void seer_softmax(float *x, int64_t n) {
    if (n <= 0) return;
    float max = x[0];
    for (int64_t i = 1; i < n; i++)
        if (x[i] > max) max = x[i];
    double sum = 0.0;
    for (int64_t i = 0; i < n; i++) {
        x[i] = expf(x[i] - max);
        sum += x[i];
    }
    const float inv = (float)(1.0 / sum);
    for (int64_t i = 0; i < n; i++) x[i] *= inv;
}
