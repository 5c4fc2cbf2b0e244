/* `seer quantize`: a GGUF model or mmproj rewritten with quantized weights,
 * per-tensor types chosen as llama.cpp's llama-quantize chooses them and,
 * without an importance matrix, the same bytes. */
#ifndef SEER_QUANTIZE_H
#define SEER_QUANTIZE_H

#include "seer/common.h"

/* Called after each tensor: i of n done, bytes of tensor data written. */
typedef void (*seer_quantize_progress_fn)(void *ctx, int i, int n, const char *name, int type, uint64_t written);

typedef struct seer_quantize_opts {
    bool force;                        /* overwrite an existing output */
    seer_quantize_progress_fn progress; /* may be NULL */
    void *progress_ctx;
    const volatile int *cancel; /* may be NULL; non-zero stops the write, nothing left behind */
} seer_quantize_opts;

/* Writes `out` (through a temporary file renamed at the end) from `in` with
 * file type `type` ("Q4_K_M", see seer_quantize_type_names). Refuses an
 * existing output without force, an unknown type, and an input whose
 * weights are already quantized below the type. 0 or -1 with err set. */
int seer_quantize_file(const char *in, const char *out, const char *type, const seer_quantize_opts *opts,
                       seer_error *err);
const char *seer_quantize_type_names(void);

/* n floats (a multiple of the type's block size) to `type` as llama-quantize
 * writes them (no importance matrix); false for a type it cannot write. */
bool seer_quantize_weights(int type, const float *src, void *dst, int64_t n);

#endif
