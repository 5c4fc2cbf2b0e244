/* Internal state of a conversation (engine/session only). */
#ifndef SEER_SESSION_INTERNAL_H
#define SEER_SESSION_INTERNAL_H

#include "seer/mtmd.h"
#include "seer/session.h"

/* One message after the system prompt; images are the session images whose
 * markers its content carries, in order. */
typedef struct session_msg {
    char *role;
    char *content;
    int *images;
    int n_images;
} session_msg;

typedef struct session_image {
    char *path;
    uint64_t hash;        /* seer_image_hash of its pixels */
    int w, h;
    seer_mm_prompt mm;    /* chunks of a prompt that is just this image's marker, encoded */
    int n_tokens;
    double encode_ms;
    bool sent;
    bool reused;          /* its encoding came from before a restart */
} session_image;

/* What a KV cache row holds beside its token id, to tell which rows a new
 * prompt can keep: rows of an image's chunks (its wrapper tokens and its
 * embedding rows) carry the image's hash and their index among them, and
 * every row the position that follows it (where a truncation after it
 * continues; within an image's chunks only the last row's is used: the
 * cache is never cut inside an image). */
typedef struct session_row {
    uint64_t image;       /* 0: a text row */
    int32_t part;         /* index among the image's rows */
    int32_t next_pos;
} session_row;

/* A growable string. */
typedef struct session_text {
    char *s;
    size_t len, cap;
} session_text;

struct seer_session {
    const seer_llm *llm;
    const seer_vocab *vocab;
    seer_vision *vision;
    seer_pool *pool;
    seer_ctx *ctx;
    seer_sampler *sampler;
    seer_chat_style style;
    bool style_fallback;      /* the file's template was missing or not recognised */
    char *system;
    session_msg *msgs;
    int n_msgs, cap_msgs;
    session_image *images;
    int n_images, cap_images;
    /* the images before seer_session_restart: an image attached again (same
     * pixels) takes its encoding from here instead of being encoded anew */
    session_image *kept;
    int n_kept;
    session_text cached;  /* rendered text whose tokens fill the KV cache */
    int32_t *kv_ids;      /* the ids of those rows (-1: image rows) */
    session_row *kv_rows; /* and what else tells them apart */
    int n_kv, cap_kv;
    seer_sampling sampling;
    int n_predict;
    bool mrope;
    bool thinking;        /* the template's thinking mode for the next turns */
    /* Where the last generation prompt began (text length of cached, KV rows,
     * next position): a thinking template re-renders the reply after it
     * without its thoughts, so the next turn rolls back to here. text_len 0: none. */
    struct { size_t text_len; int rows; int32_t pos; } reply_mark;
    /* A turn's plan whose text is longer than the context could hold
     * (seer_vocab_more_tokens_than) stops before tokenizing and sets
     * over_cap: a message a request sent in megabytes is refused in no
     * time, not after tokenizing all of it. */
    bool over_cap;
};

int session_text_append(session_text *t, const char *s, size_t n);
void session_text_set(session_text *t, const char *s);

/* Records rows appended to the KV cache (ids NULL: n image rows): image:
 * the hash of the image they belong to (0: text), part0 the index of the
 * first among that image's rows, next_pos the position after each (NULL:
 * all take the decoder's next position now). */
int session_kv_push(seer_session *s, const int32_t *ids, int n, uint64_t image, int part0, const int32_t *next_pos);
/* Rows of the KV cache a prompt (rendered text with a marker per image,
 * their hashes in order; BOS first when bos) starts with: equal token ids,
 * images by hash, an image whole or not at all. Where text_rows is given
 * and some rows are shared, also the text's token rows in all (its images
 * left out), from the same tokenization. */
int session_common_rows(const seer_session *s, const char *text, const uint64_t *hashes, int n_hashes, bool bos,
                        int *text_rows);
/* The most of those rows the cache can keep: at most max, never inside an
 * image, at a mark of a recurrent state (seer_ctx_mark_floor). */
int session_keepable_rows(const seer_session *s, int rows, int max);
/* Cuts the cache to its first rows (what session_keepable_rows allows). */
void session_kv_truncate(seer_session *s, int rows);
/* Empties the KV cache and the cached text. */
void session_reset_cache(seer_session *s);

/* Renders system + messages (+ an extra user message when extra != NULL)
 * with the chat template. Returns a malloc'd string or NULL. */
char *session_render(const seer_session *s, const session_msg *extra, bool add_generation_prompt, seer_error *err);

/* Turns a rendered text suffix into prompt chunks: text pieces tokenized,
 * markers replaced by the encoded chunks of `images` (in order). BOS first
 * when bos is set. The prompt's chunks borrow image embeddings: free it with
 * session_prompt_free only. */
int session_build_prompt(const seer_session *s, const char *text, const int *images, int n_images, bool bos,
                         seer_mm_prompt *out, seer_error *err);
void session_prompt_free(seer_mm_prompt *p);
/* Drops the prompt's first rows (whole image chunks only). */
void session_prompt_drop_rows(seer_mm_prompt *p, int rows);
/* The session image a chunk of a built prompt belongs to (its embedding
 * rows or its wrapper tokens), -1 for the prompt's own text. */
int session_chunk_image(const seer_chunk *c);
/* Token ids of a text piece (BOS first when bos); malloc'd, count in *n. */
int32_t *session_tokenize(const seer_session *s, const char *text, size_t len, bool bos, int *n, seer_error *err);

/* Images referenced by the messages in conversation order, plus extra. */
int session_collect_images(const seer_session *s, const session_msg *extra, int **out);

void session_msg_free(session_msg *m);
/* Appends m (taken over) to the conversation; -1 when out of memory. */
int session_push_msg(seer_session *s, session_msg *m);
/* Drops the oldest user turn (user message and the replies after it). */
bool session_drop_oldest_turn(seer_session *s);

#endif
