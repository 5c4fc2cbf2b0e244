/* Multimodal prompts: text with <__media__> markers + images → chunks of
 * token ids and image embeddings laid out exactly as llama.cpp's mtmd does,
 * and feeding them to the decoder with the right positions. */
#ifndef SEER_MTMD_H
#define SEER_MTMD_H

#include "seer/llm.h"
#include "seer/vision.h"

/* The marker that stands for one image in a prompt (llama.cpp's). */
#define SEER_MTMD_MARKER "<__media__>"
/* Hard limits per prompt: beyond them tokenizing fails with a clear error. */
#define SEER_MTMD_MAX_IMAGES 64
#define SEER_MTMD_MAX_IMAGE_TOKENS 32768

typedef enum { SEER_CHUNK_TEXT, SEER_CHUNK_IMAGE } seer_chunk_type;

typedef struct seer_chunk {
    seer_chunk_type type;
    int32_t *tokens; int n_tokens;     /* text ids, or rows of an image chunk */
    int image_index;                   /* which image (images of one id share it) */
    seer_pixels pixels;                /* encoder input of an image chunk (freed once encoded) */
    int nx, ny;                        /* token grid */
    int n_pos;                         /* positions the chunk takes */
    bool non_causal;                   /* image rows attend to each other both ways (Gemma 3) */
    bool xd_pos;                       /* HunyuanVL's rows and XD-RoPE positions (seer_xdrope_image_positions) */
    float *embd;                       /* [n_tokens][n_embd] once encoded */
    double encode_ms;
} seer_chunk;

typedef struct seer_mm_prompt {
    int n_chunks;
    seer_chunk *chunks;
    int n_tokens;                      /* rows over all chunks */
    int n_pos;                         /* positions over all chunks */
    int n_embd;                        /* width of image embeddings (projector output, = the LLM's n_embd_inp) */
    bool mrope;                        /* image chunks take M-RoPE positions (Qwen2/2.5/3-VL) */
} seer_mm_prompt;

/* Whether a vision model (mmproj) fits a language model: the projector's
 * output width must be the width of the LLM's input rows (n_embd_inp:
 * Qwen3-VL's rows carry the DeepStack slices too), and Qwen-VL projectors
 * need an M-RoPE LLM. Call it after loading both: eval trusts it. Errors
 * name both widths / kinds. */
int seer_mtmd_check_pair(const seer_llm *llm, const seer_vision *vision, seer_error *err);

/* Splits text at markers, tokenizes each piece (specials parsed, no BOS/EOS),
 * expands each marker into the family's wrapper tokens and image chunks, adds
 * BOS/EOS when the vocabulary asks and add_special is set. Without markers,
 * images go before the text. vision may be NULL when n_images == 0. */
int seer_mtmd_tokenize(const seer_vocab *vocab, const seer_vision *vision, const char *text,
                       const seer_image *images, int n_images, bool add_special, seer_mm_prompt *out,
                       seer_error *err);
void seer_mm_prompt_free(seer_mm_prompt *p);

/* The same with only the vision hyper-parameters (no weights): token grids
 * come from seer_mtmd_grid_from_hparams. For tests and for counting image
 * tokens before the encoder is loaded. hp may be NULL when n_images == 0. */
int seer_mtmd_tokenize_hparams(const seer_vocab *vocab, const seer_vision_hparams *hp, const char *text,
                               const seer_image *images, int n_images, bool add_special, seer_mm_prompt *out,
                               seer_error *err);
/* Token grid of one encoder input of w×h pixels as llama.cpp reports it:
 * flat n×1 for LLaVA, SmolVLM and Gemma 3, (w/2p)×(h/2p) merged cells for
 * Qwen. */
void seer_mtmd_grid_from_hparams(const seer_vision_hparams *hp, int w, int h, int *nx, int *ny);

/* Encodes every image chunk that has no embedding yet (a tiled image's
 * tiles a few per vision pass where the tower allows it). */
int seer_mtmd_encode(seer_vision *vision, seer_pool *pool, seer_mm_prompt *p, const volatile int *cancel,
                     seer_error *err);
/* Encodes the image chunks of n prompts (of separate requests, say) that
 * have no embeddings yet, several per vision pass where the tower allows it
 * (seer_vision_encode_passes, in prompt order, at most max_patches patches
 * a pass). Each chunk's encode_ms gets its share of its pass. passes (may
 * be NULL) is added to. */
int seer_mtmd_encode_many(seer_vision *vision, seer_pool *pool, seer_mm_prompt *const *prompts, int n, int max_patches,
                          seer_vision_passes *passes, const volatile int *cancel, seer_error *err);

/* Feeds all chunks to the decoder in order, assigning positions (1-D, or
 * M-RoPE (t, row, col) for images with next position P + max(nx, ny)) from
 * the context's next position on. Logits of the last row are then available.
 * All or nothing: on error or cancel the context is rolled back to where it
 * was before the call. M-RoPE is used when p->mrope is set (Qwen projectors;
 * their LLMs are qwen2vl / qwen3vl). A non-causal image chunk is decoded as
 * one batch on its own. */
int seer_mtmd_eval(seer_ctx *ctx, const seer_mm_prompt *p, const volatile int *cancel, seer_error *err);
/* The same, writing every prompt row's final hidden state (after the output
 * norm) to hidden [p->n_tokens][n_embd] instead of computing logits. */
int seer_mtmd_eval_hidden(seer_ctx *ctx, const seer_mm_prompt *p, float *hidden, const volatile int *cancel,
                          seer_error *err);

/* Start position of every chunk when the prompt begins at pos0 (start has
 * n_chunks entries, may be NULL); returns the position after the prompt. */
int32_t seer_mtmd_positions(const seer_mm_prompt *p, int32_t pos0, int32_t *start);

/* Positions of an image chunk of nx×ny starting at P for M-RoPE models:
 * writes 4*n section-major entries (t, h, w, e). */
void seer_mrope_image_positions(int32_t P, int nx, int ny, int32_t *pos);
/* HunyuanVL's: BOI, ny lines of nx cells and a newline, EOI, (nx + 1)·ny + 2
 * rows; row i takes P + i on the first section, BOI and EOI on all four,
 * line r's column c (nx: its newline) c on the second, r on the third and
 * `image` (the image's place among the prompt's images) on the fourth;
 * the next token continues at P + rows. Section-major as above. */
void seer_xdrope_image_positions(int32_t P, int nx, int ny, int image, int32_t *pos);

#endif
