/* How each model family lays out one image in the prompt (llama.cpp's mtmd):
 *   LLaVA-1.5     [image]
 *   LLaVA-1.6     [tile 1]…[tile n][overview], nothing between
 *   SmolVLM       <fake_token_around_image><row_r_col_c>[tile] per tile,
 *                 "\n" after each row but the last, then
 *                 "\n\n<fake_token_around_image><global-img>"[overview]
 *                 "<fake_token_around_image>"
 *   Qwen2/2.5/3-VL <|vision_start|>[image]<|vision_end|>, the image taking
 *                 max(nx, ny) positions (M-RoPE)
 *   Gemma 3       <start_of_image>[image]<end_of_image>, the image decoded
 *                 non-causally
 *   Gemma 4       <|image>[image]<image|>, non-causal on the sliding layers
 *                 (not for E2B / E4B)
 *   GLM-4V / OCR  <|begin_of_image|>[image]<|end_of_image|>, M-RoPE positions
 *                 as Qwen2-VL
 *   InternVL      <img>[tile 1]…[tile n][overview]</img>
 *   LFM2-VL       <|image_start|>[image]<|image_end|> untiled; tiled:
 *                 <|image_start|> <|img_row_r_col_c|>[tile] per tile,
 *                 <|img_thumbnail|>[thumbnail] <|image_end|>
 *   Pixtral       [image][IMG_END], the image's rows already separated by
 *                 [IMG_BREAK] embeddings (the encoder's output)
 *   LightOnOCR    <|im_start|>[image]<|im_end|> (inside the ChatML user turn)
 *   PaddleOCR-VL  <|IMAGE_START|>[image]<|IMAGE_END|>, M-RoPE as Qwen's
 *   dots.ocr      <|img|>[image]<|endofimg|>, plain positions (its qwen2 LLM)
 *   HunyuanOCR    <｜hy_place▁holder▁no▁100｜>[image]<｜hy_place▁holder▁no▁101｜>, the image
 *                 itself BOI, lines of cells each with its newline, EOI
 *                 (the encoder's rows), one position each on the first
 *                 section, XD-RoPE (column, row, image) on the others
 *   MiniCPM-V     <image>[overview]</image>, then the slices row by row, "\n"
 *                 between rows: 2.6 and later <slice>[slice]</slice> each;
 *                 2.5 <image>[slice]</image> each, all inside <slice>…</slice>
 * The wrapper texts are tokenized with special tokens parsed: the ids come
 * from the vocabulary. */
#include <stdio.h>
#include <string.h>

#include "mtmd/mtmd_internal.h"

static int push_str(mtmd_builder *b, const char *s) { return mtmd_push_text(b, s, strlen(s)); }

static int push_input(mtmd_builder *b, const seer_vision_hparams *hp, seer_pixels *px, int image_index,
                      mtmd_grid_fn grid, const void *grid_ctx) {
    mtmd_image_shape s = {.non_causal = seer_projector_non_causal(hp->projector, hp->n_embd_text),
                          .xd_pos = seer_projector_xdrope(hp->projector)};
    grid(grid_ctx, px->w, px->h, &s.nx, &s.ny);
    s.n_tokens = seer_projector_tokens(hp->projector, s.nx, s.ny);
    s.n_pos = seer_projector_mrope(hp->projector) ? (s.nx > s.ny ? s.nx : s.ny) : s.n_tokens;
    return mtmd_push_image(b, px, &s, image_index);
}

/* A tiled image (tiles row by row, then the overview) with a tag before
 * each tile (row and column from 1), text between rows, and texts around the
 * overview, the whole between begin and end. */
typedef struct tiled_layout {
    const char *begin, *tile_tag, *row_end, *overview_begin, *end;
} tiled_layout;

static const tiled_layout IDEFICS3_TILES = {"", "<fake_token_around_image><row_%d_col_%d>", "\n",
                                            "\n\n<fake_token_around_image><global-img>", "<fake_token_around_image>"};
static const tiled_layout LFM2_TILES = {"<|image_start|>", "<|img_row_%d_col_%d|>", "", "<|img_thumbnail|>",
                                        "<|image_end|>"};

static int layout_tiled(mtmd_builder *b, const seer_vision_hparams *hp, seer_image_inputs *in, int image_index,
                        mtmd_grid_fn grid, const void *grid_ctx, const tiled_layout *t) {
    int rows = in->grid_rows, cols = in->grid_cols;
    if (rows * cols != in->n - 1) {
        seer_error_set(b->err, "image %d: %d encoder inputs do not match a %d×%d grid plus overview", image_index + 1,
                       in->n, cols, rows);
        return -1;
    }
    char tag[96];
    if (push_str(b, t->begin)) return -1;
    for (int r = 0; r < rows; r++) {
        for (int c = 0; c < cols; c++) {
            snprintf(tag, sizeof tag, t->tile_tag, r + 1, c + 1);
            if (push_str(b, tag) || push_input(b, hp, &in->inputs[r * cols + c], image_index, grid, grid_ctx))
                return -1;
        }
        if (r + 1 < rows && push_str(b, t->row_end)) return -1;
    }
    if (push_str(b, t->overview_begin) || push_input(b, hp, &in->inputs[in->n - 1], image_index, grid, grid_ctx) ||
        push_str(b, t->end))
        return -1;
    return 0;
}

/* The encoder inputs (one unless tiled) between two wrapper texts. */
static int layout_wrapped(mtmd_builder *b, const seer_vision_hparams *hp, seer_image_inputs *in, int image_index,
                          mtmd_grid_fn grid, const void *grid_ctx, const char *begin, const char *end, bool tiled) {
    if (in->n < 1 || (!tiled && in->n != 1)) {
        seer_error_set(b->err, "image %d: expected one encoder input, got %d", image_index + 1, in->n);
        return -1;
    }
    if (push_str(b, begin)) return -1;
    for (int i = 0; i < in->n; i++)
        if (push_input(b, hp, &in->inputs[i], image_index, grid, grid_ctx)) return -1;
    return push_str(b, end);
}

/* MiniCPM-V (llama.cpp's llava-uhd layout for the resampler): overview first. */
static int layout_minicpmv(mtmd_builder *b, const seer_vision_hparams *hp, seer_image_inputs *in, int image_index,
                           mtmd_grid_fn grid, const void *grid_ctx) {
    int rows = in->grid_rows, cols = in->grid_cols;
    if (in->n < 1 || rows * cols != in->n - 1) {
        seer_error_set(b->err, "image %d: %d encoder inputs do not match an overview and %d×%d slices",
                       image_index + 1, in->n, cols, rows);
        return -1;
    }
    bool v25 = hp->minicpmv_version == 2;
    const char *slice_begin = v25 ? "<image>" : "<slice>", *slice_end = v25 ? "</image>" : "</slice>";
    if (push_str(b, "<image>") || push_input(b, hp, &in->inputs[0], image_index, grid, grid_ctx) ||
        push_str(b, "</image>"))
        return -1;
    if (in->n == 1) return 0;
    if (v25 && push_str(b, "<slice>")) return -1;
    for (int r = 0; r < rows; r++) {
        for (int c = 0; c < cols; c++)
            if (push_str(b, slice_begin) || push_input(b, hp, &in->inputs[1 + r * cols + c], image_index, grid, grid_ctx) ||
                push_str(b, slice_end))
                return -1;
        if (r + 1 < rows && push_str(b, "\n")) return -1;
    }
    return v25 ? push_str(b, "</slice>") : 0;
}

int mtmd_layout_image(mtmd_builder *b, const seer_vision_hparams *hp, seer_image_inputs *in, int image_index,
                      mtmd_grid_fn grid, const void *grid_ctx) {
    switch (hp->projector) {
    case SEER_PROJ_IDEFICS3: return layout_tiled(b, hp, in, image_index, grid, grid_ctx, &IDEFICS3_TILES);
    case SEER_PROJ_QWEN2VL:
    case SEER_PROJ_QWEN25VL:
    case SEER_PROJ_QWEN3VL:
        return layout_wrapped(b, hp, in, image_index, grid, grid_ctx, "<|vision_start|>", "<|vision_end|>", false);
    case SEER_PROJ_GEMMA3:
        return layout_wrapped(b, hp, in, image_index, grid, grid_ctx, "<start_of_image>", "<end_of_image>", false);
    case SEER_PROJ_GEMMA4V: return layout_wrapped(b, hp, in, image_index, grid, grid_ctx, "<|image>", "<image|>", false);
    case SEER_PROJ_GLM4V:
        return layout_wrapped(b, hp, in, image_index, grid, grid_ctx, "<|begin_of_image|>", "<|end_of_image|>", false);
    case SEER_PROJ_INTERNVL: return layout_wrapped(b, hp, in, image_index, grid, grid_ctx, "<img>", "</img>", true);
    case SEER_PROJ_LFM2: /* one input: no tile tags, no thumbnail tag */
        if (in->n > 1) return layout_tiled(b, hp, in, image_index, grid, grid_ctx, &LFM2_TILES);
        return layout_wrapped(b, hp, in, image_index, grid, grid_ctx, "<|image_start|>", "<|image_end|>", false);
    case SEER_PROJ_PIXTRAL: return layout_wrapped(b, hp, in, image_index, grid, grid_ctx, "", "[IMG_END]", false);
    case SEER_PROJ_LIGHTONOCR:
        return layout_wrapped(b, hp, in, image_index, grid, grid_ctx, "<|im_start|>", "<|im_end|>", false);
    case SEER_PROJ_PADDLEOCR:
        return layout_wrapped(b, hp, in, image_index, grid, grid_ctx, "<|IMAGE_START|>", "<|IMAGE_END|>", false);
    case SEER_PROJ_DOTS_OCR: return layout_wrapped(b, hp, in, image_index, grid, grid_ctx, "<|img|>", "<|endofimg|>", false);
    case SEER_PROJ_HUNYUANVL: /* fullwidth ｜ and ▁, as the vocabulary spells them */
        return layout_wrapped(b, hp, in, image_index, grid, grid_ctx, "<｜hy_place▁holder▁no▁100｜>",
                              "<｜hy_place▁holder▁no▁101｜>", false);
    case SEER_PROJ_RESAMPLER: return layout_minicpmv(b, hp, in, image_index, grid, grid_ctx);
    default: /* LLaVA-1.5 (one input) and LLaVA-1.6 (tiles then overview) */
        for (int i = 0; i < in->n; i++)
            if (push_input(b, hp, &in->inputs[i], image_index, grid, grid_ctx)) return -1;
        return 0;
    }
}
