/* Terminal-safe text: see include/seer/sanitize.h. */
#include "seer/sanitize.h"

#include <stdlib.h>
#include <string.h>

int seer_utf8_seq_len(const unsigned char *s, size_t len, uint32_t *codepoint) {
    if (len == 0) return 0;
    unsigned char c = s[0];
    int n;
    uint32_t cp, min;
    if (c < 0x80) { if (codepoint) *codepoint = c; return 1; }
    if ((c & 0xE0) == 0xC0) { n = 2; cp = c & 0x1F; min = 0x80; }
    else if ((c & 0xF0) == 0xE0) { n = 3; cp = c & 0x0F; min = 0x800; }
    else if ((c & 0xF8) == 0xF0) { n = 4; cp = c & 0x07; min = 0x10000; }
    else return 0;
    if ((size_t)n > len) return 0;
    for (int i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    if (codepoint) *codepoint = cp;
    return n;
}

/* Characters that reorder or hide text on screen (Trojan-Source style). */
static int is_bidi_control(uint32_t cp) {
    return (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200E || cp == 0x200F ||
           cp == 0x061C;
}

static size_t put_utf8(uint32_t cp, char *out) {
    if (cp < 0x80) { out[0] = (char)cp; return 1; }
    if (cp < 0x800) { out[0] = (char)(0xC0 | (cp >> 6)); out[1] = (char)(0x80 | (cp & 0x3F)); return 2; }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12)); out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F)); return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18)); out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F)); out[3] = (char)(0x80 | (cp & 0x3F)); return 4;
}

size_t seer_text_sanitize(const char *src, size_t len, char *dst, size_t cap, unsigned flags) {
    const unsigned char *s = (const unsigned char *)src;
    size_t i = 0, n = 0;
    while (i < len) {
        uint32_t cp = 0;
        int seq = seer_utf8_seq_len(s + i, len - i, &cp);
        char buf[4];
        size_t blen;
        if (seq == 0) {                       /* invalid byte: one U+FFFD per byte */
            blen = put_utf8(0xFFFD, buf);
            seq = 1;
        } else if (cp == '\n' && (flags & SEER_SANITIZE_KEEP_NEWLINES)) {
            buf[0] = '\n'; blen = 1;
        } else if (cp == '\t' && (flags & SEER_SANITIZE_KEEP_TABS)) {
            buf[0] = '\t'; blen = 1;
        } else if (cp < 0x20) {
            blen = put_utf8(0x2400 + cp, buf); /* Control Pictures block */
        } else if (cp == 0x7F) {
            blen = put_utf8(0x2421, buf);
        } else if ((cp >= 0x80 && cp <= 0x9F) || is_bidi_control(cp)) {
            blen = put_utf8(0xFFFD, buf);
        } else {
            memcpy(buf, s + i, (size_t)seq);
            blen = (size_t)seq;
        }
        if (cap > 0 && n + blen < cap) memcpy(dst + n, buf, blen);
        else if (cap > 0 && n < cap) cap = n + 1; /* stop writing: never split a character */
        n += blen;
        i += (size_t)seq;
    }
    if (cap > 0) dst[n < cap ? n : cap - 1] = '\0';
    return n;
}

char *seer_text_sanitize_dup(const char *src, size_t len, unsigned flags) {
    size_t need = seer_text_sanitize(src, len, NULL, 0, flags);
    char *out = malloc(need + 1);
    if (!out) return NULL;
    seer_text_sanitize(src, len, out, need + 1, flags);
    return out;
}
