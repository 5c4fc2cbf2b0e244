/* A conversation over one seer_ctx: messages, attached images (encoded once,
 * embeddings kept), incremental prefill of only the new turn, the generation
 * loop with per-token timing and probability, cancel, context-full handling. */
#ifndef SEER_SESSION_H
#define SEER_SESSION_H

#include "seer/chat.h"
#include "seer/llm.h"
#include "seer/mtmd.h"
#include "seer/sampler.h"
#include "seer/vision.h"

typedef struct seer_session seer_session;

typedef struct seer_session_params {
    int n_ctx;                 /* <= 0: model default (see seer_ctx_new) */
    seer_kv_type kv_type;      /* KV cache elements (default F16) */
    int n_predict;             /* max tokens per reply; <= 0: until EOG or context full */
    seer_sampling sampling;
    const char *chat_template; /* style name ("chatml", …) or NULL: detect from the GGUF */
    const char *system_prompt; /* NULL: the style's default (may be none) */
    seer_preproc_mode image_preproc; /* how images are prepared (default: the model's own processor) */
    bool thinking_off;         /* a thinking template's thinking-off form (default: thinking on) */
} seer_session_params;

seer_session_params seer_session_params_default(void);

/* An attached image, as the session reports it. */
typedef struct seer_session_image {
    const char *path;
    int w, h;                  /* source size in pixels */
    int n_tokens;              /* embedding rows over all its chunks */
    double encode_ms;          /* time of preprocessing + encoding */
    bool sent;                 /* already part of a user turn */
    bool reused;               /* same pixels as an image before seer_session_restart: its encoding was kept */
} seer_session_image;

/* One generated token. text: the complete UTF-8 text it finishes (raw model
 * output: sanitise before showing). ms: time from the previous token (or from
 * the end of the prefill for the first one). */
typedef struct seer_gen_token {
    int32_t id;
    const char *text;
    int text_len;
    double ms;
    float prob;
    int index;                 /* 0-based within the reply */
    int thought_len;           /* the first thought_len bytes of text are reasoning (markers included) */
} seer_gen_token;

typedef enum seer_stop_reason {
    SEER_STOP_EOG = 0,         /* end-of-generation token */
    SEER_STOP_LIMIT,           /* n_predict reached */
    SEER_STOP_CANCELLED,
    SEER_STOP_CONTEXT_FULL,
    SEER_STOP_ERROR,
} seer_stop_reason;

const char *seer_stop_reason_name(seer_stop_reason r);

typedef struct seer_turn_stats {
    int prefill_tokens;        /* rows prefilled for this turn (text + image) */
    int prefill_images;        /* images whose embeddings went into this prefill */
    double prefill_ms;
    int gen_tokens;
    double gen_ms;             /* from the end of the prefill to the last token */
    double ttft_ms;            /* from the start of the turn to the first token */
    int thought_tokens;        /* tokens with reasoning in them (thinking templates) */
    double thought_ms;         /* their generation time (answer: gen_ms - thought_ms) */
    int n_ctx, n_used;         /* after the turn */
    int shifted_turns;         /* oldest turns dropped to make room (0: none) */
    seer_stop_reason stop;
} seer_turn_stats;

/* Callbacks during a turn (all optional; run on the calling thread).
 * on_token returning non-zero stops the reply (like a cancel). With a
 * thinking template a token that may begin a marker reaches on_token only
 * when the next tokens tell which side it is on (a token or two later). */
typedef struct seer_session_hooks {
    void *ud;
    void (*on_prefill)(void *ud, int n_tokens, double ms, int shifted_turns);
    int (*on_token)(void *ud, const seer_gen_token *tok);
} seer_session_hooks;

/* The session borrows llm, vision (may be NULL: text only) and pool; they must
 * outlive it. Returns NULL with a message when the context cannot be made. */
seer_session *seer_session_new(const seer_llm *llm, seer_vision *vision, seer_pool *pool,
                               const seer_session_params *params, seer_error *err);
void seer_session_free(seer_session *s);

/* Loads, preprocesses and encodes an image now; it goes into the next user
 * turn (before its text). Returns the image index, or -1 (bad file, no
 * vision model, cancelled). */
int seer_session_attach_image(seer_session *s, const char *path, const volatile int *cancel, seer_error *err);
/* The same for an image already in memory (copied); name is for display. */
int seer_session_attach_rgb(seer_session *s, const seer_image *img, const char *name, const volatile int *cancel,
                            seer_error *err);
/* The same, preprocessed but not encoded yet (an image with the pixels of
 * one before seer_session_restart takes its encoding): the caller encodes
 * the prompts seer_session_unencoded_images lists (seer_mtmd_encode_many,
 * with other sessions' images in the same vision passes) before the turn
 * that sends it. */
int seer_session_attach_rgb_unencoded(seer_session *s, const seer_image *img, const char *name, seer_error *err);
/* The attached images' prompts still without embeddings: up to cap into
 * out; returns how many there are. */
int seer_session_unencoded_images(seer_session *s, seer_mm_prompt **out, int cap);
int seer_session_n_images(const seer_session *s);
seer_session_image seer_session_get_image(const seer_session *s, int i);

/* Sends a user turn and generates the reply. Only what is not yet in the KV
 * cache is prefilled. On cancel during prefill the turn is dropped and the
 * cache is as before; on cancel during generation the partial reply is kept
 * in the conversation and in the cache. When the context would overflow, the
 * oldest turns (never the system prompt) are shifted out and the rest is
 * re-prefilled; if even that cannot fit, returns -1 with a message asking to
 * /clear. Returns 0 (also when cancelled: see stats->stop) or -1. */
int seer_session_send(seer_session *s, const char *text, const seer_session_hooks *hooks,
                      const volatile int *cancel, seer_turn_stats *stats, seer_error *err);

/* The same turn a token at a time, so that a server can decode several
 * sessions' tokens in one pass (seer_ctx_decode_multi on their contexts):
 * begin prefills (as seer_session_send does; *turn is NULL when a cancel
 * dropped the turn before any reply) and returns 0 or -1; next samples the
 * next token and says whether it is to be decoded (false: the turn has
 * ended: an end-of-generation token, the limit, a full context, a cancel);
 * the caller decodes it into seer_session_ctx, then calls decoded (which
 * records it and calls on_token) or, when the decode failed, failed; end
 * closes the reply (it joins the conversation), frees the turn and returns
 * what seer_session_send would. hooks, cancel and stats must outlive the turn. */
typedef struct seer_session_turn seer_session_turn;
int seer_session_turn_begin(seer_session *s, const char *text, const seer_session_hooks *hooks,
                            const volatile int *cancel, seer_turn_stats *stats, seer_session_turn **turn,
                            seer_error *err);
bool seer_session_turn_next(seer_session_turn *t, int32_t *token);
void seer_session_turn_decoded(seer_session_turn *t);
void seer_session_turn_failed(seer_session_turn *t, const char *why);
int seer_session_turn_end(seer_session_turn *t, seer_error *err);

/* Appends a past message without generating (a conversation a client sends
 * back whole, as an API server receives it): role "user" or "assistant",
 * content with one SEER_MTMD_MARKER per image, images the attached indexes
 * they stand for, in order (they count as sent). Nothing is prefilled now:
 * the next seer_session_send prefills it with its own turn. */
int seer_session_push_message(seer_session *s, const char *role, const char *content, const int *images, int n_images,
                              seer_error *err);

/* New conversation: messages and images dropped, KV cache emptied. The
 * system prompt stays. */
void seer_session_clear(seer_session *s);
/* A new conversation that keeps the KV cache's rows for reuse (an API
 * server's slot sent a whole conversation): messages and images dropped
 * (an image attached again with the same pixels keeps its encoding),
 * the system prompt replaced (NULL or "": none); the next turn keeps the
 * rows the cache and its prompt begin with (token ids equal, images equal
 * by seer_image_hash, never part of an image, for a recurrent state only
 * up to a mark: seer_ctx_mark_floor) and prefills the rest. */
void seer_session_restart(seer_session *s, const char *system);
/* How many of the cache's rows a conversation (system, then msgs with one
 * SEER_MTMD_MARKER per image, the hashes of those images in order) would
 * keep after seer_session_restart, for choosing among sessions; *n_text
 * gets the token rows of its text (its images left out) when any row is
 * kept, 0 otherwise. */
int seer_session_reusable_rows(const seer_session *s, const char *system, const seer_chat_msg *msgs, int n,
                               const uint64_t *image_hashes, int n_hashes, int *n_text);
/* Replaces the system prompt (NULL or "": none). The conversation is kept and
 * re-prefilled at the next turn. */
void seer_session_set_system(seer_session *s, const char *text);
const char *seer_session_system(const seer_session *s);
void seer_session_set_sampling(seer_session *s, const seer_sampling *sp, int n_predict);
seer_sampling seer_session_sampling(const seer_session *s);
int seer_session_n_predict(const seer_session *s);

/* Conversation as the session holds it (role "system" / "user" / "assistant";
 * image markers appear in user content). */
int seer_session_n_messages(const seer_session *s);
seer_chat_msg seer_session_message(const seer_session *s, int i);

seer_chat_style seer_session_chat_style(const seer_session *s);
/* Thinking templates: the mode of the next turns (on by default; a template
 * without a thinking-off form stays on), and the markers (NULL: none). */
void seer_session_set_thinking(seer_session *s, bool on);
bool seer_session_thinking(const seer_session *s);
const seer_chat_thinking *seer_session_thinking_markers(const seer_session *s);

/* Whether that style is a fallback: the model file's template is missing or
 * not one seer knows (seer_chat_for_model), and no --chat-template was given. */
bool seer_session_chat_fallback(const seer_session *s);
seer_ctx *seer_session_ctx(seer_session *s);
/* Rendered text whose tokens are in the KV cache right now (markers stand
 * for images). For tests and /tokens. */
const char *seer_session_cached_text(const seer_session *s);
/* Token ids of the KV cache rows, in order (-1 for image embedding rows);
 * *n gets the count, which equals seer_ctx_used. */
const int32_t *seer_session_cached_tokens(const seer_session *s, int *n);

#endif
