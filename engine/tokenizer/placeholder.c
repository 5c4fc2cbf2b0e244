/* PLACEHOLDER so the tree links while this area is being written: delete this
 * file function by function as the real implementations land. */
#include <stddef.h>
#include "seer/tokenizer.h"
#pragma GCC diagnostic ignored "-Wunused-parameter"
seer_vocab *seer_vocab_load(const gguf_file *f, seer_error *err) { return NULL; }
void seer_vocab_free(seer_vocab *v) {  }
int32_t seer_vocab_size(const seer_vocab *v) { return -1; }
int32_t seer_vocab_bos(const seer_vocab *v) { return -1; }
int32_t seer_vocab_eos(const seer_vocab *v) { return -1; }
bool seer_vocab_add_bos(const seer_vocab *v) { return false; }
bool seer_vocab_add_eos(const seer_vocab *v) { return false; }
bool seer_vocab_is_eog(const seer_vocab *v, int32_t id) { return false; }
int seer_vocab_token_attr(const seer_vocab *v, int32_t id) { return -1; }
const char *seer_vocab_token_text(const seer_vocab *v, int32_t id) { return NULL; }
int32_t seer_vocab_find(const seer_vocab *v, const char *text) { return -1; }
const char *seer_vocab_chat_template(const seer_vocab *v) { return NULL; }
const char *seer_vocab_model_name(const seer_vocab *v) { return NULL; }
const char *seer_vocab_pre_name(const seer_vocab *v) { return NULL; }
int64_t seer_tokenize(const seer_vocab *v, const char *text, size_t len, bool add_special, bool parse_special, int32_t *out, int64_t max_tokens) { return -1; }
int seer_token_to_piece(const seer_vocab *v, int32_t id, bool render_special, char *buf, int cap) { return -1; }
int seer_detok_push(seer_detok *d, const seer_vocab *v, int32_t id, char *out, int cap) { return -1; }
int seer_detok_flush(seer_detok *d, char *out, int cap) { return -1; }
