/* Lookups and typed getters over an opened GGUF file. */
#include "gguf/gguf_internal.h"
#include "seer/tensor.h"

#include <string.h>

size_t gguf_scalar_size(gguf_value_type t) {
    switch (t) {
    case GGUF_TYPE_UINT8: case GGUF_TYPE_INT8: case GGUF_TYPE_BOOL: return 1;
    case GGUF_TYPE_UINT16: case GGUF_TYPE_INT16: return 2;
    case GGUF_TYPE_UINT32: case GGUF_TYPE_INT32: case GGUF_TYPE_FLOAT32: return 4;
    case GGUF_TYPE_UINT64: case GGUF_TYPE_INT64: case GGUF_TYPE_FLOAT64: return 8;
    default: return 0;
    }
}

const char *gguf_value_type_name(gguf_value_type t) {
    static const char *const NAMES[] = {"u8", "i8", "u16", "i16", "u32", "i32", "f32",
                                        "bool", "string", "array", "u64", "i64", "f64"};
    return (unsigned)t < sizeof NAMES / sizeof NAMES[0] ? NAMES[t] : "unknown";
}

const char *gguf_kv_name_of(const void *kv_table, uint64_t i) { return ((const gguf_kv *)kv_table)[i].key; }
const char *gguf_tensor_name_of(const void *tensor_table, uint64_t i) {
    return ((const gguf_tensor *)tensor_table)[i].name;
}

const gguf_kv *gguf_find_kv(const gguf_file *f, const char *key) {
    if (!f || !key) return NULL;
    const gguf_file_priv *p = (const gguf_file_priv *)f;
    uint64_t i = gguf_index_find(&p->kv_index, key, gguf_kv_name_of, f->kv);
    return i == GGUF_INDEX_NONE ? NULL : &f->kv[i];
}

const gguf_tensor *gguf_find_tensor(const gguf_file *f, const char *name) {
    if (!f || !name) return NULL;
    const gguf_file_priv *p = (const gguf_file_priv *)f;
    uint64_t i = gguf_index_find(&p->tensor_index, name, gguf_tensor_name_of, f->tensors);
    return i == GGUF_INDEX_NONE ? NULL : &f->tensors[i];
}

static bool is_unsigned(gguf_value_type t) {
    return t == GGUF_TYPE_UINT8 || t == GGUF_TYPE_UINT16 || t == GGUF_TYPE_UINT32 || t == GGUF_TYPE_UINT64;
}
static bool is_signed(gguf_value_type t) {
    return t == GGUF_TYPE_INT8 || t == GGUF_TYPE_INT16 || t == GGUF_TYPE_INT32 || t == GGUF_TYPE_INT64;
}
static bool is_float(gguf_value_type t) { return t == GGUF_TYPE_FLOAT32 || t == GGUF_TYPE_FLOAT64; }

/* Element i of a packed numeric array, widened. */
static bool arr_elem(const gguf_kv *kv, uint64_t i, uint64_t *u, int64_t *s, double *d) {
    const unsigned char *p = (const unsigned char *)kv->arr + i * gguf_scalar_size(kv->arr_type);
    switch (kv->arr_type) {
    case GGUF_TYPE_UINT8: *u = p[0]; return true;
    case GGUF_TYPE_INT8: *s = (int8_t)p[0]; return true;
    case GGUF_TYPE_UINT16: { uint16_t x; memcpy(&x, p, 2); *u = x; return true; }
    case GGUF_TYPE_INT16: { int16_t x; memcpy(&x, p, 2); *s = x; return true; }
    case GGUF_TYPE_UINT32: { uint32_t x; memcpy(&x, p, 4); *u = x; return true; }
    case GGUF_TYPE_INT32: { int32_t x; memcpy(&x, p, 4); *s = x; return true; }
    case GGUF_TYPE_UINT64: memcpy(u, p, 8); return true;
    case GGUF_TYPE_INT64: memcpy(s, p, 8); return true;
    case GGUF_TYPE_FLOAT32: { float x; memcpy(&x, p, 4); *d = x; return true; }
    case GGUF_TYPE_FLOAT64: memcpy(d, p, 8); return true;
    default: return false;
    }
}

int64_t gguf_get_int(const gguf_file *f, const char *key, int64_t def) {
    const gguf_kv *kv = gguf_find_kv(f, key);
    if (!kv) return def;
    if (is_signed(kv->type)) return kv->v.i64;
    if (is_unsigned(kv->type)) return kv->v.u64 > (uint64_t)INT64_MAX ? def : (int64_t)kv->v.u64;
    return def;
}

double gguf_get_float(const gguf_file *f, const char *key, double def) {
    const gguf_kv *kv = gguf_find_kv(f, key);
    if (!kv) return def;
    if (is_float(kv->type)) return kv->v.f64;
    if (is_signed(kv->type)) return (double)kv->v.i64;
    if (is_unsigned(kv->type)) return (double)kv->v.u64;
    return def;
}

bool gguf_get_bool(const gguf_file *f, const char *key, bool def) {
    const gguf_kv *kv = gguf_find_kv(f, key);
    return kv && kv->type == GGUF_TYPE_BOOL ? kv->v.b : def;
}

const char *gguf_get_str(const gguf_file *f, const char *key) {
    const gguf_kv *kv = gguf_find_kv(f, key);
    return kv && kv->type == GGUF_TYPE_STRING ? kv->str : NULL;
}

uint64_t gguf_get_arr_n(const gguf_file *f, const char *key) {
    const gguf_kv *kv = gguf_find_kv(f, key);
    return kv && kv->type == GGUF_TYPE_ARRAY ? kv->n : 0;
}

int64_t gguf_get_arr_int(const gguf_file *f, const char *key, uint64_t i, int64_t def) {
    const gguf_kv *kv = gguf_find_kv(f, key);
    if (!kv || kv->type != GGUF_TYPE_ARRAY || i >= kv->n) return def;
    uint64_t u;
    int64_t s;
    double d;
    if (is_signed(kv->arr_type) && arr_elem(kv, i, &u, &s, &d)) return s;
    if (is_unsigned(kv->arr_type) && arr_elem(kv, i, &u, &s, &d)) return u > (uint64_t)INT64_MAX ? def : (int64_t)u;
    if (kv->arr_type == GGUF_TYPE_BOOL) return ((const unsigned char *)kv->arr)[i] != 0;
    return def;
}

double gguf_get_arr_float(const gguf_file *f, const char *key, uint64_t i, double def) {
    const gguf_kv *kv = gguf_find_kv(f, key);
    if (!kv || kv->type != GGUF_TYPE_ARRAY || i >= kv->n) return def;
    uint64_t u = 0;
    int64_t s = 0;
    double d = 0;
    if (!arr_elem(kv, i, &u, &s, &d)) return def;
    if (is_float(kv->arr_type)) return d;
    if (is_signed(kv->arr_type)) return (double)s;
    return (double)u;
}

int gguf_dominant_matrix_type(const gguf_file *f) {
    uint64_t bytes_by_type[SEER_TYPE_COUNT] = {0};
    for (uint64_t i = 0; i < f->n_tensors; i++) {
        const gguf_tensor *t = &f->tensors[i];
        if (t->n_dims >= 2 && t->type >= 0 && t->type < SEER_TYPE_COUNT) bytes_by_type[t->type] += t->nbytes;
    }
    int best = 0;
    for (int t = 1; t < SEER_TYPE_COUNT; t++)
        if (bytes_by_type[t] > bytes_by_type[best]) best = t;
    return best;
}
