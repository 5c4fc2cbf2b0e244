/* What the pre-tokenizer matchers share (private to engine/tokenizer):
 * a view of one fragment's code points and the regex pieces several
 * pre-tokenizers are made of. A matcher returns the length of the match at
 * pos, 0 when its regex does not match there. */
#ifndef SEER_TOKENIZER_PRETOK_INTERNAL_H
#define SEER_TOKENIZER_PRETOK_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tokenizer/unicode.h"
#include "tokenizer/vocab_internal.h"

#define WS SEER_UCAT_WHITESPACE
#define LETTER SEER_UCAT_LETTER
#define NUMBER SEER_UCAT_NUMBER
#define PUNCT SEER_UCAT_PUNCT
#define MARK SEER_UCAT_MARK
#define SYMBOL SEER_UCAT_SYMBOL

typedef struct cp_view {
    const uint32_t *cp;
    const uint8_t *fl;  /* category flags per code point */
    size_t begin, end;  /* the fragment: the regex sees nothing outside it */
} cp_view;

typedef size_t (*match_fn)(const cp_view *t, size_t pos);

static inline unsigned flags_at(const cp_view *t, size_t pos) { return pos < t->end ? t->fl[pos] : 0; }
static inline uint32_t cp_at(const cp_view *t, size_t pos) { return pos < t->end ? t->cp[pos] : 0xFFFFFFFFu; }

/* 's|'t|'re|'ve|'m|'ll|'d (optionally ignoring ASCII case). */
size_t match_contraction(const cp_view *t, size_t pos, bool any_case);
/* \p{N}{1,max_digits} */
size_t match_digits(const cp_view *t, size_t pos, size_t max_digits);
/* What an other-run takes after it: nothing, [\r\n]* or [\r\n/]*. */
typedef enum run_tail { TAIL_NONE, TAIL_NEWLINES, TAIL_NEWLINES_SLASH } run_tail;
/* ' ?[^\s STOP]+' then the tail, with STOP the categories in stop. */
size_t match_other_run(const cp_view *t, size_t pos, unsigned stop, run_tail tail);
/* \s*[\r\n]+|\s+(?!\S)|\s+ : up to the last newline of a whitespace run,
 * else the run but its last character when a non-space follows. */
size_t match_space_tail(const cp_view *t, size_t pos);

/* Stages of the pre-tokenizers written as explicit character classes
 * (pretokenize_classes.c): llama.cpp runs these regexes with std::regex,
 * where non-ASCII whitespace is in no class but \s. */
size_t match_newline_char(const cp_view *t, size_t pos);      /* [\r\n] */
size_t match_space_letters(const cp_view *t, size_t pos);     /* \s?\p{L}+ */
size_t match_space_punct(const cp_view *t, size_t pos);       /* \s?\p{P}+ */
size_t match_number_run(const cp_view *t, size_t pos);        /* \p{N}+ */
size_t match_one_number(const cp_view *t, size_t pos);        /* \p{N} */
size_t match_digit_triple(const cp_view *t, size_t pos);      /* \p{N}{1,3} */
size_t match_cjk_deepseek(const cp_view *t, size_t pos);      /* [一-龥ࠀ-一가-퟿]+ */
size_t match_kana_han(const cp_view *t, size_t pos);          /* [一-龥぀-ゟ゠-ヿ]+ */
size_t match_deepseek_letters(const cp_view *t, size_t pos);  /* \s?[A-Za-zµÀ-Ö...𞤀-𞥃]+ */
size_t match_deepseek_punct(const cp_view *t, size_t pos);    /* \s?[!-/:-~！-／：-～‘-‟　-。]+ */
size_t match_trailing_space(const cp_view *t, size_t pos);    /* \s+$ */
size_t match_deepseek_v3(const cp_view *t, size_t pos);       /* DeepSeek-V3's word regex */
size_t match_kimi_k2(const cp_view *t, size_t pos);           /* Kimi K2's regex (Han runs apart) */

#endif
