/* Building a multimodal prompt chunk by chunk (engine/mtmd only). */
#ifndef SEER_MTMD_INTERNAL_H
#define SEER_MTMD_INTERNAL_H

#include "seer/mtmd.h"

typedef struct mtmd_builder {
    seer_mm_prompt *p;
    int cap;
    const seer_vocab *vocab;
    int64_t n_image_tokens;
    seer_error *err;
} mtmd_builder;

/* Appends token ids to the text chunk at the end (a new one if the last
 * chunk is an image): adjacent text is one chunk, as in llama.cpp. */
int mtmd_push_tokens(mtmd_builder *b, const int32_t *ids, int n);
/* Tokenizes text with special tokens parsed, no BOS/EOS, and appends it. */
int mtmd_push_text(mtmd_builder *b, const char *text, size_t len);
/* How an image chunk sits in the prompt: its token grid, rows, positions
 * and how the decoder takes it. */
typedef struct mtmd_image_shape {
    int nx, ny, n_tokens, n_pos;
    bool non_causal, xd_pos;
} mtmd_image_shape;
/* Appends an image chunk; takes ownership of px->data. */
int mtmd_push_image(mtmd_builder *b, seer_pixels *px, const mtmd_image_shape *shape, int image_index);

/* Expands one preprocessed image into the family's wrapper text and image
 * chunks. Takes ownership of the inputs' pixel data. grid() gives the token
 * grid of each input. */
typedef void (*mtmd_grid_fn)(const void *ctx, int w, int h, int *nx, int *ny);
int mtmd_layout_image(mtmd_builder *b, const seer_vision_hparams *hp, seer_image_inputs *in, int image_index,
                      mtmd_grid_fn grid, const void *grid_ctx);

/* The tokenizer shared by both public entry points. */
int mtmd_tokenize(const seer_vocab *vocab, const seer_vision_hparams *hp, mtmd_grid_fn grid, const void *grid_ctx,
                  const char *text, const seer_image *images, int n_images, bool add_special, seer_mm_prompt *out,
                  seer_error *err);

#endif
