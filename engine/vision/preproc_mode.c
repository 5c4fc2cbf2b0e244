/* Which preprocessing a loaded vision model's images get: the model
 * authors' processor (default) or llama.cpp's. */
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
