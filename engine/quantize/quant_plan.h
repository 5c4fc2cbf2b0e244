/* The file types `seer quantize` writes and each tensor's type in them. */
#ifndef SEER_QUANT_PLAN_H
#define SEER_QUANT_PLAN_H

#include "seer/gguf.h"

typedef struct seer_quant_kind {
    const char *name; /* "Q4_K_M" */
    int ftype;        /* general.file_type (llama_ftype) */
    int base;         /* the type most tensors get */
} seer_quant_kind;

const seer_quant_kind *seer_quant_kind_find(const char *name); /* NULL if unknown */
const char *seer_quant_kind_names(void);                         /* space-separated list */
bool seer_quant_is_vision(const gguf_file *f);                   /* an mmproj */
/* types[i]: the type tensor i is written as (its own type: copied). */
void seer_quant_plan(const gguf_file *f, const seer_quant_kind *kind, int *types);

#endif
