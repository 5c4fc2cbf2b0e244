/* Pre-tokenizers of byte-level BPE vocabularies: the regexes llama.cpp
 * selects by tokenizer.ggml.pre, written as hand-made matchers with the
 * semantics of a backtracking regex engine (alternatives tried in order,
 * greedy quantifiers). Each stage splits every fragment of the previous stage
 * into matches and the gaps between them. */
#include <stdlib.h>

#include "tokenizer/pretok_internal.h"

static uint32_t ascii_lower(uint32_t c) { return (c >= 'A' && c <= 'Z') ? c + 32 : c; }

size_t match_contraction(const cp_view *t, size_t pos, bool any_case) {
    if (cp_at(t, pos) != '\'' || pos + 1 >= t->end) return 0;
    uint32_t a = cp_at(t, pos + 1), b = cp_at(t, pos + 2);
    if (any_case) { a = ascii_lower(a); b = ascii_lower(b); }
    if (a == 's' || a == 't' || a == 'm' || a == 'd') return 2;
    if (pos + 2 < t->end && ((a == 'r' && b == 'e') || (a == 'v' && b == 'e') || (a == 'l' && b == 'l'))) return 3;
    return 0;
}

/* \s+(?!\S)|\s+ : a whitespace run, leaving its last character to the next
 * word when a non-space follows. */
static size_t match_space_run(const cp_view *t, size_t pos) {
    size_t n = 0;
    while (flags_at(t, pos + n) & WS) n++;
    if (n > 1 && pos + n < t->end) return n - 1;
    return n;
}

size_t match_digits(const cp_view *t, size_t pos, size_t max_digits) {
    size_t p = pos;
    while (p - pos < max_digits && (flags_at(t, p) & NUMBER)) p++;
    return p - pos;
}

size_t match_other_run(const cp_view *t, size_t pos, unsigned stop, run_tail tail) {
    size_t start = pos + (cp_at(t, pos) == ' ');
    if (start >= t->end || (flags_at(t, start) & (WS | stop))) return 0;
    size_t p = start;
    while (p < t->end && !(flags_at(t, p) & (WS | stop))) p++;
    while (tail != TAIL_NONE &&
           (cp_at(t, p) == '\r' || cp_at(t, p) == '\n' || (tail == TAIL_NEWLINES_SLASH && cp_at(t, p) == '/')))
        p++;
    return p - pos;
}

size_t match_space_tail(const cp_view *t, size_t pos) {
    size_t n = 0, last_newline_end = 0;
    while (flags_at(t, pos + n) & WS) {
        uint32_t w = cp_at(t, pos + n);
        n++;
        if (w == '\r' || w == '\n') last_newline_end = n;
    }
    if (last_newline_end) return last_newline_end;
    if (n > 1 && pos + n < t->end) return n - 1;
    return n;
}

/* 's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)
 * (plus a lone whitespace character, which the regex leaves as a gap). */
static size_t match_gpt2(const cp_view *t, size_t pos) {
    size_t m = match_contraction(t, pos, false);
    if (m) return m;
    size_t start = pos + (cp_at(t, pos) == ' ');
    if (start >= t->end) return match_space_run(t, pos);
    unsigned f = flags_at(t, start);
    size_t p = start;
    if (f & LETTER) { while (flags_at(t, p) & LETTER) p++; return p - pos; }
    if (f & NUMBER) { while (flags_at(t, p) & NUMBER) p++; return p - pos; }
    if (!(f & (WS | LETTER | NUMBER))) {
        while (p < t->end && !(flags_at(t, p) & (WS | LETTER | NUMBER))) p++;
        return p - pos;
    }
    return match_space_run(t, pos);
}

/* The Llama-3 family of regexes:
 *   (?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?W+|\p{N}{1,D}
 *   | ?[^\s W \p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
 * and its variants, told apart by these fields. */
typedef struct word_regex {
    bool contractions;  /* the leading contraction alternatives */
    unsigned word;      /* W: \p{L}, or [\p{L}\p{M}] for Qwen3.5 */
    size_t max_digits;  /* D */
    run_tail tail;      /* [\r\n]* after other-runs, or nothing (Seed-Coder) */
} word_regex;

static size_t match_word_regex(const cp_view *t, size_t pos, const word_regex *r) {
    size_t m = r->contractions ? match_contraction(t, pos, true) : 0;
    if (m) return m;
    uint32_t c = cp_at(t, pos);
    unsigned f = flags_at(t, pos);
    if (c != '\r' && c != '\n' && !(f & NUMBER) && ((f & r->word) || (flags_at(t, pos + 1) & r->word))) {
        size_t p = pos + 1;
        while (flags_at(t, p) & r->word) p++;
        return p - pos;
    }
    if (f & NUMBER) return match_digits(t, pos, r->max_digits);
    m = match_other_run(t, pos, r->word | NUMBER, r->tail);
    return m ? m : match_space_tail(t, pos);
}

/* Letters as llama.cpp's adapted o200k/Tekken regexes see them:
 * "upper" = a letter that is not a-z, "lower" = a letter that is not A-Z
 * (letters outside ASCII are both). */
static bool is_upperish(const cp_view *t, size_t p) {
    uint32_t c = cp_at(t, p);
    return (flags_at(t, p) & LETTER) && !(c >= 'a' && c <= 'z');
}
static bool is_lowerish(const cp_view *t, size_t p) {
    uint32_t c = cp_at(t, p);
    return (flags_at(t, p) & LETTER) && !(c >= 'A' && c <= 'Z');
}

/* [^\r\n\p{L}\p{N}]? U* L+  (upper_plus: U+ L*), then the optional
 * contraction of o200k, with a backtracking regex engine's result. */
static size_t match_cased_word(const cp_view *t, size_t pos, bool upper_plus, bool contraction) {
    uint32_t c = cp_at(t, pos);
    bool can_prefix = pos < t->end && c != '\r' && c != '\n' && !(flags_at(t, pos) & (LETTER | NUMBER));
    for (int with_prefix = can_prefix ? 1 : 0; with_prefix >= 0; with_prefix--) {
        size_t s = pos + (size_t)with_prefix, u_end = s;
        while (is_upperish(t, u_end)) u_end++;
        size_t u_min = upper_plus ? s + 1 : s;
        for (size_t j = u_end + 1; j-- > u_min;) {
            size_t k = j;
            while (is_lowerish(t, k)) k++;
            if (!upper_plus && k == j) continue; /* L+ needs one letter */
            if (contraction) k += match_contraction(t, k, true);
            return k - pos;
        }
    }
    return 0;
}

/* Tekken: ...?U*L+ | ...?U+L* | \p{N} | ' ?[^\s\p{L}\p{N}]+[\r\n/]*' | \s*[\r\n]+ | \s+(?!\S) | \s+
 * o200k:  the same words followed by an optional contraction, \p{N}{1,3}. */
static size_t match_cased_regex(const cp_view *t, size_t pos, bool o200k) {
    size_t m = match_cased_word(t, pos, false, o200k);
    if (!m) m = match_cased_word(t, pos, true, o200k);
    if (m) return m;
    if (flags_at(t, pos) & NUMBER) return match_digits(t, pos, o200k ? 3 : 1);
    m = match_other_run(t, pos, LETTER | NUMBER, TAIL_NEWLINES_SLASH);
    return m ? m : match_space_tail(t, pos);
}

static size_t match_tekken(const cp_view *t, size_t pos) { return match_cased_regex(t, pos, false); }
static size_t match_gpt4o(const cp_view *t, size_t pos) { return match_cased_regex(t, pos, true); }

#define WORD_REGEX_MATCHER(name, contractions, word, max_digits, tail)                                             \
    static size_t name(const cp_view *t, size_t pos) {                                                         \
        static const word_regex r = {contractions, word, max_digits, tail};                                    \
        return match_word_regex(t, pos, &r);                                                                   \
    }
WORD_REGEX_MATCHER(match_llama3, true, LETTER, 3, TAIL_NEWLINES)
WORD_REGEX_MATCHER(match_qwen2, true, LETTER, 1, TAIL_NEWLINES)
WORD_REGEX_MATCHER(match_qwen35, true, LETTER | MARK, 1, TAIL_NEWLINES)
WORD_REGEX_MATCHER(match_ufakzeka, false, LETTER, 1, TAIL_NEWLINES)     /* Turkish: no English contractions */
WORD_REGEX_MATCHER(match_seed_coder, true, LETTER, 1, TAIL_NONE)        /* other-runs without newlines */
WORD_REGEX_MATCHER(match_minicpm5, true, LETTER, SIZE_MAX, TAIL_NEWLINES) /* after digits went in threes */

/* [0-9][0-9][0-9] */
static size_t match_three_digits(const cp_view *t, size_t pos) {
    for (size_t i = 0; i < 3; i++) {
        uint32_t c = cp_at(t, pos + i);
        if (c < '0' || c > '9') return 0;
    }
    return 3;
}

/* [\p{P}\$\+<=>\^~\|]+ (with_backtick: also `, as Falcon's regex has it). */
static size_t punct_run(const cp_view *t, size_t pos, bool with_backtick) {
    size_t p = pos;
    for (;; p++) {
        uint32_t c = cp_at(t, p);
        bool in = (flags_at(t, p) & PUNCT) || c == '$' || c == '+' || c == '<' || c == '=' || c == '>' ||
                  c == '^' || c == '~' || c == '|' || (with_backtick && c == '`');
        if (!in) break;
    }
    return p - pos;
}

static size_t match_punct_run(const cp_view *t, size_t pos) { return punct_run(t, pos, false); }
static size_t match_falcon_punct_run(const cp_view *t, size_t pos) { return punct_run(t, pos, true); }

typedef struct bounds_list { size_t *b; size_t n, cap; } bounds_list;

static int bounds_push(bounds_list *l, size_t v) {
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        size_t *nb = realloc(l->b, cap * sizeof *nb);
        if (!nb) return -1;
        l->b = nb;
        l->cap = cap;
    }
    l->b[l->n++] = v;
    return 0;
}

/* Splits every fragment of in (boundaries, first 0, last n) with one regex. */
static int split_stage(const uint32_t *cps, const uint8_t *fl, const bounds_list *in, match_fn match,
                       bounds_list *out) {
    out->n = 0;
    if (bounds_push(out, 0) != 0) return -1;
    for (size_t k = 0; k + 1 < in->n; k++) {
        cp_view t = {cps, fl, in->b[k], in->b[k + 1]};
        size_t pos = in->b[k], gap_start = pos;
        while (pos < t.end) {
            size_t m = match(&t, pos);
            if (m == 0) { pos++; continue; }
            if (gap_start < pos && bounds_push(out, pos) != 0) return -1;
            pos += m;
            if (bounds_push(out, pos) != 0) return -1;
            gap_start = pos;
        }
        if (gap_start < t.end && bounds_push(out, t.end) != 0) return -1;
    }
    return 0;
}

/* [^\n]+|[\n]+ : lines and newline runs apart (Gemma 4 splits only there). */
static size_t match_line_or_newlines(const cp_view *t, size_t pos) {
    bool newline = cp_at(t, pos) == '\n';
    size_t p = pos;
    while (p < t->end && (cp_at(t, p) == '\n') == newline) p++;
    return p - pos;
}

int64_t pretokenize(pretok_kind kind, const uint32_t *cps, size_t n, size_t **bounds) {
    static const match_fn default_stages[] = {match_punct_run, match_gpt2, match_number_run, match_three_digits, NULL};
    static const match_fn gpt2_stages[] = {match_gpt2, NULL};
    static const match_fn llama3_stages[] = {match_llama3, NULL};
    static const match_fn qwen2_stages[] = {match_qwen2, NULL};
    static const match_fn starcoder_stages[] = {match_one_number, match_gpt2, NULL};
    static const match_fn tekken_stages[] = {match_tekken, NULL};
    static const match_fn gpt4o_stages[] = {match_gpt4o, NULL};
    static const match_fn qwen35_stages[] = {match_qwen35, NULL};
    static const match_fn falcon_stages[] = {match_falcon_punct_run, match_gpt2, match_three_digits, NULL};
    static const match_fn deepseek_llm_stages[] = {match_newline_char,   match_deepseek_letters, match_deepseek_punct,
                                                   match_trailing_space, match_cjk_deepseek,     match_number_run,
                                                   NULL};
    static const match_fn deepseek_coder_stages[] = {match_newline_char, match_space_letters, match_space_punct,
                                                     match_cjk_deepseek, match_one_number,    NULL};
    static const match_fn deepseek_v3_stages[] = {match_digit_triple, match_kana_han, match_deepseek_v3, NULL};
    static const match_fn kimi_k2_stages[] = {match_kimi_k2, NULL};
    static const match_fn gemma4_stages[] = {match_line_or_newlines, NULL};
    static const match_fn ufakzeka_stages[] = {match_ufakzeka, NULL};
    static const match_fn seed_coder_stages[] = {match_seed_coder, NULL};
    static const match_fn minicpm5_stages[] = {match_digit_triple, match_minicpm5, NULL};
    static const match_fn laguna_stages[] = {match_line_or_newlines, match_qwen2, NULL};
    const match_fn *stages = default_stages;
    switch (kind) {
    case PRETOK_DEFAULT: stages = default_stages; break;
    case PRETOK_GPT2: stages = gpt2_stages; break;
    case PRETOK_LLAMA3: stages = llama3_stages; break;
    case PRETOK_QWEN2: stages = qwen2_stages; break;
    case PRETOK_STARCODER: stages = starcoder_stages; break;
    case PRETOK_TEKKEN: stages = tekken_stages; break;
    case PRETOK_GPT4O: stages = gpt4o_stages; break;
    case PRETOK_QWEN35: stages = qwen35_stages; break;
    case PRETOK_FALCON: stages = falcon_stages; break;
    case PRETOK_DEEPSEEK_LLM: stages = deepseek_llm_stages; break;
    case PRETOK_DEEPSEEK_CODER: stages = deepseek_coder_stages; break;
    case PRETOK_DEEPSEEK_V3: stages = deepseek_v3_stages; break;
    case PRETOK_KIMI_K2: stages = kimi_k2_stages; break;
    case PRETOK_GEMMA4: stages = gemma4_stages; break;
    case PRETOK_UFAKZEKA: stages = ufakzeka_stages; break;
    case PRETOK_SEED_CODER: stages = seed_coder_stages; break;
    case PRETOK_MINICPM5: stages = minicpm5_stages; break;
    case PRETOK_LAGUNA: stages = laguna_stages; break;
    }
    *bounds = NULL;
    uint8_t *fl = malloc(n + 1);
    bounds_list a = {0}, b = {0};
    if (!fl) return -1;
    for (size_t i = 0; i < n; i++) fl[i] = (uint8_t)seer_unicode_flags(cps[i]);
    int rc = bounds_push(&a, 0);
    if (rc == 0 && n > 0) rc = bounds_push(&a, n);
    for (int s = 0; rc == 0 && stages[s]; s++) {
        rc = split_stage(cps, fl, &a, stages[s], &b);
        bounds_list tmp = a; a = b; b = tmp;
    }
    free(fl);
    free(b.b);
    if (rc != 0) { free(a.b); return -1; }
    *bounds = a.b;
    return (int64_t)a.n - 1;
}
