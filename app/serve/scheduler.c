/* The worker: loads the model, keeps the slots, runs queued jobs one after
 * another (embeddings queued together run as one batch, their images in
 * shared vision passes), and drains on SIGTERM. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../options.h"
#include "seer/embed.h"
#include "serve.h"

/* Embedding requests taken together (their images share vision passes). */
#define SERVE_EMBED_GROUP 16
/* jina-embeddings-v4's own cap on merged tokens per image (as seer embed). */
#define SERVE_EMBED_IMAGE_TOKENS 768

static int load_engine(serve_state *st, const serve_config *cfg, seer_error *err) {
    if (!(st->pool = seer_pool_create(cfg->threads))) {
        seer_error_set(err, "cannot start the worker threads");
        return -1;
    }
    if (!(st->llm = seer_llm_load(cfg->model_path, NULL, NULL, err))) return -1;
    st->n_embd = seer_llm_get_info(st->llm)->n_embd;
    if (cfg->mmproj_path) {
        if (!(st->vision = seer_vision_load(cfg->mmproj_path, err))) return -1;
        app_vision_precision(st->vision, cfg->vision_precision);
        if (cfg->embeddings) {
            seer_vision_set_preproc(st->vision, SEER_PREPROC_ORIGINAL);
            seer_vision_set_max_image_tokens(st->vision, SERVE_EMBED_IMAGE_TOKENS);
        }
        if (seer_mtmd_check_pair(st->llm, st->vision, err) != 0) return -1;
    }
    if (cfg->embeddings) {
        if (cfg->mv_proj_path && !(st->mv = seer_mv_proj_load(cfg->mv_proj_path, err))) return -1;
        if (st->mv && seer_mv_proj_n_in(st->mv) != seer_llm_get_info(st->llm)->n_embd) {
            seer_error_set(err, "the multi-vector projector does not fit the model's width");
            return -1;
        }
        st->embed_ctx = seer_ctx_new(st->llm, cfg->n_ctx, SEER_KV_F32, st->pool, err);
        return st->embed_ctx ? 0 : -1;
    }
    if (!(st->slots = calloc((size_t)cfg->parallel, sizeof *st->slots))) {
        seer_error_set(err, "out of memory");
        return -1;
    }
    seer_session_params sp = seer_session_params_default();
    sp.n_ctx = cfg->n_ctx;
    for (int i = 0; i < cfg->parallel; i++) {
        serve_slot *s = &st->slots[i];
        if (!(s->session = seer_session_new(st->llm, st->vision, st->pool, &sp, err))) return -1;
        const char *sys = seer_session_system(s->session);
        s->default_system = *sys ? strdup(sys) : NULL;
        s->system = *sys ? strdup(sys) : NULL;
    }
    return 0;
}

static serve_job *pop(serve_state *st) {
    serve_job *j = st->head;
    st->head = j->next;
    if (!st->head) st->tail = NULL;
    st->queued--;
    j->next = NULL;
    return j;
}

/* One decode step of every running chat (continuous batching): each turn
 * samples its next token, the tokens go through one forward pass
 * (seer_ctx_decode_multi over the slots' contexts), then each is streamed
 * to its own client. A chat whose turn has ended leaves here, between steps. */
static void step_chats(serve_state *st, serve_chat **run, int *n_run) {
    seer_ctx *ctx[SEER_DECODE_MULTI_MAX];
    int32_t tokens[SEER_DECODE_MULTI_MAX];
    serve_chat *stepped[SEER_DECODE_MULTI_MAX];
    int n = 0, kept = 0;
    for (int i = 0; i < *n_run; i++) {
        serve_chat *c = run[i];
        if (seer_session_turn_next(serve_chat_turn(c), &tokens[n])) {
            ctx[n] = serve_chat_ctx(c);
            stepped[n++] = c;
            run[kept++] = c;
        } else {
            serve_chat_end(c);
        }
    }
    *n_run = kept;
    if (!n) return;
    seer_error err = {{0}};
    const bool ok = seer_ctx_decode_multi(ctx, tokens, n, &err) == 0;
    serve_metrics_step(&st->metrics, n);
    for (int i = 0; i < n; i++) {
        if (ok) seer_session_turn_decoded(serve_chat_turn(stepped[i]));
        else seer_session_turn_failed(serve_chat_turn(stepped[i]), err.msg);
    }
}

/* Between steps the worker takes queued jobs when they can start: a group
 * of embeddings (run to their end), or the chats at the queue's head that
 * find idle slots (their images encoded together, then each prefill a step
 * of its own); a chat waits while every slot is busy. */
static void *worker_main(void *arg) {
    serve_state *st = arg;
    serve_chat **run = calloc((size_t)st->cfg->parallel + 1, sizeof *run);
    int n_run = 0;
    pthread_mutex_lock(&st->mu);
    for (;;) {
        while (!st->head && !n_run && !st->stopping) pthread_cond_wait(&st->cv, &st->mu);
        if (!st->head && !n_run) break;
        serve_job *batch[SERVE_EMBED_GROUP];
        int n = 0;
        const bool chat_next = st->head && st->head->kind == SERVE_JOB_CHAT;
        const int idle = chat_next && run ? serve_chat_idle_slots(st) : 0;
        if (st->head && (!chat_next || idle > 0)) {
            batch[n++] = pop(st);
            while (batch[0]->kind == SERVE_JOB_EMBED && n < SERVE_EMBED_GROUP && st->head &&
                   st->head->kind == SERVE_JOB_EMBED)
                batch[n++] = pop(st);
            /* queued chats that find idle slots start together (their images share vision passes) */
            while (batch[0]->kind == SERVE_JOB_CHAT && n < idle && n < SERVE_EMBED_GROUP && st->head &&
                   st->head->kind == SERVE_JOB_CHAT)
                batch[n++] = pop(st);
        }
        serve_metrics_gauges(&st->metrics, st->queued, n_run + n);
        pthread_mutex_unlock(&st->mu);
        if (n && batch[0]->kind == SERVE_JOB_EMBED) {
            serve_embed_run(st, batch, n);
            for (int i = 0; i < n; i++) serve_job_release(batch[i]);
        } else if (n) {
            serve_chats_begin(st, batch, n, run, &n_run);
        }
        if (n_run) step_chats(st, run, &n_run);
        pthread_mutex_lock(&st->mu);
        serve_metrics_gauges(&st->metrics, st->queued, n_run);
    }
    pthread_mutex_unlock(&st->mu);
    free(run);
    return NULL;
}

static void release_engine(serve_state *st) {
    for (int i = 0; st->slots && i < st->cfg->parallel; i++) {
        serve_slot_reset(&st->slots[i]);
        seer_session_free(st->slots[i].session);
        free(st->slots[i].default_system);
        free(st->slots[i].system);
    }
    free(st->slots);
    seer_ctx_free(st->embed_ctx);
    seer_mv_proj_free(st->mv);
    seer_vision_free(st->vision);
    seer_llm_free(st->llm);
    seer_pool_destroy(st->pool);
    st->slots = NULL;
}

int serve_start(serve_state *st, const serve_config *cfg, char *why, size_t why_cap) {
    memset(st, 0, sizeof *st);
    st->cfg = cfg;
    serve_metrics_init(&st->metrics);
    pthread_mutex_init(&st->mu, NULL);
    pthread_cond_init(&st->cv, NULL);
    seer_error err = {{0}};
    if (load_engine(st, cfg, &err) != 0) {
        snprintf(why, why_cap, "%s", err.msg);
        release_engine(st);
        return -1;
    }
    st->has_vision = st->vision != NULL;
    st->has_mv = st->mv != NULL;
    if (pthread_create(&st->worker, NULL, worker_main, st) != 0) {
        snprintf(why, why_cap, "cannot start the worker thread");
        release_engine(st);
        return -1;
    }
    return 0;
}

bool serve_submit(serve_state *st, serve_job *j) {
    pthread_mutex_lock(&st->mu);
    const bool ok = !st->draining && !st->stopping;
    if (ok) {
        pthread_mutex_lock(&j->mu);
        j->refs++;
        pthread_mutex_unlock(&j->mu);
        if (st->tail) st->tail->next = j;
        else st->head = j;
        st->tail = j;
        st->queued++;
        serve_metrics_gauges(&st->metrics, st->queued, st->metrics.busy);
        pthread_cond_signal(&st->cv);
    }
    pthread_mutex_unlock(&st->mu);
    return ok;
}

void serve_drain(serve_state *st, int seconds) {
    pthread_mutex_lock(&st->mu);
    st->draining = true;
    st->drain_deadline = seer_time_ms() + 1000.0 * seconds;
    /* what has not started is refused; what runs may finish in time */
    while (st->head) {
        serve_job *j = pop(st);
        serve_job_fail(j, 503, "the server is shutting down");
        serve_job_release(j);
    }
    pthread_mutex_unlock(&st->mu);
}

void serve_stop(serve_state *st) {
    pthread_mutex_lock(&st->mu);
    st->stopping = true;
    pthread_cond_broadcast(&st->cv);
    pthread_mutex_unlock(&st->mu);
    pthread_join(st->worker, NULL);
    release_engine(st);
}
