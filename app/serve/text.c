/* serve_text: the request bodies, replies and reply parts of seer serve. */
#include "text.h"

#include <stdlib.h>
#include <string.h>

int serve_text_append(serve_text *t, const char *s, size_t n) {
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 256;
        while (cap < t->len + n + 1) cap *= 2;
        char *p = realloc(t->s, cap);
        if (!p) return -1;
        t->s = p;
        t->cap = cap;
    }
    if (n) memcpy(t->s + t->len, s, n);
    t->len += n;
    t->s[t->len] = 0;
    return 0;
}
