/* seer tokenize -m MODEL.gguf [-p TEXT | -f FILE] [--no-special] [--pieces]:
 * prints the token ids of a text as the model's tokenizer gives them (BOS/EOS
 * as the vocabulary asks, special-token texts recognised), space-separated on
 * one line. --no-special: no BOS/EOS and special tokens as plain text.
 * --pieces: one "id<TAB>piece" line per token instead (pieces made terminal-safe).
 * Exit status: 0 ok, 1 file problems, 2 usage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "seer/gguf.h"
#include "seer/sanitize.h"
#include "seer/tokenizer.h"

static void usage(FILE *out) {
    fprintf(out, "usage: seer tokenize -m MODEL.gguf [-p TEXT | -f FILE] [--no-special] [--pieces]\n"
                 "  Prints the token ids of TEXT (or of FILE, '-' for standard input).\n"
                 "  --no-special  no BOS/EOS; special-token texts stay plain text\n"
                 "  --pieces      print each token as id<TAB>piece on its own line\n");
    fprintf(out, "example: seer tokenize -m model.gguf -p \"Hello, world\" --pieces\n");
}

static int usage_error(const char *fmt, const char *arg) {
    fprintf(stderr, "seer tokenize: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, " (try 'seer tokenize --help')\n");
    return 2;
}

/* Whole file (or stdin) into memory; NULL with errno-style message on failure. */
static char *read_all(const char *path, size_t *len) {
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (n == cap) {
            char *g = cap > ((size_t)1 << 30) ? NULL : realloc(buf, cap * 2);
            if (!g) { free(buf); buf = NULL; break; }
            buf = g;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) {
            if (ferror(f)) { free(buf); buf = NULL; }
            break;
        }
    }
    if (f != stdin) fclose(f);
    *len = n;
    return buf;
}

static void print_pieces(const seer_vocab *v, const int32_t *ids, int64_t n) {
    char stack_buf[256];
    for (int64_t i = 0; i < n; i++) {
        char *piece = stack_buf;
        int len = seer_token_to_piece(v, ids[i], true, stack_buf, (int)sizeof stack_buf);
        if (len > (int)sizeof stack_buf) {
            piece = malloc((size_t)len);
            if (piece) seer_token_to_piece(v, ids[i], true, piece, len);
        }
        char *safe = piece && len > 0 ? seer_text_sanitize_dup(piece, (size_t)len, 0) : NULL;
        printf("%d\t%s\n", ids[i], safe ? safe : "");
        free(safe);
        if (piece != stack_buf) free(piece);
    }
}

int cmd_tokenize(int argc, char **argv) {
    const char *model = NULL, *prompt = NULL, *file = NULL;
    bool no_special = false, pieces = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) { usage(stdout); return 0; }
        if (strcmp(a, "--no-special") == 0) { no_special = true; continue; }
        if (strcmp(a, "--pieces") == 0) { pieces = true; continue; }
        if (strcmp(a, "-m") == 0 || strcmp(a, "--model") == 0 || strcmp(a, "-p") == 0 || strcmp(a, "--prompt") == 0 ||
            strcmp(a, "-f") == 0 || strcmp(a, "--file") == 0) {
            if (i + 1 >= argc) return usage_error("%s needs a value", a);
            const char *val = argv[++i];
            if (a[1] == 'm' || a[2] == 'm') model = val;
            else if (a[1] == 'p' || a[2] == 'p') prompt = val;
            else file = val;
            continue;
        }
        char *safe = seer_text_sanitize_dup(a, strlen(a), 0);
        int rc = usage_error("unknown argument '%s'", safe ? safe : "?");
        free(safe);
        return rc;
    }
    if (!model) return usage_error("%s", "missing -m MODEL.gguf");
    if (!prompt && !file) return usage_error("%s", "give the text with -p TEXT or -f FILE");
    if (prompt && file) return usage_error("%s", "-p and -f cannot be combined");

    size_t len = 0;
    char *text = NULL;
    if (file) {
        text = read_all(file, &len);
        if (!text) {
            char *safe = seer_text_sanitize_dup(file, strlen(file), 0);
            fprintf(stderr, "seer tokenize: cannot read '%s'\n", safe ? safe : "?");
            free(safe);
            return 1;
        }
    }
    seer_error err = {{0}};
    gguf_file *g = gguf_open(model, &err);
    seer_vocab *v = g ? seer_vocab_load(g, &err) : NULL;
    if (g) gguf_close(g);
    if (!v) {
        char *safe = seer_text_sanitize_dup(err.msg, strlen(err.msg), 0);
        fprintf(stderr, "seer tokenize: %s\n", safe ? safe : "cannot load the model");
        free(safe);
        free(text);
        return 1;
    }
    const char *src = file ? text : prompt;
    if (!file) len = strlen(prompt);

    int64_t cap = (int64_t)len + 16;
    int32_t *ids = malloc((size_t)cap * sizeof *ids);
    int64_t n = ids ? seer_tokenize(v, src, len, !no_special, !no_special, ids, cap) : -1;
    if (n > cap) { /* cannot happen (at most one token per byte plus BOS/EOS), but stay safe */
        int32_t *g2 = realloc(ids, (size_t)n * sizeof *ids);
        if (g2) { ids = g2; n = seer_tokenize(v, src, len, !no_special, !no_special, ids, n); }
        else n = -1;
    }
    int rc = 0;
    if (n < 0) {
        fprintf(stderr, "seer tokenize: tokenization failed (out of memory)\n");
        rc = 1;
    } else if (pieces) {
        print_pieces(v, ids, n);
    } else {
        for (int64_t i = 0; i < n; i++) printf(i ? " %d" : "%d", ids[i]);
        putchar('\n');
    }
    free(ids);
    free(text);
    seer_vocab_free(v);
    return rc;
}
