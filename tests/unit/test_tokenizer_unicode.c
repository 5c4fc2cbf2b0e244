/* The tokenizer's Unicode layer: category flags, lenient UTF-8 decoding as
 * llama.cpp does it, GPT-2's byte map, and the pre-tokenizer regexes on
 * strings whose splits follow by hand from each regex (and agree with
 * Python's `regex`, see tools/unicode/check_pretokenizer.py). */
#include <stdlib.h>
#include <string.h>

#include "testlib.h"
#include "tokenizer/unicode.h"
#include "tokenizer/vocab_internal.h"

static void check_flags(void) {
    CHECK(seer_unicode_flags('a') == SEER_UCAT_LETTER && seer_unicode_flags('Z') == SEER_UCAT_LETTER);
    CHECK(seer_unicode_flags('7') == SEER_UCAT_NUMBER);
    CHECK(seer_unicode_flags(0x00E9) == SEER_UCAT_LETTER);  /* é */
    CHECK(seer_unicode_flags(0x65E5) == SEER_UCAT_LETTER);  /* 日 (Lo) */
    CHECK(seer_unicode_flags(0x0663) == SEER_UCAT_NUMBER);  /* Arabic-Indic three (Nd) */
    CHECK(seer_unicode_flags(0x00BD) == SEER_UCAT_NUMBER);  /* ½ (No) */
    CHECK(seer_unicode_flags(0x2163) == SEER_UCAT_NUMBER);  /* Ⅳ (Nl) */
    CHECK(seer_unicode_flags('!') == SEER_UCAT_PUNCT && seer_unicode_flags(0x3002) == SEER_UCAT_PUNCT); /* 。 */
    CHECK(seer_unicode_flags('$') == SEER_UCAT_SYMBOL && seer_unicode_flags(0x20AC) == SEER_UCAT_SYMBOL); /* symbols */
    CHECK(seer_unicode_flags(0x0301) == SEER_UCAT_MARK && seer_unicode_flags(0x0903) == SEER_UCAT_MARK);   /* Mn, Mc */
    /* Unicode 15.0 and 15.1, as llama.cpp's tables have them: CJK Extension H
     * and I (Lo), Kannada U+0CF3 (Mc), Kawi digit zero (Nd), an ideographic
     * description character (So, 15.1); 16.0's Todhri U+105C0 is not yet assigned. */
    CHECK(seer_unicode_flags(0x31350) == SEER_UCAT_LETTER && seer_unicode_flags(0x2EBF0) == SEER_UCAT_LETTER);
    CHECK(seer_unicode_flags(0x0CF3) == SEER_UCAT_MARK && seer_unicode_flags(0x11F50) == SEER_UCAT_NUMBER);
    CHECK(seer_unicode_flags(0x2FFC) == SEER_UCAT_SYMBOL && seer_unicode_flags(0x105C0) == 0);
    CHECK(seer_unicode_flags(0x0007) == 0 && seer_unicode_flags(0x200D) == 0);                            /* Cc, Cf */
    const uint32_t spaces[] = {' ', '\t', '\n', 0x0B, 0x0C, '\r', 0x85, 0xA0, 0x1680, 0x2000, 0x200A, 0x2028, 0x2029,
                               0x202F, 0x205F, 0x3000};
    for (size_t i = 0; i < sizeof spaces / sizeof spaces[0]; i++)
        CHECK_MSG(seer_unicode_flags(spaces[i]) & SEER_UCAT_WHITESPACE, "U+%04X is White_Space", spaces[i]);
    /* Not White_Space although some libraries call them spaces. */
    CHECK(!(seer_unicode_flags(0x1C) & SEER_UCAT_WHITESPACE) && !(seer_unicode_flags(0x200B) & SEER_UCAT_WHITESPACE));
    CHECK(seer_unicode_flags(0x10FFFF) == 0 && seer_unicode_flags(0x110000) == 0);
}

static void check_utf8(void) {
    const char *s = "a\xc3\xa9\xe6\x97\xa5\xf0\x9f\x99\x82";
    size_t pos = 0, n = strlen(s);
    CHECK(seer_utf8_decode(s, n, &pos) == 'a' && pos == 1);
    CHECK(seer_utf8_decode(s, n, &pos) == 0xE9 && pos == 3);
    CHECK(seer_utf8_decode(s, n, &pos) == 0x65E5 && pos == 6);
    CHECK(seer_utf8_decode(s, n, &pos) == 0x1F642 && pos == 10);
    /* Malformed: one byte consumed, U+FFFD returned. */
    const char *bad = "\x80\xc3(\xff\xe6\x97";
    pos = 0;
    for (int i = 0; i < 4; i++) {
        size_t before = pos;
        uint32_t cp = seer_utf8_decode(bad, 6, &pos);
        CHECK(pos == before + 1 && (cp == 0xFFFD || cp == '('));
    }
    CHECK(seer_utf8_decode(bad, 6, &pos) == 0xFFFD && pos == 5); /* truncated 3-byte sequence */
    CHECK(seer_utf8_len(0x41) == 1 && seer_utf8_len(0xC3) == 2 && seer_utf8_len(0xE6) == 3 && seer_utf8_len(0xF0) == 4);
    CHECK(seer_utf8_len(0x80) == 1);
    char out[4];
    CHECK(seer_utf8_encode(0x1F642, out) == 4 && memcmp(out, "\xf0\x9f\x99\x82", 4) == 0);
    CHECK(seer_utf8_encode(0x120, out) == 2 && memcmp(out, "\xc4\xa0", 2) == 0);
}

/* GPT-2 keeps bytes 33-126, 161-172, 174-255 and moves the other 68, in byte
 * order, to U+0100 onwards (so ' ' is U+0120 "Ġ" and '\n' is U+010A "Ċ"). */
static void check_byte_map(void) {
    CHECK(seer_byte_to_cp('A') == 'A' && seer_byte_to_cp(0xE9) == 0xE9);
    CHECK(seer_byte_to_cp(0) == 0x100 && seer_byte_to_cp(' ') == 0x120 && seer_byte_to_cp('\n') == 0x10A);
    CHECK(seer_byte_to_cp(0x7F) == 0x121 && seer_byte_to_cp(0xA0) == 0x142 && seer_byte_to_cp(0xAD) == 0x143);
    bool seen[0x144] = {0};
    for (int b = 0; b < 256; b++) {
        uint32_t cp = seer_byte_to_cp((uint8_t)b);
        CHECK_MSG(cp < 0x144 && !seen[cp] && seer_cp_to_byte(cp) == b, "byte %d", b);
        if (cp < 0x144) seen[cp] = true;
    }
    CHECK(seer_cp_to_byte(0x144) == -1 && seer_cp_to_byte(' ') == -1 && seer_cp_to_byte(0xAD) == -1);
}

static void expect_words(pretok_kind kind, const char *text, const char *const *want, int n_want) {
    uint32_t cps[256];
    size_t n = 0, len = strlen(text);
    for (size_t pos = 0; pos < len;) cps[n++] = seer_utf8_decode(text, len, &pos);
    size_t *bounds = NULL;
    int64_t n_words = pretokenize(kind, cps, n, &bounds);
    bool ok = n_words == n_want;
    for (int k = 0; ok && k < n_want; k++) {
        /* the expected words are ASCII, so code point offsets are byte offsets */
        size_t a = bounds[k], b = bounds[k + 1];
        ok = b - a == strlen(want[k]) && memcmp(text + a, want[k], b - a) == 0;
    }
    CHECK_MSG(ok, "pre-tokenizer %d split '%s' into %lld words, not as expected", (int)kind, text, (long long)n_words);
    free(bounds);
}
#define WORDS(kind, text, ...)                                                                                  \
    do {                                                                                                        \
        const char *const w_[] = {__VA_ARGS__};                                                                 \
        expect_words(kind, text, w_, (int)(sizeof w_ / sizeof w_[0]));                                          \
    } while (0)

static void check_pretokenizers(void) {
    /* GPT-2: case-sensitive contractions, " ?\p{L}+", the last space of a run
     * goes to the next word, a lone newline before a letter stands alone. */
    WORDS(PRETOK_GPT2, "Hello world's  12 !!\n\nx", "Hello", " world", "'s", " ", " 12", " !!", "\n", "\n", "x");
    WORDS(PRETOK_GPT2, "it'S", "it", "'", "S");
    /* Llama-3: digits in threes, punctuation takes trailing newlines, any-case contractions. */
    WORDS(PRETOK_LLAMA3, "Hello world's  12345 !!\n\nx", "Hello", " world", "'s", " ", " ", "123", "45", " !!\n\n", "x");
    WORDS(PRETOK_LLAMA3, "it'S", "it", "'S");
    WORDS(PRETOK_LLAMA3, "a \n\n b", "a", " \n\n", " b");
    /* Qwen2: the same with single digits. */
    WORDS(PRETOK_QWEN2, "Hello world's  12345 !!\n\nx", "Hello", " world", "'s", " ", " ", "1", "2", "3", "4", "5",
          " !!\n\n", "x");
    /* StarCoder / SmolLM: every digit split off first, then GPT-2's regex. */
    WORDS(PRETOK_STARCODER, "a1b 22", "a", "1", "b", " ", "2", "2");
    /* Default: punctuation runs, GPT-2, digit runs, then groups of three digits. */
    WORDS(PRETOK_DEFAULT, "x<=y+1234", "x", "<=", "y", "+", "123", "4");
    /* Tekken: words break where lower case turns upper; single digits; '/' joins punctuation. */
    WORDS(PRETOK_TEKKEN, "HelloWORLDfoo 123/", "Hello", "WORLDfoo", " ", "1", "2", "3", "/");
    /* o200k: the same words keep a following contraction; numbers in threes. */
    WORDS(PRETOK_GPT4O, "I'm HAPPYnow 12345", "I'm", " HAPPYnow", " ", "123", "45");
    size_t *bounds = NULL;
    CHECK(pretokenize(PRETOK_GPT2, NULL, 0, &bounds) == 0);
    free(bounds);
}

int main(void) {
    check_flags();
    check_utf8();
    check_byte_map();
    check_pretokenizers();
    TEST_MAIN_END();
}
