/* Qwen3-VL as llama.cpp prepares it: Qwen2-VL's smart resize with 16-px
 * patches merged 2×2 (sides multiples of 32, 8 to 4096 tokens), Pillow
 * bicubic into the letterbox (upstream moved the Qwen-VL family to it). */
#include "image/preprocess_internal.h"

int preprocess_qwen3vl(const seer_vision_hparams *hp, const seer_image *img, seer_image_inputs *out,
                       seer_error *err) {
    int W, H;
    if (qwen_llamacpp_size(hp, img, &W, &H, err) != 0) return -1;
    if (image_inputs_append_letterbox_pil(out, img, W, H, SEER_PIL_BICUBIC, hp) != 0) {
        seer_error_set(err, "preprocess: %d×%d input too large or out of memory", W, H);
        return -1;
    }
    return 0;
}
