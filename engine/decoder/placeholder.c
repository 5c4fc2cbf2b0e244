/* PLACEHOLDER so the tree links while this area is being written: delete this
 * file function by function as the real implementations land. */
#include <stddef.h>
#include "seer/llm.h"
#pragma GCC diagnostic ignored "-Wunused-parameter"
seer_llm *seer_llm_load(const char *path, seer_progress_fn progress, void *ud, seer_error *err) { return NULL; }
void seer_llm_free(seer_llm *m) {  }
const seer_llm_info *seer_llm_get_info(const seer_llm *m) { return NULL; }
const seer_vocab *seer_llm_vocab(const seer_llm *m) { return NULL; }
const gguf_file *seer_llm_gguf(const seer_llm *m) { return NULL; }
seer_ctx *seer_ctx_new(const seer_llm *m, int n_ctx, seer_pool *pool, seer_error *err) { return NULL; }
void seer_ctx_free(seer_ctx *c) {  }
int seer_ctx_size(const seer_ctx *c) { return -1; }
int seer_ctx_used(const seer_ctx *c) { return -1; }
int32_t seer_ctx_next_pos(const seer_ctx *c) { return -1; }
void seer_ctx_truncate(seer_ctx *c, int n_keep, int32_t next_pos) {  }
int seer_ctx_decode(seer_ctx *c, const seer_batch *b, const volatile int *cancel, seer_error *err) { return -1; }
const float *seer_ctx_logits(const seer_ctx *c, int i) { return NULL; }
