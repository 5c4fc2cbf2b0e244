/* YaRN rotary tables (the "yarn" RoPE scaling): low-frequency pairs are
 * interpolated (positions ×freq_scale) as in linear scaling, high-frequency
 * pairs keep their original angles, the pairs between mix the two on a
 * linear ramp; every cos/sin is scaled by mscale. The ramp ends and the
 * magnitude are llama.cpp's (ggml_rope_yarn_corr_dims, rope_yarn): floats
 * where it uses floats so that the ramp's integer ends come out the same. */
#include <math.h>

#include "seer/ops.h"

/* The pair index at which a frequency makes n_rot rotations over the
 * original context (fractional). */
static float corr_dim(int n_rot, int n_ctx_orig, float rotations, float base) {
    return (float)n_rot * logf((float)n_ctx_orig / (rotations * 2.0f * (float)M_PI)) / (2.0f * logf(base));
}

void seer_rope_yarn_init(seer_rope_yarn *y, int n_rot, int n_ctx_orig, float base, float freq_scale,
                         float ext_factor, float beta_fast, float beta_slow, float attn_factor) {
    const float lo = floorf(corr_dim(n_rot, n_ctx_orig, beta_fast, base));
    const float hi = ceilf(corr_dim(n_rot, n_ctx_orig, beta_slow, base));
    y->corr_lo = lo > 0.0f ? lo : 0.0f;
    y->corr_hi = hi < (float)(n_rot - 1) ? hi : (float)(n_rot - 1);
    y->freq_scale = freq_scale;
    y->ext_factor = ext_factor;
    /* the magnitude rope applies on top of the caller's factor when it mixes */
    y->mscale = ext_factor != 0.0f ? attn_factor * (1.0f + 0.1f * logf(1.0f / freq_scale)) : attn_factor;
}

/* 1 below corr_lo, 0 above corr_hi, linear between (pair index i). */
static float ramp(const seer_rope_yarn *y, int i) {
    const float span = y->corr_hi - y->corr_lo > 0.001f ? y->corr_hi - y->corr_lo : 0.001f;
    const float t = ((float)i - y->corr_lo) / span;
    return 1.0f - (t < 0.0f ? 0.0f : t > 1.0f ? 1.0f : t);
}

void seer_rope_table_yarn(float *cs, int n_rot, float base, const seer_rope_yarn *y, const float *freq_div, float pos) {
    for (int i = 0; i < n_rot / 2; i++) {
        double extrap = (double)pos * pow((double)base, -2.0 * i / (double)n_rot);
        if (freq_div) extrap /= (double)freq_div[i];
        const double interp = extrap * (double)y->freq_scale;
        const double mix = (double)(ramp(y, i) * y->ext_factor);
        const double theta = interp * (1.0 - mix) + extrap * mix;
        cs[2 * i] = (float)cos(theta) * y->mscale;
        cs[2 * i + 1] = (float)sin(theta) * y->mscale;
    }
}
