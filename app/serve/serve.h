/* seer serve: the shared state of the OpenAI-compatible server. The HTTP
 * layer (http.c, libmicrohttpd) parses and checks requests and turns them
 * into jobs; one worker thread (scheduler.c) runs the jobs on the engine:
 * chats on conversation slots, embeddings several requests at a time. */
#ifndef SEER_SERVE_H
#define SEER_SERVE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "metrics.h"
#include "request.h"
#include "seer/embed.h"
#include "seer/session.h"
#include "seer/threadpool.h"
#include "text.h"

typedef struct serve_config {
    const char *model_path, *mmproj_path, *mv_proj_path;
    const char *model_name;    /* the id clients name in "model" (the file's base name) */
    const char *host;
    int port;                  /* 0: any free port */
    int parallel;              /* conversation slots */
    const char *api_key;       /* NULL: no key asked */
    bool allow_local_files, embeddings;
    int n_ctx, threads, max_tokens;
    seer_vision_precision vision_precision; /* of every image encoded, chat and embeddings */
    size_t max_body;           /* bytes */
    int shutdown_seconds;      /* SIGTERM: how long streaming replies may still run */
    int idle_seconds;          /* a connection silent this long is closed */
} serve_config;

/* A conversation slot: a session whose KV cache holds the conversation so
 * far; conv is that conversation as the client sees it (replies without
 * their reasoning), to recognise a follow-up that repeats it. */
typedef struct serve_conv_msg {
    char *role, *text;
    uint64_t *image_hashes;
    int n_images;
} serve_conv_msg;

typedef struct serve_slot {
    seer_session *session;
    char *default_system;      /* the template's own (NULL: none) */
    char *system;              /* the one the session has now */
    serve_conv_msg *conv;
    int n_conv;
    double last_used;
    bool busy;                 /* a chat is running on it */
} serve_slot;

typedef enum serve_job_kind { SERVE_JOB_CHAT, SERVE_JOB_EMBED } serve_job_kind;

/* A request the worker runs. The HTTP side and the worker each hold a
 * reference; out is the reply (the SSE stream's bytes as they come, or the
 * whole JSON body), guarded by mu. */
typedef struct serve_job {
    serve_job_kind kind;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int refs;
    volatile int cancel;       /* the client left, or the server is stopping */
    bool started, done;        /* first bytes out / reply complete */
    int status;                /* HTTP status of a whole reply */
    serve_text out;
    size_t out_read;           /* what the stream's reader has taken */
    double t_queued;
    struct serve_job *next;
    serve_chat_req chat;
    serve_embed_req embed;
    seer_image *images;        /* decoded: the chat's images in message order, or one per embedding input (w 0: text) */
    int n_images;
} serve_job;

typedef struct serve_state {
    const serve_config *cfg;
    seer_llm *llm;
    seer_vision *vision;
    seer_pool *pool;
    seer_mv_proj *mv;
    seer_ctx *embed_ctx;
    serve_slot *slots;
    /* what the HTTP threads may know of the engine (they never touch it) */
    int n_embd;
    bool has_vision, has_mv;
    serve_metrics metrics;
    pthread_mutex_t mu;        /* the queue */
    pthread_cond_t cv;
    serve_job *head, *tail;
    int queued;
    bool stopping, draining;
    double drain_deadline;
    pthread_t worker;
} serve_state;

/* jobs.c */
serve_job *serve_job_new(serve_job_kind kind);
void serve_job_release(serve_job *j);
/* Appends reply bytes and wakes the reader; -1 when the reader is too far
 * behind (a slow client: the job is cancelled) or out of memory. */
int serve_job_write(serve_job *j, const char *s, size_t n);
/* A whole reply: status and body (the job is done). */
void serve_job_finish(serve_job *j, int status, const char *body);
/* An OpenAI-style error body {"error": {"message", "type", "code"}} (malloc'd). */
char *serve_error_body(int status, const char *message);
void serve_job_fail(serve_job *j, int status, const char *message);

/* scheduler.c */
int serve_start(serve_state *st, const serve_config *cfg, char *why, size_t why_cap);
/* Queues j (takes a reference); false when the server is stopping. */
bool serve_submit(serve_state *st, serve_job *j);
/* SIGTERM: queued jobs get 503, running ones may finish until the deadline. */
void serve_drain(serve_state *st, int seconds);
void serve_stop(serve_state *st);

/* chat_run.c / chat_admit.c / embed_run.c: run on the worker thread. A
 * chat runs on an idle slot: admit brings the slot to the request's history
 * and attaches its images unencoded (NULL: the job is answered already, an
 * error or a cancel); the images of the chats admitted together are then
 * encoded in shared vision passes, and start prefills the new turn (false:
 * the chat is over already); the scheduler then steps its turn together
 * with the other running chats (seer_session_turn_next / decoded) and ends
 * it when next says so (the reply is finished, the slot kept for a
 * follow-up). A chat holds the worker's reference to its job and gives it
 * back at its end. */
typedef struct serve_chat serve_chat;
int serve_chat_idle_slots(const serve_state *st);
/* The idle slot that holds the request's history, else the one whose cache
 * shares the longest prefix with it (the least recently used among equals);
 * NULL when every slot is busy. */
serve_slot *serve_chat_pick_slot(serve_state *st, const serve_job *j);
serve_chat *serve_chat_admit(serve_state *st, serve_slot *slot, serve_job *j);
/* The image prompts the chat's turn waits for (as seer_session_unencoded_images). */
int serve_chat_unencoded(serve_chat *c, seer_mm_prompt **out, int cap);
/* encode_error: why its images could not be encoded (NULL: they are). */
bool serve_chat_start(serve_chat *c, const char *encode_error);
/* Admits n queued chats (n <= idle slots) together: each on its slot, all
 * their images in shared vision passes, then each prefilled; the ones that
 * run are appended to run. */
void serve_chats_begin(serve_state *st, serve_job **jobs, int n, serve_chat **run, int *n_run);
seer_session_turn *serve_chat_turn(serve_chat *c);
seer_ctx *serve_chat_ctx(serve_chat *c);
void serve_chat_end(serve_chat *c);
void serve_slot_reset(serve_slot *slot);
void serve_embed_run(serve_state *st, serve_job **jobs, int n);

#endif
