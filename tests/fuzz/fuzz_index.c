/* Fuzz target: the search index file (engine/search/index_file.c): header
 * text, records of either kind, torn tails, then lookups and a ranking on
 * what was read. The input's checksums are recomputed first, where its
 * lengths place them, so that mutations reach the parsers behind them
 * instead of all stopping at a checksum (one input in eight, by its length,
 * is read as it is: the checksums' own paths). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"
#include "fuzz_input.c.inc"
#include "seer/search.h"

#define MAX_QUERY_DIM 4096

static uint32_t u32_at(const uint8_t *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static void put_sum(uint8_t *p, size_t at, size_t n) {
    uint64_t sum = seer_fnv1a(SEER_FNV_INIT, p + at, n);
    memcpy(p + at + n, &sum, 8);
}

/* magic 8, version 4, n 4, header n, sum 8; records: 3 x u32, payload n, sum 8. */
static void fix_checksums(uint8_t *p, size_t size) {
    if (size < 16) return;
    size_t n = u32_at(p + 12), at = 16;
    if (n > size - at || size - at - n < 8) return;
    put_sum(p, at, n);
    for (at += n + 8; size - at >= 12;) {
        n = u32_at(p + at + 8);
        at += 12;
        if (n > size - at || size - at - n < 8) return;
        put_sum(p, at, n);
        at += n + 8;
    }
}

static void rank(const seer_index *ix) {
    if (ix->hdr.dim > MAX_QUERY_DIM || ix->n_entries == 0) return;
    float single[MAX_QUERY_DIM], multi[2 * 64];
    for (int i = 0; i < ix->hdr.dim; i++) single[i] = (float)((i % 7) - 3) / 4.0f;
    for (int i = 0; i < 2 * 64; i++) multi[i] = (float)((i % 5) - 2) / 3.0f;
    seer_embedding q = {.single = single, .dim = ix->hdr.dim};
    if (ix->hdr.mv_dim > 0 && ix->hdr.mv_dim <= 64) q = (seer_embedding){single, ix->hdr.dim, multi, 2, ix->hdr.mv_dim};
    seer_hit hits[8];
    int n = seer_search_rank(ix, &q, 8, 16, hits);
    if (n < 0 || n > 8) abort();
    for (int i = 0; i < n; i++)
        if (hits[i].entry < 0 || hits[i].entry >= ix->n_entries) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy) return 0;
    memcpy(copy, data, size);
    if (size % 8 != 7) fix_checksums(copy, size);
    seer_index ix;
    seer_error err;
    int rc = seer_index_read(fuzz_as_file(copy, size), &ix, &err);
    free(copy);
    if (rc != 0) return 0;
    if (ix.valid_bytes < 0 || (uint64_t)ix.valid_bytes > size || ix.n_entries > ix.n_records ||
        ix.torn != ((uint64_t)ix.valid_bytes < size))
        abort();
    for (int i = 0; i < ix.n_entries; i++) {
        seer_index_entry *e = &ix.entries[i];
        if (!e->path || !e->path[0] || !e->single || (e->n_multi > 0) != (e->multi != NULL)) abort();
        if (seer_index_find(&ix, e->path) != e) abort(); /* one live entry per path */
    }
    rank(&ix);
    seer_index_free(&ix);
    return 0;
}
