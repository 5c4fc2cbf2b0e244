/* Name → entry lookup for metadata keys and tensor names: open addressing
 * with linear probing, grown as entries are added (so a file that lies about
 * its counts cannot make us allocate up front). */
#include "gguf/gguf_index.h"

#include <stdlib.h>
#include <string.h>

uint64_t gguf_name_hash(const char *s) {
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ull;
    }
    return h;
}

void gguf_index_free(gguf_name_index *idx) {
    free(idx->slots);
    idx->slots = NULL;
    idx->cap = 0;
}

static bool index_grow(gguf_name_index *idx, gguf_name_of name_of, const void *table) {
    size_t cap = idx->cap ? idx->cap * 2 : 16;
    uint64_t *slots = calloc(cap, sizeof *slots);
    if (!slots) return false;
    for (size_t i = 0; i < idx->cap; i++) {
        uint64_t e = idx->slots[i];
        if (!e) continue;
        size_t s = (size_t)gguf_name_hash(name_of(table, e - 1)) & (cap - 1);
        while (slots[s]) s = (s + 1) & (cap - 1);
        slots[s] = e;
    }
    free(idx->slots);
    idx->slots = slots;
    idx->cap = cap;
    return true;
}

uint64_t gguf_index_find(const gguf_name_index *idx, const char *name, gguf_name_of name_of, const void *table) {
    if (!idx->cap) return GGUF_INDEX_NONE;
    size_t s = (size_t)gguf_name_hash(name) & (idx->cap - 1);
    while (idx->slots[s]) {
        uint64_t e = idx->slots[s] - 1;
        if (strcmp(name_of(table, e), name) == 0) return e;
        s = (s + 1) & (idx->cap - 1);
    }
    return GGUF_INDEX_NONE;
}

int gguf_index_insert(gguf_name_index *idx, uint64_t entry, gguf_name_of name_of, const void *table) {
    const char *name = name_of(table, entry);
    if (gguf_index_find(idx, name, name_of, table) != GGUF_INDEX_NONE) return 1;
    /* keep the load factor at or below one half */
    if ((entry + 1) * 2 > idx->cap && !index_grow(idx, name_of, table)) return -1;
    size_t s = (size_t)gguf_name_hash(name) & (idx->cap - 1);
    while (idx->slots[s]) s = (s + 1) & (idx->cap - 1);
    idx->slots[s] = entry + 1;
    return 0;
}
