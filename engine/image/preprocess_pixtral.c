/* llama.cpp's dyn_size preprocessing (mtmd_image_preprocessor_dyn_size), as
 * Pixtral / Mistral Small 3.1 and Gemma 4 use it: the smart resize of the
 * Qwen family (sides rounded to multiples of patch × merge, scaled into a
 * token budget of (patch·merge)² pixels each), Pillow bicubic into the
 * letterbox; mean / std from the file. Pixtral: 8..1024 tokens; Gemma 4:
 * 70..1120 with 3×3 pooling, so sides in steps of 48 px at patch 16;
 * PaddleOCR-VL: the pixel budget its preprocessor_config gives (the file's
 * image_min_pixels / image_max_pixels). HunyuanVL: the same budget, the
 * image stretched to the size (no letterbox) with Pillow's Lanczos. */
#include "image/preprocess_internal.h"

/* The resized size in steps of patch × merge within the pixel budget. */
static int dyn_size_target(const seer_vision_hparams *hp, const seer_image *img, int64_t min_pixels,
                           int64_t max_pixels, int *W, int *H, seer_error *err) {
    const int f = hp->patch_size * (hp->scale_factor > 0 ? hp->scale_factor : 1);
    qwen_smart_size(img->w, img->h, f, min_pixels, max_pixels, W, H);
    if ((int64_t)*W * *H > max_pixels) { /* only for absurd aspect ratios */
        seer_error_set(err, "preprocess: a %d×%d image is too narrow for this model (its sides at most %lld:1)",
                       img->w, img->h, (long long)(max_pixels / ((int64_t)f * f)));
        return -1;
    }
    return 0;
}

int preprocess_dyn_size_stretch(const seer_vision_hparams *hp, const seer_image *img, int64_t min_pixels,
                                int64_t max_pixels, seer_pil_filter filter, seer_image_inputs *out, seer_error *err) {
    int W, H;
    if (dyn_size_target(hp, img, min_pixels, max_pixels, &W, &H, err) != 0) return -1;
    const int rc = W == img->w && H == img->h ? image_inputs_append(out, img, hp)
                                              : image_inputs_append_pil(out, img, W, H, filter, hp);
    if (rc != 0) {
        seer_error_set(err, "preprocess: %d×%d input too large or out of memory", W, H);
        return -1;
    }
    return 0;
}

int preprocess_dyn_size_pixels(const seer_vision_hparams *hp, const seer_image *img, int64_t min_pixels,
                               int64_t max_pixels, seer_image_inputs *out, seer_error *err) {
    int W, H;
    if (dyn_size_target(hp, img, min_pixels, max_pixels, &W, &H, err) != 0) return -1;
    if (image_inputs_append_letterbox_pil(out, img, W, H, SEER_PIL_BICUBIC, hp) != 0) {
        seer_error_set(err, "preprocess: %d×%d input too large or out of memory", W, H);
        return -1;
    }
    return 0;
}

int preprocess_dyn_size(const seer_vision_hparams *hp, const seer_image *img, int min_tokens, int max_tokens,
                        seer_image_inputs *out, seer_error *err) {
    const int f = hp->patch_size * (hp->scale_factor > 0 ? hp->scale_factor : 1);
    const int64_t unit = (int64_t)f * f;
    return preprocess_dyn_size_pixels(hp, img, min_tokens * unit, max_tokens * unit, out, err);
}

int preprocess_pixtral(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out,
                       seer_error *err) {
    return preprocess_dyn_size(hp, img, 8, 1024, out, err);
}
