/* The checks of one case. Each appends its numbers to res->detail and returns
 * 0 (passed), 1 (failed: res says why), or 2 (not run: *note says why). */
#ifndef SEER_CONFORMANCE_CHECKS_H
#define SEER_CONFORMANCE_CHECKS_H

#include "case_data.h"
#include "seer/llm.h"
#include "seer/mtmd.h"

typedef struct check_out {
    char text[512];       /* numbers for the PASS line, or the failure */
    bool failed;
} check_out;

/* a. The prompt through seer_mtmd_tokenize vs tokens.json (vision may be NULL:
 * the image grids then come from the mmproj hyper-parameters). */
void check_tokens(const case_data *cd, const seer_llm *llm, seer_vision *vision, check_out *out);

/* b. tokens.json's chunks with the expected image embeddings → logits, greedy. */
void check_decoder(const case_data *cd, const seer_llm *llm, seer_pool *pool, check_out *out);

/* c. images → preprocess → encoder → embeddings, then the decoder. */
void check_pipeline(const case_data *cd, const seer_llm *llm, seer_vision *vision, seer_pool *pool,
                    check_out *out);

/* d. the reference's encoder inputs (image_input_<k>.f32, where kept) → encoder + projector; adds nothing to
 * out when the case kept no inputs. */
void check_encoder(const case_data *cd, seer_vision *vision, seer_pool *pool, check_out *out);
/* Largest |mine - ref| over one encoder input of w×h (ref: [3][h][w]); infinite when the sizes differ. */
double pixels_max_abs(const seer_pixels *mine, const float *ref, int w, int h);

/* Shared by b and c: compares the logits now in ctx with the expected ones,
 * then runs greedy decoding from next_pos (free-running by the README's
 * margin rule, then teacher-forced). */
void check_logits_and_greedy(const case_data *cd, const seer_llm *llm, seer_ctx *ctx, int32_t next_pos,
                             check_out *out);

void out_add(check_out *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Replaces the numbers with the failure and marks the check failed. */
void out_fail(check_out *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
