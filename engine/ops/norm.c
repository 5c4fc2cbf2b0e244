/* Row normalisations: RMSNorm (decoders, Qwen ViT) and LayerNorm (CLIP/SigLIP).
 * Sums are accumulated in double so long rows do not lose precision. */
#include <math.h>

#include "ops/norm_avx512.h"
#include "seer/cpu.h"
#include "seer/ops.h"

typedef float f32x4 __attribute__((vector_size(16), aligned(4)));
typedef double f64x2 __attribute__((vector_size(16)));
typedef float f32x2 __attribute__((vector_size(8), aligned(4)));

/* Σ (x - c)² (pow 2) or Σ x (pow 1) in double, four pairs of sums at a
 * time: only the order of the additions differs from one running sum (a
 * relative 1e-16, far below the float results); one running sum waited on
 * its add's latency every element (4% of a Gemma 4 prompt, which norms each
 * row eight times a layer). */
static double sum_pow(const float *x, int64_t n, double c, int pow) {
    if (seer_simd_level() >= SEER_SIMD_AVX512) return seer_norm_sum_avx512(x, n, c, pow);
    f64x2 a[4] = {{0, 0}, {0, 0}, {0, 0}, {0, 0}};
    int64_t i = 0;
    for (; i + 8 <= n; i += 8)
        for (int k = 0; k < 4; k++) {
            const f64x2 v = __builtin_convertvector(*(const f32x2 *)(x + i + 2 * k), f64x2) - c;
            a[k] += pow == 2 ? v * v : v;
        }
    const f64x2 t = (a[0] + a[1]) + (a[2] + a[3]);
    double s = t[0] + t[1];
    for (; i < n; i++) s += pow == 2 ? ((double)x[i] - c) * ((double)x[i] - c) : (double)x[i] - c;
    return s;
}

double seer_sum_squares(const float *x, int64_t n) { return sum_pow(x, n, 0.0, 2); }

void seer_rmsnorm(float *x, const float *w, int64_t n_rows, int64_t n, float eps) {
    for (int64_t r = 0; r < n_rows; r++) {
        float *row = x + r * n;
        const float scale = (float)(1.0 / sqrt(sum_pow(row, n, 0.0, 2) / (double)n + (double)eps));
        int64_t i = seer_simd_level() >= SEER_SIMD_AVX512 ? seer_rmsnorm_out_avx512(row, w, scale, n) : 0;
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
        const double mean = sum_pow(in, n, 0.0, 1) / (double)n;
        const double inv = 1.0 / sqrt(sum_pow(in, n, mean, 2) / (double)n + (double)eps);
        int64_t i = seer_simd_level() >= SEER_SIMD_AVX512 ? seer_layernorm_out_avx512(in, o, w, b, n, mean, inv) : 0;
        for (; i + 2 <= n; i += 2) { /* ((x - mean)·inv in double, to float)·w + b, as the scalar form */
            f32x2 v = __builtin_convertvector((__builtin_convertvector(*(const f32x2 *)(in + i), f64x2) - mean) * inv, f32x2);
            if (w) v *= *(const f32x2 *)(w + i);
            if (b) v += *(const f32x2 *)(b + i);
            *(f32x2 *)(o + i) = v;
        }
        for (; i < n; i++) {
            float v = (float)((in[i] - mean) * inv);
            if (w) v *= w[i];
            if (b) v += b[i];
            o[i] = v;
        }
    }
}
