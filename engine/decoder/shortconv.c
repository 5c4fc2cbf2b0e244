/* LFM2's short-convolution layer: in_proj splits each row into B, C, X; the
 * gated rows B ⊙ X go through a causal depthwise convolution of conv_len
 * taps over the rows before them (zeros before the first), then C gates the
 * result. The recurrent state is the last conv_len − 1 B ⊙ X rows; the
 * batch's rows follow it in one window of conv_len − 1 + n rows. */
#include <string.h>

#include "decoder/llm_internal.h"

/* Row j of the window: the state's rows, then the batch's B ⊙ X (in B's place). */
static const float *window_row(const seer_ctx *c, const float *state, int j) {
    const int E = c->m->info.n_embd, H = c->m->conv_len - 1;
    return j < H ? state + (size_t)j * E : c->conv_bcx + (size_t)(j - H) * 3 * E;
}

void llm_shortconv(seer_ctx *c, int l, int n) {
    const seer_llm *m = c->m;
    const llm_layer *L = &m->layers[l];
    const int E = m->info.n_embd, K = m->conv_len, H = K - 1;
    float *state = c->rec_state + L->state_off;
    for (int i = 0; i < n; i++) {
        float *bcx = c->conv_bcx + (size_t)i * 3 * E;
        for (int e = 0; e < E; e++) bcx[e] *= bcx[2 * E + e];
    }
    for (int i = 0; i < n; i++) {
        const float *gate = c->conv_bcx + (size_t)i * 3 * E + E, *taps[LLM_CONV_LEN_MAX];
        float *out = c->attn + (size_t)i * E;
        for (int k = 0; k < K; k++) taps[k] = window_row(c, state, i + k);
        for (int e = 0; e < E; e++) {
            const float *w = L->conv_kernel + (size_t)e * K;
            float sum = 0.0f;
            for (int k = 0; k < K; k++) sum += taps[k][e] * w[k]; /* oldest tap first, as ggml_ssm_conv sums */
            out[e] = gate[e] * sum;
        }
    }
    /* the new state: the window's last H rows (row n + j ≥ j, so in place) */
    for (int j = 0; j < H; j++) memmove(state + (size_t)j * E, window_row(c, state, n + j), sizeof(float) * (size_t)E);
}
