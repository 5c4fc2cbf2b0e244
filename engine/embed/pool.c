/* Single vectors: the mean of the pooled rows, L2-normalised, and the
 * Matryoshka cut (the first dim values, normalised again). */
#include <math.h>
#include <stdlib.h>

#include "seer/embed.h"

void seer_embed_normalize(float *v, int n) {
    double ss = 0;
    for (int i = 0; i < n; i++) ss += (double)v[i] * v[i];
    if (ss <= 0) return;
    const float inv = (float)(1.0 / sqrt(ss));
    for (int i = 0; i < n; i++) v[i] *= inv;
}

int seer_embed_single(const seer_embed_states *s, int dim, float *out) {
    const int E = s->n_embd, rows = s->pool_end - s->pool_begin;
    double *sum = calloc((size_t)E, sizeof *sum);
    if (!sum || rows <= 0) {
        free(sum);
        return -1;
    }
    for (int r = s->pool_begin; r < s->pool_end; r++) {
        const float *h = s->hidden + (size_t)r * (size_t)E;
        for (int i = 0; i < E; i++) sum[i] += h[i];
    }
    for (int i = 0; i < E; i++) out[i] = (float)(sum[i] / rows);
    free(sum);
    seer_embed_normalize(out, E);
    if (dim <= 0 || dim >= E) return E;
    seer_embed_normalize(out, dim);
    return dim;
}
