/* Display width of UTF-8 text and word-boundary wrapping. */
#ifndef SEER_UI_TEXT_H
#define SEER_UI_TEXT_H

#include <stddef.h>

typedef struct ui_span {
    int start, len;   /* bytes */
} ui_span;

/* Decodes one character: returns bytes used (>= 1) and its display width in *w
 * (0 for combining marks, 2 for wide characters; invalid bytes count as 1). */
int ui_char_at(const char *s, size_t len, int *w);
int ui_text_width(const char *s, size_t len);
/* Bytes of the longest prefix of s that fits in `width` columns. */
size_t ui_text_fit(const char *s, size_t len, int width);
/* Wraps text to `width` columns, breaking at spaces when it can and at '\n'.
 * *out is malloc'd; returns the number of lines (>= 1 for any text). */
int ui_wrap(const char *s, size_t len, int width, ui_span **out);

#endif
