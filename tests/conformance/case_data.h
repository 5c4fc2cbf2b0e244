/* One conformance case as read from its folder: case.json, prompt, the
 * expected token chunks, logits and greedy continuation. */
#ifndef SEER_CONFORMANCE_CASE_DATA_H
#define SEER_CONFORMANCE_CASE_DATA_H

#include "conformance.h"
#include "seer/llm.h"
#include "seer/vision.h"

typedef struct ref_chunk {
    bool image;
    int32_t *tokens;        /* text: ids (owned) */
    int n_tokens, n_pos, pos, index, nx, ny;
    int32_t *dpos;          /* M-RoPE image: [n_tokens][4] = t, x, y, z of llama.cpp's decoder_pos from
                             * position 0 (M-RoPE: x the column, y the row; z 0 where the file has three;
                             * HunyuanVL: see check_decoder.c) (owned) */
    int input_w, input_h;   /* size of its one encoder input (input_shapes [[1,3,h,w]]); 0 when not that */
} ref_chunk;

typedef struct case_data {
    char *dir;
    json_value *cj;
    char *llm_path, *mmproj_path;   /* mmproj NULL for text-only cases */
    char *prompt;
    size_t prompt_len;
    int n_images;
    char **image_paths;
    int n_predict;
    seer_kv_type kv_type;   /* the references' KV cache (expected/meta.json kv_cache_type; F32 if absent) */
    bool image_non_causal;  /* image chunks decoded non-causally (meta.json projector_type gemma3) */
    bool image_xd_pos;      /* image chunks take HunyuanVL's XD-RoPE positions (projector_type hunyuanvl) */
    /* How the reference prepared its images: case.json "image_preproc", "llamacpp" (default: the llama.cpp the
     * shared cases were made with) or "original" (a llama.cpp whose rule for the family is the model's own
     * processor's, e.g. upstream's Idefics3). */
    seer_preproc_mode image_preproc;
    double tol_logits, tol_embd, tol_margin;
    double tol_pixels;      /* image_input_max_abs; < 0 when the case sets none (pixels not compared) */
    ref_chunk *chunks;
    int n_chunks, n_tokens_total, n_pos_total;
    float *logits;
    size_t n_logits;
    int32_t *greedy;
    float *margin;
    int n_greedy;
} case_data;

/* Reads everything; on failure returns -1 with a reason in why. A missing
 * model file is reported through *missing (the case is then skipped). */
int case_data_load(case_data *cd, const char *dir, bool *missing, char *why, size_t why_cap);
void case_data_free(case_data *cd);
/* Expected embeddings of image chunk k ([n_tokens][n_embd_inp]); NULL if absent. */
float *case_data_image_embd(const case_data *cd, int k, size_t *n);
/* Pixels llama.cpp fed its encoder for image chunk k ([3][h][w]); NULL if not kept. */
float *case_data_image_input(const case_data *cd, int k, size_t *n);

#endif
