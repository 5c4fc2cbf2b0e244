/* 2-D rotary position embedding of the Qwen2-VL / Qwen2.5-VL and Pixtral
 * vision towers: NEOX pairs (i, i + d/2); the first half of the pairs
 * encodes the patch row, the second half the patch column, each with its
 * own frequency ladder (Pixtral's column on the odd rungs). The angles are
 * tabulated once per encode (they do not change per block). */
#include <math.h>

#include "vision/vision_internal.h"

void vit_rope2d_table(const int *row, const int *col, int n, int d, float base, bool odd_cols, float *cos_t,
                      float *sin_t) {
    int half = d / 2, quarter = d / 4;
    for (int t = 0; t < n; t++) {
        for (int i = 0; i < half; i++) {
            int j = i < quarter ? i : i - quarter;
            double pos = i < quarter ? row[t] : col[t];
            double rung = i >= quarter && odd_cols ? 4.0 * j + 2.0 : 4.0 * j;
            double theta = pos * pow((double)base, -rung / d);
            cos_t[(size_t)t * half + i] = (float)cos(theta);
            sin_t[(size_t)t * half + i] = (float)sin(theta);
        }
    }
}

void vit_rope2d_apply(float *x, int64_t n, int n_head, int d, const float *cos_t, const float *sin_t) {
    int half = d / 2;
    for (int64_t t = 0; t < n; t++) {
        const float *c = cos_t + t * half, *s = sin_t + t * half;
        for (int h = 0; h < n_head; h++) {
            float *v = x + (t * n_head + h) * d;
            for (int i = 0; i < half; i++) {
                float a = v[i], b = v[i + half];
                v[i] = a * c[i] - b * s[i];
                v[i + half] = a * s[i] + b * c[i];
            }
        }
    }
}

void vit_rope2d_apply_halves(float *x, int64_t n, int n_head, int d, const float *cos_t, const float *sin_t) {
    const int half = d / 2, quarter = d / 4;
    for (int64_t t = 0; t < n; t++) {
        const float *c = cos_t + t * half, *s = sin_t + t * half;
        for (int h = 0; h < n_head; h++) {
            float *v = x + (t * n_head + h) * d;
            for (int i = 0; i < half; i++) { /* pair i of the table: its half, then its place there */
                float *u = v + (i < quarter ? i : half + i - quarter);
                const float a = u[0], b = u[quarter];
                u[0] = a * c[i] - b * s[i];
                u[quarter] = a * s[i] + b * c[i];
            }
        }
    }
}
