/* Building blocks shared by the per-family preprocessors (engine/image only). */
#ifndef SEER_IMAGE_PREPROCESS_INTERNAL_H
#define SEER_IMAGE_PREPROCESS_INTERNAL_H

#include "seer/vision.h"

typedef enum { RESIZE_BICUBIC, RESIZE_BILINEAR } resize_filter;

/* Largest size with the image's aspect ratio that fits max_w×max_h:
 * s = min(max_w/w, max_h/h) in float32, each side min(ceil(side·s), max). */
void image_fit_size(int w, int h, int max_w, int max_h, int *out_w, int *out_h);

/* Largest canvas a family may ask for: real models stay under 5 M pixels; a
 * hostile mmproj (huge patch or pinpoint sizes) must not get gigabytes. */
#define PREPROCESS_MAX_CANVAS_PIXELS (16LL * 1024 * 1024)

/* A canvas as the families make it: src resized (aspect kept,
 * image_fit_size) and centred on cw×ch filled with `fill`. */
typedef struct canvas_spec {
    const seer_image *src;
    int cw, ch;
    uint8_t fill[3];
    resize_filter filter;
} canvas_spec;

/* The w×h rectangle at (x, y) of the canvas into dst (rows of w pixels),
 * each pixel as the whole canvas has it; a bicubic canvas's rectangle is
 * computed alone. */
int canvas_rect(const canvas_spec *c, int x, int y, int w, int h, uint8_t *dst);

/* The whole canvas, allocated in dst. Fails on canvases over
 * PREPROCESS_MAX_CANVAS_PIXELS. */
int image_fit_on_canvas(const seer_image *src, int cw, int ch, const uint8_t fill[3], resize_filter filter,
                        seer_image *dst);

/* A tiled canvas's tiles made only when each is encoded (seer_pixels's
 * deferred form): the source image, copied once and shared by the tiles,
 * the last of which frees it. */
struct seer_pixels_source {
    int refs;
    seer_image img;
    canvas_spec canvas; /* canvas.src is &img */
};
/* A source for `refs` tiles of c (the image copied), or NULL. */
seer_pixels_source *pixels_source_new(const canvas_spec *c, int refs);
void pixels_source_release(seer_pixels_source *s);

/* Copy of the w×h rectangle at (x, y); it must lie inside src. */
int image_crop(const seer_image *src, int x, int y, int w, int h, seer_image *dst);

/* Appends the normalised planes of img ((v/255 − mean)/std, float32) to out. */
int image_inputs_append(seer_image_inputs *out, const seer_image *img, const seer_vision_hparams *hp);

/* Appends a canvas cut into cols×rows equal cells (row by row) and records
 * the grid; -1 when out of memory. */
int image_inputs_append_cells(seer_image_inputs *out, const seer_image *canvas, int cols, int rows,
                              const seer_vision_hparams *hp);

/* Appends the tiles (tile×tile crops, row-major) of a canvas whose sides are
 * multiples of tile, and records the grid. When the image is smaller than
 * the canvas (an upscale), the tiles are deferred: made from a copy of the
 * image as each is encoded, so that they are never all in memory. */
int image_inputs_append_tiles(seer_image_inputs *out, const canvas_spec *canvas, int tile,
                              const seer_vision_hparams *hp);

/* The pinpoint (index) llama.cpp's select_best_resolution picks for a w×h
 * image: the largest effective area wins; ties go to the smaller waste, then
 * to the earlier entry. -1 when there is none. */
int anyres_best_pinpoint(const seer_vision_hparams *hp, int w, int h);

/* src fitted into tw×th as llama.cpp's resize with PAD_CEIL does it (see
 * image_inputs_append_letterbox_pil), into dst (allocated). */
int image_letterbox_pil(const seer_image *src, int tw, int th, seer_pil_filter filter, seer_image *dst);
/* The same centred on `fill` instead of black. */
int image_letterbox_pil_fill(const seer_image *src, int tw, int th, seer_pil_filter filter, const uint8_t fill[3],
                             seer_image *dst);

/* Per family. Each fills out (already zeroed) or returns -1 with err set. */
int preprocess_llava15(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out, seer_error *err);
/* MobileVLM (ldp, ldpv2): LLaVA-1.5's fit and grey resampled as the
 * llama.cpp its cases pin does it (Pillow bicubic). */
int preprocess_mobilevlm(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out,
                         seer_error *err);
int preprocess_anyres(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out, seer_error *err);
int preprocess_idefics3(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out, seer_error *err);
int preprocess_qwen(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out, seer_error *err);
/* The same families as their authors' processors prepare them
 * (SEER_PREPROC_ORIGINAL): Pillow-exact resampling, their resize rules. */
int preprocess_llava15_original(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out,
                                seer_error *err);
int preprocess_idefics3_original(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out,
                                 seer_error *err);
int preprocess_qwen_original(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out,
                             seer_error *err);
int preprocess_gemma3_original(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out,
                               seer_error *err);
/* Qwen3-VL and Gemma 3 as llama.cpp prepares them (Pillow resamplers). */
int preprocess_qwen3vl(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out,
                       seer_error *err);
int preprocess_gemma3(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out, seer_error *err);
/* LFM2-VL as llama.cpp prepares it: one input, or 512 px tiles then the thumbnail. */
int preprocess_lfm2(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out, seer_error *err);
/* Pixtral / Mistral Small 3.1 as llama.cpp prepares them (both modes). */
/* llama.cpp's dyn_size rule with a token budget (preprocess_pixtral.c). */
int preprocess_dyn_size(const seer_vision_hparams *hp, const seer_image *img, int min_tokens, int max_tokens,
                        seer_image_inputs *out, seer_error *err);
/* The same with the budget in pixels (PaddleOCR-VL's min/max_pixels). */
int preprocess_dyn_size_pixels(const seer_vision_hparams *hp, const seer_image *img, int64_t min_pixels,
                               int64_t max_pixels, seer_image_inputs *out, seer_error *err);
/* The same size stretched to without a letterbox, with Pillow's filter (HunyuanVL: Lanczos). */
int preprocess_dyn_size_stretch(const seer_vision_hparams *hp, const seer_image *img, int64_t min_pixels,
                                int64_t max_pixels, seer_pil_filter filter, seer_image_inputs *out, seer_error *err);
/* llama.cpp's longest_edge rule (LightOnOCR; preprocess_longest_edge.c). */
int preprocess_longest_edge(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out,
                            seer_error *err);
int preprocess_pixtral(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out,
                       seer_error *err);
/* InternVL as llama.cpp prepares it: tiles of the best grid, then the overview. */
int preprocess_internvl(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out,
                        seer_error *err);
/* InternVL as its own dynamic_preprocess does it: tiles, then a thumbnail
 * unless there is one tile; internvl_original_grid is the grid it picks. */
int preprocess_internvl_original(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out,
                                 seer_error *err);
void internvl_original_grid(int w, int h, int image_size, int min_tiles, int max_tiles, int *cols, int *rows);
/* MiniCPM-V as llama.cpp prepares it: the overview, then the slices of its best grid (both modes). */
int preprocess_minicpmv(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out,
                        seer_error *err);
/* Appends src fitted into tw×th as llama.cpp's resize with PAD_CEIL does it:
 * aspect kept (image_fit_size), Pillow's filter, centred on black; src as it
 * is when it has that size. -1 when too large or out of memory. */
int image_inputs_append_letterbox_pil(seer_image_inputs *out, const seer_image *src, int tw, int th,
                                      seer_pil_filter filter, const seer_vision_hparams *hp);
/* Appends src resized with Pillow's filter; -1 when out of memory. */
int image_inputs_append_pil(seer_image_inputs *out, const seer_image *src, int w, int h, seer_pil_filter filter,
                            const seer_vision_hparams *hp);

/* Qwen2/2.5-VL token bounds (llama.cpp's and the HF processor's
 * 8·28²..4096·28² pixels); nothing in the GGUF changes them. */
#define QWEN_MIN_TOKENS 8
#define QWEN_MAX_TOKENS 4096
#define QWEN_MERGE 2

/* Qwen2/2.5-VL smart resize: the W̄×H̄ encoder size for an image. */
void qwen_smart_size(int w, int h, int factor, int64_t min_pixels, int64_t max_pixels, int *out_w, int *out_h);
/* The encoder size llama.cpp gives a Qwen-VL image (patch × 2 multiples,
 * 8 to 4096 tokens), or -1 with err set for absurd aspect ratios. */
int qwen_llamacpp_size(const seer_vision_hparams *hp, const seer_image *img, int *W, int *H, seer_error *err);

#endif
