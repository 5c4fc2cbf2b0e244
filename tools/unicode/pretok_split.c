/* Helper of check_pretokenizer.py: reads hex-encoded UTF-8 lines on stdin,
 * splits each with the pre-tokenizer given as argv[1] (pretok_kind number)
 * and prints the word boundaries (code point offsets) one line per input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tokenizer/unicode.h"
#include "tokenizer/vocab_internal.h"
int main(int argc, char **argv) {
    int kind = atoi(argv[1]);
    static char line[1 << 16];
    while (fgets(line, sizeof line, stdin)) {
        size_t hl = strcspn(line, "\n"); line[hl] = 0;
        static char txt[1 << 15]; size_t n = 0;
        for (size_t i = 0; i + 1 < hl + 1 && line[i]; i += 2) { unsigned b; sscanf(line + i, "%2x", &b); txt[n++] = (char)b; }
        static uint32_t cps[1 << 15]; size_t nc = 0;
        for (size_t pos = 0; pos < n;) cps[nc++] = seer_utf8_decode(txt, n, &pos);
        size_t *b = NULL; int64_t w = pretokenize((pretok_kind)kind, cps, nc, &b);
        for (int64_t k = 0; k <= w; k++) printf("%zu ", b[k]);
        printf("\n"); free(b);
    }
}
