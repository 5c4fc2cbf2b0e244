/* Fuzz target: image decoding (every stb format) and the preprocessing of
 * every model family on whatever decodes. */
#include <stdint.h>
#include <string.h>

#include "fuzz_input.h"
#include "fuzz_input.c.inc"
#include "seer/vision.h"

static void family(seer_vision_hparams *hp, seer_projector proj, int image_size, int patch) {
    memset(hp, 0, sizeof *hp);
    hp->projector = proj;
    hp->image_size = image_size;
    hp->patch_size = patch;
    for (int c = 0; c < 3; c++) { hp->mean[c] = 0.5f; hp->std[c] = 0.5f; }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    seer_image img;
    seer_error err;
    /* A small pixel limit keeps each run fast; the limit check itself is fuzzed. */
    if (seer_image_load_memory(data, size, "fuzz", 1 << 20, &img, &err) != 0) return 0;
    seer_vision_hparams hps[5];
    family(&hps[0], SEER_PROJ_MLP, 336, 14);
    family(&hps[1], SEER_PROJ_MLP, 336, 14);
    hps[1].anyres = true;
    hps[1].n_pinpoints = 3;
    int pins[3][2] = {{336, 672}, {672, 336}, {672, 672}};
    memcpy(hps[1].pinpoints, pins, sizeof pins);
    family(&hps[2], SEER_PROJ_IDEFICS3, 64, 16);
    hps[2].scale_factor = 2;
    hps[2].preproc_image_size = 128;
    family(&hps[3], SEER_PROJ_QWEN2VL, 560, 14);
    family(&hps[4], SEER_PROJ_QWEN25VL, 560, 14);
    for (int i = 0; i < 5; i++) {
        /* Big canvases (anyres, Qwen near max pixels) only on small inputs. */
        if ((int64_t)img.w * img.h > 256 * 256 && i != 2) continue;
        seer_image_inputs in;
        if (seer_image_preprocess(&hps[i], &img, &in, &err) == 0) seer_image_inputs_free(&in);
    }
    seer_image_free(&img);
    return 0;
}
