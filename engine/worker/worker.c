/* The engine thread and its two queues: requests in (mutex + condvar), events
 * out (mutex + a wake-up pipe the UI polls together with the keyboard). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "worker/worker_internal.h"

void worker_emit(seer_worker *w, seer_event *ev) {
    event_node *n = calloc(1, sizeof *n);
    if (!n) {
        seer_event_clear(ev);
        return;
    }
    n->ev = *ev;
    n->ev.request = ev->request ? ev->request : w->cur_request;
    pthread_mutex_lock(&w->mu);
    if (w->ev_tail) w->ev_tail->next = n;
    else w->ev_head = n;
    w->ev_tail = n;
    bool wake = !w->wake_pending;
    w->wake_pending = true;
    pthread_mutex_unlock(&w->mu);
    if (wake) {
        ssize_t r = write(w->wake[1], "e", 1);
        (void)r; /* a full pipe is already readable */
    }
}

bool seer_worker_poll(seer_worker *w, seer_event *ev) {
    pthread_mutex_lock(&w->mu);
    event_node *n = w->ev_head;
    if (n) {
        w->ev_head = n->next;
        if (!w->ev_head) w->ev_tail = NULL;
    } else if (w->wake_pending) {
        /* Drained: clear the pipe so poll() sleeps until the next event. */
        char buf[64];
        while (read(w->wake[0], buf, sizeof buf) > 0) {}
        w->wake_pending = false;
    }
    pthread_mutex_unlock(&w->mu);
    if (!n) return false;
    *ev = n->ev;
    free(n);
    return true;
}

void seer_event_clear(seer_event *ev) {
    free(ev->text);
    ev->text = NULL;
    for (int i = 0; i < ev->n_found; i++) free(ev->found_paths[i]);
    free(ev->found_paths);
    free(ev->found_scores);
    ev->found_paths = NULL;
    ev->found_scores = NULL;
    ev->n_found = 0;
    seer_image_free(&ev->sheet);
}

int seer_worker_event_fd(const seer_worker *w) { return w->wake[0]; }

static void emit_text(seer_worker *w, seer_event_type type, const char *text) {
    seer_event ev = {.type = type};
    if (text) {
        ev.text = strdup(text);
        ev.text_len = ev.text ? (int)strlen(text) : 0;
    }
    worker_emit(w, &ev);
}

/* ---- requests ---- */

static uint64_t push_req(seer_worker *w, req_type type, const char *text, const seer_sampling *sp, int n_predict,
                         const char *path) {
    worker_req *r = calloc(1, sizeof *r);
    if (!r) return 0;
    r->type = type;
    r->text = text ? strdup(text) : NULL;
    r->path = path ? strdup(path) : NULL;
    if (sp) r->sampling = *sp;
    r->n_predict = n_predict;
    pthread_mutex_lock(&w->mu);
    uint64_t id = r->id = ++w->next_id;
    if (w->req_tail) w->req_tail->next = r;
    else w->req_head = r;
    w->req_tail = r;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
    return id; /* r may already be run and freed by the engine thread */
}

uint64_t seer_worker_attach_image(seer_worker *w, const char *path) { return push_req(w, REQ_IMAGE, path, NULL, 0, NULL); }
uint64_t seer_worker_send(seer_worker *w, const char *text) { return push_req(w, REQ_SEND, text, NULL, 0, NULL); }
uint64_t seer_worker_clear(seer_worker *w) { return push_req(w, REQ_CLEAR, NULL, NULL, 0, NULL); }
uint64_t seer_worker_set_system(seer_worker *w, const char *text) { return push_req(w, REQ_SYSTEM, text, NULL, 0, NULL); }
uint64_t seer_worker_set_sampling(seer_worker *w, const seer_sampling *sp, int n_predict) {
    return push_req(w, REQ_SAMPLING, NULL, sp, n_predict, NULL);
}
uint64_t seer_worker_set_thinking(seer_worker *w, bool on) { return push_req(w, REQ_THINKING, NULL, NULL, on, NULL); }
uint64_t seer_worker_find(seer_worker *w, const char *index_path, const char *text, int k) {
    return push_req(w, REQ_FIND, text, NULL, k, index_path);
}

void seer_worker_cancel(seer_worker *w) {
    pthread_mutex_lock(&w->mu);
    w->cancel_upto = w->next_id;
    if (w->running) __atomic_store_n(&w->cancel_flag, 1, __ATOMIC_SEQ_CST);
    pthread_mutex_unlock(&w->mu);
}

bool seer_worker_busy(seer_worker *w) {
    pthread_mutex_lock(&w->mu);
    bool busy = w->running || w->req_head;
    pthread_mutex_unlock(&w->mu);
    return busy;
}

/* ---- the engine thread ---- */

static void on_prefill(void *ud, int n_tokens, double ms, int shifted) {
    seer_worker *w = ud;
    seer_event ev = {.type = SEER_EV_PREFILL_DONE, .n_tokens = n_tokens, .ms = ms};
    ev.stats.shifted_turns = shifted;
    ev.stats.prefill_tokens = n_tokens;
    ev.stats.prefill_ms = ms;
    ev.stats.n_ctx = seer_ctx_size(seer_session_ctx(w->session));
    ev.stats.n_used = seer_ctx_used(seer_session_ctx(w->session));
    worker_emit(ud, &ev);
}

static int on_token(void *ud, const seer_gen_token *t) {
    seer_event ev = {.type = SEER_EV_TOKEN, .token = t->id, .ms = t->ms, .prob = t->prob, .index = t->index,
                     .thought_len = t->thought_len};
    ev.text = malloc((size_t)t->text_len + 1);
    if (ev.text) {
        memcpy(ev.text, t->text, (size_t)t->text_len);
        ev.text[t->text_len] = 0;
        ev.text_len = t->text_len;
    }
    worker_emit(ud, &ev);
    seer_worker *w = ud;
    if (w->token_pause_us) usleep(w->token_pause_us);
    return 0;
}

/* The vision encoder's progress (seer_vision_set_progress) as events, one
 * per percent: the status line shows how far a long encode is. */
static void on_encode_progress(void *ud, float fraction) {
    seer_worker *w = ud;
    const int percent = (int)(fraction * 100.0f);
    if (percent <= w->encode_percent) return;
    w->encode_percent = percent;
    seer_event ev = {.type = SEER_EV_ENCODE_PROGRESS, .fraction = fraction};
    worker_emit(w, &ev);
}

/* Thumbnails of the hits, px per side: a sixel pane is rarely wider than
 * three of these. */
#define FIND_THUMB_PX 192

/* REQ_FIND: the index (re)opened when its path changes, the query embedded
 * and ranked, the hits' paths and a numbered contact sheet sent back. */
static void run_find(seer_worker *w, const worker_req *r) {
    seer_error err = {{0}};
    if (w->search && strcmp(w->search_path, r->path) != 0) {
        seer_search_free(w->search);
        w->search = NULL;
    }
    if (!w->search) {
        free(w->search_path);
        w->search_path = strdup(r->path);
        if (!w->search_path || !(w->search = seer_search_open(r->path, NULL, w->cfg.n_threads, &err))) {
            emit_text(w, SEER_EV_ERROR, err.msg[0] ? err.msg : "out of memory");
            return;
        }
    }
    const int k = r->n_predict > 0 ? r->n_predict : 5;
    seer_hit *hits = calloc((size_t)k, sizeof *hits);
    seer_event ev = {.type = SEER_EV_FOUND, .text = strdup(r->path)};
    ev.text_len = ev.text ? (int)strlen(ev.text) : 0;
    int n = hits ? seer_search_query(w->search, r->text ? r->text : "", k, hits, &err) : -1;
    if (n > 0) {
        ev.found_paths = calloc((size_t)n, sizeof *ev.found_paths);
        ev.found_scores = calloc((size_t)n, sizeof *ev.found_scores);
        for (int i = 0; ev.found_paths && ev.found_scores && i < n; i++) {
            char p[8192];
            seer_search_entry_path(w->search, hits[i].entry, p, sizeof p);
            if (!(ev.found_paths[i] = strdup(p))) break;
            ev.found_scores[i] = hits[i].score;
            ev.n_found++;
        }
        if (ev.n_found < n) n = -1;
        else if (seer_contact_sheet((const char *const *)ev.found_paths, n, FIND_THUMB_PX, &ev.sheet, &err) != 0)
            memset(&ev.sheet, 0, sizeof ev.sheet); /* the list alone still helps */
    }
    free(hits);
    if (n < 0) {
        seer_event_clear(&ev);
        emit_text(w, SEER_EV_ERROR, err.msg[0] ? err.msg : "out of memory");
        return;
    }
    worker_emit(w, &ev);
}

static void run_request(seer_worker *w, worker_req *r) {
    seer_error err = {{0}};
    seer_session *s = w->session;
    switch (r->type) {
    case REQ_IMAGE: {
        w->encode_percent = 0;
        if (w->vision) seer_vision_set_progress(w->vision, on_encode_progress, w);
        int idx = seer_session_attach_image(s, r->text, &w->cancel_flag, &err);
        if (w->vision) seer_vision_set_progress(w->vision, NULL, NULL);
        if (idx < 0) {
            emit_text(w, SEER_EV_ERROR, err.msg);
            break;
        }
        seer_session_image im = seer_session_get_image(s, idx);
        seer_event ev = {.type = SEER_EV_IMAGE_ENCODED, .image_index = idx, .image_w = im.w, .image_h = im.h,
                         .n_tokens = im.n_tokens, .ms = im.encode_ms, .text = strdup(r->text)};
        ev.text_len = ev.text ? (int)strlen(ev.text) : 0;
        worker_emit(w, &ev);
        break;
    }
    case REQ_SEND: {
        seer_session_hooks hooks = {.ud = w, .on_prefill = on_prefill, .on_token = on_token};
        seer_event ev = {.type = SEER_EV_TURN_DONE};
        /* One event ends a turn; a failure carries its message. */
        if (seer_session_send(s, r->text ? r->text : "", &hooks, &w->cancel_flag, &ev.stats, &err) != 0) {
            ev.text = strdup(err.msg[0] ? err.msg : "the turn failed");
            ev.text_len = ev.text ? (int)strlen(ev.text) : 0;
        }
        worker_emit(w, &ev);
        break;
    }
    case REQ_CLEAR:
        seer_session_clear(s);
        emit_text(w, SEER_EV_CLEARED, NULL);
        break;
    case REQ_SYSTEM:
    case REQ_SAMPLING:
    case REQ_THINKING: {
        if (r->type == REQ_SYSTEM) seer_session_set_system(s, r->text);
        else if (r->type == REQ_THINKING) seer_session_set_thinking(s, r->n_predict != 0);
        else seer_session_set_sampling(s, &r->sampling, r->n_predict);
        seer_event ev = {.type = SEER_EV_SETTINGS, .sampling = seer_session_sampling(s),
                         .n_predict = seer_session_n_predict(s), .thinking = seer_session_thinking(s)};
        const char *sys = seer_session_system(s);
        ev.text = strdup(sys);
        ev.text_len = ev.text ? (int)strlen(sys) : 0;
        worker_emit(w, &ev);
        break;
    }
    case REQ_FIND: run_find(w, r); break;
    case REQ_QUIT: break;
    }
}

static void *engine_main(void *arg) {
    seer_worker *w = arg;
    bool loaded = worker_load(w);
    for (;;) {
        pthread_mutex_lock(&w->mu);
        while (!w->req_head) pthread_cond_wait(&w->cv, &w->mu);
        worker_req *r = w->req_head;
        w->req_head = r->next;
        if (!w->req_head) w->req_tail = NULL;
        bool cancelled = r->id <= w->cancel_upto && (r->type == REQ_IMAGE || r->type == REQ_SEND);
        w->running = r->id;
        w->cancel_flag = cancelled;
        pthread_mutex_unlock(&w->mu);
        bool quit = r->type == REQ_QUIT;
        w->cur_request = r->id;
        if (!quit && !cancelled) {
            if (loaded || r->type == REQ_FIND) run_request(w, r);
            else emit_text(w, SEER_EV_ERROR, "no model is loaded");
        } else if (cancelled && r->type == REQ_SEND) {
            seer_event ev = {.type = SEER_EV_TURN_DONE};
            ev.stats.stop = SEER_STOP_CANCELLED;
            worker_emit(w, &ev);
        } else if (cancelled) {
            emit_text(w, SEER_EV_ERROR, "image attach cancelled");
        }
        w->cur_request = 0;
        pthread_mutex_lock(&w->mu);
        w->running = 0;
        w->cancel_flag = 0;
        pthread_mutex_unlock(&w->mu);
        free(r->text);
        free(r->path);
        free(r);
        if (quit) break;
    }
    return NULL;
}

static char *dup_opt(const char *s) { return s ? strdup(s) : NULL; }

seer_worker *seer_worker_start(const seer_worker_config *cfg, seer_error *err) {
    seer_worker *w = calloc(1, sizeof *w);
    if (!w) {
        seer_error_set(err, "out of memory");
        return NULL;
    }
    w->cfg = *cfg;
    w->model_path = dup_opt(cfg->model_path);
    w->mmproj_path = dup_opt(cfg->mmproj_path);
    w->cfg.params.chat_template = dup_opt(cfg->params.chat_template);
    w->cfg.params.system_prompt = dup_opt(cfg->params.system_prompt);
    /* The tmux tests' tiny models stream a token every 0.1 ms: a key sent from
     * outside on a loaded machine lands after the reply has ended. A pause
     * per token gives it a window; the engine's work is unchanged. */
    const char *pause = getenv("SEER_TOKEN_PAUSE_MS");
    double pause_ms = pause ? atof(pause) : 0;
    if (pause_ms > 0 && pause_ms <= 1000) w->token_pause_us = (unsigned)(pause_ms * 1000.0);
    if (pipe(w->wake) != 0) {
        seer_error_set(err, "pipe: %s", strerror(errno));
        free(w);
        return NULL;
    }
    for (int i = 0; i < 2; i++) {
        fcntl(w->wake[i], F_SETFL, fcntl(w->wake[i], F_GETFL) | O_NONBLOCK);
        fcntl(w->wake[i], F_SETFD, FD_CLOEXEC);
    }
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->cv, NULL);
    if (pthread_create(&w->thread, NULL, engine_main, w) != 0) {
        seer_error_set(err, "cannot start the engine thread");
        close(w->wake[0]);
        close(w->wake[1]);
        free(w);
        return NULL;
    }
    return w;
}

void seer_worker_stop(seer_worker *w) {
    if (!w) return;
    seer_worker_cancel(w);
    push_req(w, REQ_QUIT, NULL, NULL, 0, NULL);
    seer_worker_cancel(w);
    pthread_join(w->thread, NULL);
    seer_session_free(w->session);
    seer_search_free(w->search);
    free(w->search_path);
    seer_vision_free(w->vision);
    seer_llm_free(w->llm);
    seer_pool_destroy(w->pool);
    for (worker_req *r = w->req_head, *nx; r; r = nx) {
        nx = r->next;
        free(r->text);
        free(r->path);
        free(r);
    }
    for (event_node *n = w->ev_head, *nx; n; n = nx) {
        nx = n->next;
        seer_event_clear(&n->ev);
        free(n);
    }
    close(w->wake[0]);
    close(w->wake[1]);
    pthread_mutex_destroy(&w->mu);
    pthread_cond_destroy(&w->cv);
    free(w->model_path);
    free(w->mmproj_path);
    free((char *)w->cfg.params.chat_template);
    free((char *)w->cfg.params.system_prompt);
    free(w);
}
