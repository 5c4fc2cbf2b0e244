/* Row normalisations: RMSNorm (decoders, Qwen ViT) and LayerNorm (CLIP/SigLIP).
 * Sums are accumulated in double so long rows do not lose precision. */
#include <math.h>

#include "seer/ops.h"

void seer_rmsnorm(float *x, const float *w, int64_t n_rows, int64_t n, float eps) {
    for (int64_t r = 0; r < n_rows; r++) {
        float *row = x + r * n;
        double ss = 0.0;
        for (int64_t i = 0; i < n; i++) ss += (double)row[i] * row[i];
        const float scale = (float)(1.0 / sqrt(ss / (double)n + (double)eps));
        if (w)
            for (int64_t i = 0; i < n; i++) row[i] = row[i] * scale * w[i];
        else
            for (int64_t i = 0; i < n; i++) row[i] *= scale;
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
