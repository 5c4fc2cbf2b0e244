/* Internal state of the engine thread (engine/worker only). */
#ifndef SEER_WORKER_INTERNAL_H
#define SEER_WORKER_INTERNAL_H

#include <pthread.h>

#include "seer/search.h"
#include "seer/worker.h"

typedef enum req_type { REQ_IMAGE, REQ_SEND, REQ_CLEAR, REQ_SYSTEM, REQ_SAMPLING, REQ_THINKING, REQ_FIND, REQ_QUIT } req_type;

typedef struct worker_req {
    req_type type;
    uint64_t id;
    char *text;
    char *path;               /* FIND: the index */
    seer_sampling sampling;
    int n_predict;
    struct worker_req *next;
} worker_req;

typedef struct event_node {
    seer_event ev;
    struct event_node *next;
} event_node;

struct seer_worker {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    worker_req *req_head, *req_tail;
    event_node *ev_head, *ev_tail;
    int wake[2];              /* pipe: one byte per batch of events */
    bool wake_pending;
    uint64_t next_id;
    uint64_t cancel_upto;     /* requests with id <= this are cancelled */
    uint64_t running;         /* id of the request being run, 0 when idle */
    volatile int cancel_flag; /* polled by the engine during the running request */
    seer_worker_config cfg;
    char *model_path, *mmproj_path;
    /* Owned by the engine thread. */
    seer_llm *llm;
    seer_vision *vision;
    seer_pool *pool;
    seer_session *session;
    seer_search *search;      /* FIND: the open index and its embedding model */
    char *search_path;
    uint64_t cur_request;
    double mb_llm, mb_total;
    float last_fraction;
    int encode_percent;       /* the last SEER_EV_ENCODE_PROGRESS sent, in percent */
    unsigned token_pause_us;  /* SEER_TOKEN_PAUSE_MS: a pause after each token (tests only) */
};

/* Queues an event (takes ownership of ev->text) and wakes the reader. */
void worker_emit(seer_worker *w, seer_event *ev);
/* Loads model, vision and session on the engine thread; emits the events. */
bool worker_load(seer_worker *w);

#endif
