/* Name → entry lookup used by the GGUF reader (not part of the API). */
#ifndef SEER_GGUF_INDEX_H
#define SEER_GGUF_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GGUF_INDEX_NONE UINT64_MAX

typedef struct gguf_name_index {
    size_t cap;        /* power of two, 0 when empty */
    uint64_t *slots;   /* entry index + 1, 0 = free */
} gguf_name_index;

/* Name of entry i of the table being indexed. */
typedef const char *(*gguf_name_of)(const void *table, uint64_t i);

uint64_t gguf_name_hash(const char *s);
/* Entry index, or GGUF_INDEX_NONE. */
uint64_t gguf_index_find(const gguf_name_index *idx, const char *name, gguf_name_of name_of, const void *table);
/* Adds entry (entries are added in order 0, 1, 2, …). Returns 0, 1 when the
 * name is already present, -1 when out of memory. */
int gguf_index_insert(gguf_name_index *idx, uint64_t entry, gguf_name_of name_of, const void *table);
void gguf_index_free(gguf_name_index *idx);

#endif
