/* Fuzz target: the GGUF reader (header, metadata, tensor table, validation),
 * then every getter and a read of every tensor's bytes. */
#include <stdint.h>
#include <string.h>

#include "fuzz_input.h"
#include "fuzz_input.c.inc"
#include "seer/gguf.h"
#include "seer/tensor.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    seer_error err;
    gguf_file *f = gguf_open(fuzz_as_file(data, size), &err);
    if (!f) return 0;
    volatile uint64_t sink = 0;
    for (uint64_t i = 0; i < f->n_kv; i++) {
        const gguf_kv *kv = &f->kv[i];
        /* a float only as "non-zero": converting a hostile double to an integer is undefined */
        sink += (uint64_t)gguf_get_int(f, kv->key, 0) + (gguf_get_float(f, kv->key, 0) != 0);
        if (gguf_get_str(f, kv->key)) sink += strlen(gguf_get_str(f, kv->key));
        uint64_t n = gguf_get_arr_n(f, kv->key);
        for (uint64_t j = 0; j < n && j < 64; j++) sink += (uint64_t)gguf_get_arr_int(f, kv->key, j, 0);
        if (kv->type == GGUF_TYPE_ARRAY && kv->arr_type == GGUF_TYPE_STRING)
            for (uint64_t j = 0; j < kv->n && j < 64; j++) sink += strlen(kv->arr_str[j]);
    }
    for (uint64_t i = 0; i < f->n_tensors; i++) {
        const gguf_tensor *t = &f->tensors[i];
        const uint8_t *p = t->data;
        for (uint64_t b = 0; b < t->nbytes; b += 4096) sink += p[b];
        if (t->nbytes) sink += p[t->nbytes - 1];
        /* dequantize the first row: exercises the type tables on hostile shapes */
        const seer_type_info *ti = seer_type_get(t->type);
        if (ti && t->ne[0] > 0 && t->ne[0] <= 4096 && t->nbytes >= seer_row_bytes(t->type, t->ne[0])) {
            float row[4096];
            seer_dequantize_row(t->type, t->data, row, t->ne[0]);
            sink += (uint64_t)(row[0] != row[0]);
        }
    }
    (void)sink;
    gguf_close(f);
    return 0;
}
