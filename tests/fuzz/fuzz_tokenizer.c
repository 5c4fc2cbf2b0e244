/* Fuzz target: tokenizers (SentencePiece and byte-level BPE with every
 * pre-tokenizer the conformance vocabularies use) on arbitrary bytes, with and
 * without special-token parsing, then streaming detokenization. Uses the real
 * vocabularies of $CONFORMANCE_DIR/vocab when present, else a small byte-level
 * vocabulary written at start-up. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"
#include "fuzz_input.c.inc"
#include "seer/tokenizer.h"

#define MAX_VOCABS 16
static seer_vocab *vocabs[MAX_VOCABS];
static int n_vocabs;

/* GPT-2's byte → printable code point map, as UTF-8. */
static void byte_token(int b, char *out) {
    int cp = b;
    if (!((b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255))) {
        int k = 0;
        for (int x = 0; x < b; x++)
            if (!((x >= 33 && x <= 126) || (x >= 161 && x <= 172) || (x >= 174 && x <= 255))) k++;
        cp = 256 + k;
    }
    if (cp < 0x80) { out[0] = (char)cp; out[1] = 0; }
    else { out[0] = (char)(0xC0 | (cp >> 6)); out[1] = (char)(0x80 | (cp & 0x3F)); out[2] = 0; }
}

static void add_vocab_file(const char *path) {
    seer_error err;
    gguf_file *f = gguf_open(path, &err);
    if (!f) return;
    seer_vocab *v = seer_vocab_load(f, &err);
    gguf_close(f);
    if (v && n_vocabs < MAX_VOCABS) vocabs[n_vocabs++] = v;
}

static void write_small_vocab(const char *path) {
    static char texts[260][4];
    const char *toks[260];
    int32_t types[260];
    for (int b = 0; b < 256; b++) { byte_token(b, texts[b]); toks[b] = texts[b]; types[b] = 1; }
    const char *specials[] = {"<|endoftext|>", "<|im_start|>", "<|im_end|>", "\xc4\xa0t"};
    for (int i = 0; i < 4; i++) { toks[256 + i] = specials[i]; types[256 + i] = i < 3 ? 3 : 1; }
    const char *merges[] = {"\xc4\xa0 t"};
    gguf_writer *w = gguf_writer_new();
    gguf_writer_set_str(w, "general.architecture", "llama");
    gguf_writer_set_str(w, "tokenizer.ggml.model", "gpt2");
    gguf_writer_set_str(w, "tokenizer.ggml.pre", "qwen2");
    gguf_writer_set_arr_str(w, "tokenizer.ggml.tokens", toks, 260);
    gguf_writer_set_arr_i32(w, "tokenizer.ggml.token_type", types, 260);
    gguf_writer_set_arr_str(w, "tokenizer.ggml.merges", merges, 1);
    gguf_writer_set_u32(w, "tokenizer.ggml.eos_token_id", 258);
    gguf_writer_write(w, path, NULL);
    gguf_writer_free(w);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    const char *dir = getenv("CONFORMANCE_DIR");
    if (!dir || !*dir) dir = "../shared/conformance";
    /* One vocabulary per pre-tokenizer family the shared folder has. */
    static const char *names[] = {"llama-spm", "gpt-2",          "phi-3",  "starcoder", "qwen35",
                                  "deepseek-llm", "deepseek-coder", "falcon", "gemma-4"};
    char path[1024];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(path, sizeof path, "%s/vocab/ggml-vocab-%s.gguf", dir, names[i]);
        add_vocab_file(path);
    }
    snprintf(path, sizeof path, "/tmp/seer-fuzz-vocab-%d.gguf", (int)getpid());
    write_small_vocab(path);
    add_vocab_file(path);
    remove(path);
    if (n_vocabs == 0) { fprintf(stderr, "fuzz_tokenizer: no vocabulary could be loaded\n"); exit(1); }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    seer_vocab *v = vocabs[data[0] % n_vocabs];
    bool special = (data[0] >> 4) & 1;
    const char *text = (const char *)data + 1;
    size_t len = size - 1;
    int32_t ids[512];
    int64_t n = seer_tokenize(v, text, len, special, special, ids, 512);
    if (n > 512) {
        int32_t *big = malloc((size_t)n * sizeof *big);
        if (!big) return 0;
        seer_tokenize(v, text, len, special, special, big, n);
        free(big);
        n = 0;
    }
    seer_detok d = {0};
    char out[256];
    for (int64_t i = 0; i < n; i++) {
        seer_detok_push(&d, v, ids[i], out, sizeof out);
        seer_token_to_piece(v, ids[i], true, out, sizeof out);
    }
    seer_detok_flush(&d, out, sizeof out);
    return 0;
}
