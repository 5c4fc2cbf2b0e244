/* Decoder-only check: the reference chunks with the reference image
 * embeddings and positions go straight into the decoder. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks.h"

void out_add(check_out *out, const char *fmt, ...) {
    size_t used = strlen(out->text);
    if (used + 1 >= sizeof out->text) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->text + used, sizeof out->text - used, fmt, ap);
    va_end(ap);
}

void out_fail(check_out *out, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->text, sizeof out->text, fmt, ap);
    va_end(ap);
    out->failed = true;
}

static int32_t argmax(const float *x, int n) {
    int32_t best = 0;
    for (int i = 1; i < n; i++)
        if (x[i] > x[best]) best = i;
    return best;
}

static int feed_token(seer_ctx *ctx, int32_t tok, int32_t pos, seer_error *err) {
    int32_t p[4] = {pos, pos, pos, pos};
    seer_batch b = {.n = 1, .tokens = &tok, .pos = p};
    /* 1-D models read p[0]; M-RoPE models all four sections (section-major, n = 1) */
    return seer_ctx_decode(ctx, &b, NULL, err);
}

/* Greedy from the prefill logits first (a copy), then the context's.
 * teacher: feed the reference tokens. Returns steps matched, or -1 after
 * recording a failure. */
static int greedy(const case_data *cd, const seer_llm_info *info, seer_ctx *ctx, const float *first,
                  int32_t next_pos, double margin_floor, bool teacher, check_out *out) {
    const int steps = cd->n_greedy < cd->n_predict ? cd->n_greedy : cd->n_predict;
    int matched = 0;
    for (int s = 0; s < steps; s++) {
        const int32_t mine = argmax(s == 0 ? first : seer_ctx_logits(ctx, 0), info->n_vocab);
        const int32_t ref = cd->greedy[s];
        if (mine != ref) {
            if (cd->margin[s] >= margin_floor) {
                out_fail(out, "%sgreedy step %d: token %d != %d (reference margin %.3g >= %.3g)",
                        teacher ? "teacher-forced " : "", s + 1, mine, ref, cd->margin[s], margin_floor);
                return -1;
            }
            if (!teacher) return matched; /* tolerated: the comparison stops here */
        } else {
            matched++;
        }
        if (s + 1 == steps) break;
        seer_error err = {{0}};
        if (feed_token(ctx, teacher ? ref : mine, next_pos + s, &err) != 0) {
            out_fail(out, "decode of greedy step %d: %s", s + 1, err.msg);
            return -1;
        }
    }
    return matched;
}

/* A greedy mismatch is a bug only where the reference's margin is wider than
 * what this run's own logit error can close. That error is measured, not
 * guessed: the RMS of seer's prefill logits minus the reference's (sigma).
 * The difference of two logits then errs by about sqrt(2) sigma, and
 * NOISE_SIGMAS of those cover it (a quantized pipeline's activations round to
 * int8 differently for float-order changes far below 1e-6, so its margins
 * move by 0.1-0.4 between two OpenBLAS kernel sets; exact F32 math leaves the
 * case's own greedy_margin_threshold in force). The logits tolerance bounds
 * sigma, so the floor cannot grow without bound. */
#define NOISE_SIGMAS 4.0

static double greedy_margin_floor(const case_data *cd, const float *logits) {
    double sum = 0;
    for (size_t i = 0; i < cd->n_logits; i++) {
        const double d = (double)logits[i] - cd->logits[i];
        sum += d * d;
    }
    const double from_noise = NOISE_SIGMAS * sqrt(2.0 * sum / (double)cd->n_logits);
    return from_noise > cd->tol_margin ? from_noise : cd->tol_margin;
}

void check_logits_and_greedy(const case_data *cd, const seer_llm *llm, seer_ctx *ctx, int32_t next_pos,
                             check_out *out) {
    const seer_llm_info *info = seer_llm_get_info(llm);
    if ((size_t)info->n_vocab != cd->n_logits) {
        out_fail(out, "n_vocab %d != %zu expected logits", info->n_vocab, cd->n_logits);
        return;
    }
    const double d = rel_l2(seer_ctx_logits(ctx, 0), cd->logits, cd->n_logits);
    if (!(d <= cd->tol_logits)) {
        out_fail(out, "logits rel_l2 %.3g > %.3g", d, cd->tol_logits);
        return;
    }
    out_add(out, "logits %.2g", d);
    float *first = malloc(sizeof *first * cd->n_logits);
    if (!first) return;
    memcpy(first, seer_ctx_logits(ctx, 0), sizeof *first * cd->n_logits);
    const int used = seer_ctx_used(ctx);
    const int32_t pos = seer_ctx_next_pos(ctx);
    seer_ctx_mark(ctx); /* the teacher-forced pass starts here again (a hybrid model's conv state too) */
    const int steps = cd->n_greedy < cd->n_predict ? cd->n_greedy : cd->n_predict;
    const double floor = greedy_margin_floor(cd, first);
    int matched = greedy(cd, info, ctx, first, next_pos, floor, false, out);
    if (matched >= 0) {
        out_add(out, ", greedy %d/%d", matched, steps);
        seer_ctx_truncate(ctx, used, pos);
        int forced = greedy(cd, info, ctx, first, next_pos, floor, true, out);
        if (forced >= 0) out_add(out, ", forced %d/%d (margins >= %.2g checked)", forced, steps, floor);
    }
    free(first);
}

/* Positions of reference chunk r: 1-D, or section-major M-RoPE; HunyuanVL's
 * image rows (xd): decoder_pos holds [i, row, column, image] for the cells
 * and newlines (i an offset from the chunk's pos, the others as they are),
 * [i, i, i, i] offsets for BOI / EOI. */
static void chunk_positions(const ref_chunk *r, bool mrope, bool xd, int32_t *pos) {
    const int n = r->n_tokens;
    for (int k = 0; k < n; k++) {
        if (!mrope) {
            pos[k] = r->pos + k;
        } else if (r->image && r->dpos && xd) {
            const bool edge = k == 0 || k == n - 1;
            const int32_t base = edge ? r->pos : 0, *d = r->dpos + 4 * k;
            pos[k] = r->pos + d[0];
            pos[n + k] = base + d[2];     /* column */
            pos[2 * n + k] = base + d[1]; /* row */
            pos[3 * n + k] = base + d[3]; /* image */
        } else if (r->image && r->dpos) {
            pos[k] = r->pos + r->dpos[4 * k];             /* t */
            pos[n + k] = r->pos + r->dpos[4 * k + 2];     /* h: row */
            pos[2 * n + k] = r->pos + r->dpos[4 * k + 1]; /* w: column */
            pos[3 * n + k] = 0;
        } else { /* text: llama.cpp widens a token's position to the first three sections, 0 on the fourth */
            for (int s = 0; s < 3; s++) pos[s * n + k] = r->pos + k;
            pos[3 * n + k] = r->image ? r->pos + k : 0;
        }
    }
}

void check_decoder(const case_data *cd, const seer_llm *llm, seer_pool *pool, check_out *out) {
    const seer_llm_info *info = seer_llm_get_info(llm);
    seer_error err = {{0}};
    seer_ctx *ctx = seer_ctx_new(llm, cd->n_tokens_total + cd->n_predict + 16, cd->kv_type, pool, &err);
    if (!ctx) {
        out_fail(out, "context: %s", err.msg);
        return;
    }
    for (int i = 0; i < cd->n_chunks && !out->failed; i++) {
        const ref_chunk *r = &cd->chunks[i];
        int32_t *pos = malloc(sizeof *pos * 4 * (size_t)(r->n_tokens ? r->n_tokens : 1));
        float *embd = NULL;
        seer_batch b = {.n = r->n_tokens, .pos = pos, .non_causal = r->image && cd->image_non_causal};
        if (r->image) {
            size_t n = 0;
            embd = case_data_image_embd(cd, r->index, &n);
            if (!embd || n != (size_t)r->n_tokens * (size_t)info->n_embd_inp) {
                out_fail(out, "expected/image_embd_%d.f32: missing or not %d x %d floats", r->index, r->n_tokens,
                        info->n_embd_inp);
            }
            b.embd = embd;
        } else {
            b.tokens = r->tokens;
        }
        if (!out->failed && pos && r->n_tokens > 0) {
            chunk_positions(r, info->mrope, cd->image_xd_pos, pos);
            if (seer_ctx_decode(ctx, &b, NULL, &err) != 0) {
                out_fail(out, "decode of chunk %d: %s", i, err.msg);
            }
        }
        free(pos);
        free(embd);
    }
    if (!out->failed) check_logits_and_greedy(cd, llm, ctx, cd->n_pos_total, out);
    seer_ctx_free(ctx);
}
