/* Feeding a multimodal prompt to the decoder: consecutive positions, except
 * M-RoPE (t, row, col) for Qwen images, after which the next token
 * continues at P + max(nx, ny), and HunyuanVL's XD-RoPE image rows. A non-causal image (Gemma 3) goes in one
 * batch of its own, as llama.cpp decodes it: its rows see each other. */
#include <stdlib.h>
#include <string.h>

#include "seer/mtmd.h"

/* Rows per decoder call: bounds the decoder's per-batch scratch. Splitting a
 * causal chunk does not change the result (causal order is token order). */
#define MTMD_EVAL_BATCH 512

void seer_mrope_image_positions(int32_t P, int nx, int ny, int32_t *pos) {
    const int n = nx * ny;
    for (int k = 0; k < n; k++) {
        pos[k] = P;                     /* t */
        pos[n + k] = P + k / nx;        /* h: row */
        pos[2 * n + k] = P + k % nx;    /* w: column */
        pos[3 * n + k] = 0;             /* e: unused for images */
    }
}

void seer_xdrope_image_positions(int32_t P, int nx, int ny, int image, int32_t *pos) {
    const int n = (nx + 1) * ny + 2;
    for (int k = 0; k < n; k++) {
        const bool edge = k == 0 || k == n - 1; /* BOI, EOI */
        const int cell = k - 1;
        pos[k] = P + k;
        pos[n + k] = edge ? P + k : cell % (nx + 1);     /* column (nx: the newline) */
        pos[2 * n + k] = edge ? P + k : cell / (nx + 1); /* line */
        pos[3 * n + k] = edge ? P + k : image;
    }
}

int32_t seer_mtmd_positions(const seer_mm_prompt *p, int32_t pos0, int32_t *start) {
    int32_t P = pos0;
    for (int i = 0; i < p->n_chunks; i++) {
        const seer_chunk *c = &p->chunks[i];
        if (start) start[i] = P;
        /* An M-RoPE image takes max(nx, ny) positions, anything else one per row. */
        P += c->type == SEER_CHUNK_IMAGE && p->mrope ? c->n_pos : c->n_tokens;
    }
    return P;
}

int seer_mtmd_eval(seer_ctx *ctx, const seer_mm_prompt *p, const volatile int *cancel, seer_error *err) {
    return seer_mtmd_eval_hidden(ctx, p, NULL, cancel, err);
}

int seer_mtmd_eval_hidden(seer_ctx *ctx, const seer_mm_prompt *p, float *hidden, const volatile int *cancel,
                          seer_error *err) {
    if (!ctx || !p) return -1;
    const size_t n_embd = (size_t)seer_llm_get_info(seer_ctx_model(ctx))->n_embd;
    size_t row = 0; /* prompt row of the next batch (where its hidden states go) */
    const int used0 = seer_ctx_used(ctx);
    const int32_t pos0 = seer_ctx_next_pos(ctx);
    if (used0 + p->n_tokens > seer_ctx_size(ctx)) {
        seer_error_set(err, "the prompt needs %d more tokens of context but only %d of %d are free", p->n_tokens,
                       seer_ctx_size(ctx) - used0, seer_ctx_size(ctx));
        return -1;
    }
    seer_ctx_mark(ctx); /* where a cancelled or failed prompt goes back to */
    int max_rows = 0;
    for (int i = 0; i < p->n_chunks; i++)
        if (p->chunks[i].type == SEER_CHUNK_IMAGE && p->chunks[i].n_tokens > max_rows) max_rows = p->chunks[i].n_tokens;
    int32_t *pos = malloc(sizeof *pos * 4 * (size_t)(max_rows > MTMD_EVAL_BATCH ? max_rows : MTMD_EVAL_BATCH));
    int32_t *image_pos = max_rows ? malloc(sizeof *image_pos * 4 * (size_t)max_rows) : NULL;
    int32_t *start = malloc(sizeof *start * (size_t)(p->n_chunks + 1));
    if (!pos || (max_rows && !image_pos) || !start) {
        free(pos);
        free(image_pos);
        free(start);
        seer_error_set(err, "out of memory for positions");
        return -1;
    }
    const int32_t end = seer_mtmd_positions(p, pos0, start);
    int rc = 0, n_images = 0; /* image chunks so far: HunyuanVL's fourth position */
    for (int i = 0; rc == 0 && i < p->n_chunks; i++) {
        const seer_chunk *c = &p->chunks[i];
        const int32_t P = start[i];
        if (c->type == SEER_CHUNK_IMAGE) n_images++;
        if (c->type == SEER_CHUNK_IMAGE && !c->embd) {
            seer_error_set(err, "image %d is not encoded", c->image_index + 1);
            rc = -1;
            break;
        }
        if (c->type == SEER_CHUNK_IMAGE && p->mrope) {
            const int rows = c->xd_pos ? seer_projector_tokens(SEER_PROJ_HUNYUANVL, c->nx, c->ny) : c->nx * c->ny;
            if (rows != c->n_tokens) {
                seer_error_set(err, "image %d: token grid %d×%d does not match %d tokens", c->image_index + 1, c->nx,
                               c->ny, c->n_tokens);
                rc = -1;
                break;
            }
            if (c->xd_pos) seer_xdrope_image_positions(P, c->nx, c->ny, n_images - 1, image_pos);
            else seer_mrope_image_positions(P, c->nx, c->ny, image_pos);
        }
        const bool explicit_pos = c->type == SEER_CHUNK_IMAGE && p->mrope;
        /* Consecutive rows use the decoder's own positions (correct for 1-D
         * and M-RoPE models alike) once its counter is at P. */
        if (!explicit_pos && seer_ctx_next_pos(ctx) != P) seer_ctx_truncate(ctx, seer_ctx_used(ctx), P);
        const bool non_causal = c->type == SEER_CHUNK_IMAGE && c->non_causal;
        const int step = non_causal ? c->n_tokens : MTMD_EVAL_BATCH;
        for (int r0 = 0; rc == 0 && r0 < c->n_tokens; r0 += step) {
            int n = c->n_tokens - r0 < step ? c->n_tokens - r0 : step;
            seer_batch b = {.n = n, .non_causal = non_causal};
            if (explicit_pos) {
                for (int s = 0; s < 4; s++) memcpy(pos + s * n, image_pos + s * c->n_tokens + r0, sizeof *pos * (size_t)n);
                b.pos = pos;
            }
            if (c->type == SEER_CHUNK_TEXT) b.tokens = c->tokens + r0;
            else b.embd = c->embd + (size_t)r0 * (size_t)p->n_embd;
            if (hidden) b.hidden = hidden + row * n_embd;
            rc = seer_ctx_decode(ctx, &b, cancel, err);
            row += (size_t)n;
        }
    }
    free(pos);
    free(image_pos);
    free(start);
    if (rc != 0) {
        seer_ctx_truncate(ctx, used0, pos0);
        return -1;
    }
    /* The next token continues after the last chunk's positions. */
    if (seer_ctx_next_pos(ctx) != end) seer_ctx_truncate(ctx, seer_ctx_used(ctx), end);
    return 0;
}
