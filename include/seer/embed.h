/* Embeddings as jina-embeddings-v4 computes them on a Qwen2.5-VL decoder:
 * the final hidden states (after the last RMSNorm) of a text or an image
 * prompt, pooled into one L2-normalised vector (mean; Matryoshka cut), or
 * projected row by row into multi-vectors (a small linear layer with bias,
 * each row L2-normalised), and written in the formats users parse. */
#ifndef SEER_EMBED_H
#define SEER_EMBED_H

#include <stdio.h>

#include "seer/llm.h"
#include "seer/mtmd.h"

/* What the text is: the model was trained with "Query: " / "Passage: "
 * before it (no chat template, no BOS/EOS); plain adds nothing. */
typedef enum seer_embed_role { SEER_EMBED_PLAIN, SEER_EMBED_QUERY, SEER_EMBED_PASSAGE } seer_embed_role;
/* "query", "passage" or "none"; false for anything else. */
bool seer_embed_role_parse(const char *name, seer_embed_role *out);

/* The fixed prompt every image is embedded in (the marker is the image). */
#define SEER_EMBED_IMAGE_PROMPT "<|im_start|>user\n" SEER_MTMD_MARKER "Describe the image.<|im_end|>\n"

/* The prompt of one text input / one image (preprocessed as the vision
 * model is set up: original mode for embeddings, see seer_vision_set_*).
 * Image rows take M-RoPE (t, row, col) positions, as Qwen2.5-VL's
 * get_rope_index gives them (jina-embeddings-v4 and llama.cpp do the same). */
int seer_embed_text_prompt(const seer_vocab *vocab, seer_embed_role role, const char *text, seer_mm_prompt *out,
                           seer_error *err);
int seer_embed_image_prompt(const seer_vocab *vocab, const seer_vision *vision, const seer_image *img,
                            seer_mm_prompt *out, seer_error *err);

/* Encodes the images of n prompts, several per vision pass where the tower
 * allows it: seer_mtmd_encode_many over the array. */
int seer_embed_encode_images(seer_vision *vision, seer_pool *pool, seer_mm_prompt *prompts, int n, int max_patches,
                             seer_vision_passes *passes, const volatile int *cancel, seer_error *err);

/* One input's final hidden states. */
typedef struct seer_embed_states {
    int n_tokens, n_embd;
    int32_t *ids;                  /* [n_tokens]; image rows are <|image_pad|> (or -1 without one) */
    float *hidden;                 /* [n_tokens][n_embd], after the final norm */
    int pool_begin, pool_end;      /* rows the single vector averages, [begin, end) */
} seer_embed_states;

/* Encodes the prompt's images (vision may be NULL for text), then runs the
 * decoder over the whole prompt from an empty context (causal by token
 * index, image rows included) and keeps every row's final hidden state.
 * The pooled rows are all of them for text, <|vision_start|> … <|vision_end|>
 * inclusive for an image. */
int seer_embed_states_compute(seer_ctx *ctx, seer_vision *vision, seer_pool *pool, seer_mm_prompt *p,
                              seer_embed_states *out, const volatile int *cancel, seer_error *err);
void seer_embed_states_free(seer_embed_states *s);

/* v /= |v| (left as it is when zero). */
void seer_embed_normalize(float *v, int n);
/* The single vector: mean of the pooled rows, L2-normalised, then when
 * 0 < dim < n_embd its first dim values normalised again (Matryoshka).
 * out has n_embd floats; returns the vector's length. */
int seer_embed_single(const seer_embed_states *s, int dim, float *out);

/* The multi-vector projector: mv_proj.weight (ggml ne [n_embd, d], F32 or
 * F16) and mv_proj.bias ([d]) from a small GGUF. */
typedef struct seer_mv_proj seer_mv_proj;
seer_mv_proj *seer_mv_proj_load(const char *path, seer_error *err);
void seer_mv_proj_free(seer_mv_proj *p);
int seer_mv_proj_n_in(const seer_mv_proj *p);
int seer_mv_proj_dim(const seer_mv_proj *p);
/* out[i] = normalize(W·rows[i] + b) for n rows of n_in; out is [n][d]. */
void seer_mv_proj_apply(const seer_mv_proj *p, const float *rows, int n, float *out);

/* Output: one vector (or one matrix, multi-vector) per input, in order. */
typedef enum seer_embed_format {
    SEER_EMBED_JSON,   /* OpenAI-style {"object": "list", "data": [...]} */
    SEER_EMBED_JSONL,  /* {"index": i, "embedding": [...]} / {"index": i, "embeddings": [[...], ...]} a line */
    SEER_EMBED_F32,    /* raw little-endian float32 rows, one input after another */
    SEER_EMBED_NPY,    /* NumPy .npy float32 [rows][dim] (all inputs' rows) */
} seer_embed_format;
bool seer_embed_format_parse(const char *name, seer_embed_format *out);

typedef struct seer_embed_writer seer_embed_writer;
seer_embed_writer *seer_embed_writer_new(FILE *f, seer_embed_format fmt, bool multi, const char *model_name);
/* Adds input i's rows ([n_rows][dim]; one row for a single vector). */
int seer_embed_writer_add(seer_embed_writer *w, const float *rows, int n_rows, int dim);
/* Finishes the output (json / npy are written here); frees w. */
int seer_embed_writer_finish(seer_embed_writer *w);
/* Frees w without finishing (a run that failed half-way). */
void seer_embed_writer_abandon(seer_embed_writer *w);

#endif
