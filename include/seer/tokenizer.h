/* Vocabulary and tokenizers (SentencePiece-style and byte-level BPE), read
 * from a GGUF file's tokenizer.* keys. */
#ifndef SEER_TOKENIZER_H
#define SEER_TOKENIZER_H

#include "seer/gguf.h"

typedef struct seer_vocab seer_vocab;

enum seer_token_attr {
    SEER_TOKEN_NORMAL = 1, SEER_TOKEN_UNKNOWN = 2, SEER_TOKEN_CONTROL = 3,
    SEER_TOKEN_USER_DEFINED = 4, SEER_TOKEN_UNUSED = 5, SEER_TOKEN_BYTE = 6,
};

/* Loads tokenizer.ggml.{model,pre,tokens,scores,token_type,merges,*_token_id,
 * add_bos_token,add_eos_token,add_space_prefix} and tokenizer.chat_template. */
seer_vocab *seer_vocab_load(const gguf_file *f, seer_error *err);
void seer_vocab_free(seer_vocab *v);

int32_t seer_vocab_size(const seer_vocab *v);
/* Bytes of the longest token string (at least 1). No token stands for more
 * bytes of text than its string has (byte-level BPE writes a byte as one or
 * two, SentencePiece a space as three), so a text of n bytes is at least
 * n / this many tokens: a bound that needs no tokenizing. */
size_t seer_vocab_longest_token(const seer_vocab *v);
/* Whether a text of `bytes` bytes is more than n tokens by that bound (a
 * text too long for a context is refused without tokenizing it). */
bool seer_vocab_more_tokens_than(const seer_vocab *v, size_t bytes, int64_t n);
int32_t seer_vocab_bos(const seer_vocab *v);   /* -1 if none */
int32_t seer_vocab_eos(const seer_vocab *v);
bool seer_vocab_add_bos(const seer_vocab *v);
bool seer_vocab_add_eos(const seer_vocab *v);
/* End-of-generation: EOS, EOT, <|im_end|>, <end_of_utterance>, … */
bool seer_vocab_is_eog(const seer_vocab *v, int32_t id);
int seer_vocab_token_attr(const seer_vocab *v, int32_t id);
const char *seer_vocab_token_text(const seer_vocab *v, int32_t id); /* raw vocab string */
/* Id of an exact token string (e.g. "<|vision_start|>"), -1 if absent. */
int32_t seer_vocab_find(const seer_vocab *v, const char *text);
const char *seer_vocab_chat_template(const seer_vocab *v); /* NULL if none */
const char *seer_vocab_model_name(const seer_vocab *v);    /* "llama", "gpt2" */
const char *seer_vocab_pre_name(const seer_vocab *v);

/* Tokenizes text (len bytes, need not be NUL-terminated). parse_special:
 * recognise control/user-defined token texts in the input. add_special: add
 * BOS/EOS as the vocabulary asks. Returns the number of tokens (which may
 * exceed max_tokens: call again with a bigger buffer), or -1 on error. */
int64_t seer_tokenize(const seer_vocab *v, const char *text, size_t len, bool add_special, bool parse_special,
                      int32_t *out, int64_t max_tokens);

/* The same in one pass (seer_tokenize called twice, once to count and once
 * to fill, tokenizes twice): a new array (free() it) with `room` unused
 * slots in front of the *n_tokens tokens (for a BOS the caller adds); NULL
 * on error or out of memory. */
int32_t *seer_tokenize_new(const seer_vocab *v, const char *text, size_t len, bool add_special, bool parse_special,
                           size_t room, int64_t *n_tokens);

/* Bytes of one token as it appears in text (byte tokens give their byte,
 * control tokens give "" unless render_special). Returns length written
 * (may exceed cap: nothing is written then). */
int seer_token_to_piece(const seer_vocab *v, int32_t id, bool render_special, char *buf, int cap);

/* Streams detokenized text as valid UTF-8: bytes of a character split over
 * tokens are held back until complete. */
typedef struct seer_detok {
    char pending[8];
    int n_pending;
} seer_detok;
/* Appends the complete UTF-8 text that token id finishes to out (cap bytes);
 * returns bytes written. */
int seer_detok_push(seer_detok *d, const seer_vocab *v, int32_t id, char *out, int cap);
/* Flushes held-back bytes (invalid sequences become U+FFFD). */
int seer_detok_flush(seer_detok *d, char *out, int cap);

#endif
