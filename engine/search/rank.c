/* Ranking an index for a query: cosine (the dot product of unit vectors)
 * over every entry's single vector, then MaxSim over the multi-vectors of
 * the best few (late interaction: for each query row, its best dot product
 * with any row of the image; summed, here divided by the query's rows so
 * that the score reads like a cosine). */
#include <stdlib.h>

#include "seer/search.h"

static float dot(const float *a, const float *b, int n) {
    float s = 0;
    for (int i = 0; i < n; i++) s += a[i] * b[i];
    return s;
}

static int by_score(const void *x, const void *y) {
    const seer_hit *a = x, *b = y;
    return a->score < b->score ? 1 : a->score > b->score ? -1 : a->entry - b->entry;
}

static float maxsim(const float *q, int nq, const float *d, int nd, int m) {
    float sum = 0;
    for (int i = 0; i < nq; i++) {
        float best = -1e30f;
        for (int j = 0; j < nd; j++) {
            float s = dot(q + (size_t)i * m, d + (size_t)j * m, m);
            if (s > best) best = s;
        }
        sum += best;
    }
    return nq ? sum / (float)nq : 0;
}

int seer_search_rank(const seer_index *ix, const seer_embedding *query, int k, int rerank, seer_hit *hits) {
    const int n = ix->n_entries;
    if (n == 0 || k < 1 || query->dim != ix->hdr.dim) return 0;
    seer_hit *all = malloc(sizeof *all * (size_t)n);
    if (!all) return -1;
    for (int i = 0; i < n; i++) {
        float c = dot(query->single, ix->entries[i].single, ix->hdr.dim);
        all[i] = (seer_hit){.entry = i, .cosine = c, .score = c};
    }
    qsort(all, (size_t)n, sizeof *all, by_score);
    int top = rerank > k ? rerank : k;
    if (top > n) top = n;
    if (query->multi && ix->hdr.mv_dim > 0 && query->mv_dim == ix->hdr.mv_dim) {
        for (int i = 0; i < top; i++) {
            const seer_index_entry *e = &ix->entries[all[i].entry];
            if (!e->multi) continue;
            all[i].maxsim = maxsim(query->multi, query->n_multi, e->multi, e->n_multi, ix->hdr.mv_dim);
            all[i].score = all[i].maxsim;
        }
        qsort(all, (size_t)top, sizeof *all, by_score);
    }
    if (k > top) k = top;
    for (int i = 0; i < k; i++) hits[i] = all[i];
    free(all);
    return k;
}
