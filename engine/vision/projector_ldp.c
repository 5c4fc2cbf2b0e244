/* MobileVLM projectors over LLaVA-1.5's CLIP patches (a gw×gh raster grid,
 * one row of C channels per patch), as llama.cpp computes them:
 * ldp (MobileVLM): mlp.1 → GELU → mlp.3, then two MobileNetV3 inverted
 *   residual blocks without expansion, the first with stride 1 and a
 *   residual, the second with stride 2 (a (gw/2)×(gh/2) grid out);
 * ldpv2 (MobileVLM V2): mlp.0 → GELU → mlp.2, 2×2 average pool, then the
 *   PEG: a depthwise 3×3 convolution with bias added to its input.
 * ggml feeds a depthwise convolution through an F16 im2col, so its input
 * is rounded to F16 here too; the 9 products are summed in double, as
 * ggml's short F16 dot product does. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "seer/tensor.h"
#include "vision/vision_internal.h"

/* Depthwise 3×3 convolution, padding 1: out[(oy·ow + ox)·c + ch]; the
 * output grid is ((g − 1) / stride + 1) per side. bias may be NULL. */
static void depthwise3x3(const float *x, int gw, int gh, int64_t c, const float *k, const float *bias, int stride,
                         float *out) {
    const int ow = (gw - 1) / stride + 1, oh = (gh - 1) / stride + 1;
    for (int oy = 0; oy < oh; oy++)
        for (int ox = 0; ox < ow; ox++) {
            float *o = out + ((int64_t)oy * ow + ox) * c;
            for (int64_t ch = 0; ch < c; ch++) {
                double sum = 0.0;
                for (int ky = 0; ky < 3; ky++) {
                    int iy = oy * stride - 1 + ky;
                    if (iy < 0 || iy >= gh) continue;
                    for (int kx = 0; kx < 3; kx++) {
                        int ix = ox * stride - 1 + kx;
                        if (ix < 0 || ix >= gw) continue;
                        float in = seer_fp16_to_f32(seer_f32_to_fp16(x[((int64_t)iy * gw + ix) * c + ch]));
                        sum += (double)(k[ch * 9 + ky * 3 + kx] * in);
                    }
                }
                o[ch] = (float)sum + (bias ? bias[ch] : 0.0f);
            }
        }
}

static float hardsigmoid(float x) { return fminf(1.0f, fmaxf(0.0f, (x + 3.0f) / 6.0f)); }

/* One LDP block on x (gw×gh grid) into out ((gw/stride)×(gh/stride) for
 * even sides); tmp holds as many floats as out, se 2·c. */
static void ldp_block(const seer_vision *v, seer_pool *pool, const vit_ldp_block *b, const float *x, int gw, int gh,
                      int stride, float *out, float *tmp, float *se, double *flops) {
    const int64_t c = v->hp.n_embd_out;
    const int64_t n = (int64_t)((gw - 1) / stride + 1) * ((gh - 1) / stride + 1);
    depthwise3x3(x, gw, gh, c, b->dw, NULL, stride, tmp);
    vit_norm_rows(pool, VIT_NORM_LAYER, tmp, tmp, &b->dw_norm, n, c, v->hp.eps);
    for (int64_t i = 0; i < n * c; i++) tmp[i] *= hardsigmoid(tmp[i]); /* hardswish */
    /* squeeze-excite: the channel means (summed in float in raster order,
     * as ggml's global average pool), fc1, ReLU, fc2, hardsigmoid */
    float *mean = se, *mid = se + c;
    memset(mean, 0, (size_t)c * sizeof(float));
    for (int64_t i = 0; i < n; i++)
        for (int64_t ch = 0; ch < c; ch++) mean[ch] += tmp[i * c + ch];
    for (int64_t ch = 0; ch < c; ch++) mean[ch] /= (float)n;
    vit_linear_apply(v, pool, &b->se_fc1, mean, 1, mid, flops);
    for (int64_t j = 0; j < b->se_fc1.w.n_out; j++) mid[j] = fmaxf(mid[j], 0.0f);
    vit_linear_apply(v, pool, &b->se_fc2, mid, 1, mean, flops);
    for (int64_t ch = 0; ch < c; ch++) mean[ch] = hardsigmoid(mean[ch]);
    for (int64_t i = 0; i < n; i++)
        for (int64_t ch = 0; ch < c; ch++) tmp[i * c + ch] *= mean[ch];
    vit_linear_apply(v, pool, &b->pw, tmp, n, out, flops);
    vit_norm_rows(pool, VIT_NORM_LAYER, out, out, &b->pw_norm, n, c, v->hp.eps);
}

int vit_project_ldp(const seer_vision *v, seer_pool *pool, const float *x, const vit_layout *l, float *out,
                    double *flops, seer_error *err) {
    const int gw = l->gw, gh = l->gh;
    const int64_t c = v->hp.n_embd_out, n = (int64_t)gw * gh, n_out = (int64_t)(gw / 2) * (gh / 2);
    bool v2 = v->hp.projector == SEER_PROJ_LDPV2;
    if (gw % 2 != 0 || gh % 2 != 0 || (!v2 && (v->ldp[0].se_fc1.w.n_out > c || v->ldp[1].se_fc1.w.n_out > c))) {
        seer_error_set(err, "vision: the %dx%d patch grid does not halve, or a squeeze-excite layer is wider than its input (MobileVLM projector)", gw, gh);
        return -1;
    }
    /* m: the MLP's output; a, b: block buffers; se: squeeze-excite rows */
    float *m = malloc((size_t)(3 * n * c + 2 * c) * sizeof(float));
    if (!m) {
        seer_error_set(err, "vision: out of memory (projector)");
        return -1;
    }
    float *a = m + n * c, *b = a + n * c, *se = b + n * c;
    vit_linear_apply(v, pool, &v->mm0, x, n, a, flops);
    vit_act_rows(pool, VIT_ACT_GELU_TANH, a, n * c);
    vit_linear_apply(v, pool, &v->mm2, a, n, m, flops);
    if (v2) {
        vit_avg_pool(m, gw, gh, c, 2, a);
        depthwise3x3(a, gw / 2, gh / 2, c, v->peg_w, v->peg_b, 1, out);
        vit_add_rows(pool, out, a, n_out * c);
    } else {
        ldp_block(v, pool, &v->ldp[0], m, gw, gh, 1, a, b, se, flops);
        vit_add_rows(pool, a, m, n * c); /* block 1's residual */
        ldp_block(v, pool, &v->ldp[1], a, gw, gh, 2, out, b, se, flops);
    }
    free(m);
    return 0;
}
