/* Row normalisations: RMSNorm (decoders, Qwen ViT) and LayerNorm (CLIP/SigLIP).
 * Sums are accumulated in double so long rows do not lose precision. */
#include <math.h>

#include "seer/ops.h"

typedef float f32x4 __attribute__((vector_size(16), aligned(4)));
typedef double f64x2 __attribute__((vector_size(16)));
typedef float f32x2 __attribute__((vector_size(8), aligned(4)));

/* Σ x² in double, four pairs of sums at a time: each square is exact in
 * double, so only the order of the additions differs from one running sum
 * (a relative 1e-16, far below the float scale it makes); one running sum
 * waited on its add's latency every element (4% of a Gemma 4 prompt, which
 * norms each row eight times a layer). */
static double sum_squares(const float *x, int64_t n) {
    f64x2 a[4] = {{0, 0}, {0, 0}, {0, 0}, {0, 0}};
    int64_t i = 0;
    for (; i + 8 <= n; i += 8)
        for (int k = 0; k < 4; k++) {
            const f64x2 v = __builtin_convertvector(*(const f32x2 *)(x + i + 2 * k), f64x2);
            a[k] += v * v;
        }
    const f64x2 t = (a[0] + a[1]) + (a[2] + a[3]);
    double ss = t[0] + t[1];
    for (; i < n; i++) ss += (double)x[i] * x[i];
    return ss;
}

void seer_rmsnorm(float *x, const float *w, int64_t n_rows, int64_t n, float eps) {
    for (int64_t r = 0; r < n_rows; r++) {
        float *row = x + r * n;
        const float scale = (float)(1.0 / sqrt(sum_squares(row, n) / (double)n + (double)eps));
        int64_t i = 0;
        for (; i + 4 <= n; i += 4) { /* (x·scale)·w, as the scalar form rounds it */
            f32x4 v = *(f32x4 *)(row + i) * scale;
            if (w) v *= *(const f32x4 *)(w + i);
            *(f32x4 *)(row + i) = v;
        }
        for (; i < n; i++) row[i] = w ? row[i] * scale * w[i] : row[i] * scale;
    }
}

void seer_layernorm(const float *x, float *out, const float *w, const float *b, int64_t n_rows, int64_t n,
                    float eps) {
    for (int64_t r = 0; r < n_rows; r++) {
        const float *in = x + r * n;
        float *o = out + r * n;
        double sum = 0.0;
        for (int64_t i = 0; i < n; i++) sum += in[i];
        const double mean = sum / (double)n;
        double var = 0.0;
        for (int64_t i = 0; i < n; i++) {
            const double d = in[i] - mean;
            var += d * d;
        }
        const double inv = 1.0 / sqrt(var / (double)n + (double)eps);
        for (int64_t i = 0; i < n; i++) {
            float v = (float)((in[i] - mean) * inv);
            if (w) v *= w[i];
            if (b) v += b[i];
            o[i] = v;
        }
    }
}
