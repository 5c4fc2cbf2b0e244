/* Multimodal tokenization as llama.cpp's mtmd does it: text split at the
 * markers, each piece tokenized on its own (specials parsed, no BOS/EOS),
 * every marker expanded into the family's layout, BOS/EOS around the whole. */
#include <stdlib.h>
#include <string.h>

#include "mtmd/mtmd_internal.h"

void seer_mtmd_grid_from_hparams(const seer_vision_hparams *hp, int w, int h, int *nx, int *ny) {
    *nx = *ny = 0;
    if (!hp || hp->patch_size <= 0) return;
    int p = hp->patch_size;
    switch (hp->projector) {
    case SEER_PROJ_QWEN2VL:
    case SEER_PROJ_QWEN25VL:
    case SEER_PROJ_QWEN3VL:
    case SEER_PROJ_GLM4V:
    case SEER_PROJ_PADDLEOCR:
    case SEER_PROJ_HUNYUANVL:
        *nx = w / (2 * p);
        *ny = h / (2 * p);
        return;
    case SEER_PROJ_IDEFICS3:
    case SEER_PROJ_GEMMA3:
    case SEER_PROJ_GEMMA4V:
    case SEER_PROJ_INTERNVL:
    case SEER_PROJ_LFM2:
    case SEER_PROJ_DOTS_OCR:
    case SEER_PROJ_LDP:
    case SEER_PROJ_LDPV2: {
        int s = hp->scale_factor > 0 ? hp->scale_factor : 1;
        *nx = (w / p / s) * (h / p / s);
        *ny = 1;
        return;
    }
    case SEER_PROJ_PIXTRAL:
    case SEER_PROJ_LIGHTONOCR:
        *nx = seer_pixtral_n_tokens(hp, w, h);
        *ny = 1;
        return;
    case SEER_PROJ_RESAMPLER:
        *nx = hp->n_queries;
        *ny = 1;
        return;
    default:
        *nx = (w / p) * (h / p);
        *ny = 1;
        return;
    }
}

static void grid_hparams(const void *ctx, int w, int h, int *nx, int *ny) {
    seer_mtmd_grid_from_hparams(ctx, w, h, nx, ny);
}

static void grid_vision(const void *ctx, int w, int h, int *nx, int *ny) {
    *nx = *ny = 0;
    seer_vision_out_grid(ctx, w, h, nx, ny);
}

static int count_markers(const char *text) {
    int n = 0;
    for (const char *s = strstr(text, SEER_MTMD_MARKER); s; s = strstr(s + strlen(SEER_MTMD_MARKER), SEER_MTMD_MARKER))
        n++;
    return n;
}

static int add_image(mtmd_builder *b, const seer_vision_hparams *hp, mtmd_grid_fn grid, const void *grid_ctx,
                     const seer_image *img, int index) {
    seer_image_inputs in;
    seer_error perr;
    if (seer_image_preprocess(hp, img, &in, &perr) != 0) {
        seer_error_set(b->err, "image %d: %s", index + 1, perr.msg);
        return -1;
    }
    int rc = mtmd_layout_image(b, hp, &in, index, grid, grid_ctx);
    seer_image_inputs_free(&in); /* pixel data already moved into the chunks */
    return rc;
}

int mtmd_tokenize(const seer_vocab *vocab, const seer_vision_hparams *hp, mtmd_grid_fn grid, const void *grid_ctx,
                  const char *text, const seer_image *images, int n_images, bool add_special, seer_mm_prompt *out,
                  seer_error *err) {
    if (out) memset(out, 0, sizeof *out);
    if (!vocab || !out) {
        seer_error_set(err, "tokenize: no vocabulary");
        return -1;
    }
    if (!text) text = "";
    if (n_images < 0 || (n_images > 0 && !images)) {
        seer_error_set(err, "tokenize: bad image list");
        return -1;
    }
    if (n_images > SEER_MTMD_MAX_IMAGES) {
        seer_error_set(err, "%d images in one prompt is over the limit of %d", n_images, SEER_MTMD_MAX_IMAGES);
        return -1;
    }
    if (n_images > 0 && !hp) {
        seer_error_set(err, "images need a vision model (mmproj) and none is loaded");
        return -1;
    }
    int n_markers = count_markers(text);
    if (n_markers > 0 && n_markers != n_images) {
        seer_error_set(err, "the prompt has %d image marker%s but %d image%s attached", n_markers,
                       n_markers == 1 ? "" : "s", n_images, n_images == 1 ? "" : "s");
        return -1;
    }
    mtmd_builder b = {.p = out, .vocab = vocab, .err = err};
    if (hp) {
        out->n_embd = hp->n_embd_out;
        out->mrope = seer_projector_multi_pos(hp->projector);
    }
    int rc = 0;
    if (add_special && seer_vocab_add_bos(vocab) && seer_vocab_bos(vocab) >= 0) {
        int32_t bos = seer_vocab_bos(vocab);
        rc = mtmd_push_tokens(&b, &bos, 1);
    }
    if (rc == 0 && n_markers == 0) { /* no marker: images first, then the text */
        for (int i = 0; rc == 0 && i < n_images; i++) rc = add_image(&b, hp, grid, grid_ctx, &images[i], i);
        if (rc == 0) rc = mtmd_push_text(&b, text, strlen(text));
    } else {
        const char *s = text;
        for (int i = 0; rc == 0; i++) {
            const char *m = strstr(s, SEER_MTMD_MARKER);
            size_t len = m ? (size_t)(m - s) : strlen(s);
            rc = mtmd_push_text(&b, s, len);
            if (rc || !m) break;
            rc = add_image(&b, hp, grid, grid_ctx, &images[i], i);
            s = m + strlen(SEER_MTMD_MARKER);
        }
    }
    if (rc == 0 && add_special && seer_vocab_add_eos(vocab) && seer_vocab_eos(vocab) >= 0) {
        int32_t eos = seer_vocab_eos(vocab);
        rc = mtmd_push_tokens(&b, &eos, 1);
    }
    if (rc != 0) seer_mm_prompt_free(out);
    return rc;
}

int seer_mtmd_tokenize_hparams(const seer_vocab *vocab, const seer_vision_hparams *hp, const char *text,
                               const seer_image *images, int n_images, bool add_special, seer_mm_prompt *out,
                               seer_error *err) {
    return mtmd_tokenize(vocab, hp, grid_hparams, hp, text, images, n_images, add_special, out, err);
}

int seer_mtmd_tokenize(const seer_vocab *vocab, const seer_vision *vision, const char *text,
                       const seer_image *images, int n_images, bool add_special, seer_mm_prompt *out,
                       seer_error *err) {
    const seer_vision_hparams *hp = vision ? seer_vision_get_hparams(vision) : NULL;
    return mtmd_tokenize(vocab, hp, grid_vision, vision, text, images, n_images, add_special, out, err);
}
