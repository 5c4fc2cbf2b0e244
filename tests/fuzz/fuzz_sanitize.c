/* Fuzz target: the terminal sanitiser must turn any bytes into valid UTF-8
 * without control characters, and never overrun its buffer. */
#include <stdlib.h>
#include <string.h>

#include "seer/sanitize.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    unsigned flags = size ? data[0] & 3 : 0;
    char small[17];
    size_t need = seer_text_sanitize((const char *)data, size, small, sizeof small, flags);
    char *out = seer_text_sanitize_dup((const char *)data, size, flags);
    if (!out) return 0;
    if (strlen(out) != need) abort();
    for (const unsigned char *p = (const unsigned char *)out; *p; p++) {
        if (*p == '\n' && (flags & SEER_SANITIZE_KEEP_NEWLINES)) continue;
        if (*p == '\t' && (flags & SEER_SANITIZE_KEEP_TABS)) continue;
        if (*p < 0x20 || *p == 0x7F) abort();
    }
    for (size_t i = 0, n = strlen(out); i < n;) {
        int seq = seer_utf8_seq_len((const unsigned char *)out + i, n - i, NULL);
        if (seq <= 0) abort();
        i += (size_t)seq;
    }
    free(out);
    return 0;
}
