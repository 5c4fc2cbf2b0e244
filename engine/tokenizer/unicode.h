/* Unicode helpers for the tokenizers: lenient UTF-8 decoding (as llama.cpp
 * decodes), category flags for the pre-tokenizer regexes, and GPT-2's
 * byte <-> printable code point map used by byte-level BPE. */
#ifndef SEER_TOKENIZER_UNICODE_H
#define SEER_TOKENIZER_UNICODE_H

#include <stddef.h>
#include <stdint.h>

enum {
    SEER_UCAT_LETTER = 1,      /* \p{L} */
    SEER_UCAT_NUMBER = 2,      /* \p{N} */
    SEER_UCAT_PUNCT = 4,       /* \p{P} */
    SEER_UCAT_WHITESPACE = 8,  /* \s (Unicode White_Space) */
    SEER_UCAT_MARK = 16,       /* \p{M} (combining marks) */
    SEER_UCAT_SYMBOL = 32,     /* \p{S} */
};

typedef struct seer_unicode_range {
    uint32_t first, last;
    uint32_t flags;
} seer_unicode_range;

extern const seer_unicode_range seer_unicode_ranges[];
extern const size_t seer_unicode_n_ranges;

/* Category flags of a code point (0 for anything else, e.g. controls). */
unsigned seer_unicode_flags(uint32_t cp);

/* Length of the UTF-8 sequence a lead byte announces (1 for stray bytes). */
int seer_utf8_len(unsigned char lead);

/* Decodes one code point at text[*pos] (len bytes total) and advances *pos.
 * Like llama.cpp: no overlong/surrogate checks; a malformed sequence yields
 * U+FFFD and consumes one byte. */
uint32_t seer_utf8_decode(const char *text, size_t len, size_t *pos);

/* Encodes cp as UTF-8 into out (4 bytes room); returns the byte count. */
int seer_utf8_encode(uint32_t cp, char *out);

/* GPT-2 byte-level map: byte -> code point, and back (-1 if cp is not one). */
uint32_t seer_byte_to_cp(uint8_t b);
int seer_cp_to_byte(uint32_t cp);

#endif
