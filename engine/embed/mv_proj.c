/* The multi-vector projector: one linear layer with bias on every token's
 * final hidden state, each output row L2-normalised. The weights are small
 * (n_embd × d) and copied to float32 once. */
#include <stdlib.h>
#include <string.h>

#include "seer/embed.h"
#include "seer/tensor.h"

struct seer_mv_proj {
    int n_in, dim;
    float *weight; /* [dim][n_in] */
    float *bias;   /* [dim] */
};

/* Values of a F32 or F16 tensor as float32 (malloc'd), or NULL. */
static float *tensor_floats(const gguf_tensor *t, int64_t n) {
    float *out = malloc(sizeof(float) * (size_t)n);
    if (!out) return NULL;
    if (t->type == SEER_TYPE_F32) memcpy(out, t->data, sizeof(float) * (size_t)n);
    else
        for (int64_t i = 0; i < n; i++) out[i] = seer_fp16_to_f32(((const uint16_t *)t->data)[i]);
    return out;
}

seer_mv_proj *seer_mv_proj_load(const char *path, seer_error *err) {
    gguf_file *f = gguf_open(path, err);
    if (!f) return NULL;
    const gguf_tensor *w = gguf_find_tensor(f, "mv_proj.weight"), *b = gguf_find_tensor(f, "mv_proj.bias");
    seer_mv_proj *p = NULL;
    if (!w || !b) {
        seer_error_set(err, "%s: no mv_proj.weight / mv_proj.bias tensors (not a multi-vector projector)", path);
    } else if ((w->type != SEER_TYPE_F32 && w->type != SEER_TYPE_F16) || w->type != b->type) {
        seer_error_set(err, "%s: mv_proj tensors must both be F32 or both F16", path);
    } else if (w->n_dims != 2 || b->n_dims != 1 || w->ne[1] != b->ne[0] || w->ne[0] < 1 || w->ne[1] < 1 ||
               w->ne[0] > (1 << 20) || w->ne[1] > (1 << 16)) {
        seer_error_set(err, "%s: mv_proj.weight [%lld, %lld] and mv_proj.bias [%lld] do not fit together", path,
                       (long long)w->ne[0], (long long)w->ne[1], (long long)b->ne[0]);
    } else if ((p = calloc(1, sizeof *p)) != NULL) {
        p->n_in = (int)w->ne[0];
        p->dim = (int)w->ne[1];
        p->weight = tensor_floats(w, w->ne[0] * w->ne[1]);
        p->bias = tensor_floats(b, b->ne[0]);
        if (!p->weight || !p->bias) {
            seer_mv_proj_free(p);
            p = NULL;
            seer_error_set(err, "out of memory for the multi-vector projector");
        }
    } else {
        seer_error_set(err, "out of memory for the multi-vector projector");
    }
    gguf_close(f);
    return p;
}

void seer_mv_proj_free(seer_mv_proj *p) {
    if (!p) return;
    free(p->weight);
    free(p->bias);
    free(p);
}

int seer_mv_proj_n_in(const seer_mv_proj *p) { return p->n_in; }
int seer_mv_proj_dim(const seer_mv_proj *p) { return p->dim; }

void seer_mv_proj_apply(const seer_mv_proj *p, const float *rows, int n, float *out) {
    for (int r = 0; r < n; r++) {
        const float *h = rows + (size_t)r * (size_t)p->n_in;
        float *y = out + (size_t)r * (size_t)p->dim;
        for (int o = 0; o < p->dim; o++) {
            const float *wo = p->weight + (size_t)o * (size_t)p->n_in;
            double acc = p->bias[o];
            for (int i = 0; i < p->n_in; i++) acc += (double)wo[i] * h[i];
            y[o] = (float)acc;
        }
        seer_embed_normalize(y, p->dim);
    }
}
