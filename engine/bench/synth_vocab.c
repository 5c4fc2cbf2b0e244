/* Synthetic vocabularies of a real model's size. Byte-level BPE: the 256
 * byte symbols (GPT-2's byte→character mapping), then tokens merged from
 * pairs and triples of common symbols with a merge rule for each, and the
 * family's special tokens. SentencePiece: <unk> <s> </s>, byte tokens, then
 * pieces of one to three symbols with decreasing scores. Any text tokenizes;
 * special tokens are exact. */
#include "bench/synth_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Byte → code point of GPT-2's byte-level alphabet (printable bytes map to
 * themselves, the others to 256 + n in byte order). */
static uint32_t byte_symbol(int b) {
    if ((b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255)) return (uint32_t)b;
    int n = 0;
    for (int k = 0; k < b; k++)
        if (!((k >= 33 && k <= 126) || (k >= 161 && k <= 172) || (k >= 174 && k <= 255))) n++;
    return 256u + (uint32_t)n;
}

static int utf8_put(uint32_t cp, char *out) {
    if (cp < 0x80) { out[0] = (char)cp; return 1; }
    if (cp < 0x800) { out[0] = (char)(0xc0 | cp >> 6); out[1] = (char)(0x80 | (cp & 0x3f)); return 2; }
    out[0] = (char)(0xe0 | cp >> 12);
    out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
    out[2] = (char)(0x80 | (cp & 0x3f));
    return 3;
}

/* Bytes in the order their symbols are combined: space, lower case, upper
 * case, digits, punctuation, then everything else. */
static void symbol_order(int order[256]) {
    bool used[256] = {false};
    int n = 0;
    const char *first = " etaoinshrdlcumwfgypbvkjxqz";
    for (const char *c = first; *c; c++) order[n++] = *c, used[(unsigned char)*c] = true;
    for (int b = 'A'; b <= 'Z'; b++) order[n++] = b, used[b] = true;
    for (int b = '0'; b <= '9'; b++) order[n++] = b, used[b] = true;
    for (int b = 33; b < 127; b++) if (!used[b]) order[n++] = b, used[b] = true;
    order[n++] = '\n', used['\n'] = true;
    for (int b = 0; b < 256; b++) if (!used[b]) order[n++] = b;
}

static void free_strings(char **s, int n) {
    if (!s) return;
    for (int i = 0; i < n; i++) free(s[i]);
    free(s);
}

bool synth_vocab_bpe(gguf_writer *w, int n_vocab, const char *pre, const char *const *lead, int n_lead,
                     const char *const *tail, int n_tail) {
    int n_merged = n_vocab - n_lead - 256 - n_tail;
    if (n_merged < 0 || n_merged > 256 * 256 + 256 * 256 * 256) return false;
    char **tokens = calloc((size_t)n_vocab, sizeof *tokens);
    char **merges = calloc((size_t)(n_merged ? n_merged : 1), sizeof *merges);
    int32_t *types = calloc((size_t)n_vocab, sizeof *types);
    bool ok = tokens && merges && types;
    char sym[256][4];
    int order[256];
    symbol_order(order);
    for (int b = 0; b < 256; b++) sym[b][utf8_put(byte_symbol(b), sym[b])] = '\0';
    int t = 0;
    for (int i = 0; ok && i < n_lead; i++, t++) ok = (tokens[t] = strdup(lead[i])) != NULL, types[t] = 3;
    for (int b = 0; ok && b < 256; b++, t++) ok = (tokens[t] = strdup(sym[b])) != NULL, types[t] = 1;
    /* pairs in diagonal order of the symbol ranking, then pair + symbol */
    int m = 0;
    for (int s = 0; ok && s <= 510 && m < n_merged; s++) {
        for (int i = 0; ok && i <= s && m < n_merged; i++) {
            int j = s - i;
            if (i > 255 || j > 255) continue;
            char buf[32];
            snprintf(buf, sizeof buf, "%s%s", sym[order[i]], sym[order[j]]);
            tokens[t] = strdup(buf);
            snprintf(buf, sizeof buf, "%s %s", sym[order[i]], sym[order[j]]);
            merges[m] = strdup(buf);
            ok = tokens[t] && merges[m];
            types[t++] = 1;
            m++;
        }
    }
    int n_pairs = m;
    for (int k = 0; ok && m < n_merged; k++) {
        const char *pair = tokens[n_lead + 256 + k];
        for (int j = 0; ok && j < 256 && m < n_merged; j++) {
            char buf[40];
            snprintf(buf, sizeof buf, "%s%s", pair, sym[order[j]]);
            tokens[t] = strdup(buf);
            snprintf(buf, sizeof buf, "%s %s", pair, sym[order[j]]);
            merges[m] = strdup(buf);
            ok = tokens[t] && merges[m];
            types[t++] = 1;
            m++;
        }
        if (k + 1 >= n_pairs) break;
    }
    ok = ok && m == n_merged;
    for (int i = 0; ok && i < n_tail; i++, t++) ok = (tokens[t] = strdup(tail[i])) != NULL, types[t] = 3;
    if (ok) {
        gguf_writer_set_str(w, "tokenizer.ggml.model", "gpt2");
        gguf_writer_set_str(w, "tokenizer.ggml.pre", pre);
        gguf_writer_set_arr_str(w, "tokenizer.ggml.tokens", (const char *const *)tokens, (uint64_t)n_vocab);
        gguf_writer_set_arr_i32(w, "tokenizer.ggml.token_type", types, (uint64_t)n_vocab);
        gguf_writer_set_arr_str(w, "tokenizer.ggml.merges", (const char *const *)merges, (uint64_t)n_merged);
    }
    free_strings(tokens, n_vocab);
    free_strings(merges, n_merged);
    free(types);
    return ok;
}

int synth_vocab_bpe_id(int n_vocab, const char *const *lead, int n_lead, const char *const *tail, int n_tail,
                       const char *name) {
    for (int i = 0; i < n_lead; i++)
        if (strcmp(lead[i], name) == 0) return i;
    for (int i = 0; i < n_tail; i++)
        if (strcmp(tail[i], name) == 0) return n_vocab - n_tail + i;
    return -1;
}

bool synth_vocab_spm(gguf_writer *w, int n_vocab, const char *const *tail, int n_tail) {
    static const char *const SPECIAL[3] = {"<unk>", "<s>", "</s>"};
    if (n_tail < 0 || n_vocab - n_tail < 3 + 256 + 95) return false;
    const int n_pieces_end = n_vocab - n_tail;
    char **tokens = calloc((size_t)n_vocab, sizeof *tokens);
    float *scores = calloc((size_t)n_vocab, sizeof *scores);
    int32_t *types = calloc((size_t)n_vocab, sizeof *types);
    bool ok = tokens && scores && types;
    int t = 0;
    for (int i = 0; ok && i < 3; i++, t++) ok = (tokens[t] = strdup(SPECIAL[i])) != NULL, types[t] = i == 0 ? 2 : 3;
    for (int b = 0; ok && b < 256; b++, t++) {
        char buf[8];
        snprintf(buf, sizeof buf, "<0x%02X>", b);
        ok = (tokens[t] = strdup(buf)) != NULL;
        types[t] = 6;
    }
    /* alphabet of pieces: "▁" (the word-start mark) and alphanumerics; a
     * symbol is at most 3 bytes, and SYM says so to the compiler, which
     * cannot see it through alpha's rows (aarch64 GCC warns of truncation) */
#define SYM "%.3s"
    char alpha[63][4];
    int na = 0;
    strcpy(alpha[na++], "\xe2\x96\x81");
    for (int c = 'a'; c <= 'z'; c++) alpha[na][0] = (char)c, alpha[na++][1] = '\0';
    for (int c = 'A'; c <= 'Z'; c++) alpha[na][0] = (char)c, alpha[na++][1] = '\0';
    for (int c = '0'; c <= '9'; c++) alpha[na][0] = (char)c, alpha[na++][1] = '\0';
    int first_piece = t;
    ok = ok && (tokens[t++] = strdup("\xe2\x96\x81")) != NULL;
    for (int c = 33; ok && c < 127; c++, t++) {
        char buf[2] = {(char)c, '\0'};
        ok = (tokens[t] = strdup(buf)) != NULL;
    }
    for (int i = 0; ok && i < na && t < n_pieces_end; i++)
        for (int j = 0; ok && j < na && t < n_pieces_end; j++, t++) {
            char buf[16];
            snprintf(buf, sizeof buf, SYM SYM, alpha[i], alpha[j]);
            ok = (tokens[t] = strdup(buf)) != NULL;
        }
    for (int i = 0; ok && i < na && t < n_pieces_end; i++)
        for (int j = 0; ok && j < na && t < n_pieces_end; j++)
            for (int k = 0; ok && k < na && t < n_pieces_end; k++, t++) {
                char buf[16];
                snprintf(buf, sizeof buf, SYM SYM SYM, alpha[i], alpha[j], alpha[k]);
                ok = (tokens[t] = strdup(buf)) != NULL;
            }
    /* Gemma's 262k tokens need some of four symbols ("▁" + three letters) */
    for (int i = 1; ok && i < na && t < n_pieces_end; i++)
        for (int j = 1; ok && j < na && t < n_pieces_end; j++)
            for (int k = 1; ok && k < na && t < n_pieces_end; k++, t++) {
                char buf[16];
                snprintf(buf, sizeof buf, SYM SYM SYM SYM, alpha[0], alpha[i], alpha[j], alpha[k]);
                ok = (tokens[t] = strdup(buf)) != NULL;
            }
#undef SYM
    ok = ok && t == n_pieces_end;
    for (int i = first_piece; ok && i < n_pieces_end; i++) {
        types[i] = 1;
        scores[i] = -(float)(i - first_piece);
    }
    for (int i = 0; ok && i < n_tail; i++, t++) ok = (tokens[t] = strdup(tail[i])) != NULL, types[t] = 3;
    if (ok) {
        gguf_writer_set_str(w, "tokenizer.ggml.model", "llama");
        gguf_writer_set_str(w, "tokenizer.ggml.pre", "default");
        gguf_writer_set_arr_str(w, "tokenizer.ggml.tokens", (const char *const *)tokens, (uint64_t)n_vocab);
        gguf_writer_set_arr_f32(w, "tokenizer.ggml.scores", scores, (uint64_t)n_vocab);
        gguf_writer_set_arr_i32(w, "tokenizer.ggml.token_type", types, (uint64_t)n_vocab);
        gguf_writer_set_u32(w, "tokenizer.ggml.unknown_token_id", 0);
        gguf_writer_set_u32(w, "tokenizer.ggml.bos_token_id", 1);
        gguf_writer_set_u32(w, "tokenizer.ggml.eos_token_id", 2);
        gguf_writer_set_bool(w, "tokenizer.ggml.add_bos_token", true);
        gguf_writer_set_bool(w, "tokenizer.ggml.add_eos_token", false);
    }
    free_strings(tokens, n_vocab);
    free(scores);
    free(types);
    return ok;
}
