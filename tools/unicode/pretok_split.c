/* Helper of check_pretokenizer.py: reads hex-encoded UTF-8 lines on stdin,
 * splits each with the pre-tokenizer given as argv[1] (pretok_kind number)
 * and prints the word boundaries (code point offsets), one line per input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokenizer/unicode.h"
#include "tokenizer/vocab_internal.h"

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: pretok_split KIND < hex-lines\n");
        return 2;
    }
    int kind = atoi(argv[1]);
    static char line[1 << 16], text[1 << 15];
    static uint32_t cps[1 << 15];
    while (fgets(line, sizeof line, stdin)) {
        size_t n = 0, hex_len = strcspn(line, "\n");
        for (size_t i = 0; i + 1 < hex_len && n < sizeof text; i += 2) {
            unsigned b;
            if (sscanf(line + i, "%2x", &b) != 1) break;
            text[n++] = (char)b;
        }
        size_t n_cps = 0;
        for (size_t pos = 0; pos < n;) cps[n_cps++] = seer_utf8_decode(text, n, &pos);
        size_t *bounds = NULL;
        int64_t n_words = pretokenize((pretok_kind)kind, cps, n_cps, &bounds);
        if (n_words < 0) return 1;
        for (int64_t k = 0; k <= n_words; k++) printf("%zu ", bounds[k]);
        printf("\n");
        free(bounds);
    }
    return 0;
}
