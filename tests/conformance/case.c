/* One case: load the models, run the checks, and sum them up in one line.
 * The decoder-only check always runs; the full pipeline runs when the
 * projector loads, and the line says so when it could not. */
#include <stdio.h>
#include <string.h>

#include "checks.h"

static void report(case_result *res, const char *label, const check_out *c, bool *failed) {
    if (c->failed) {
        if (*failed) detail_add(res, "; ");
        detail_add(res, "%s%s", label, c->text);
        *failed = true;
    }
}

void run_case(const char *dir, seer_pool *pool, case_result *res) {
    case_data cd;
    bool missing = false;
    char why[512];
    if (case_data_load(&cd, dir, &missing, why, sizeof why) != 0) {
        res->status = missing ? CASE_SKIP : CASE_FAIL;
        detail_add(res, "%s", why);
        case_data_free(&cd);
        return;
    }
    seer_error err = {{0}};
    seer_llm *llm = seer_llm_load(cd.llm_path, NULL, NULL, &err);
    if (!llm) {
        res->status = CASE_FAIL;
        detail_add(res, "loading the LLM: %s", err.msg);
        case_data_free(&cd);
        return;
    }
    seer_vision *vision = NULL;
    char vision_note[SEER_ERR_MAX + 16] = "";
    if (cd.mmproj_path) {
        vision = seer_vision_load(cd.mmproj_path, &err);
        seer_vision_set_preproc(vision, cd.image_preproc); /* as the reference prepared its images */
        if (!vision) snprintf(vision_note, sizeof vision_note, "%s", err.msg[0] ? err.msg : "not available");
    }
    check_out tok, dec, enc, pipe;
    memset(&tok, 0, sizeof tok);
    memset(&dec, 0, sizeof dec);
    memset(&enc, 0, sizeof enc);
    memset(&pipe, 0, sizeof pipe);
    check_tokens(&cd, llm, vision, &tok);
    if (!conformance_bf16) check_decoder(&cd, llm, pool, &dec);
    if (vision) check_encoder(&cd, vision, pool, &enc);
    if (vision && !conformance_bf16) check_pipeline(&cd, llm, vision, pool, &pipe);

    bool failed = false;
    report(res, "", &tok, &failed);
    report(res, cd.mmproj_path ? "decoder-only: " : "", &dec, &failed);
    report(res, "encoder: ", &enc, &failed);
    report(res, "pipeline: ", &pipe, &failed);
    if (cd.mmproj_path && !vision) { /* a case with images whose mmproj does not load fails, never skips its checks */
        detail_add(res, "%sloading the mmproj: %s", failed ? "; " : "", vision_note);
        failed = true;
    }
    if (failed) {
        res->status = CASE_FAIL;
    } else {
        res->status = CASE_PASS;
        if (conformance_bf16) {
            detail_add(res, " (%s; encoder: %s)", tok.text, enc.text[0] ? enc.text : "no encoder inputs kept");
        } else {
            detail_add(res, " (%s; %s%s", tok.text, cd.mmproj_path ? "decoder-only: " : "", dec.text);
            if (enc.text[0]) detail_add(res, "; encoder: %s", enc.text);
            if (vision) detail_add(res, "; pipeline: %s)", pipe.text);
            else detail_add(res, ")");
        }
    }
    seer_vision_free(vision);
    seer_llm_free(llm);
    case_data_free(&cd);
}
