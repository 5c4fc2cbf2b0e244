/* Fuzz target: image decoding (every stb format) and the preprocessing of
 * a model family (each in turn) on whatever decodes. Sizes are kept small so one run
 * costs well under a millisecond: the decoder refuses over 4096 pixels (64×64) (the
 * limit check itself is fuzzed: headers may claim anything), and the families
 * preprocess for small encoders (the resize, tiling and padding logic does not
 * depend on the encoder's size; full-size canvases cost ~100x more per run). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"
#include "fuzz_input.c.inc"
#include "seer/vision.h"

#ifdef FUZZ_STB_INSTRUMENTED
/* `make fuzz-build FUZZ_STB=1`: stb_image compiled into the fuzzer, so ASan
 * and UBSan see its memory accesses (the system libstb is not instrumented:
 * an overread inside it only shows as a SEGV when it runs off the mapped
 * heap). The engine's calls resolve to this copy. */
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>
#endif

#define FUZZ_MAX_PIXELS (1 << 12)

#define N_FAMILIES 7
static seer_vision_hparams families[N_FAMILIES];

static void family(seer_vision_hparams *hp, seer_projector proj, int image_size, int patch) {
    memset(hp, 0, sizeof *hp);
    hp->projector = proj;
    hp->image_size = image_size;
    hp->patch_size = patch;
    for (int c = 0; c < 3; c++) { hp->mean[c] = 0.5f; hp->std[c] = 0.5f; }
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    family(&families[0], SEER_PROJ_MLP, 28, 14);                /* LLaVA-1.5: squash to the encoder square */
    family(&families[1], SEER_PROJ_MLP, 28, 14);                /* LLaVA-1.6: anyres grid + overview */
    families[1].anyres = true;
    families[1].n_pinpoints = 4;
    int pins[4][2] = {{28, 56}, {56, 28}, {56, 56}, {84, 28}};
    memcpy(families[1].pinpoints, pins, sizeof pins);
    family(&families[2], SEER_PROJ_IDEFICS3, 16, 8);            /* SmolVLM: tiles of a refined canvas */
    families[2].scale_factor = 2;
    families[2].preproc_image_size = 40;
    /* Qwen: the canvas is a multiple of 2·patch between 8 and 4096 merge
     * units, i.e. at most 4096·(2·patch)² pixels: 16k for patch 1, so both
     * the down- and the upscaling branch run. */
    family(&families[3], SEER_PROJ_QWEN2VL, 28, 1);
    family(&families[4], SEER_PROJ_QWEN25VL, 28, 3);
    family(&families[5], SEER_PROJ_QWEN3VL, 32, 1);             /* Qwen3-VL: Pillow bicubic letterbox */
    family(&families[6], SEER_PROJ_GEMMA3, 16, 2);              /* Gemma 3: Pillow bilinear letterbox */
    families[6].scale_factor = 2;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    seer_image img;
    seer_error err;
    if (seer_image_load_memory(data, size, "fuzz", FUZZ_MAX_PIXELS, &img, &err) != 0) return 0;
    /* One family per run, picked by the input's length (so the image bytes
     * stay what the decoder sees; decoders ignore trailing bytes, so a
     * mutation that appends one moves an image to the next family):
     * preprocessing is most of a run's cost. */
    seer_image_inputs in;
    if (seer_image_preprocess(&families[size % N_FAMILIES], &img, &in, &err) == 0) {
        for (int i = 0; i < in.n; i++) free(seer_pixels_planes(&in.inputs[i])); /* deferred tiles are made here */
        seer_image_inputs_free(&in);
    }
    seer_image_free(&img);
    return 0;
}
