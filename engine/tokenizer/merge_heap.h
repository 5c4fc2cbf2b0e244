/* A binary min-heap of candidate merges, shared by the SentencePiece and BPE
 * tokenizers: each keeps its own element type and its own "pops first" order. */
#ifndef SEER_TOKENIZER_MERGE_HEAP_H
#define SEER_TOKENIZER_MERGE_HEAP_H

#include <stdbool.h>
#include <stddef.h>

typedef bool (*merge_heap_before_fn)(const void *a, const void *b);

typedef struct merge_heap {
    unsigned char *a;
    size_t n, cap, elem;          /* elements held, capacity, bytes per element */
    merge_heap_before_fn before;  /* true when a must pop before b */
} merge_heap;

static inline merge_heap merge_heap_new(size_t elem, merge_heap_before_fn before) {
    return (merge_heap){.elem = elem, .before = before};
}
/* Copies *x in; -1 when out of memory. */
int merge_heap_push(merge_heap *h, const void *x);
/* Moves the first element to *out (h->n must be > 0). */
void merge_heap_pop(merge_heap *h, void *out);
void merge_heap_free(merge_heap *h);

#endif
