/* A growable byte string (always NUL-terminated once anything is in it). */
#ifndef SEER_SERVE_TEXT_H
#define SEER_SERVE_TEXT_H

#include <stddef.h>

typedef struct serve_text {
    char *s;
    size_t len, cap;
} serve_text;

/* Appends n bytes; -1 when out of memory (the text is unchanged). */
int serve_text_append(serve_text *t, const char *s, size_t n);

#endif
