/* GGUF v2/v3 reader (mmap, fully validated) and writer. */
#ifndef SEER_GGUF_H
#define SEER_GGUF_H

#include "seer/common.h"

typedef enum gguf_value_type {
    GGUF_TYPE_UINT8 = 0, GGUF_TYPE_INT8 = 1, GGUF_TYPE_UINT16 = 2, GGUF_TYPE_INT16 = 3,
    GGUF_TYPE_UINT32 = 4, GGUF_TYPE_INT32 = 5, GGUF_TYPE_FLOAT32 = 6, GGUF_TYPE_BOOL = 7,
    GGUF_TYPE_STRING = 8, GGUF_TYPE_ARRAY = 9, GGUF_TYPE_UINT64 = 10, GGUF_TYPE_INT64 = 11,
    GGUF_TYPE_FLOAT64 = 12,
} gguf_value_type;

#define GGUF_MAX_DIMS 4

/* One metadata entry. Strings are NUL-terminated copies (len excludes the NUL). */
typedef struct gguf_kv {
    char *key;
    gguf_value_type type;      /* scalar type, STRING, or ARRAY */
    gguf_value_type arr_type;  /* element type when type == ARRAY */
    uint64_t n;                /* array length (1 for scalars) */
    union { uint64_t u64; int64_t i64; double f64; bool b; } v; /* scalars, widened */
    char *str; uint64_t str_len;   /* type == STRING */
    void *arr;                 /* numeric arrays: packed elements of arr_type (copied, aligned) */
    char **arr_str;            /* arrays of strings: n NUL-terminated copies */
    uint32_t *arr_str_len;     /* their lengths */
} gguf_kv;

typedef struct gguf_tensor {
    char *name;
    int n_dims;
    int64_t ne[GGUF_MAX_DIMS]; /* ne[0] is the fastest-varying (row length); unused dims are 1 */
    int type;                  /* seer_type (ggml numbering) */
    uint64_t offset;           /* relative to the data section */
    uint64_t nbytes;
    const void *data;          /* points into the mapping */
} gguf_tensor;

typedef struct gguf_file {
    char *path;
    uint32_t version;
    void *map; size_t map_size;
    uint64_t n_kv; gguf_kv *kv;
    uint64_t n_tensors; gguf_tensor *tensors;
    uint64_t alignment, data_offset;
} gguf_file;

/* Opens and validates a GGUF file. On failure returns NULL and err names the
 * problem and the key or tensor concerned. */
gguf_file *gguf_open(const char *path, seer_error *err);
void gguf_close(gguf_file *f);
/* The mapped bytes [p, p + n) will not be read again for a long time: the
 * whole pages among them leave this process's resident memory (a later
 * read brings them back from the file). */
void gguf_release_pages(const gguf_file *f, const void *p, size_t n);
/* Copies the mapped bytes [p, p + n) to dst by reading the file, not the
 * mapping, so none of their pages joins this process's resident memory: for
 * a table read a row at a time far apart (an untied token embedding), which
 * over the file's 2 MiB pages would map 2 MiB per row read. Copies from the
 * mapping if the read fails. */
void gguf_read_at(const gguf_file *f, const void *p, void *dst, size_t n);
/* Reads one byte of every page of the mapped bytes [p, p + n), so that
 * they are resident before a timed run reads them. */
void gguf_page_in(const gguf_file *f, const void *p, size_t n);

const gguf_kv *gguf_find_kv(const gguf_file *f, const char *key);
const gguf_tensor *gguf_find_tensor(const gguf_file *f, const char *name);

/* Typed getters: return `def` when the key is absent or not convertible. Any
 * integer type is accepted for ints, any numeric type for floats. */
int64_t gguf_get_int(const gguf_file *f, const char *key, int64_t def);
double gguf_get_float(const gguf_file *f, const char *key, double def);
bool gguf_get_bool(const gguf_file *f, const char *key, bool def);
const char *gguf_get_str(const gguf_file *f, const char *key); /* NULL if absent */
/* Arrays: number of elements (0 if absent or not an array), element i as int/float. */
uint64_t gguf_get_arr_n(const gguf_file *f, const char *key);
int64_t gguf_get_arr_int(const gguf_file *f, const char *key, uint64_t i, int64_t def);
double gguf_get_arr_float(const gguf_file *f, const char *key, uint64_t i, double def);

const char *gguf_value_type_name(gguf_value_type t);
/* The type of the matrices (tensors of 2+ dimensions) holding the most
 * bytes: what a status line calls the file's quantization. */
int gguf_dominant_matrix_type(const gguf_file *f);

/* ---- writer ---- */
typedef struct gguf_writer gguf_writer;
/* Fills `nbytes` of tensor data at write time (for big synthetic models). */
typedef void (*gguf_fill_fn)(void *ctx, void *dst, size_t nbytes);

gguf_writer *gguf_writer_new(void);
void gguf_writer_free(gguf_writer *w);
void gguf_writer_set_u32(gguf_writer *w, const char *key, uint32_t v);
void gguf_writer_set_i32(gguf_writer *w, const char *key, int32_t v);
void gguf_writer_set_u64(gguf_writer *w, const char *key, uint64_t v);
void gguf_writer_set_f32(gguf_writer *w, const char *key, float v);
void gguf_writer_set_bool(gguf_writer *w, const char *key, bool v);
void gguf_writer_set_str(gguf_writer *w, const char *key, const char *v);
void gguf_writer_set_arr_str(gguf_writer *w, const char *key, const char *const *v, uint64_t n);
void gguf_writer_set_arr_i32(gguf_writer *w, const char *key, const int32_t *v, uint64_t n);
void gguf_writer_set_arr_f32(gguf_writer *w, const char *key, const float *v, uint64_t n);
/* Raw entry of any type (used by tests that write unusual files). Always
 * appended, even when the key exists (setters above replace). data: scalars →
 * the value; STRING → a NUL-terminated string; ARRAY of numbers → n packed
 * elements; ARRAY of STRING → n `const char *`; ARRAY of ARRAY → n empty u8
 * arrays (data ignored); unknown types → the type id with no value. */
void gguf_writer_set_raw(gguf_writer *w, const char *key, gguf_value_type type, gguf_value_type arr_type,
                         const void *data, uint64_t n);
/* Data is copied. ne[0] is the row length. */
void gguf_writer_add_tensor(gguf_writer *w, const char *name, int type, int n_dims, const int64_t *ne,
                            const void *data);
/* Data produced by fill(ctx, …) when the file is written. */
void gguf_writer_add_tensor_fn(gguf_writer *w, const char *name, int type, int n_dims, const int64_t *ne,
                               gguf_fill_fn fill, void *ctx);
/* While writing, a non-zero *cancel stops before the next tensor: the
 * temporary file is removed and the write fails with "interrupted". */
void gguf_writer_set_cancel(gguf_writer *w, const volatile int *cancel);
/* Writes atomically (temporary file + rename). Returns 0 or -1. */
int gguf_writer_write(gguf_writer *w, const char *path, seer_error *err);

#endif
