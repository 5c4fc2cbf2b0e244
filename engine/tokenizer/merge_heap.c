/* Binary heap over fixed-size elements: see merge_heap.h. */
#include "tokenizer/merge_heap.h"

#include <stdlib.h>
#include <string.h>

#define AT(h, i) ((h)->a + (i) * (h)->elem)

int merge_heap_push(merge_heap *h, const void *x) {
    if (h->n == h->cap) {
        size_t cap = h->cap ? h->cap * 2 : 64;
        unsigned char *a = realloc(h->a, cap * h->elem);
        if (!a) return -1;
        h->a = a;
        h->cap = cap;
    }
    size_t i = h->n++;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!h->before(x, AT(h, parent))) break;
        memcpy(AT(h, i), AT(h, parent), h->elem);
        i = parent;
    }
    memcpy(AT(h, i), x, h->elem);
    return 0;
}

void merge_heap_pop(merge_heap *h, void *out) {
    memcpy(out, AT(h, 0), h->elem);
    size_t last = --h->n, i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->n) break;
        if (c + 1 < h->n && h->before(AT(h, c + 1), AT(h, c))) c++;
        if (!h->before(AT(h, c), AT(h, last))) break;
        memcpy(AT(h, i), AT(h, c), h->elem);
        i = c;
    }
    if (h->n) memcpy(AT(h, i), AT(h, last), h->elem);
}

void merge_heap_free(merge_heap *h) {
    free(h->a);
    h->a = NULL;
    h->n = h->cap = 0;
}
