/* The text of one chat reply as a client gets it: reasoning apart from the
 * answer (the thinking markers dropped), stop strings cut, the answer held
 * back while its end could still become a stop string. */
#ifndef SEER_SERVE_CHAT_REPLY_H
#define SEER_SERVE_CHAT_REPLY_H

#include <stdbool.h>
#include <stddef.h>

#include "seer/chat.h"
#include "text.h"

typedef struct chat_reply {
    const seer_chat_thinking *think;  /* NULL: no reasoning markers */
    char *const *stops;
    int n_stops;
    serve_text content, reasoning_raw, reasoning;
    size_t content_sent, reasoning_sent;  /* what the stream has had */
    bool stopped;                          /* a stop string ended it */
} chat_reply;

/* Adds a generated piece (its first thought_len bytes are reasoning).
 * Returns true when a stop string has now ended the reply. */
bool chat_reply_add(chat_reply *r, const char *text, size_t len, size_t thought_len);
/* What the stream can send now: the new reasoning and the new answer that
 * can no longer turn into a stop string (all of it when final). Advances
 * the sent marks; the pointers stay valid until the next add. */
void chat_reply_take(chat_reply *r, bool final, const char **reasoning, size_t *n_reasoning, const char **content,
                     size_t *n_content);
void chat_reply_free(chat_reply *r);

#endif
