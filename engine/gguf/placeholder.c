/* PLACEHOLDER so the tree links while this area is being written: delete this
 * file function by function as the real implementations land. */
#include <stddef.h>
#include "seer/gguf.h"
#pragma GCC diagnostic ignored "-Wunused-parameter"
gguf_writer *gguf_writer_new(void) { return NULL; }
void gguf_writer_free(gguf_writer *w) {  }
void gguf_writer_set_u32(gguf_writer *w, const char *key, uint32_t v) {  }
void gguf_writer_set_i32(gguf_writer *w, const char *key, int32_t v) {  }
void gguf_writer_set_u64(gguf_writer *w, const char *key, uint64_t v) {  }
void gguf_writer_set_f32(gguf_writer *w, const char *key, float v) {  }
void gguf_writer_set_bool(gguf_writer *w, const char *key, bool v) {  }
void gguf_writer_set_str(gguf_writer *w, const char *key, const char *v) {  }
void gguf_writer_set_arr_str(gguf_writer *w, const char *key, const char *const *v, uint64_t n) {  }
void gguf_writer_set_arr_i32(gguf_writer *w, const char *key, const int32_t *v, uint64_t n) {  }
void gguf_writer_set_arr_f32(gguf_writer *w, const char *key, const float *v, uint64_t n) {  }
void gguf_writer_set_raw(gguf_writer *w, const char *key, gguf_value_type type, gguf_value_type arr_type, const void *data, uint64_t n) {  }
void gguf_writer_add_tensor(gguf_writer *w, const char *name, int type, int n_dims, const int64_t *ne, const void *data) {  }
void gguf_writer_add_tensor_fn(gguf_writer *w, const char *name, int type, int n_dims, const int64_t *ne, gguf_fill_fn fill, void *ctx) {  }
int gguf_writer_write(gguf_writer *w, const char *path, seer_error *err) { return -1; }
