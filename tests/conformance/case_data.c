/* Reading a case folder into case_data. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "case_data.h"

static int fail(char *why, size_t cap, const char *fmt, const char *arg) {
    snprintf(why, cap, fmt, arg);
    return -1;
}

static int32_t *int_array(const json_value *a, int *n) {
    *n = (int)json_len(a);
    int32_t *out = malloc(sizeof *out * (size_t)(*n ? *n : 1));
    for (int i = 0; out && i < *n; i++) out[i] = (int32_t)json_num(json_at(a, (size_t)i), -1);
    return out;
}

static int load_tokens(case_data *cd, char *why, size_t cap) {
    char *p = path_join(cd->dir, "expected/tokens.json");
    char jerr[128];
    json_value *t = json_parse_file(p, jerr, sizeof jerr);
    free(p);
    if (!t) return fail(why, cap, "expected/tokens.json: %s", jerr);
    const json_value *chunks = json_get(t, "chunks");
    cd->n_chunks = (int)json_len(chunks);
    cd->chunks = calloc((size_t)cd->n_chunks + 1, sizeof *cd->chunks);
    cd->n_tokens_total = (int)json_num(json_get(t, "n_tokens"), 0);
    cd->n_pos_total = (int)json_num(json_get(t, "n_pos"), cd->n_tokens_total);
    for (int i = 0; i < cd->n_chunks; i++) {
        const json_value *c = json_at(chunks, (size_t)i);
        ref_chunk *r = &cd->chunks[i];
        const char *type = json_str(json_get(c, "type"));
        r->image = type && strcmp(type, "image") == 0;
        r->pos = (int)json_num(json_get(c, "pos"), 0);
        if (!r->image) {
            r->tokens = int_array(json_get(c, "tokens"), &r->n_tokens);
            r->n_pos = r->n_tokens;
            continue;
        }
        r->n_tokens = (int)json_num(json_get(c, "n_tokens"), 0);
        r->n_pos = (int)json_num(json_get(c, "n_pos"), r->n_tokens);
        r->index = (int)json_num(json_get(c, "index"), i);
        r->nx = (int)json_num(json_get(c, "nx"), r->n_tokens);
        r->ny = (int)json_num(json_get(c, "ny"), 1);
        const json_value *shapes = json_get(c, "input_shapes");
        const json_value *shape = json_at(shapes, 0);
        if (json_len(shapes) == 1 && json_len(shape) == 4 && json_num(json_at(shape, 0), 0) == 1 &&
            json_num(json_at(shape, 1), 0) == 3) {
            r->input_h = (int)json_num(json_at(shape, 2), 0);
            r->input_w = (int)json_num(json_at(shape, 3), 0);
        }
        const json_value *dp = json_get(c, "decoder_pos");
        if (dp) {
            if ((int)json_len(dp) != r->n_tokens) {
                json_free(t);
                return fail(why, cap, "expected/tokens.json: decoder_pos has the wrong length%s", "");
            }
            r->dpos = malloc(sizeof *r->dpos * 4 * (size_t)r->n_tokens);
            for (int k = 0; r->dpos && k < r->n_tokens; k++)
                for (int s = 0; s < 4; s++)
                    r->dpos[4 * k + s] = (int32_t)json_num(json_at(json_at(dp, (size_t)k), (size_t)s), 0);
        }
    }
    json_free(t);
    return 0;
}

static int load_greedy(case_data *cd, char *why, size_t cap) {
    char *p = path_join(cd->dir, "expected/greedy.json");
    char jerr[128];
    json_value *g = json_parse_file(p, jerr, sizeof jerr);
    free(p);
    if (!g) return fail(why, cap, "expected/greedy.json: %s", jerr);
    cd->greedy = int_array(json_get(g, "tokens"), &cd->n_greedy);
    const json_value *m = json_get(g, "margin");
    cd->margin = malloc(sizeof *cd->margin * (size_t)(cd->n_greedy + 1));
    for (int i = 0; cd->margin && i < cd->n_greedy; i++) cd->margin[i] = (float)json_num(json_at(m, (size_t)i), 0);
    json_free(g);
    return 0;
}

/* The KV cache type the references were computed with, and whether their
 * image chunks were decoded non-causally (llama.cpp does for the gemma3
 * projector). */
static int load_kv_type(case_data *cd, char *why, size_t cap) {
    char *p = path_join(cd->dir, "expected/meta.json");
    char jerr[128];
    const bool present = file_exists(p);
    json_value *meta = present ? json_parse_file(p, jerr, sizeof jerr) : NULL;
    free(p);
    if (present && !meta) return fail(why, cap, "expected/meta.json: %s", jerr);
    const char *t = json_str(json_get(meta, "kv_cache_type"));
    const char *proj = json_str(json_get(meta, "projector_type"));
    /* gemma4v: except for the E2B / E4B LLM widths (llama.cpp's mtmd_decode_use_non_causal) */
    const int64_t n_embd = (int64_t)json_num(json_get(meta, "n_embd"), 0);
    cd->image_non_causal = proj && (strcmp(proj, "gemma3") == 0 ||
                                    (strcmp(proj, "gemma4v") == 0 && n_embd != 1536 && n_embd != 2560));
    cd->image_xd_pos = proj && strcmp(proj, "hunyuanvl") == 0;
    cd->kv_type = SEER_KV_F32;
    const bool ok = !t || seer_kv_type_parse(t, &cd->kv_type);
    if (!ok) fail(why, cap, "expected/meta.json: kv_cache_type '%s' is neither f32 nor f16", t);
    json_free(meta);
    return ok ? 0 : -1;
}

int case_data_load(case_data *cd, const char *dir, bool *missing, char *why, size_t cap) {
    memset(cd, 0, sizeof *cd);
    *missing = false;
    cd->dir = strdup(dir);
    char *p = path_join(dir, "case.json");
    char jerr[128];
    cd->cj = json_parse_file(p, jerr, sizeof jerr);
    free(p);
    if (!cd->cj) return fail(why, cap, "case.json: %s", jerr);
    const char *llm = json_str(json_get(cd->cj, "llm"));
    const char *mmproj = json_str(json_get(cd->cj, "mmproj"));
    const char *prompt = json_str(json_get(cd->cj, "prompt_file"));
    if (!prompt && json_get(cd->cj, "inputs")) { /* an embeddings case (embeddings/README.md): not a prompt to run */
        *missing = true;
        return fail(why, cap, "%s", "an embeddings case (inputs, no prompt_file): not run by this checker");
    }
    if (!llm || !prompt) return fail(why, cap, "case.json lacks %s", !llm ? "llm" : "prompt_file");
    cd->llm_path = path_join(dir, llm);
    if (mmproj) cd->mmproj_path = path_join(dir, mmproj);
    if (!file_exists(cd->llm_path) || (cd->mmproj_path && !file_exists(cd->mmproj_path))) {
        *missing = true;
        return fail(why, cap, "model file %s not found", !file_exists(cd->llm_path) ? cd->llm_path : cd->mmproj_path);
    }
    p = path_join(dir, prompt);
    cd->prompt = read_file(p, &cd->prompt_len);
    free(p);
    if (!cd->prompt) return fail(why, cap, "cannot read the prompt file %s", prompt);
    const json_value *imgs = json_get(cd->cj, "images");
    cd->n_images = (int)json_len(imgs);
    cd->image_paths = calloc((size_t)cd->n_images + 1, sizeof *cd->image_paths);
    for (int i = 0; i < cd->n_images; i++) {
        const char *ip = json_str(json_at(imgs, (size_t)i));
        cd->image_paths[i] = path_join(dir, ip ? ip : "");
    }
    cd->n_predict = (int)json_num(json_get(cd->cj, "n_predict"), 16);
    const char *preproc = json_str(json_get(cd->cj, "image_preproc"));
    cd->image_preproc = SEER_PREPROC_LLAMACPP;
    if (preproc && !seer_preproc_mode_parse(preproc, &cd->image_preproc))
        return fail(why, cap, "case.json: image_preproc '%s' is neither llamacpp nor original", preproc);
    const json_value *tol = json_get(cd->cj, "tolerance");
    cd->tol_logits = json_num(json_get(tol, "logits_rel_l2"), 1e-3);
    cd->tol_embd = json_num(json_get(tol, "image_embd_rel_l2"), 1e-2);
    cd->tol_margin = json_num(json_get(tol, "greedy_margin_threshold"), 0.01);
    cd->tol_pixels = json_num(json_get(tol, "image_input_max_abs"), -1);
    if (load_tokens(cd, why, cap) || load_greedy(cd, why, cap) || load_kv_type(cd, why, cap)) return -1;
    p = path_join(dir, "expected/logits_prefill.f32");
    cd->logits = read_f32(p, &cd->n_logits);
    free(p);
    if (!cd->logits) return fail(why, cap, "cannot read %s", "expected/logits_prefill.f32");
    return 0;
}

static float *expected_f32(const case_data *cd, const char *what, int k, size_t *n) {
    char rel[64];
    snprintf(rel, sizeof rel, "expected/%s_%d.f32", what, k);
    char *p = path_join(cd->dir, rel);
    float *e = file_exists(p) ? read_f32(p, n) : NULL;
    free(p);
    return e;
}

float *case_data_image_embd(const case_data *cd, int k, size_t *n) { return expected_f32(cd, "image_embd", k, n); }

float *case_data_image_input(const case_data *cd, int k, size_t *n) { return expected_f32(cd, "image_input", k, n); }

void case_data_free(case_data *cd) {
    free(cd->dir);
    json_free(cd->cj);
    free(cd->llm_path);
    free(cd->mmproj_path);
    free(cd->prompt);
    for (int i = 0; cd->image_paths && i < cd->n_images; i++) free(cd->image_paths[i]);
    free(cd->image_paths);
    for (int i = 0; cd->chunks && i < cd->n_chunks; i++) {
        free(cd->chunks[i].tokens);
        free(cd->chunks[i].dpos);
    }
    free(cd->chunks);
    free(cd->logits);
    free(cd->greedy);
    free(cd->margin);
    memset(cd, 0, sizeof *cd);
}
