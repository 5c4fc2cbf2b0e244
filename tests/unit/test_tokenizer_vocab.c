/* Tokenizer test pairs of the conformance suite: for every
 * vocab/<name>.gguf with a <name>.gguf.inp/.out pair in the folder, each
 * string of the .inp tokenized without BOS/EOS and with special tokens as
 * plain text must give the ids of the matching line of the .out (as computed
 * by llama.cpp's test-tokenizer-0), and the pieces of those ids must give the
 * string back. A pair added to the folder is tested without a code change.
 * Skips when the conformance folder is absent. */
#include <dirent.h>
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

/* Vocabularies of the folder seer does not tokenize yet: they must be
 * refused at load with a one-line error, never tokenized with a guess. */
static const char *const not_yet_supported[] = {NULL};

static bool is_not_yet_supported(const char *name) {
    for (int i = 0; not_yet_supported[i]; i++)
        if (strcmp(name, not_yet_supported[i]) == 0) return true;
    return false;
}

/* Tokenizes every test string of name's pair in pair_dir with the vocabulary
 * of vocab_dir; returns the number of tests (0 if none ran). */
static int check_vocab(const char *vocab_dir, const char *pair_dir, const char *name) {
    char path[1024];
    snprintf(path, sizeof path, "%s/ggml-vocab-%s.gguf", vocab_dir, name);
    seer_error err = {{0}};
    gguf_file *f = gguf_open(path, &err);
    CHECK_MSG(f != NULL, "%s: %s", path, err.msg);
    if (!f) return 0;
    seer_vocab *v = seer_vocab_load(f, &err);
    gguf_close(f);
    if (is_not_yet_supported(name)) {
        CHECK_MSG(v == NULL && err.msg[0] && !strchr(err.msg, '\n'), "%s: loaded, or refused without a one-line error", name);
        fprintf(stderr, "%s: refused (%s)\n", name, err.msg);
        seer_vocab_free(v);
        return 0;
    }
    CHECK_MSG(v != NULL, "%s: %s", name, err.msg);
    if (!v) return 0;

    size_t inp_len = 0, out_len = 0;
    snprintf(path, sizeof path, "%s/ggml-vocab-%s.gguf.inp", pair_dir, name);
    char *inp = read_file(path, &inp_len);
    snprintf(path, sizeof path, "%s/ggml-vocab-%s.gguf.out", pair_dir, name);
    char *out = read_file(path, &out_len);
    CHECK_MSG(inp && out, "%s: cannot read the .inp/.out pair", name);
    /* As test-tokenizer-0 reads them: strings separated by the marker (the
     * last one may end the file without it), one line of ids per string. */
    const char *sep = "\n__ggml_vocab_test__\n";
    size_t sep_len = strlen(sep);
    char *p = inp, *line = out, *inp_end = inp ? inp + inp_len : NULL;
    int n_tests = 0, n_ok = 0, n_lines = 0;
    for (char *q = out; q && *q; q++)
        if (*q == '\n') n_lines++;
    while (inp && out && p < inp_end && *line) {
        char *end = strstr(p, sep);
        if (!end) end = inp_end;
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
        /* The one-pass form gives the same ids after the room asked for, and
         * no text has fewer tokens than its bytes over the longest token's
         * (what a session refuses a too-long message by, untokenized). */
        int64_t n_new = -1;
        int32_t *ids = seer_tokenize_new(v, p, (size_t)(end - p), false, false, 1, &n_new);
        CHECK_MSG(ids && n_new == n_got && (n_got > 1024 || memcmp(ids + 1, got, (size_t)n_got * sizeof *got) == 0),
                  "%s test %d: seer_tokenize_new differs", name, n_tests + 1);
        free(ids);
        CHECK_MSG(n_got >= (int64_t)((size_t)(end - p) / seer_vocab_longest_token(v)),
                  "%s test %d: %lld tokens for %zu bytes, the longest token %zu bytes", name, n_tests + 1,
                  (long long)n_got, (size_t)(end - p), seer_vocab_longest_token(v));
        /* The pieces give the text back (SentencePiece: after its " " prefix). */
        char back[8192];
        size_t n_back = 0;
        for (int64_t i = 0; i < n_got && i < 1024; i++) {
            int k = seer_token_to_piece(v, got[i], false, back + n_back, (int)(sizeof back - n_back));
            if (k > 0 && (size_t)k <= sizeof back - n_back) n_back += (size_t)k;
        }
        bool spm = strcmp(seer_vocab_model_name(v), "llama") == 0;
        bool spaces_as_u2581 = spm || strcmp(seer_vocab_model_name(v), "gemma4") == 0;
        size_t in_len = 0, skip = spm && n_back > 0 && back[0] == ' ' ? 1 : 0;
        char text[8192];
        /* Where spaces are written as U+2581, a U+2581 of the text comes back as a space. */
        for (const char *q = p; q < end && in_len < sizeof text;) {
            if (spaces_as_u2581 && end - q >= 3 && memcmp(q, "\xe2\x96\x81", 3) == 0) { text[in_len++] = ' '; q += 3; }
            else text[in_len++] = *q++;
        }
        if (in_len > 0)
            CHECK_MSG(n_back - skip == in_len && memcmp(back + skip, text, in_len) == 0,
                      "%s test %d: pieces do not give the text back", name, n_tests + 1);
        n_tests++;
        if (same) n_ok++;
        else {
            fprintf(stderr, "%s test %d: '%.*s'\n  want:%s\n  got: ", name, n_tests, (int)(end - p), p, line);
            for (int64_t i = 0; i < n_got && i < 1024; i++) fprintf(stderr, " %d", got[i]);
            fprintf(stderr, "\n");
        }
        p = end == inp_end ? inp_end : end + sep_len;
        line = eol ? eol + 1 : line + strlen(line);
    }
    /* Where the bound is tight: the text of the longest ordinary token, three
     * times over, is about three tokens. */
    int32_t longest = -1;
    size_t longest_len = 0;
    char piece[1024];
    for (int32_t id = 0; id < seer_vocab_size(v); id++) {
        int k = seer_token_to_piece(v, id, false, piece, (int)sizeof piece);
        if (seer_vocab_token_attr(v, id) == SEER_TOKEN_NORMAL && k > 0 && (size_t)k > longest_len &&
            k < (int)sizeof piece) {
            longest = id;
            longest_len = (size_t)k;
        }
    }
    if (longest >= 0) {
        char thrice[3 * sizeof piece];
        seer_token_to_piece(v, longest, false, piece, (int)sizeof piece);
        for (int i = 0; i < 3; i++) memcpy(thrice + i * longest_len, piece, longest_len);
        int64_t n = seer_tokenize(v, thrice, 3 * longest_len, false, false, NULL, 0);
        CHECK_MSG(n >= (int64_t)(3 * longest_len / seer_vocab_longest_token(v)),
                  "%s: %lld tokens for 3 x %zu bytes of token %d, the longest token %zu bytes", name, (long long)n,
                  longest_len, longest, seer_vocab_longest_token(v));
    }
    CHECK_MSG(n_tests > 0 && n_tests == n_lines && n_ok == n_tests, "%s: %d of %d tokenizer tests match (%d in the .out)",
              name, n_ok, n_tests, n_lines);
    fprintf(stderr, "%s/%s: %d/%d\n", pair_dir, name, n_ok, n_tests);
    free(inp);
    free(out);
    seer_vocab_free(v);
    return n_tests;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Checks every ggml-vocab-<name>.gguf.inp of pair_dir (in name order, for a
 * stable log); returns how many vocabularies were tokenized. */
static int check_folder(const char *vocab_dir, const char *pair_dir) {
    DIR *d = opendir(pair_dir);
    CHECK_MSG(d != NULL, "cannot open %s", pair_dir);
    if (!d) return 0;
    char *names[256];
    int n_names = 0;
    const char *prefix = "ggml-vocab-", *suffix = ".gguf.inp";
    for (struct dirent *e; (e = readdir(d)) != NULL && n_names < 256;) {
        size_t len = strlen(e->d_name), pl = strlen(prefix), sl = strlen(suffix);
        if (len <= pl + sl || strncmp(e->d_name, prefix, pl) != 0 || strcmp(e->d_name + len - sl, suffix) != 0) continue;
        names[n_names] = strndup(e->d_name + pl, len - pl - sl);
        if (names[n_names]) n_names++;
    }
    closedir(d);
    qsort(names, (size_t)n_names, sizeof *names, cmp_str);
    int n_tokenized = 0;
    for (int i = 0; i < n_names; i++) {
        if (check_vocab(vocab_dir, pair_dir, names[i]) > 0) n_tokenized++;
        free(names[i]);
    }
    fprintf(stderr, "%s: %d of %d vocabularies tokenized\n", pair_dir, n_tokenized, n_names);
    return n_tokenized;
}

int main(void) {
    const char *dir = test_conformance_dir();
    if (!dir) {
        fprintf(stderr, "SKIP: conformance folder not found (set CONFORMANCE_DIR)\n");
        return 0;
    }
    char vocab_dir[1024];
    snprintf(vocab_dir, sizeof vocab_dir, "%s/vocab", dir);
    /* llama.cpp's own test files, then seer's extra strings for the same
     * vocabularies (tools/conformance-ref/make_vocab_strings.sh). The shared
     * folder holds at least the four pairs this test began with. */
    CHECK(check_folder(vocab_dir, vocab_dir) >= 4);
    CHECK(check_folder(vocab_dir, "tests/conformance/vocab") >= 1);
    TEST_MAIN_END();
}
