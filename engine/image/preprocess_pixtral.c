/* Pixtral / Mistral Small 3.1 as llama.cpp prepares them: the smart resize
 * of the Qwen family (sides rounded to multiples of patch × merge, scaled
 * into 8..1024 tokens of (patch·merge)² pixels), Pillow bicubic into the
 * letterbox; mean / std from the file. */
#include "image/preprocess_internal.h"

#define PIXTRAL_MIN_TOKENS 8
#define PIXTRAL_MAX_TOKENS 1024

int preprocess_pixtral(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out,
                       seer_error *err) {
    const int f = hp->patch_size * (hp->scale_factor > 0 ? hp->scale_factor : 1);
    const int64_t unit = (int64_t)f * f;
    int W, H;
    qwen_smart_size(img->w, img->h, f, PIXTRAL_MIN_TOKENS * unit, PIXTRAL_MAX_TOKENS * unit, &W, &H);
    if ((int64_t)W * H > PIXTRAL_MAX_TOKENS * unit) { /* only for absurd aspect ratios */
        seer_error_set(err, "preprocess: a %d×%d image is too narrow for this model (aspect ratio over %d:1)", img->w,
                       img->h, PIXTRAL_MAX_TOKENS);
        return -1;
    }
    if (image_inputs_append_letterbox_pil(out, img, W, H, SEER_PIL_BICUBIC, hp) != 0) {
        seer_error_set(err, "preprocess: %d×%d input too large or out of memory", W, H);
        return -1;
    }
    return 0;
}
