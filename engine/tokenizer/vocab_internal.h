/* The vocabulary as the tokenizers see it (private to engine/tokenizer). */
#ifndef SEER_TOKENIZER_VOCAB_INTERNAL_H
#define SEER_TOKENIZER_VOCAB_INTERNAL_H

#include "seer/tokenizer.h"

/* Token attributes as bit flags (several can hold at once, e.g. CONTROL|RSTRIP). */
enum {
    TOK_ATTR_UNKNOWN = 1 << 0,
    TOK_ATTR_UNUSED = 1 << 1,
    TOK_ATTR_NORMAL = 1 << 2,
    TOK_ATTR_CONTROL = 1 << 3,
    TOK_ATTR_USER_DEFINED = 1 << 4,
    TOK_ATTR_BYTE = 1 << 5,
    TOK_ATTR_LSTRIP = 1 << 7,
    TOK_ATTR_RSTRIP = 1 << 8,
};

typedef enum vocab_kind { VOCAB_SPM, VOCAB_BPE } vocab_kind;

/* Pre-tokenizer regex families (named after llama.cpp's pre-tokenizer types). */
typedef enum pretok_kind {
    PRETOK_DEFAULT,    /* "default" / missing: punctuation runs, GPT-2 regex, digit runs, 3-digit groups */
    PRETOK_GPT2,       /* GPT-2's regex */
    PRETOK_LLAMA3,     /* Llama-3 regex: case-insensitive contractions, numbers in groups of 3 */
    PRETOK_QWEN2,      /* Llama-3 regex with single digits */
    PRETOK_STARCODER,  /* single digits, then GPT-2's regex */
    PRETOK_TEKKEN,     /* Mistral Tekken: words split at case changes, single digits */
    PRETOK_GPT4O,      /* o200k (GPT-4o, Llama 4): like Tekken plus contractions, numbers in threes */
    PRETOK_QWEN35,     /* Qwen2's regex with combining marks counted as letters */
    PRETOK_FALCON,     /* punctuation runs (with `), GPT-2's regex, 3-digit groups */
    PRETOK_DEEPSEEK_LLM,   /* DeepSeek LLM: newlines, Latin/Greek/Cyrillic... words, ASCII/full-width punctuation, CJK runs, digit runs */
    PRETOK_DEEPSEEK_CODER, /* DeepSeek Coder: newlines, words, punctuation, CJK runs, single digits */
    PRETOK_DEEPSEEK_V3,    /* DeepSeek-V3 / Hunyuan dense: digits in threes, kana/Han runs, words with marks */
    PRETOK_KIMI_K2,        /* Kimi K2: Han runs apart from o200k-like words, digits in threes */
    PRETOK_GEMMA4,         /* Gemma 4 (raw UTF-8 BPE): split only between lines and newline runs */
    PRETOK_UFAKZEKA,       /* Qwen2's regex without the contractions */
    PRETOK_SEED_CODER,     /* Qwen2's regex, punctuation runs without the newlines after them */
    PRETOK_MINICPM5,       /* digits in threes, then Llama-3's regex with digit runs */
    PRETOK_LAGUNA,         /* lines and newline runs apart, then Qwen2's regex */
} pretok_kind;

/* Open-addressing hash: strings (with length) -> int32 value. */
typedef struct str_map {
    uint32_t *slots;   /* entry index + 1, 0 = empty */
    uint32_t mask;
    const char **keys;
    uint32_t *key_lens;
    int32_t *values;
    uint32_t n, cap;
} str_map;

struct seer_vocab {
    vocab_kind kind;
    pretok_kind pre;
    /* BPE over raw UTF-8 with spaces as U+2581 and <0xXX> byte tokens (Gemma 4),
     * instead of GPT-2's byte-to-code-point encoding. */
    bool raw_utf8;
    const char *model;  /* tokenizer.ggml.model: "llama", "gpt2" or "gemma4" */
    int32_t n_tokens;
    char **text;        /* token strings (NUL-terminated), pointing into text_arena */
    char *text_arena;
    uint32_t *text_len;
    size_t longest;     /* the longest token string's bytes */
    float *score;
    uint32_t *attr;     /* TOK_ATTR_* */
    str_map token_ids;  /* text -> id (last id wins for duplicates) */
    str_map merge_ranks;/* "left\0right" -> rank (first rank wins) */
    char *merge_keys;   /* storage of the merge keys */

    int32_t bos, eos, eot, eom, unk, pad;
    bool add_bos, add_eos, add_space_prefix, ignore_merges;
    int32_t *eog; int n_eog;
    int32_t *specials; int n_specials; /* CONTROL|USER_DEFINED|UNKNOWN, longest text first */
    int32_t byte_token[256];           /* token of each raw byte, -1 if none */

    char *chat_template, *model_name, *pre_name;
};

int32_t str_map_get(const str_map *m, const char *key, size_t len);

/* Splits text into pre-tokenizer words (offsets into cps), for byte-level BPE.
 * cps: n code points. Writes word boundaries to *bounds (malloc'd, n_words+1
 * entries) and returns the number of words, or -1 on allocation failure. */
int64_t pretokenize(pretok_kind kind, const uint32_t *cps, size_t n, size_t **bounds);

/* Appends the tokens of one raw text piece. Return 0, or -1 on allocation failure.
 * out grows as needed (*out, *n, *cap). */
typedef struct token_buf { int32_t *ids; size_t n, cap; } token_buf;
int token_buf_push(token_buf *b, int32_t id);
int spm_tokenize(const seer_vocab *v, const char *text, size_t len, token_buf *out);
int bpe_tokenize(const seer_vocab *v, const char *text, size_t len, token_buf *out);

#endif
