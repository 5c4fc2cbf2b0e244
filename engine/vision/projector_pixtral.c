/* Pixtral / Mistral Small 3.1 projector. Mistral Small's patch merger first
 * (RMSNorm, then each s×s cell of the raster grid unfolded channel-major —
 * feature c·s² + dy·s + dx, torch's unfold — and mm.patch_merger back to the
 * ViT width); then the LLaVA MLP mm.1 → GELU → mm.2; then the rows of the
 * merged grid, each but the last followed by the [IMG_BREAK] embedding
 * (LightOnOCR has none: the rows follow each other). */
#include <stdlib.h>
#include <string.h>

#include "vision/vision_internal.h"

static void unfold_cells(const float *x, int gw, int gh, int64_t d, int s, float *out) {
    int cw = gw / s, ch = gh / s;
    for (int i = 0; i < ch; i++)
        for (int j = 0; j < cw; j++) {
            float *dst = out + ((int64_t)i * cw + j) * d * s * s;
            for (int64_t c = 0; c < d; c++)
                for (int dy = 0; dy < s; dy++)
                    for (int dx = 0; dx < s; dx++)
                        dst[c * s * s + dy * s + dx] = x[((int64_t)(s * i + dy) * gw + s * j + dx) * d + c];
        }
}

int vit_project_pixtral(const seer_vision *v, seer_pool *pool, const float *x, const vit_layout *l, float *out,
                        double *flops, seer_error *err) {
    const seer_vision_hparams *hp = &v->hp;
    int s = hp->scale_factor, cw = l->gw / s, ch = l->gh / s;
    int64_t d = hp->n_embd, n_tok = (int64_t)cw * ch, mid = v->mm0.w.n_out, n_out = hp->n_embd_out;
    int64_t merged = s > 1 ? n_tok * d * (1 + (int64_t)s * s) + l->n_patches * d : 0;
    float *buf = malloc((size_t)(merged + n_tok * (mid + n_out)) * sizeof(float));
    if (!buf) {
        seer_error_set(err, "vision: out of memory (projector)");
        return -1;
    }
    float *hidden = buf + merged, *proj = hidden + n_tok * mid;
    const float *feat = x;
    if (s > 1) {
        float *normed = buf, *unfolded = normed + l->n_patches * d, *reduced = unfolded + n_tok * d * s * s;
        vit_norm_rows(pool, VIT_NORM_RMS, x, normed, &v->mm_ln1, l->n_patches, d, hp->eps);
        unfold_cells(normed, l->gw, l->gh, d, s, unfolded);
        vit_linear_apply(v, pool, &v->merger, unfolded, n_tok, reduced, flops);
        feat = reduced;
    }
    vit_linear_apply(v, pool, &v->mm0, feat, n_tok, hidden, flops);
    vit_act_rows(pool, VIT_ACT_GELU_TANH, hidden, n_tok * mid);
    vit_linear_apply(v, pool, &v->mm2, hidden, n_tok, proj, flops);
    const int row_len = v->img_break ? cw + 1 : cw;
    for (int r = 0; r < ch; r++) {
        float *row = out + (int64_t)r * row_len * n_out;
        memcpy(row, proj + (int64_t)r * cw * n_out, sizeof(float) * (size_t)(cw * n_out));
        if (v->img_break && r + 1 < ch) memcpy(row + (int64_t)cw * n_out, v->img_break, sizeof(float) * (size_t)n_out);
    }
    free(buf);
    return 0;
}
