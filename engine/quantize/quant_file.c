/* seer_quantize_file: metadata copied (general.file_type and
 * general.quantization_version set), each tensor converted to its planned
 * type as it is written, the file renamed into place at the end. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "quantize/quant_internal.h"
#include "quantize/quant_plan.h"
#include "seer/quantize.h"
#include "seer/safe_write.h"
#include "seer/tensor.h"
#include "tensor/quantize_internal.h"

bool seer_quantize_weights(int type, const float *src, void *dst, int64_t n) {
    void (*fn)(const float *, void *, int64_t) = NULL;
    switch (type) {
    case SEER_TYPE_Q8_0: fn = seer_quant_q8_0; break;
    case SEER_TYPE_Q4_0: fn = seer_quantize_q4_0; break;
    case SEER_TYPE_Q4_1: fn = seer_quant_q4_1; break;
    case SEER_TYPE_Q5_0: fn = seer_quantize_q5_0; break;
    case SEER_TYPE_Q5_1: fn = seer_quant_q5_1; break;
    case SEER_TYPE_Q2_K: fn = seer_quant_q2_K; break;
    case SEER_TYPE_Q3_K: fn = seer_quant_q3_K; break;
    case SEER_TYPE_Q4_K: fn = seer_quant_q4_K; break;
    case SEER_TYPE_Q5_K: fn = seer_quant_q5_K; break;
    case SEER_TYPE_Q6_K: fn = seer_quant_q6_K; break;
    case SEER_TYPE_F32: case SEER_TYPE_F16: case SEER_TYPE_BF16:
        return seer_quantize_row(type, src, dst, n) > 0 || n == 0;
    default: return false;
    }
    fn(src, dst, n);
    return true;
}

const char *seer_quantize_type_names(void) { return seer_quant_kind_names(); }

/* One tensor's conversion, run by the writer when it reaches the tensor. */
typedef struct tensor_job {
    const gguf_tensor *src;
    int type, index, count;
    uint64_t *written;
    const seer_quantize_opts *opts;
} tensor_job;

static void fill_tensor(void *ctx, void *dst, size_t nbytes) {
    tensor_job *j = ctx;
    const gguf_tensor *t = j->src;
    if (j->type == t->type) {
        memcpy(dst, t->data, nbytes);
    } else {
        int64_t ncols = t->ne[0], nrows = 1;
        for (int d = 1; d < t->n_dims; d++) nrows *= t->ne[d];
        size_t in_row = seer_row_bytes(t->type, ncols), out_row = seer_row_bytes(j->type, ncols);
        float *row = malloc((size_t)ncols * sizeof(float));
        if (!row) return; /* the writer zero-fills; out of memory is reported nowhere better */
        for (int64_t r = 0; r < nrows && !(j->opts->cancel && *j->opts->cancel); r++) {
            seer_dequantize_row(t->type, (const char *)t->data + r * in_row, row, ncols);
            seer_quantize_weights(j->type, row, (char *)dst + r * out_row, ncols);
        }
        free(row);
    }
    *j->written += nbytes;
    if (j->opts->progress)
        j->opts->progress(j->opts->progress_ctx, j->index + 1, j->count, t->name, j->type, *j->written);
}

static bool is_float_type(int type) {
    return type == SEER_TYPE_F32 || type == SEER_TYPE_F16 || type == SEER_TYPE_BF16;
}

static double bits_per_weight(int type) {
    const seer_type_info *ti = seer_type_get(type);
    return 8.0 * (double)ti->block_bytes / ti->block_size;
}

/* A key copied as it is (scalars are stored widened: narrowed back here). */
static void copy_kv(gguf_writer *w, const gguf_kv *kv) {
    if (kv->type == GGUF_TYPE_STRING) {
        gguf_writer_set_raw(w, kv->key, kv->type, 0, kv->str, 1);
    } else if (kv->type == GGUF_TYPE_ARRAY) {
        const void *data = kv->arr_type == GGUF_TYPE_STRING ? (const void *)kv->arr_str : kv->arr;
        gguf_writer_set_raw(w, kv->key, kv->type, kv->arr_type, data, kv->n);
    } else if (kv->type == GGUF_TYPE_FLOAT32) {
        float f = (float)kv->v.f64;
        gguf_writer_set_raw(w, kv->key, kv->type, 0, &f, 1);
    } else if (kv->type == GGUF_TYPE_BOOL) {
        uint8_t b = kv->v.b;
        gguf_writer_set_raw(w, kv->key, kv->type, 0, &b, 1);
    } else {
        gguf_writer_set_raw(w, kv->key, kv->type, 0, &kv->v, 1); /* little-endian: the low bytes */
    }
}

/* An input tensor already quantized below the type it would be written as. */
static const gguf_tensor *too_coarse(const gguf_file *f, const int *types) {
    for (uint64_t i = 0; i < f->n_tensors; i++) {
        const gguf_tensor *t = &f->tensors[i];
        if (types[i] != t->type && !is_float_type(t->type) && bits_per_weight(t->type) < bits_per_weight(types[i]))
            return t;
    }
    return NULL;
}

int seer_quantize_file(const char *in, const char *out, const char *type, const seer_quantize_opts *opts,
                       seer_error *err) {
    static const seer_quantize_opts no_opts;
    if (!opts) opts = &no_opts;
    const seer_quant_kind *kind = seer_quant_kind_find(type);
    if (!kind) {
        seer_error_set(err, "unknown type '%s' (one of: %s)", type, seer_quant_kind_names());
        return -1;
    }
    if (!opts->force && seer_safe_is_regular(out)) { /* a device or FIFO is not a file to lose */
        seer_error_set(err, "%s already exists (--force to overwrite it)", out);
        return -1;
    }
    gguf_file *f = gguf_open(in, err);
    if (!f) return -1;
    int *types = calloc(f->n_tensors ? f->n_tensors : 1, sizeof *types);
    tensor_job *jobs = calloc(f->n_tensors ? f->n_tensors : 1, sizeof *jobs);
    gguf_writer *w = gguf_writer_new();
    int rc = -1;
    if (!types || !jobs || !w) {
        seer_error_set(err, "out of memory");
        goto done;
    }
    seer_quant_plan(f, kind, types);
    const gguf_tensor *coarse = too_coarse(f, types);
    if (coarse) {
        seer_error_set(err, "%s: tensor '%s' is already %s, coarser than %s (quantize from the F16/F32 model)", in,
                       coarse->name, seer_type_name(coarse->type), seer_type_name(types[coarse - f->tensors]));
        goto done;
    }
    for (uint64_t i = 0; i < f->n_kv; i++)
        if (strncmp(f->kv[i].key, "split.", 6) != 0) copy_kv(w, &f->kv[i]);
    gguf_writer_set_u32(w, "general.quantization_version", 2);
    gguf_writer_set_u32(w, "general.file_type", (uint32_t)kind->ftype);
    uint64_t written = 0;
    for (uint64_t i = 0; i < f->n_tensors; i++) {
        const gguf_tensor *t = &f->tensors[i];
        jobs[i] = (tensor_job){t, types[i], (int)i, (int)f->n_tensors, &written, opts};
        gguf_writer_add_tensor_fn(w, t->name, types[i], t->n_dims, t->ne, fill_tensor, &jobs[i]);
    }
    gguf_writer_set_cancel(w, opts->cancel);
    rc = gguf_writer_write(w, out, err);
done:
    gguf_writer_free(w);
    free(jobs);
    free(types);
    gguf_close(f);
    return rc;
}
