/* GGUF v3 writer: metadata is encoded as it is set, tensor data is copied or
 * generated at write time, and the file appears atomically (seer_safe_open:
 * temporary, fsync, rename; a device is written in place). Errors from the setters (bad type, out of
 * memory) are remembered and reported by gguf_writer_write. */
#include "gguf/gguf_internal.h"
#include "seer/safe_write.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct byte_buf {
    unsigned char *p;
    size_t len, cap;
} byte_buf;

typedef struct writer_kv {
    char *key;
    byte_buf enc; /* the encoded entry: key, type, value */
} writer_kv;

typedef struct writer_tensor {
    char *name;
    int type, n_dims;
    int64_t ne[GGUF_MAX_DIMS];
    uint64_t nbytes, offset;
    void *data;       /* owned copy, or NULL when fill is used */
    gguf_fill_fn fill;
    void *fill_ctx;
} writer_tensor;

struct gguf_writer {
    writer_kv *kv;
    size_t n_kv, cap_kv;
    writer_tensor *t;
    size_t n_t, cap_t;
    char error[SEER_ERR_MAX]; /* first setter failure */
    const volatile int *cancel; /* set (by a signal handler) to stop between tensors */
};

static void fail(gguf_writer *w, const char *msg, const char *name) {
    if (!w->error[0]) snprintf(w->error, sizeof w->error, "%s '%s'", msg, name ? name : "");
}

static bool buf_put(byte_buf *b, const void *src, size_t n) {
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
        while (cap < b->len + n) cap *= 2;
        unsigned char *p = realloc(b->p, cap);
        if (!p) return false;
        b->p = p;
        b->cap = cap;
    }
    if (n) memcpy(b->p + b->len, src, n);
    b->len += n;
    return true;
}

static bool buf_u32(byte_buf *b, uint32_t v) { return buf_put(b, &v, 4); }
static bool buf_u64(byte_buf *b, uint64_t v) { return buf_put(b, &v, 8); }
static bool buf_str(byte_buf *b, const char *s, size_t len) { return buf_u64(b, len) && buf_put(b, s, len); }

gguf_writer *gguf_writer_new(void) { return calloc(1, sizeof(gguf_writer)); }

void gguf_writer_free(gguf_writer *w) {
    if (!w) return;
    for (size_t i = 0; i < w->n_kv; i++) {
        free(w->kv[i].key);
        free(w->kv[i].enc.p);
    }
    for (size_t i = 0; i < w->n_t; i++) {
        free(w->t[i].name);
        free(w->t[i].data);
    }
    free(w->kv);
    free(w->t);
    free(w);
}

/* A new entry for key; setters replace an earlier entry of the same key,
 * raw entries are always appended (tests write duplicate keys on purpose). */
static writer_kv *new_kv(gguf_writer *w, const char *key, bool replace) {
    if (!w) return NULL;
    if (!key) {
        fail(w, "metadata key is NULL", "");
        return NULL;
    }
    if (replace) {
        for (size_t i = 0; i < w->n_kv; i++) {
            if (strcmp(w->kv[i].key, key) == 0) {
                writer_kv *kv = &w->kv[i];
                kv->enc.len = 0;
                if (!buf_str(&kv->enc, key, strlen(key))) goto oom;
                return kv;
            }
        }
    }
    if (w->n_kv == w->cap_kv) {
        size_t cap = w->cap_kv ? w->cap_kv * 2 : 32;
        writer_kv *kv = realloc(w->kv, cap * sizeof *kv);
        if (!kv) goto oom;
        w->kv = kv;
        w->cap_kv = cap;
    }
    writer_kv *kv = &w->kv[w->n_kv];
    memset(kv, 0, sizeof *kv);
    kv->key = strdup(key);
    if (!kv->key || !buf_str(&kv->enc, key, strlen(key))) {
        free(kv->key);
        free(kv->enc.p);
        goto oom;
    }
    w->n_kv++;
    return kv;
oom:
    fail(w, "out of memory setting key", key);
    return NULL;
}

static void set_scalar(gguf_writer *w, const char *key, gguf_value_type t, const void *v) {
    writer_kv *kv = new_kv(w, key, true);
    if (kv && !(buf_u32(&kv->enc, t) && buf_put(&kv->enc, v, gguf_scalar_size(t))))
        fail(w, "out of memory setting key", key);
}

void gguf_writer_set_u32(gguf_writer *w, const char *key, uint32_t v) { set_scalar(w, key, GGUF_TYPE_UINT32, &v); }
void gguf_writer_set_i32(gguf_writer *w, const char *key, int32_t v) { set_scalar(w, key, GGUF_TYPE_INT32, &v); }
void gguf_writer_set_u64(gguf_writer *w, const char *key, uint64_t v) { set_scalar(w, key, GGUF_TYPE_UINT64, &v); }
void gguf_writer_set_f32(gguf_writer *w, const char *key, float v) { set_scalar(w, key, GGUF_TYPE_FLOAT32, &v); }
void gguf_writer_set_bool(gguf_writer *w, const char *key, bool v) {
    uint8_t b = v ? 1 : 0;
    set_scalar(w, key, GGUF_TYPE_BOOL, &b);
}

/* Encodes a value of type `type` (arrays: n elements of arr_type) after the key. */
static bool encode_value(byte_buf *b, gguf_value_type type, gguf_value_type arr_type, const void *data, uint64_t n) {
    if (!buf_u32(b, (uint32_t)type)) return false;
    if (type == GGUF_TYPE_STRING) {
        const char *s = data ? data : "";
        return buf_str(b, s, strlen(s));
    }
    if (type != GGUF_TYPE_ARRAY) return buf_put(b, data, gguf_scalar_size(type)); /* unknown types: no value */
    if (!buf_u32(b, (uint32_t)arr_type) || !buf_u64(b, n)) return false;
    if (arr_type == GGUF_TYPE_STRING) {
        const char *const *v = data;
        for (uint64_t i = 0; i < n; i++)
            if (!buf_str(b, v[i] ? v[i] : "", v[i] ? strlen(v[i]) : 0)) return false;
        return true;
    }
    if (arr_type == GGUF_TYPE_ARRAY) { /* nested: n empty u8 arrays (only for tests; readers reject it) */
        for (uint64_t i = 0; i < n; i++)
            if (!buf_u32(b, GGUF_TYPE_UINT8) || !buf_u64(b, 0)) return false;
        return true;
    }
    return buf_put(b, data, (size_t)n * gguf_scalar_size(arr_type));
}

static void set_value(gguf_writer *w, const char *key, bool replace, gguf_value_type type, gguf_value_type arr_type,
                      const void *data, uint64_t n) {
    writer_kv *kv = new_kv(w, key, replace);
    if (kv && !encode_value(&kv->enc, type, arr_type, data, n)) fail(w, "out of memory setting key", key);
}

void gguf_writer_set_str(gguf_writer *w, const char *key, const char *v) {
    set_value(w, key, true, GGUF_TYPE_STRING, 0, v, 1);
}
void gguf_writer_set_arr_str(gguf_writer *w, const char *key, const char *const *v, uint64_t n) {
    set_value(w, key, true, GGUF_TYPE_ARRAY, GGUF_TYPE_STRING, v, n);
}
void gguf_writer_set_arr_i32(gguf_writer *w, const char *key, const int32_t *v, uint64_t n) {
    set_value(w, key, true, GGUF_TYPE_ARRAY, GGUF_TYPE_INT32, v, n);
}
void gguf_writer_set_arr_f32(gguf_writer *w, const char *key, const float *v, uint64_t n) {
    set_value(w, key, true, GGUF_TYPE_ARRAY, GGUF_TYPE_FLOAT32, v, n);
}
void gguf_writer_set_raw(gguf_writer *w, const char *key, gguf_value_type type, gguf_value_type arr_type,
                         const void *data, uint64_t n) {
    set_value(w, key, false, type, arr_type, data, n);
}

static writer_tensor *new_tensor(gguf_writer *w, const char *name, int type, int n_dims, const int64_t *ne) {
    if (!w) return NULL;
    if (!name || n_dims < 1 || n_dims > GGUF_MAX_DIMS || !ne) {
        fail(w, "bad name or shape for tensor", name);
        return NULL;
    }
    int block_size;
    size_t block_bytes;
    const char *type_name;
    if (!gguf_type_layout(type, &block_size, &block_bytes, &type_name)) {
        fail(w, "unknown type for tensor", name);
        return NULL;
    }
    uint64_t n = 1;
    for (int d = 0; d < n_dims; d++) {
        if (ne[d] <= 0 || __builtin_mul_overflow(n, (uint64_t)ne[d], &n)) {
            fail(w, "bad shape for tensor", name);
            return NULL;
        }
    }
    if (ne[0] % block_size != 0) {
        fail(w, "row length is not a multiple of the block size for tensor", name);
        return NULL;
    }
    if (w->n_t == w->cap_t) {
        size_t cap = w->cap_t ? w->cap_t * 2 : 64;
        writer_tensor *t = realloc(w->t, cap * sizeof *t);
        if (!t) {
            fail(w, "out of memory adding tensor", name);
            return NULL;
        }
        w->t = t;
        w->cap_t = cap;
    }
    writer_tensor *t = &w->t[w->n_t];
    memset(t, 0, sizeof *t);
    t->name = strdup(name);
    if (!t->name) {
        fail(w, "out of memory adding tensor", name);
        return NULL;
    }
    t->type = type;
    t->n_dims = n_dims;
    for (int d = 0; d < GGUF_MAX_DIMS; d++) t->ne[d] = d < n_dims ? ne[d] : 1;
    t->nbytes = n / (uint64_t)block_size * block_bytes;
    w->n_t++;
    return t;
}

void gguf_writer_add_tensor(gguf_writer *w, const char *name, int type, int n_dims, const int64_t *ne,
                            const void *data) {
    writer_tensor *t = new_tensor(w, name, type, n_dims, ne);
    if (!t) return;
    t->data = malloc(t->nbytes ? (size_t)t->nbytes : 1);
    if (!t->data) {
        fail(w, "out of memory copying tensor", name);
        return;
    }
    if (data) memcpy(t->data, data, (size_t)t->nbytes);
    else memset(t->data, 0, (size_t)t->nbytes);
}

void gguf_writer_add_tensor_fn(gguf_writer *w, const char *name, int type, int n_dims, const int64_t *ne,
                               gguf_fill_fn fill, void *ctx) {
    writer_tensor *t = new_tensor(w, name, type, n_dims, ne);
    if (!t) return;
    t->fill = fill;
    t->fill_ctx = ctx;
}

/* The alignment the file will declare: general.alignment if set, else 32. */
static uint64_t writer_alignment(const gguf_writer *w) {
    for (size_t i = 0; i < w->n_kv; i++) {
        const byte_buf *b = &w->kv[i].enc;
        size_t klen = strlen(w->kv[i].key);
        if (strcmp(w->kv[i].key, "general.alignment") != 0 || b->len < 8 + klen + 4 + 4) continue;
        uint32_t type, v;
        memcpy(&type, b->p + 8 + klen, 4);
        memcpy(&v, b->p + 8 + klen + 4, 4);
        if (type == GGUF_TYPE_UINT32 && v && !(v & (v - 1))) return v;
    }
    return GGUF_DEFAULT_ALIGNMENT;
}

static bool write_zeros(FILE *fp, uint64_t n) {
    static const unsigned char ZEROS[64];
    while (n) {
        size_t k = n < sizeof ZEROS ? (size_t)n : sizeof ZEROS;
        if (fwrite(ZEROS, 1, k, fp) != k) return false;
        n -= k;
    }
    return true;
}

static bool write_all(gguf_writer *w, FILE *fp, uint64_t align) {
    byte_buf head = {0};
    bool ok = buf_put(&head, GGUF_MAGIC, 4) && buf_u32(&head, 3) && buf_u64(&head, w->n_t) && buf_u64(&head, w->n_kv);
    for (size_t i = 0; ok && i < w->n_kv; i++) ok = buf_put(&head, w->kv[i].enc.p, w->kv[i].enc.len);
    uint64_t offset = 0;
    for (size_t i = 0; ok && i < w->n_t; i++) {
        writer_tensor *t = &w->t[i];
        t->offset = offset;
        ok = buf_str(&head, t->name, strlen(t->name)) && buf_u32(&head, (uint32_t)t->n_dims);
        for (int d = 0; ok && d < t->n_dims; d++) ok = buf_u64(&head, (uint64_t)t->ne[d]);
        ok = ok && buf_u32(&head, (uint32_t)t->type) && buf_u64(&head, t->offset);
        offset += (t->nbytes + align - 1) / align * align;
    }
    if (!ok) {
        free(head.p);
        snprintf(w->error, sizeof w->error, "out of memory encoding the header");
        return false;
    }
    ok = fwrite(head.p, 1, head.len, fp) == head.len && write_zeros(fp, (align - head.len % align) % align);
    free(head.p);
    unsigned char *scratch = NULL;
    size_t scratch_cap = 0;
    for (size_t i = 0; ok && i < w->n_t; i++) {
        writer_tensor *t = &w->t[i];
        const void *src = t->data;
        if (!src) {
            if (t->nbytes > scratch_cap) {
                free(scratch);
                scratch_cap = (size_t)t->nbytes;
                scratch = malloc(scratch_cap);
                if (!scratch) {
                    snprintf(w->error, sizeof w->error, "out of memory generating tensor data");
                    return false;
                }
            }
            memset(scratch, 0, (size_t)t->nbytes);
            if (t->fill) t->fill(t->fill_ctx, scratch, (size_t)t->nbytes);
            src = scratch;
        }
        if (w->cancel && *w->cancel) { /* checked after the fill: a fill may stop early when cancelled */
            free(scratch);
            snprintf(w->error, sizeof w->error, "interrupted");
            return false;
        }
        ok = fwrite(src, 1, (size_t)t->nbytes, fp) == t->nbytes &&
             write_zeros(fp, (align - t->nbytes % align) % align);
    }
    free(scratch);
    if (!ok) snprintf(w->error, sizeof w->error, "write failed: %s", strerror(errno));
    return ok;
}

void gguf_writer_set_cancel(gguf_writer *w, const volatile int *cancel) {
    if (w) w->cancel = cancel;
}

int gguf_writer_write(gguf_writer *w, const char *path, seer_error *err) {
    if (!w || !path) {
        seer_error_set(err, "gguf writer: nothing to write");
        return -1;
    }
    if (w->error[0]) {
        seer_error_set(err, "%s: %s", path, w->error);
        return -1;
    }
    seer_safe_file out;
    if (seer_safe_open(&out, path, err) != 0) return -1;
    bool ok = write_all(w, out.f, writer_alignment(w));
    if (ok && fflush(out.f) != 0) {
        snprintf(w->error, sizeof w->error, "write failed: %s", strerror(errno));
        ok = false;
    }
    /* Drop the written pages from the page cache once on disk: cached as the
     * writes made them, in small folios, they would be mapped with 4 KiB
     * pages by every later reader; read back through seer's mapping they
     * come in 2 MiB folios (see map_file in gguf_read.c). */
    if (ok && out.tmp && fdatasync(fileno(out.f)) == 0) (void)posix_fadvise(fileno(out.f), 0, 0, POSIX_FADV_DONTNEED);
    if (!ok) {
        seer_safe_abandon(&out);
        seer_error_set(err, "%s: %s", path, w->error);
        w->error[0] = '\0';
        return -1;
    }
    return seer_safe_commit(&out, err);
}
