/* Any number of encoder inputs in as few vision passes as the tower and a
 * patch budget allow (seer_vision_encode_passes): the tiles of one large
 * image, or the images of several requests. */
#include <stdlib.h>

#include "seer/vision.h"

static int patches_of(const seer_vision_hparams *hp, const seer_pixels *px) {
    return (px->w / hp->patch_size) * (px->h / hp->patch_size);
}

int seer_vision_encode_passes(seer_vision *v, seer_pool *pool, const seer_pixels *in, int n, float *const *out,
                              int max_patches, double *ms, seer_vision_passes *passes, const volatile int *cancel,
                              double *flops, seer_error *err) {
    const seer_vision_hparams *hp = v ? seer_vision_get_hparams(v) : NULL;
    if (!hp || n < 0 || (n > 0 && (!in || !out))) {
        seer_error_set(err, "vision: no model, inputs or outputs");
        return -1;
    }
    const char *env = getenv("SEER_VISION_PASS_PATCHES"); /* measurements and tests: 0 is one input a pass */
    if (env && *env) max_patches = atoi(env);
    if (!seer_vision_batchable(v)) max_patches = 0; /* one input a pass */
    int64_t total = 0, done = 0;
    for (int i = 0; i < n; i++) total += patches_of(hp, &in[i]);
    int rc = 0;
    for (int i0 = 0; rc == 0 && i0 < n;) {
        /* the next group: at least one input, then while the budget holds */
        int i1 = i0 + 1, patches = patches_of(hp, &in[i0]);
        while (i1 < n && i1 - i0 < SEER_VISION_MAX_BATCH && patches + patches_of(hp, &in[i1]) <= max_patches)
            patches += patches_of(hp, &in[i1++]);
        if (total > 0) seer_vision_set_progress_span(v, (float)done / (float)total, (float)patches / (float)total);
        const double t0 = seer_time_ms();
        rc = seer_vision_encode_batch(v, pool, in + i0, i1 - i0, out + i0, cancel, flops, err);
        const double took = seer_time_ms() - t0;
        for (int i = i0; ms && i < i1; i++) ms[i] = took * patches_of(hp, &in[i]) / (patches > 0 ? patches : 1);
        if (rc == 0 && passes) {
            passes->calls++;
            passes->images += i1 - i0;
        }
        done += patches;
        i0 = i1;
    }
    seer_vision_set_progress_span(v, 0, 1); /* a later lone encode reports over [0, 1] */
    return rc;
}
