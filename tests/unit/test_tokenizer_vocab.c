/* Tokenizer test pairs of the conformance suite: every string of
 * vocab/<name>.gguf.inp tokenized without BOS/EOS and with special tokens as
 * plain text must give the ids of the matching line of <name>.gguf.out (as
 * computed by llama.cpp). Skips when the conformance folder is absent. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seer/gguf.h"
#include "seer/tokenizer.h"
#include "testlib.h"

static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) { free(buf); buf = NULL; }
    fclose(f);
    if (buf) { buf[n] = '\0'; *len = (size_t)n; }
    return buf;
}

static void check_vocab(const char *dir, const char *name) {
    char path[1024];
    snprintf(path, sizeof path, "%s/vocab/ggml-vocab-%s.gguf", dir, name);
    seer_error err = {{0}};
    gguf_file *f = gguf_open(path, &err);
    CHECK_MSG(f != NULL, "%s: %s", path, err.msg);
    if (!f) return;
    seer_vocab *v = seer_vocab_load(f, &err);
    gguf_close(f);
    CHECK_MSG(v != NULL, "%s: %s", name, err.msg);
    if (!v) return;

    size_t inp_len = 0, out_len = 0;
    snprintf(path, sizeof path, "%s/vocab/ggml-vocab-%s.gguf.inp", dir, name);
    char *inp = read_file(path, &inp_len);
    snprintf(path, sizeof path, "%s/vocab/ggml-vocab-%s.gguf.out", dir, name);
    char *out = read_file(path, &out_len);
    CHECK_MSG(inp && out, "%s: cannot read the .inp/.out pair", name);
    const char *sep = "\n__ggml_vocab_test__\n";
    size_t sep_len = strlen(sep);
    char *p = inp, *line = out;
    int n_tests = 0, n_ok = 0;
    while (inp && out && *line) {
        char *end = strstr(p, sep);
        if (!end) break;
        char *eol = strchr(line, '\n');
        if (eol) *eol = '\0';
        int32_t want[1024];
        int n_want = 0;
        for (char *q = line; *q && n_want < 1024;) {
            char *next;
            long id = strtol(q, &next, 10);
            if (next == q) break;
            want[n_want++] = (int32_t)id;
            q = next;
        }
        int32_t got[1024];
        int64_t n_got = seer_tokenize(v, p, (size_t)(end - p), false, false, got, 1024);
        bool same = n_got == n_want && memcmp(got, want, (size_t)n_want * sizeof *got) == 0;
        /* The pieces give the text back (SentencePiece: after its " " prefix). */
        char back[8192];
        size_t n_back = 0;
        for (int64_t i = 0; i < n_got && i < 1024; i++) {
            int k = seer_token_to_piece(v, got[i], false, back + n_back, (int)(sizeof back - n_back));
            if (k > 0 && (size_t)k <= sizeof back - n_back) n_back += (size_t)k;
        }
        bool spm = strcmp(seer_vocab_model_name(v), "llama") == 0;
        size_t in_len = (size_t)(end - p), skip = spm && n_back > 0 && back[0] == ' ' ? 1 : 0;
        if (in_len > 0)
            CHECK_MSG(n_back - skip == in_len && memcmp(back + skip, p, in_len) == 0, "%s test %d: pieces do not give the text back",
                      name, n_tests + 1);
        n_tests++;
        if (same) n_ok++;
        else {
            fprintf(stderr, "%s test %d: '%.*s'\n  want:%s\n  got: ", name, n_tests, (int)(end - p), p, line);
            for (int64_t i = 0; i < n_got && i < 1024; i++) fprintf(stderr, " %d", got[i]);
            fprintf(stderr, "\n");
        }
        p = end + sep_len;
        line = eol ? eol + 1 : line + strlen(line);
    }
    CHECK_MSG(n_tests == 46 && n_ok == n_tests, "%s: %d of %d tokenizer tests match (46 expected)", name, n_ok, n_tests);
    fprintf(stderr, "%s: %d/%d\n", name, n_ok, n_tests);
    free(inp);
    free(out);
    seer_vocab_free(v);
}

int main(void) {
    const char *dir = test_conformance_dir();
    if (!dir) {
        fprintf(stderr, "SKIP: conformance folder not found (set CONFORMANCE_DIR)\n");
        return 0;
    }
    static const char *names[] = {"llama-spm", "phi-3", "gpt-2", "starcoder"};
    for (int i = 0; i < 4; i++) check_vocab(dir, names[i]);
    TEST_MAIN_END();
}
