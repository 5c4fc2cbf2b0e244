/* A search: the index read once, its model opened once, then any number of
 * text queries ranked against it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seer/search.h"

/* Candidates re-ranked by MaxSim when the index has multi-vectors. */
#define SEARCH_RERANK 32

struct seer_search {
    seer_index ix;
    seer_embedder *emb;
};

int seer_index_check_model(const seer_index_header *h, const char *index_path, const char *model, seer_error *err) {
    if (!model) return 0;
    seer_error e = {{0}};
    uint64_t fp = seer_file_fingerprint(model, &e);
    if (!fp) {
        seer_error_set(err, "%s", e.msg);
        return -1;
    }
    if (fp == h->model_fp) return 0;
    seer_error_set(err, "%s was made with the model '%s' (%s); %s is another model: search with that one or index again",
                   index_path, h->model_name, h->model, model);
    return -1;
}

void seer_search_free(seer_search *s) {
    if (!s) return;
    seer_embedder_free(s->emb);
    seer_index_free(&s->ix);
    free(s);
}

seer_search *seer_search_open(const char *index_path, const char *model, int threads, seer_error *err) {
    seer_search *s = calloc(1, sizeof *s);
    if (!s) {
        seer_error_set(err, "out of memory");
        return NULL;
    }
    if (seer_index_read(index_path, &s->ix, err) != 0) {
        free(s);
        return NULL;
    }
    const seer_index_header *h = &s->ix.hdr;
    const char *use = model ? model : h->model;
    if (seer_index_check_model(h, index_path, use, err) != 0) {
        seer_search_free(s);
        return NULL;
    }
    seer_embedder_opts o = {.model = use, .mv_proj = h->mv_proj[0] ? h->mv_proj : NULL, .threads = threads};
    if (o.mv_proj && seer_file_fingerprint(o.mv_proj, NULL) != h->mv_proj_fp) o.mv_proj = NULL; /* cosine only */
    if (!(s->emb = seer_embedder_open(&o, err))) {
        seer_search_free(s);
        return NULL;
    }
    if (seer_embedder_dim(s->emb) != h->dim) {
        seer_error_set(err, "%s holds vectors of %d, the model gives %d", index_path, h->dim, seer_embedder_dim(s->emb));
        seer_search_free(s);
        return NULL;
    }
    return s;
}

const seer_index *seer_search_index(const seer_search *s) { return &s->ix; }

int seer_search_query(seer_search *s, const char *text, int k, seer_hit *hits, seer_error *err) {
    seer_embedding q;
    if (seer_embedder_text(s->emb, SEER_EMBED_QUERY, text, &q, err) != 0) return -1;
    int n = seer_search_rank(&s->ix, &q, k, SEARCH_RERANK, hits);
    seer_embedding_free(&q);
    if (n < 0) seer_error_set(err, "out of memory");
    return n;
}

void seer_search_entry_path(const seer_search *s, int entry, char *buf, size_t cap) {
    snprintf(buf, cap, "%s/%s", s->ix.hdr.root, s->ix.entries[entry].path);
}
