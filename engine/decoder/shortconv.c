/* LFM2's short-convolution layer: in_proj splits each row into B, C, X; the
 * gated rows B ⊙ X go through a causal depthwise convolution of conv_len
 * taps over the rows before them (zeros before the first), then C gates the
 * result. The recurrent state is nothing but the last conv_len − 1 B ⊙ X
 * rows, kept per cache row (c->conv_rows) like keys and values: a row only
 * reads rows below it, so truncation and cancellation need no snapshots. */
#include <string.h>

#include "decoder/llm_internal.h"

void llm_shortconv(seer_ctx *c, int l, int n) {
    const seer_llm *m = c->m;
    const llm_layer *L = &m->layers[l];
    const int E = m->info.n_embd, K = m->conv_len;
    float *rows = c->conv_rows + (size_t)L->conv_slot * (size_t)c->n_ctx * (size_t)E;
    for (int i = 0; i < n; i++) {
        const float *bcx = c->conv_bcx + (size_t)i * 3 * E;
        float *bx = rows + (size_t)(c->n_used + i) * E;
        for (int e = 0; e < E; e++) bx[e] = bcx[e] * bcx[2 * E + e];
    }
    for (int i = 0; i < n; i++) {
        const int row = c->n_used + i;
        const float *gate = c->conv_bcx + (size_t)i * 3 * E + E;
        float *out = c->attn + (size_t)i * E;
        for (int e = 0; e < E; e++) {
            const float *w = L->conv_kernel + (size_t)e * K;
            float sum = 0.0f;
            /* oldest tap first, as ggml_ssm_conv sums */
            for (int k = 0; k < K; k++) {
                const int src = row - (K - 1) + k;
                if (src >= 0) sum += rows[(size_t)src * E + e] * w[k];
            }
            out[e] = gate[e] * sum;
        }
    }
}
