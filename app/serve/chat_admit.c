/* Chats admitted together: each queued chat that finds an idle slot is
 * brought onto it, then the images of all of them are encoded in shared
 * vision passes (as the embeddings of several requests are: several images
 * per pass where the tower allows it), then each is prefilled. */
#include <stdlib.h>

#include "serve.h"

void serve_chats_begin(serve_state *st, serve_job **jobs, int n, serve_chat **run, int *n_run) {
    serve_chat **admitted = calloc((size_t)n + 1, sizeof *admitted);
    int n_adm = 0, n_prompts = 0;
    for (int i = 0; i < n; i++) {
        serve_chat *c = admitted ? serve_chat_admit(st, serve_chat_pick_slot(st, jobs[i]), jobs[i]) : NULL;
        if (!admitted) {
            serve_job_fail(jobs[i], 500, "out of memory");
            serve_job_release(jobs[i]);
        }
        if (c) {
            admitted[n_adm++] = c;
            n_prompts += serve_chat_unencoded(c, NULL, 0);
        }
    }
    seer_mm_prompt **prompts = calloc((size_t)n_prompts + 1, sizeof *prompts);
    seer_error err = {{0}};
    const char *failed = prompts ? NULL : "out of memory";
    if (prompts && n_prompts) {
        int at = 0;
        for (int i = 0; i < n_adm; i++) at += serve_chat_unencoded(admitted[i], prompts + at, n_prompts - at);
        seer_vision_passes passes = {0};
        if (seer_mtmd_encode_many(st->vision, st->pool, prompts, at, SEER_VISION_PASS_PATCHES, &passes, NULL, &err) != 0)
            failed = err.msg;
        serve_metrics_vision(&st->metrics, &passes);
    }
    for (int i = 0; i < n_adm; i++)
        if (serve_chat_start(admitted[i], failed)) run[(*n_run)++] = admitted[i];
    free(prompts);
    free(admitted);
}
