/* Pre-tokenizer stages of the DeepSeek, Hunyuan and Kimi vocabularies: regexes
 * made of explicit character classes (CJK blocks, hand-listed letters) that
 * llama.cpp runs with std::regex. It first replaces every non-ASCII
 * whitespace character by a vertical tab, so such a character is \s and in no
 * other class, even where a listed range covers it (U+3000). */
#include "tokenizer/pretok_internal.h"

typedef struct cp_range { uint32_t first, last; } cp_range;
typedef bool (*cp_class)(const cp_view *t, size_t pos);

static bool in_ranges(uint32_t c, const cp_range *r, size_t n) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (c < r[mid].first) hi = mid;
        else if (c > r[mid].last) lo = mid + 1;
        else return true;
    }
    return false;
}

#define IN_LISTED(t, pos, list) \
    ((pos) < (t)->end && !(flags_at(t, pos) & WS) && in_ranges(cp_at(t, pos), list, sizeof list / sizeof list[0]))

/* The letters DeepSeek LLM's regex lists (Latin, Greek, Cyrillic, Armenian,
 * Georgian, Cherokee, Glagolitic, Coptic, Deseret, Osage, ... blocks' cased letters). */
static const cp_range deepseek_letters[] = {
    {0x0041, 0x005A}, {0x0061, 0x007A}, {0x00B5, 0x00B5}, {0x00C0, 0x00D6}, {0x00D8, 0x00F6}, {0x00F8, 0x01BA},
    {0x01BC, 0x01BF}, {0x01C4, 0x0293}, {0x0295, 0x02AF}, {0x0370, 0x0373}, {0x0376, 0x0377}, {0x037B, 0x037D},
    {0x037F, 0x037F}, {0x0386, 0x0386}, {0x0388, 0x038A}, {0x038C, 0x038C}, {0x038E, 0x03A1}, {0x03A3, 0x03F5},
    {0x03F7, 0x0481}, {0x048A, 0x052F}, {0x0531, 0x0556}, {0x10A0, 0x10C5}, {0x13A0, 0x13F5}, {0x13F8, 0x13FD},
    {0x1C90, 0x1CBA}, {0x1CBD, 0x1CBF}, {0x1D00, 0x1D2B}, {0x1D6B, 0x1D77}, {0x1D79, 0x1D9A}, {0x1E00, 0x1F15},
    {0x1F18, 0x1F1D}, {0x1F20, 0x1F45}, {0x1F48, 0x1F4D}, {0x1F50, 0x1F57}, {0x1F59, 0x1F59}, {0x1F5B, 0x1F5B},
    {0x1F5D, 0x1F5D}, {0x1F5F, 0x1F7D}, {0x1F80, 0x1FB4}, {0x1FB6, 0x1FBC}, {0x1FBE, 0x1FBE}, {0x1FC2, 0x1FC4},
    {0x1FC6, 0x1FCC}, {0x1FD0, 0x1FD3}, {0x1FD6, 0x1FDB}, {0x1FE0, 0x1FEC}, {0x1FF2, 0x1FF4}, {0x1FF6, 0x1FFC},
    {0x2102, 0x2102}, {0x2107, 0x2107}, {0x210A, 0x2113}, {0x2115, 0x2115}, {0x2119, 0x211D}, {0x2124, 0x2124},
    {0x2126, 0x2126}, {0x2128, 0x2128}, {0x212A, 0x212D}, {0x212F, 0x2134}, {0x2139, 0x2139}, {0x213C, 0x213F},
    {0x2145, 0x2149}, {0x214E, 0x214E}, {0x2183, 0x2184}, {0x2C00, 0x2C7B}, {0x2C7E, 0x2CE4}, {0x2CEB, 0x2CEE},
    {0x2CF2, 0x2CF3}, {0xA640, 0xA66D}, {0xA680, 0xA69B}, {0xA722, 0xA76F}, {0xA771, 0xA787}, {0xA78B, 0xA78E},
    {0xAB70, 0xABBF}, {0xFB00, 0xFB06}, {0xFB13, 0xFB17}, {0xFF21, 0xFF3A}, {0xFF41, 0xFF5A}, {0x10400, 0x1044F},
    {0x104B0, 0x104D3}, {0x104D8, 0x104FB}, {0x10C80, 0x10CB2}, {0x10CC0, 0x10CF2}, {0x118A0, 0x118DF},
    {0x1E900, 0x1E943},
};
/* !-/ :-~ (ASCII punctuation, symbols and, unused there, letters), ‘-‟, 　-。, ！-／, ：-～ */
static const cp_range deepseek_punct[] = {{0x0021, 0x002F}, {0x003A, 0x007E}, {0x2018, 0x201F},
                                          {0x3000, 0x3002}, {0xFF01, 0xFF0F}, {0xFF1A, 0xFF5E}};
/* 一-龥 and ࠀ-一 (U+0800-U+4E00: Samaritan to CJK, whatever lies between), 가-퟿ (Hangul) */
static const cp_range deepseek_cjk[] = {{0x0800, 0x9FA5}, {0xAC00, 0xD7FF}};
/* ぀-ゟ゠-ヿ (kana), 一-龥 */
static const cp_range kana_han[] = {{0x3040, 0x30FF}, {0x4E00, 0x9FA5}};
/* Kimi K2's \p{Han}: the CJK ideograph blocks (A, unified, compatibility, B-F, supplement). */
static const cp_range han[] = {{0x3400, 0x4DBF},   {0x4E00, 0x9FFF},   {0xF900, 0xFAFF},
                               {0x20000, 0x2A6DF}, {0x2A700, 0x2EBEF}, {0x2F800, 0x2FA1F}};

static bool is_letter(const cp_view *t, size_t pos) { return flags_at(t, pos) & LETTER; }
static bool is_punct(const cp_view *t, size_t pos) { return flags_at(t, pos) & PUNCT; }
static bool is_deepseek_letter(const cp_view *t, size_t pos) { return IN_LISTED(t, pos, deepseek_letters); }
static bool is_deepseek_punct(const cp_view *t, size_t pos) { return IN_LISTED(t, pos, deepseek_punct); }
static bool is_deepseek_cjk(const cp_view *t, size_t pos) { return IN_LISTED(t, pos, deepseek_cjk); }
static bool is_kana_han(const cp_view *t, size_t pos) { return IN_LISTED(t, pos, kana_han); }
static bool is_han(const cp_view *t, size_t pos) { return IN_LISTED(t, pos, han); }

static size_t run_of(const cp_view *t, size_t pos, cp_class in) {
    size_t p = pos;
    while (in(t, p)) p++;
    return p - pos;
}

/* \s?X+ for a class X without whitespace: the space only with an X after it. */
static size_t space_then_run(const cp_view *t, size_t pos, cp_class in) {
    if ((flags_at(t, pos) & WS) && in(t, pos + 1)) return 1 + run_of(t, pos + 1, in);
    return run_of(t, pos, in);
}

size_t match_newline_char(const cp_view *t, size_t pos) { return cp_at(t, pos) == '\r' || cp_at(t, pos) == '\n'; }
size_t match_space_letters(const cp_view *t, size_t pos) { return space_then_run(t, pos, is_letter); }
size_t match_space_punct(const cp_view *t, size_t pos) { return space_then_run(t, pos, is_punct); }
size_t match_deepseek_letters(const cp_view *t, size_t pos) { return space_then_run(t, pos, is_deepseek_letter); }
size_t match_deepseek_punct(const cp_view *t, size_t pos) { return space_then_run(t, pos, is_deepseek_punct); }
size_t match_cjk_deepseek(const cp_view *t, size_t pos) { return run_of(t, pos, is_deepseek_cjk); }
size_t match_kana_han(const cp_view *t, size_t pos) { return run_of(t, pos, is_kana_han); }
size_t match_one_number(const cp_view *t, size_t pos) { return (flags_at(t, pos) & NUMBER) ? 1 : 0; }
size_t match_number_run(const cp_view *t, size_t pos) { return match_digits(t, pos, SIZE_MAX); }
size_t match_digit_triple(const cp_view *t, size_t pos) { return match_digits(t, pos, 3); }

size_t match_trailing_space(const cp_view *t, size_t pos) {
    /* Inside a whitespace run the search already failed at the run's start:
     * skipping it keeps a long run linear. */
    if (pos > t->begin && (flags_at(t, pos - 1) & WS)) return 0;
    size_t p = pos;
    while (flags_at(t, p) & WS) p++;
    return p == t->end ? p - pos : 0;
}

static bool is_ascii_letter(uint32_t c) { return (c | 0x20) >= 'a' && (c | 0x20) <= 'z'; }
static bool is_ascii_punct_or_symbol(uint32_t c) { return c > ' ' && c < 0x7F && !is_ascii_letter(c) && !(c >= '0' && c <= '9'); }

/* [!-/:-@[-`{-~][A-Za-z]+|[^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+| ?[\p{P}\p{S}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+ */
size_t match_deepseek_v3(const cp_view *t, size_t pos) {
    uint32_t c = cp_at(t, pos);
    unsigned f = flags_at(t, pos);
    if (is_ascii_punct_or_symbol(c) && is_ascii_letter(cp_at(t, pos + 1))) {
        size_t p = pos + 1;
        while (is_ascii_letter(cp_at(t, p))) p++;
        return p - pos;
    }
    bool can_prefix = pos < t->end && c != '\r' && c != '\n' && !(f & (LETTER | PUNCT | SYMBOL));
    size_t p = pos;
    if (can_prefix && (flags_at(t, pos + 1) & (LETTER | MARK))) p = pos + 1;
    if (flags_at(t, p) & (LETTER | MARK)) {
        while (flags_at(t, p) & (LETTER | MARK)) p++;
        return p - pos;
    }
    size_t start = pos + (c == ' ');
    if (flags_at(t, start) & (PUNCT | SYMBOL)) {
        p = start;
        while (flags_at(t, p) & (PUNCT | SYMBOL)) p++;
        while (cp_at(t, p) == '\r' || cp_at(t, p) == '\n') p++;
        return p - pos;
    }
    return match_space_tail(t, pos);
}

static bool is_kimi_letter(const cp_view *t, size_t pos) { return (flags_at(t, pos) & LETTER) && !is_han(t, pos); }

/* Han runs, then o200k-like words without Han (any case, optional
 * contraction), \p{N}{1,3}, ' ?[^\s\p{L}\p{N}]+[\r\n]*' and the whitespace rules,
 * as llama.cpp's hand-written Kimi K2 splitter does. */
size_t match_kimi_k2(const cp_view *t, size_t pos) {
    if (is_han(t, pos)) return run_of(t, pos, is_han);
    uint32_t c = cp_at(t, pos);
    unsigned f = flags_at(t, pos);
    bool can_prefix = c != '\r' && c != '\n' && !(f & (LETTER | NUMBER));
    if (is_kimi_letter(t, pos) || (can_prefix && is_kimi_letter(t, pos + 1))) {
        size_t p = pos + 1 + run_of(t, pos + 1, is_kimi_letter);
        return p + match_contraction(t, p, true) - pos;
    }
    if (f & NUMBER) return match_digits(t, pos, 3);
    size_t m = match_other_run(t, pos, LETTER | NUMBER, TAIL_NEWLINES);
    return m ? m : match_space_tail(t, pos);
}
