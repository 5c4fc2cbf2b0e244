/* Which preprocessing a loaded vision model's images get (the model
 * authors' processor, the default, or llama.cpp's), and at which precision
 * its matrix products run. */
#include <string.h>

#include "vision/vision_internal.h"

bool seer_preproc_mode_parse(const char *name, seer_preproc_mode *out) {
    if (!name) return false;
    if (strcmp(name, "original") == 0) *out = SEER_PREPROC_ORIGINAL;
    else if (strcmp(name, "llamacpp") == 0) *out = SEER_PREPROC_LLAMACPP;
    else return false;
    return true;
}

void seer_vision_set_preproc(seer_vision *v, seer_preproc_mode mode) {
    if (v) v->hp.preproc = mode;
}

void seer_vision_set_max_image_tokens(seer_vision *v, int max_tokens) {
    if (v) v->hp.max_image_tokens = max_tokens > 0 ? max_tokens : 0;
}

bool seer_vision_precision_parse(const char *name, seer_vision_precision *out) {
    if (!name) return false;
    if (strcmp(name, "exact") == 0) *out = SEER_VISION_EXACT;
    else if (strcmp(name, "bf16") == 0) *out = SEER_VISION_BF16;
    else return false;
    return true;
}

const char *seer_vision_precision_name(seer_vision_precision p) { return p == SEER_VISION_BF16 ? "bf16" : "exact"; }

seer_vision_precision seer_vision_set_precision(seer_vision *v, seer_vision_precision p) {
    if (p == SEER_VISION_BF16 && !seer_matmul_bf16_ready()) p = SEER_VISION_EXACT;
    if (v) v->precision = p;
    return p;
}

seer_vision_precision seer_vision_get_precision(const seer_vision *v) { return v ? v->precision : SEER_VISION_EXACT; }
