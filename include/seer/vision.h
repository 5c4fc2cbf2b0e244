/* The vision side (mmproj): hyper-parameters, preprocessing into encoder
 * inputs, and the ViT + projector. */
#ifndef SEER_VISION_H
#define SEER_VISION_H

#include "seer/gguf.h"
#include "seer/image.h"
#include "seer/threadpool.h"

typedef enum seer_projector {
    SEER_PROJ_MLP,        /* LLaVA-1.5/1.6, BakLLaVA ("mlp", "mlp_norm") */
    SEER_PROJ_IDEFICS3,   /* SmolVLM */
    SEER_PROJ_QWEN2VL,    /* "qwen2vl_merger" */
    SEER_PROJ_QWEN25VL,   /* "qwen2.5vl_merger" */
    SEER_PROJ_QWEN3VL,    /* "qwen3vl_merger": Qwen3-VL, with DeepStack mergers */
    SEER_PROJ_GEMMA3,     /* "gemma3": SigLIP, average pool, soft-embedding norm */
    SEER_PROJ_INTERNVL,   /* "internvl": InternViT, pixel unshuffle, LayerNorm + MLP (mlp1) */
    SEER_PROJ_LDP,        /* "ldp": MobileVLM, MLP + two MobileNetV3 blocks (the second halves the grid) */
    SEER_PROJ_LDPV2,      /* "ldpv2": MobileVLM V2, MLP + 2x2 average pool + depthwise-conv positions */
    SEER_PROJ_LFM2,       /* "lfm2": SigLIP2 NaFlex (positions resized to the grid), pixel unshuffle, [LayerNorm,] MLP */
    SEER_PROJ_PIXTRAL,    /* "pixtral": Pixtral / Mistral Small 3.1 ViT (2-D RoPE), [patch merger,] MLP, [IMG_BREAK] rows */
    SEER_PROJ_RESAMPLER,  /* "resampler": MiniCPM-V 2.5 / 2.6 / 4.x, SigLIP + a cross-attention resampler (fixed query count) */
    SEER_PROJ_GEMMA4V,    /* "gemma4v": Gemma 4's ViT (x/y position tables, 2-D RoPE, sandwich norms), k×k average pool, RMSNorm, projection */
    SEER_PROJ_GLM4V,      /* "glm4v": GLM-4.1V / 4.6V / GLM-OCR ViT (RMSNorm, SwiGLU, 2-D M-RoPE, bicubic-resized positions),
                           * 2×2 conv merger, fc, LayerNorm, GELU, SwiGLU MLP */
    SEER_PROJ_PADDLEOCR,  /* "paddleocr": PaddleOCR-VL's SigLIP NaViT (resized positions, 2-D RoPE in raster order),
                           * LayerNorm, 2×2 unshuffle, MLP */
    SEER_PROJ_DOTS_OCR,   /* "dots_ocr": dots.ocr's RMSNorm / SwiGLU ViT (2-D RoPE in raster order, no positions),
                           * post norm, LayerNorm, 2×2 unshuffle, MLP (GELU erf) */
    SEER_PROJ_HUNYUANVL,  /* "hunyuanvl": HunyuanOCR / HunyuanVL's LayerNorm ViT (positions resampled from a square table),
                           * RMSNorm, 2×2 conv, GELU, 1×1 conv, a newline row per line, fc, begin / end rows, RMSNorm */
    SEER_PROJ_LIGHTONOCR, /* "lightonocr": LightOnOCR, Pixtral's ViT and patch merger without [IMG_BREAK] rows,
                           * longest-edge resize, between <|im_start|> and <|im_end|> */
} seer_projector;

/* Pixtral's ViT, patch merger and MLP (pixtral, lightonocr). */
static inline bool seer_projector_pixtral_vit(seer_projector p) {
    return p == SEER_PROJ_PIXTRAL || p == SEER_PROJ_LIGHTONOCR;
}

/* Image tokens of these projectors take M-RoPE (t, row, col) positions. */
static inline bool seer_projector_mrope(seer_projector p) {
    return p == SEER_PROJ_QWEN2VL || p == SEER_PROJ_QWEN25VL || p == SEER_PROJ_QWEN3VL || p == SEER_PROJ_GLM4V ||
           p == SEER_PROJ_PADDLEOCR;
}
/* HunyuanVL: the image's rows are BOI, each line of merged cells and its
 * newline, EOI; its tokens take XD-RoPE positions (seer_xdrope_image_positions). */
static inline bool seer_projector_xdrope(seer_projector p) { return p == SEER_PROJ_HUNYUANVL; }
/* Whether the language model must take 4 positions per row (M-RoPE or XD-RoPE). */
static inline bool seer_projector_multi_pos(seer_projector p) { return seer_projector_mrope(p) || seer_projector_xdrope(p); }
/* Rows the projector makes for an output grid of nx×ny (seer_vision_out_grid):
 * nx·ny, or HunyuanVL's (nx + 1)·ny + 2. */
static inline int seer_projector_tokens(seer_projector p, int nx, int ny) {
    return seer_projector_xdrope(p) ? (nx + 1) * ny + 2 : nx * ny;
}
/* Image chunks of these projectors are decoded with attention among all
 * their rows (llama.cpp turns causal attention off for them): Gemma 3, and
 * Gemma 4 except E2B / E4B (LLM width 1536 / 2560: always causal, as
 * llama.cpp's mtmd_decode_use_non_causal; the LLM sees an image whole on its
 * sliding-window layers only). */
static inline bool seer_projector_non_causal(seer_projector p, int n_embd_text) {
    return p == SEER_PROJ_GEMMA3 || (p == SEER_PROJ_GEMMA4V && n_embd_text != 1536 && n_embd_text != 2560);
}

/* MiniCPM-V's resampler: heads of 128 (llama.cpp and the checkpoints: n_embd_text / 128 heads). */
#define SEER_RESAMPLER_HEAD_DIM 128

#define SEER_MAX_PINPOINTS 64
#define SEER_MAX_DEEPSTACK 32

/* How images become encoder inputs: as the model's own processor (HF
 * transformers: Pillow-exact resampling, the authors' resize, pad and tile
 * rules), the default; or as llama.cpp does it (the conformance data). */
typedef enum seer_preproc_mode { SEER_PREPROC_ORIGINAL = 0, SEER_PREPROC_LLAMACPP } seer_preproc_mode;
/* "original" or "llamacpp"; false for anything else. */
bool seer_preproc_mode_parse(const char *name, seer_preproc_mode *out);

typedef struct seer_vision_hparams {
    seer_projector projector;
    char projector_name[64];
    int image_size, patch_size;
    int n_embd, n_ff, n_layer, n_head;
    float eps;
    int n_embd_out;                 /* width of each output row (all DeepStack slices included) */
    int n_embd_text;                /* LLM width: n_embd_out / (1 + n_deepstack) */
    float mean[3], std[3];
    bool anyres;                    /* LLaVA-1.6: image_grid_pinpoints present */
    /* InternVL: the tile counts of its grids; pinpoints holds every a×b grid
     * with min ≤ a·b ≤ max as llama.cpp lists them (a the columns). */
    int min_tiles, max_tiles;
    int n_pinpoints;
    int pinpoints[SEER_MAX_PINPOINTS][2]; /* (width, height) */
    int scale_factor;               /* idefics3 / internvl pixel shuffle; gemma3 average pool (k×k patches a token);
                                     * pixtral spatial_merge_size (1: Pixtral 12B, no patch merger) */
    int preproc_image_size;         /* idefics3 refined canvas (2048); lightonocr: the longest edge */
    int n_wa_pattern;               /* qwen2.5vl: full attention when (i+1) % n == 0 */
    /* qwen3vl: blocks whose output also feeds a DeepStack merger (ascending);
     * each adds an n_embd_text slice to every output row. */
    int n_deepstack;
    int deepstack_layers[SEER_MAX_DEEPSTACK];
    bool use_gelu, use_silu;
    seer_preproc_mode preproc;      /* not in the GGUF: chosen by the caller */
    int n_ff_proj;                  /* glm4v: the merger MLP's width (mm.gate rows) */
    /* paddleocr, dots_ocr, hunyuanvl: the resize's pixel budget (clip.vision.image_min_pixels /
     * image_max_pixels, from the model's preprocessor_config) */
    int64_t image_min_pixels, image_max_pixels;
    int max_image_tokens;           /* Qwen2/2.5-VL original mode: merged tokens per image at most (0: 4096) */
    /* resampler (MiniCPM-V): clip.minicpmv_version (2 = 2.5, 3 = 2.6, 4 = o-2.6, 5 = 4.0, 6 = 4.5,
     * 100045 = o-4.5; 0 read as 2) and the tokens of every encoder input (the learned queries). */
    int minicpmv_version;
    int n_queries;
} seer_vision_hparams;

/* Pixtral's image tokens for a w×h input: the merged patch grid row by row,
 * an [IMG_BREAK] row after each but the last (none for LightOnOCR). */
static inline int seer_pixtral_n_tokens(const seer_vision_hparams *hp, int w, int h) {
    int unit = hp->patch_size * (hp->scale_factor > 0 ? hp->scale_factor : 1);
    int px = w / unit, py = h / unit, breaks = hp->projector == SEER_PROJ_LIGHTONOCR ? 0 : py - 1;
    return px > 0 && py > 0 ? px * py + breaks : 0;
}

/* Reads and checks the clip.* metadata; unsupported projectors are an error
 * naming them. */
int seer_vision_hparams_read(const gguf_file *f, seer_vision_hparams *hp, seer_error *err);

/* One encoder input in one of two forms: normalized planes [3][h][w]
 * (R, G, B), or 8-bit RGB [h][w][3] normalized as the encoder reads it,
 * value = (v/255 − mean)/std (what preprocessing makes: a quarter of the
 * memory while a prompt's tiles wait to be encoded). */
typedef struct seer_pixels_source seer_pixels_source;
typedef struct seer_pixels {
    int w, h;
    float *data;           /* planes, or NULL when rgb holds the input */
    uint8_t *rgb;
    float mean[3], std[3]; /* for rgb */
    /* Deferred (data and rgb NULL): the w×h rectangle at (source_x,
     * source_y) of a canvas that source makes on demand. */
    seer_pixels_source *source;
    int source_x, source_y;
} seer_pixels;

/* Normalized value of channel c at (x, y), from either form. */
static inline float seer_pixel_at(const seer_pixels *p, int c, int64_t y, int64_t x) {
    if (p->data) return p->data[(c * (int64_t)p->h + y) * p->w + x];
    return ((float)p->rgb[(y * p->w + x) * 3 + c] / 255.0f - p->mean[c]) / p->std[c];
}
/* Normalized planes [3][h][w] of any form (malloc'd), or NULL. */
float *seer_pixels_planes(const seer_pixels *p);
void seer_pixels_free(seer_pixels *p);
/* Whether p holds or defers pixels. */
bool seer_pixels_present(const seer_pixels *p);
/* Pixels seer_pixel_at can read: p itself, or for deferred pixels *tmp
 * with the rectangle made (free it with seer_pixels_free). NULL when out of
 * memory. */
const seer_pixels *seer_pixels_readable(const seer_pixels *p, seer_pixels *tmp);

/* Preprocessing of one image as the model family wants it: one or more encoder
 * inputs (tiles, overview) in prompt order. */
typedef struct seer_image_inputs {
    int n;
    seer_pixels *inputs;
    int grid_rows, grid_cols;      /* tiling grid (SmolVLM, LLaVA-1.6); 0 when not tiled */
} seer_image_inputs;

int seer_image_preprocess(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out,
                          seer_error *err);
void seer_image_inputs_free(seer_image_inputs *in);

typedef struct seer_vision seer_vision;
seer_vision *seer_vision_load(const char *path, seer_error *err);
void seer_vision_free(seer_vision *v);
const seer_vision_hparams *seer_vision_get_hparams(const seer_vision *v);
/* Chooses how this model's images are preprocessed (default: original). */
void seer_vision_set_preproc(seer_vision *v, seer_preproc_mode mode);
/* Precision of the encoder's matrix products: exact (the default: the
 * products llama.cpp computes, up to the order of the sums) or bf16
 * (weights and activations rounded to BF16, FP32 sums, on a CPU with BF16
 * dot products: faster, at the cost docs/correctness.md states per case;
 * seer_matmul_bf16). "exact" or "bf16"; false for anything else. */
typedef enum seer_vision_precision { SEER_VISION_EXACT = 0, SEER_VISION_BF16 } seer_vision_precision;
bool seer_vision_precision_parse(const char *name, seer_vision_precision *out);
const char *seer_vision_precision_name(seer_vision_precision p);
/* Returns the precision that runs: exact when bf16 is asked for on a CPU
 * without BF16 dot products (the caller says so to the user). */
seer_vision_precision seer_vision_set_precision(seer_vision *v, seer_vision_precision p);
seer_vision_precision seer_vision_get_precision(const seer_vision *v);
/* Caps the merged tokens per image (Qwen2/2.5-VL, original mode; 0: the processor's 4096). */
void seer_vision_set_max_image_tokens(seer_vision *v, int max_tokens);
const gguf_file *seer_vision_gguf(const seer_vision *v);

/* Output grid of one encoder input: seer_projector_tokens(nx, ny) rows of
 * n_embd_out (nx·ny but for HunyuanVL). */
void seer_vision_out_grid(const seer_vision *v, int w, int h, int *nx, int *ny);
/* Encodes one input into out[n_tokens][n_embd_out]. *cancel is polled
 * between blocks. FLOPs of the encode are added to *flops when non-NULL. */
int seer_vision_encode(seer_vision *v, seer_pool *pool, const seer_pixels *in, float *out,
                       const volatile int *cancel, double *flops, seer_error *err);
/* Encodes n inputs (1..SEER_VISION_MAX_BATCH), input i into out[i] as
 * seer_vision_encode does. Towers without a class token or DeepStack take
 * them in one pass (the per-row products over all their rows at once;
 * patch embedding, positions, attention and projector within each input):
 * the same result, bit for bit, from fewer and larger matrix products;
 * other towers encode them one by one. */
#define SEER_VISION_MAX_BATCH 16
/* Whether the tower takes several inputs in one pass (else encode_batch
 * runs one pass per input). */
bool seer_vision_batchable(const seer_vision *v);
int seer_vision_encode_batch(seer_vision *v, seer_pool *pool, const seer_pixels *in, int n, float *const *out,
                             const volatile int *cancel, double *flops, seer_error *err);
/* Vision passes made (seer_vision_encode_batch calls) and the inputs they carried. */
typedef struct seer_vision_passes {
    int calls, images;
} seer_vision_passes;
/* Encodes n inputs (any number), input i into out[i], in order, several a
 * pass where the tower takes them (seer_vision_batchable) while a pass
 * holds at most max_patches patches and SEER_VISION_MAX_BATCH inputs (an
 * input larger than that goes alone; max_patches <= 0: one input a pass).
 * ms[i] (ms may be NULL) gets input i's share of its pass's time, by
 * patches; passes (may be NULL) is added to. Progress reports rise over
 * [0, 1] across all the passes. SEER_VISION_PASS_PATCHES in the
 * environment overrides max_patches (0: one input a pass), to measure
 * what sharing gains and to check that it changes no result. */
#define SEER_VISION_PASS_PATCHES 4096 /* a pass's activations: 4096 rows of the tower's width, a few MB a buffer */
int seer_vision_encode_passes(seer_vision *v, seer_pool *pool, const seer_pixels *in, int n, float *const *out,
                              int max_patches, double *ms, seer_vision_passes *passes, const volatile int *cancel,
                              double *flops, seer_error *err);

/* Progress of long encodes (a 4B model's image takes seconds): fn(user, f)
 * after each encoder block, f rising to 1 over one encode, or over the span
 * [base, base + span] that the caller set for it (seer_mtmd_encode shares
 * [0, 1] among its passes: seer_vision_encode_passes). fn NULL: no reports. */
typedef void (*seer_progress_fn)(void *user, float fraction);
void seer_vision_set_progress(seer_vision *v, seer_progress_fn fn, void *user);
void seer_vision_set_progress_span(seer_vision *v, float base, float span);

#endif
