/* Unicode helpers for the tokenizers (see unicode.h). */
#include "tokenizer/unicode.h"

static int is_white_space(uint32_t cp) {
    /* Unicode White_Space: what \s matches in the regexes tokenizers use. */
    return (cp >= 0x09 && cp <= 0x0D) || cp == 0x20 || cp == 0x85 || cp == 0xA0 || cp == 0x1680 ||
           (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 || cp == 0x202F || cp == 0x205F ||
           cp == 0x3000;
}

unsigned seer_unicode_flags(uint32_t cp) {
    unsigned ws = is_white_space(cp) ? SEER_UCAT_WHITESPACE : 0;
    if (cp < 0x80) {
        if ((cp | 0x20) >= 'a' && (cp | 0x20) <= 'z') return SEER_UCAT_LETTER;
        if (cp >= '0' && cp <= '9') return SEER_UCAT_NUMBER;
    }
    size_t lo = 0, hi = seer_unicode_n_ranges;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        const seer_unicode_range *r = &seer_unicode_ranges[mid];
        if (cp < r->first) hi = mid;
        else if (cp > r->last) lo = mid + 1;
        else return r->flags | ws;
    }
    return ws;
}

int seer_utf8_len(unsigned char lead) {
    static const int len_by_high_nibble[16] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 3, 4};
    return len_by_high_nibble[lead >> 4];
}

uint32_t seer_utf8_decode(const char *text, size_t len, size_t *pos) {
    const unsigned char *s = (const unsigned char *)text + *pos;
    size_t left = len - *pos;
    int n;
    uint32_t cp;
    if (!(s[0] & 0x80)) { *pos += 1; return s[0]; }
    if (!(s[0] & 0x40)) goto bad; /* stray continuation byte */
    if (!(s[0] & 0x20)) { n = 2; cp = s[0] & 0x1F; }
    else if (!(s[0] & 0x10)) { n = 3; cp = s[0] & 0x0F; }
    else if (!(s[0] & 0x08)) { n = 4; cp = s[0] & 0x07; }
    else goto bad;
    if ((size_t)n > left) goto bad;
    for (int i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80) goto bad;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    *pos += (size_t)n;
    return cp;
bad:
    *pos += 1;
    return 0xFFFD;
}

int seer_utf8_encode(uint32_t cp, char *out) {
    unsigned char *o = (unsigned char *)out;
    if (cp < 0x80) { o[0] = (unsigned char)cp; return 1; }
    if (cp < 0x800) { o[0] = (unsigned char)(0xC0 | (cp >> 6)); o[1] = (unsigned char)(0x80 | (cp & 0x3F)); return 2; }
    if (cp < 0x10000) {
        o[0] = (unsigned char)(0xE0 | (cp >> 12));
        o[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (unsigned char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (unsigned char)(0xF0 | ((cp >> 18) & 0x07));
    o[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
    o[3] = (unsigned char)(0x80 | (cp & 0x3F));
    return 4;
}

/* GPT-2 keeps the printable Latin-1 bytes as themselves and moves the rest,
 * in byte order, to U+0100 onwards. */
static int byte_is_printable(unsigned b) {
    return (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255);
}

/* The 68 moved bytes are 0..32, 127..160 and 173, numbered in that order. */
uint32_t seer_byte_to_cp(uint8_t b) {
    if (byte_is_printable(b)) return b;
    if (b <= 32) return 256u + b;
    if (b <= 160) return 256u + 33u + (b - 127u);
    return 256u + 33u + 34u; /* 173, the soft hyphen */
}

int seer_cp_to_byte(uint32_t cp) {
    if (cp < 256) return byte_is_printable(cp) ? (int)cp : -1;
    if (cp < 256 + 33) return (int)(cp - 256);
    if (cp < 256 + 33 + 34) return (int)(cp - 256 - 33 + 127);
    if (cp == 256 + 33 + 34) return 173;
    return -1;
}
