/* Shared between the GGUF reader, writer and getters (not part of the API). */
#ifndef SEER_GGUF_INTERNAL_H
#define SEER_GGUF_INTERNAL_H

#include "seer/gguf.h"
#include "gguf/gguf_index.h"

#define GGUF_MAGIC "GGUF"
#define GGUF_DEFAULT_ALIGNMENT 32

/* Block layout of a tensor type; false when the type is unknown. */
bool gguf_type_layout(int type, int *block_size, size_t *block_bytes, const char **name);

/* Size in bytes of one scalar of type t, 0 for STRING/ARRAY/unknown. */
size_t gguf_scalar_size(gguf_value_type t);


/* What gguf_open allocates: the public struct first, so the two convert. */
typedef struct gguf_file_priv {
    gguf_file pub;
    int fd;                      /* the file, kept open for gguf_read_at; -1 if not */
    gguf_name_index kv_index;
    gguf_name_index tensor_index;
} gguf_file_priv;

const char *gguf_kv_name_of(const void *kv_table, uint64_t i);
const char *gguf_tensor_name_of(const void *tensor_table, uint64_t i);

#endif
