/* Writing embeddings in the formats users already parse: OpenAI-style JSON,
 * JSON lines, raw float32 rows and NumPy .npy (whose header needs the row
 * count, so its rows are held until the end). */
#include <stdlib.h>
#include <string.h>

#include "seer/embed.h"
#include "seer/json.h"

struct seer_embed_writer {
    FILE *f;
    seer_embed_format fmt;
    bool multi;
    int n_inputs, dim;
    float *held; /* npy: every row so far */
    size_t n_held;
    bool failed;
    char *model;  /* json: written with the first vector, so a run failing before it prints nothing */
};

bool seer_embed_format_parse(const char *name, seer_embed_format *out) {
    static const struct { const char *name; seer_embed_format fmt; } table[] = {
        {"json", SEER_EMBED_JSON}, {"jsonl", SEER_EMBED_JSONL}, {"f32", SEER_EMBED_F32}, {"npy", SEER_EMBED_NPY}};
    for (size_t i = 0; name && i < sizeof table / sizeof table[0]; i++)
        if (!strcmp(name, table[i].name)) {
            *out = table[i].fmt;
            return true;
        }
    return false;
}

seer_embed_writer *seer_embed_writer_new(FILE *f, seer_embed_format fmt, bool multi, const char *model_name) {
    seer_embed_writer *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    w->f = f;
    w->fmt = fmt;
    w->multi = multi;
    if (!(w->model = strdup(model_name ? model_name : ""))) {
        free(w);
        return NULL;
    }
    return w;
}

static void put_json_head(seer_embed_writer *w) {
    fputs("{\"object\": \"list\", \"model\": ", w->f);
    json_put_string(w->f, w->model, strlen(w->model));
    fputs(", \"data\": [", w->f);
}

/* %.9g: every float32 comes back bit for bit. */
static void put_row(FILE *f, const float *v, int dim) {
    fputc('[', f);
    for (int i = 0; i < dim; i++) fprintf(f, i ? ", %.9g" : "%.9g", (double)v[i]);
    fputc(']', f);
}

static void put_rows_json(seer_embed_writer *w, const float *rows, int n_rows, int dim) {
    if (!w->multi) {
        fputs("\"embedding\": ", w->f);
        put_row(w->f, rows, dim);
        return;
    }
    fputs("\"embeddings\": [", w->f);
    for (int r = 0; r < n_rows; r++) {
        if (r) fputs(", ", w->f);
        put_row(w->f, rows + (size_t)r * (size_t)dim, dim);
    }
    fputc(']', w->f);
}

int seer_embed_writer_add(seer_embed_writer *w, const float *rows, int n_rows, int dim) {
    if (w->n_inputs > 0 && dim != w->dim) return -1;
    w->dim = dim;
    const int i = w->n_inputs++;
    switch (w->fmt) {
    case SEER_EMBED_JSON:
        if (i == 0) put_json_head(w);
        fprintf(w->f, "%s{\"object\": \"embedding\", \"index\": %d, ", i ? ", " : "", i);
        put_rows_json(w, rows, n_rows, dim);
        fputc('}', w->f);
        break;
    case SEER_EMBED_JSONL:
        fprintf(w->f, "{\"index\": %d, ", i);
        put_rows_json(w, rows, n_rows, dim);
        fputs("}\n", w->f);
        fflush(w->f);
        break;
    case SEER_EMBED_F32:
        if (fwrite(rows, sizeof(float) * (size_t)dim, (size_t)n_rows, w->f) != (size_t)n_rows) w->failed = true;
        break;
    case SEER_EMBED_NPY: {
        size_t add = (size_t)n_rows * (size_t)dim;
        float *grown = realloc(w->held, (w->n_held + add) * sizeof(float));
        if (!grown) return -1;
        memcpy(grown + w->n_held, rows, add * sizeof(float));
        w->held = grown;
        w->n_held += add;
        break;
    }
    }
    return ferror(w->f) || w->failed ? -1 : 0;
}

/* NumPy format 1.0: magic, header length, a dict padded to 64 bytes. */
static void put_npy(FILE *f, const float *values, size_t n_rows, int dim) {
    char dict[128];
    int len = snprintf(dict, sizeof dict, "{'descr': '<f4', 'fortran_order': False, 'shape': (%zu, %d), }", n_rows,
                       dim);
    int total = 10 + len + 1;
    int pad = (64 - total % 64) % 64;
    uint16_t header_len = (uint16_t)(len + pad + 1);
    fwrite("\x93NUMPY\x01\x00", 1, 8, f);
    fputc(header_len & 0xff, f);
    fputc(header_len >> 8, f);
    fwrite(dict, 1, (size_t)len, f);
    for (int i = 0; i < pad; i++) fputc(' ', f);
    fputc('\n', f);
    fwrite(values, sizeof(float), n_rows * (size_t)dim, f);
}

int seer_embed_writer_finish(seer_embed_writer *w) {
    if (w->fmt == SEER_EMBED_JSON) {
        if (w->n_inputs == 0) put_json_head(w);
        fputs("]}\n", w->f);
    }
    if (w->fmt == SEER_EMBED_NPY) put_npy(w->f, w->held, w->dim ? w->n_held / (size_t)w->dim : 0, w->dim);
    int rc = fflush(w->f) != 0 || ferror(w->f) || w->failed ? -1 : 0;
    seer_embed_writer_abandon(w);
    return rc;
}

void seer_embed_writer_abandon(seer_embed_writer *w) {
    if (!w) return;
    free(w->held);
    free(w->model);
    free(w);
}
