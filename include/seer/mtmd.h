/* Multimodal prompts: text with <__media__> markers + images → chunks of
 * token ids and image embeddings laid out exactly as llama.cpp's mtmd does,
 * and feeding them to the decoder with the right positions. */
#ifndef SEER_MTMD_H
#define SEER_MTMD_H

#include "seer/llm.h"
#include "seer/vision.h"

typedef enum { SEER_CHUNK_TEXT, SEER_CHUNK_IMAGE } seer_chunk_type;

typedef struct seer_chunk {
    seer_chunk_type type;
    int32_t *tokens; int n_tokens;     /* text ids, or rows of an image chunk */
    int image_index;                   /* which image (images of one id share it) */
    seer_pixels pixels;                /* encoder input of an image chunk */
    int nx, ny;                        /* token grid */
    int n_pos;                         /* positions the chunk takes */
    float *embd;                       /* [n_tokens][n_embd] once encoded */
    double encode_ms;
} seer_chunk;

typedef struct seer_mm_prompt {
    int n_chunks;
    seer_chunk *chunks;
} seer_mm_prompt;

/* Splits text at markers, tokenizes each piece (specials parsed, no BOS/EOS),
 * expands each marker into the family's wrapper tokens and image chunks, adds
 * BOS/EOS when the vocabulary asks and add_special is set. Without markers,
 * images go before the text. vision may be NULL when n_images == 0. */
int seer_mtmd_tokenize(const seer_vocab *vocab, const seer_vision *vision, const char *text,
                       const seer_image *images, int n_images, bool add_special, seer_mm_prompt *out,
                       seer_error *err);
void seer_mm_prompt_free(seer_mm_prompt *p);

/* Encodes every image chunk that has no embedding yet. */
int seer_mtmd_encode(seer_vision *vision, seer_pool *pool, seer_mm_prompt *p, const volatile int *cancel,
                     seer_error *err);

/* Feeds all chunks to the decoder in order, assigning positions (1-D, or
 * M-RoPE (t, row, col) for images with next position P + max(nx, ny)).
 * Logits of the last row are then available. */
int seer_mtmd_eval(seer_ctx *ctx, const seer_mm_prompt *p, const volatile int *cancel, seer_error *err);

/* Positions of an image chunk of nx×ny starting at P for M-RoPE models:
 * writes 4*n section-major entries (t, h, w, e). */
void seer_mrope_image_positions(int32_t P, int nx, int ny, int32_t *pos);

#endif
