/* The scalar gated delta step (see delta_step.h) and the run-time choice of
 * the SIMD ones. */
#include "decoder/delta_step.h"

#include <string.h>

#include "seer/cpu.h"

void delta_step_scalar(float *S, int d, const float *q, const float *k, const float *v, float decay, float beta,
                       float *o, float *u) {
    memset(u, 0, sizeof(float) * (size_t)d);
    memset(o, 0, sizeof(float) * (size_t)d);
    float qk = 0.0f;
    for (int i = 0; i < d; i++) {
        const float *Si = S + (size_t)i * d;
        const float ki = k[i], qi = q[i];
        qk += qi * ki;
        for (int j = 0; j < d; j++) {
            u[j] += Si[j] * ki;
            o[j] += Si[j] * qi;
        }
    }
    for (int j = 0; j < d; j++) {
        u[j] = beta * (v[j] - decay * u[j]);
        o[j] = decay * o[j] + qk * u[j];
    }
    for (int i = 0; i < d; i++) {
        float *Si = S + (size_t)i * d;
        const float ki = k[i];
        for (int j = 0; j < d; j++) Si[j] = decay * Si[j] + ki * u[j];
    }
}

delta_step_fn delta_step_for(int level) {
#if defined(__x86_64__)
    if (level >= SEER_SIMD_AVX512) return delta_step_avx512;
    if (level >= SEER_SIMD_AVX2) return delta_step_avx2;
#endif
    (void)level;
    return delta_step_scalar;
}

delta_step_fn delta_step_select(void) { return delta_step_for(seer_simd_level()); }
