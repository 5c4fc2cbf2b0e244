/* The terminal sanitiser: hostile strings in, harmless visible text out. */
#include <math.h>
#include <stdlib.h>

#include "seer/sanitize.h"
#include "testlib.h"

static void expect(const char *in, size_t len, unsigned flags, const char *want) {
    char out[256];
    size_t n = seer_text_sanitize(in, len, out, sizeof out, flags);
    CHECK_MSG(strcmp(out, want) == 0 && n == strlen(want), "sanitize(%zu bytes) = '%s', want '%s'", len, out, want);
}

/* No byte of the output may be a C0/C1 control or ESC (except kept \n, \t). */
static void check_no_controls(const char *s, unsigned flags) {
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '\n' && (flags & SEER_SANITIZE_KEEP_NEWLINES)) continue;
        if (*p == '\t' && (flags & SEER_SANITIZE_KEEP_TABS)) continue;
        CHECK_MSG(*p >= 0x20 && *p != 0x7F, "control byte 0x%02x survived", *p);
    }
    /* C1 as UTF-8 would be C2 80..C2 9F */
    for (const unsigned char *p = (const unsigned char *)s; p[0] && p[1]; p++)
        CHECK_MSG(!(p[0] == 0xC2 && p[1] >= 0x80 && p[1] <= 0x9F), "C1 control survived");
}

int main(void) {
    expect("hello, world", 12, 0, "hello, world");
    expect("caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80", 17, 0, "caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80");
    /* ESC [ 2 J (clear screen) becomes a visible ␛ followed by harmless text */
    expect("\x1b[2Jx", 5, 0, "\xe2\x90\x9b[2Jx");
    /* OSC 52 clipboard write and a title change */
    expect("\x1b]52;c;aGk=\x07", 12, 0, "\xe2\x90\x9b]52;c;aGk=\xe2\x90\x87");
    expect("a\nb\tc", 5, 0, "a\xe2\x90\x8a" "b\xe2\x90\x89" "c");
    expect("a\nb\tc", 5, SEER_SANITIZE_KEEP_NEWLINES | SEER_SANITIZE_KEEP_TABS, "a\nb\tc");
    expect("\r\x08\x7f", 3, 0, "\xe2\x90\x8d\xe2\x90\x88\xe2\x90\xa1");
    /* C1 CSI (U+009B) encoded in UTF-8, and a raw 0x9B byte */
    expect("\xc2\x9b" "2J", 4, 0, "\xef\xbf\xbd" "2J");
    expect("\x9b" "2J", 3, 0, "\xef\xbf\xbd" "2J");
    /* overlong NUL, surrogate, truncated sequence, bidi override */
    expect("\xc0\x80", 2, 0, "\xef\xbf\xbd\xef\xbf\xbd");
    expect("\xed\xa0\x80", 3, 0, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
    expect("ab\xe6\x97", 4, 0, "ab\xef\xbf\xbd\xef\xbf\xbd");
    expect("x\xe2\x80\xaey", 5, 0, "x\xef\xbf\xbdy");
    expect("nul\0in", 6, 0, "nul\xe2\x90\x80in");

    /* Truncation never splits a character and reports the full length. */
    char small[6];
    size_t need = seer_text_sanitize("\x1b\x1b\x1b", 3, small, sizeof small, 0);
    CHECK(need == 9);
    CHECK(strcmp(small, "\xe2\x90\x9b") == 0);

    /* Random bytes: output is always valid, control-free UTF-8. */
    srand(1234);
    for (int iter = 0; iter < 2000; iter++) {
        char in[64];
        int len = rand() % 64;
        for (int i = 0; i < len; i++) in[i] = (char)(rand() & 0xFF);
        unsigned flags = (unsigned)(iter & 3);
        char *out = seer_text_sanitize_dup(in, (size_t)len, flags);
        CHECK(out != NULL);
        if (!out) break;
        check_no_controls(out, flags);
        size_t olen = strlen(out);
        for (size_t i = 0; i < olen;) {
            int seq = seer_utf8_seq_len((const unsigned char *)out + i, olen - i, NULL);
            CHECK_MSG(seq > 0, "invalid UTF-8 in output at %zu", i);
            i += seq > 0 ? (size_t)seq : 1;
        }
        free(out);
    }
    TEST_MAIN_END();
}
