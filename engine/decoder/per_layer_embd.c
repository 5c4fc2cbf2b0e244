/* Per-layer embeddings (Gemma 4 E2B/E4B, as llama.cpp's gemma4 graph and
 * HF's get_per_layer_inputs / project_per_layer_inputs compute them): each
 * row gets a small input per layer, built once per pass from its token's
 * row of per_layer_token_embd (P·n_layer wide, read from the file per token:
 * the table is as large as the rest of the model and each token needs one
 * row) and a projection of its embedding; after each layer's FFN the layer
 * gates that input with its own state and adds the result back. */
#include <math.h>
#include <string.h>

#include "decoder/llm_internal.h"
#include "seer/ops.h"

/* ple_in[i][l][·] = (norm(proj·x_i / √n_embd) + tok_row[l]·√P) / √2, where
 * tok_row is the token's row (an embedding row's: token 0's, as llama.cpp
 * does for image rows). */
void llm_ple_inputs(seer_ctx *c, int n, const int32_t *tokens) {
    const seer_llm *m = c->m;
    const int P = m->ple_dim, L = m->info.n_layer;
    const int64_t W = (int64_t)P * L;
    seer_matmul(c->pool, &m->ple_proj, c->x, n, c->ple_in, NULL);
    const float proj_scale = 1.0f / sqrtf((float)m->info.n_embd), tok_scale = sqrtf((float)P),
                out_scale = 1.0f / sqrtf(2.0f);
    seer_scale(c->ple_in, c->ple_in, proj_scale, (int64_t)n * W);
    seer_rmsnorm(c->ple_in, m->ple_proj_norm, (int64_t)n * L, P, m->norm_eps);
    const seer_weight *t = &m->ple_tok;
    for (int i = 0; i < n; i++) {
        const int32_t id = tokens ? tokens[i] : 0;
        gguf_read_at(m->gguf, (const char *)t->data + (size_t)id * t->row_bytes, c->ple_row, t->row_bytes);
        seer_dequantize_row(t->type, c->ple_row, c->ple_tok_f32, W);
        float *dst = c->ple_in + (size_t)i * (size_t)W;
        for (int64_t k = 0; k < W; k++) dst[k] = (dst[k] + c->ple_tok_f32[k] * tok_scale) * out_scale;
    }
}

/* x += post_norm(proj · (gelu(gate · x) ⊙ ple_in[·][l])) over rows [0, n);
 * xn is scratch here (the FFN's output was added already). */
void llm_ple_layer(seer_ctx *c, int l, int n) {
    const seer_llm *m = c->m;
    const llm_layer *Ly = &m->layers[l];
    const int P = m->ple_dim, L = m->info.n_layer, E = m->info.n_embd;
    seer_matmul(c->pool, &Ly->ple_gate, c->x, n, c->ple_act, NULL);
    for (int i = 0; i < n; i++)
        seer_geglu_f16(c->ple_act + (size_t)i * P, c->ple_in + ((size_t)i * L + (size_t)l) * P, P);
    seer_matmul(c->pool, &Ly->ple_out, c->ple_act, n, c->xn, NULL);
    seer_rmsnorm(c->xn, Ly->ple_post_norm, n, E, m->norm_eps);
    seer_add(c->x, c->xn, (int64_t)n * E);
}
