/* The engine thread: owns the model, the vision encoder, the thread pool and
 * the conversation. The UI sends requests (never blocking) and reads events
 * from a queue whose readiness is signalled on a file descriptor for poll(). */
#ifndef SEER_WORKER_H
#define SEER_WORKER_H

#include "seer/image.h"
#include "seer/session.h"

typedef struct seer_worker seer_worker;

typedef struct seer_worker_config {
    const char *model_path;
    const char *mmproj_path;   /* NULL: text only */
    int n_threads;             /* <= 0: all cores */
    seer_session_params params;
} seer_worker_config;

/* What the UI shows about the loaded model. */
typedef struct seer_model_summary {
    char name[128];
    char arch[32];
    char quant[16];            /* dominant weight type, e.g. "Q8_0" */
    char chat[16];             /* chat template style */
    bool chat_fallback;        /* that style is a fallback: the file's template is missing or unknown */
    bool chat_template_present; /* the file has a template text (then it was not recognised) */
    char projector[64];        /* "" without vision */
    char vision_quant[16];     /* the mmproj's dominant matrix type; "" without vision */
    int n_ctx, n_threads, n_layer, n_embd, n_vocab;
    int n_nextn;               /* NextN (MTP) blocks the file carries beyond n_layer (skipped) */
    uint64_t n_params, weight_bytes;
    bool vision;
    bool thinks;               /* the chat template has thinking markers */
    bool think_switch;         /* … and a thinking-off form */
    bool thinking;             /* the mode the next turn uses */
    /* The kernels this host runs it with (seer_bench_kernels_format), in
     * short (seer's SIMD level, "+AMX" where tiles take part, and OpenBLAS's
     * vector bits when they are narrower than the CPU's), OpenBLAS's kernel
     * set, and its one-line warning when that set is narrower ("" when not). */
    char kernels[192];
    char kernels_short[48];
    char blas[80];
    char blas_warning[256];
} seer_model_summary;

typedef enum seer_event_type {
    SEER_EV_LOAD_PROGRESS,     /* fraction, mb_done, mb_total */
    SEER_EV_LOADED,            /* model */
    SEER_EV_LOAD_FAILED,       /* text: the error */
    SEER_EV_IMAGE_ENCODED,     /* text: path; image_index, image_w/h, n_tokens, ms */
    SEER_EV_PREFILL_DONE,      /* n_tokens, ms, stats.{shifted_turns, n_used, n_ctx} */
    SEER_EV_TOKEN,             /* token, text, ms, prob, index (-1: trailing text only), thought_len */
    SEER_EV_TURN_DONE,         /* stats; text: the error when stats.stop == SEER_STOP_ERROR */
    SEER_EV_CLEARED,           /* conversation reset done */
    SEER_EV_SETTINGS,          /* sampling/system/thinking applied: sampling, n_predict, thinking */
    SEER_EV_ERROR,             /* text: the error (the request failed; the worker goes on) */
    SEER_EV_ENCODE_PROGRESS,   /* fraction: of the image being attached, after each encoder block */
    SEER_EV_FOUND,             /* n_found, found_paths/found_scores (best first), sheet; text: the index path */
} seer_event_type;

typedef struct seer_event {
    seer_event_type type;
    uint64_t request;          /* id returned by the request it answers */
    char *text;                /* raw (unsanitised) bytes, NUL-terminated, or NULL */
    int text_len;
    float fraction;
    double mb_done, mb_total;
    int32_t token;
    float prob;
    double ms;
    int n_tokens, index;
    int thought_len;           /* TOKEN: the first thought_len bytes of text are thought */
    bool thinking;             /* SETTINGS: the thinking mode of the next turns */
    int image_index, image_w, image_h;
    seer_turn_stats stats;
    seer_sampling sampling;
    int n_predict;
    seer_model_summary model;
    int n_found;               /* FOUND: the hits (0: the index holds no images) */
    char **found_paths;
    float *found_scores;
    seer_image sheet;          /* FOUND: the hits as numbered thumbnails (seer_contact_sheet) */
} seer_event;

/* Starts the engine thread, which loads the model right away (reporting
 * progress events, then LOADED or LOAD_FAILED). Paths are copied. */
seer_worker *seer_worker_start(const seer_worker_config *cfg, seer_error *err);
/* Cancels whatever runs, stops the thread and frees everything. */
void seer_worker_stop(seer_worker *w);

/* Readable when events are waiting. */
int seer_worker_event_fd(const seer_worker *w);
/* Pops the next event without blocking; false when none. Release with
 * seer_event_clear. */
bool seer_worker_poll(seer_worker *w, seer_event *ev);
void seer_event_clear(seer_event *ev);

/* Requests run in order on the engine thread; each returns its id (> 0). */
uint64_t seer_worker_attach_image(seer_worker *w, const char *path);
uint64_t seer_worker_send(seer_worker *w, const char *text);
uint64_t seer_worker_clear(seer_worker *w);
uint64_t seer_worker_set_system(seer_worker *w, const char *text);
uint64_t seer_worker_set_sampling(seer_worker *w, const seer_sampling *sp, int n_predict);
/* The chat template's thinking mode for the next turns (thinking templates only). */
uint64_t seer_worker_set_thinking(seer_worker *w, bool on);
/* Searches the image index at index_path (seer index) for text: the
 * index and its embedding model are opened on the engine thread at the
 * first search and kept until another path comes; answers with FOUND
 * (at most k hits) or ERROR. */
uint64_t seer_worker_find(seer_worker *w, const char *index_path, const char *text, int k);
/* Stops the running and all queued image/turn requests as soon as possible
 * (within one token or one ViT block). Partial replies are kept. */
void seer_worker_cancel(seer_worker *w);
/* True while a request is queued or running. */
bool seer_worker_busy(seer_worker *w);

#endif
