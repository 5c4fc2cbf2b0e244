/* Embeddings for a group of requests: every input's prompt is made, the
 * images of all of them are encoded together (several per vision pass where
 * the tower allows: requests that arrive together share passes), then each
 * input runs through the decoder as seer embed runs it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data_url.h"
#include "seer/json.h"
#include "serve.h"

static seer_embed_role role_of(serve_embed_role_kind k) {
    return k == SERVE_ROLE_QUERY ? SEER_EMBED_QUERY : k == SERVE_ROLE_PASSAGE ? SEER_EMBED_PASSAGE : SEER_EMBED_PLAIN;
}

static int make_prompt(serve_state *st, serve_job *j, int i, seer_mm_prompt *p, seer_error *err) {
    const seer_vocab *vocab = seer_llm_vocab(st->llm);
    if (j->embed.inputs[i].image) return seer_embed_image_prompt(vocab, st->vision, &j->images[i], p, err);
    /* refused untokenized when its bytes alone are more tokens than the
     * context holds (seer_vocab_more_tokens_than): the engine's one worker
     * thread tokenized 30 MB for 4 s while every other request waited */
    const int n_ctx = seer_ctx_size(st->embed_ctx);
    if (seer_vocab_more_tokens_than(vocab, strlen(j->embed.inputs[i].value), n_ctx)) {
        seer_error_set(err, "the text needs more than %d tokens but the context holds %d", n_ctx, n_ctx);
        return -1;
    }
    return seer_embed_text_prompt(vocab, role_of(j->embed.role), j->embed.inputs[i].value, p, err);
}

static json_t *vector_json(const float *v, int dim, bool base64) {
    if (base64) { /* little-endian float32 bytes, as OpenAI's base64 format */
        char *s = serve_base64_encode((const uint8_t *)v, sizeof(float) * (size_t)dim);
        json_t *out = s ? json_string(s) : NULL;
        free(s);
        return out;
    }
    json_t *a = json_array();
    for (int k = 0; k < dim; k++) json_array_append_new(a, json_real(v[k]));
    return a;
}

/* Input i's embedding: one vector, or (multi_vector) one per token. */
static json_t *embed_one(serve_state *st, serve_job *j, seer_mm_prompt *p, int *n_tokens, seer_error *err) {
    seer_embed_states s = {0};
    if (seer_embed_states_compute(st->embed_ctx, st->vision, st->pool, p, &s, &j->cancel, err) != 0) return NULL;
    *n_tokens = s.n_tokens;
    json_t *out = NULL;
    if (j->embed.multi_vector) {
        const int d = seer_mv_proj_dim(st->mv);
        float *rows = malloc(sizeof(float) * (size_t)s.n_tokens * (size_t)d);
        if (rows) {
            seer_mv_proj_apply(st->mv, s.hidden, s.n_tokens, rows);
            out = json_array();
            for (int r = 0; r < s.n_tokens; r++) json_array_append_new(out, vector_json(rows + (size_t)r * d, d, j->embed.base64));
        }
        free(rows);
    } else {
        float *v = malloc(sizeof(float) * (size_t)s.n_embd);
        const int dim = v ? seer_embed_single(&s, j->embed.dimensions, v) : -1;
        if (dim > 0) out = vector_json(v, dim, j->embed.base64);
        free(v);
    }
    if (!out) seer_error_set(err, "out of memory");
    seer_embed_states_free(&s);
    return out;
}

static void reply(serve_state *st, serve_job *j, json_t *data, int n_tokens) {
    json_t *root = json_object();
    json_object_set_new(root, "object", json_string("list"));
    json_object_set_new(root, "data", data);
    json_object_set_new(root, "model", json_string(st->cfg->model_name));
    json_t *usage = json_object();
    json_object_set_new(usage, "prompt_tokens", json_integer(n_tokens));
    json_object_set_new(usage, "total_tokens", json_integer(n_tokens));
    json_object_set_new(root, "usage", usage);
    char *body = json_dumps(root, JSON_COMPACT);
    json_decref(root);
    if (body) serve_job_finish(j, 200, body);
    else serve_job_fail(j, 500, "out of memory");
    free(body);
}

/* Runs job j, whose prompts (images encoded) are p[0..n_inputs). */
static void run_job(serve_state *st, serve_job *j, seer_mm_prompt *p) {
    json_t *data = json_array();
    int total = 0;
    for (int i = 0; i < j->embed.n_inputs; i++) {
        seer_error err = {{0}};
        int n_tokens = 0;
        json_t *e = embed_one(st, j, &p[i], &n_tokens, &err);
        if (!e) {
            json_decref(data);
            char msg[SEER_ERR_MAX + 32];
            snprintf(msg, sizeof msg, "input %d: %s", i, err.msg);
            serve_job_fail(j, j->cancel ? 499 : 400, msg);
            return;
        }
        total += n_tokens;
        json_t *item = json_object();
        json_object_set_new(item, "object", json_string("embedding"));
        json_object_set_new(item, "index", json_integer(i));
        json_object_set_new(item, j->embed.multi_vector ? "embeddings" : "embedding", e);
        json_array_append_new(data, item);
    }
    serve_metrics_add(&st->metrics, &st->metrics.embedded_inputs, (unsigned long long)j->embed.n_inputs);
    reply(st, j, data, total);
}

void serve_embed_run(serve_state *st, serve_job **jobs, int n) {
    int total = 0;
    for (int k = 0; k < n; k++) total += jobs[k]->embed.n_inputs;
    seer_mm_prompt *prompts = calloc((size_t)total + 1, sizeof *prompts);
    bool *ok = calloc((size_t)n + 1, sizeof *ok);
    int at = 0, images = 0;
    for (int k = 0; prompts && ok && k < n; k++) {
        serve_job *j = jobs[k];
        seer_error err = {{0}};
        ok[k] = true;
        for (int i = 0; i < j->embed.n_inputs && ok[k]; i++) {
            if (make_prompt(st, j, i, &prompts[at + i], &err) != 0) {
                char msg[SEER_ERR_MAX + 32];
                snprintf(msg, sizeof msg, "input %d: %s", i, err.msg);
                serve_job_fail(j, 400, msg);
                ok[k] = false;
            }
            images += j->embed.inputs[i].image;
        }
        at += j->embed.n_inputs;
    }
    seer_error err = {{0}};
    /* all the requests' images at once (a failed request's prompts are empty) */
    if (prompts && ok && images > 0) {
        seer_vision_passes passes = {0};
        if (seer_embed_encode_images(st->vision, st->pool, prompts, total, SEER_VISION_PASS_PATCHES, &passes, NULL, &err) !=
            0) {
            for (int k = 0; k < n; k++)
                if (ok[k]) serve_job_fail(jobs[k], 400, err.msg);
            memset(ok, 0, sizeof *ok * (size_t)n);
        }
        serve_metrics_vision(&st->metrics, &passes);
    }
    at = 0;
    for (int k = 0; k < n; k++) {
        if (!prompts || !ok) serve_job_fail(jobs[k], 500, "out of memory");
        else if (ok[k]) run_job(st, jobs[k], prompts + at);
        at += jobs[k]->embed.n_inputs;
        serve_metrics_request(&st->metrics, SERVE_EP_EMBED, jobs[k]->status, (seer_time_ms() - jobs[k]->t_queued) / 1000.0);
    }
    for (int i = 0; prompts && i < total; i++) seer_mm_prompt_free(&prompts[i]);
    free(prompts);
    free(ok);
}
