/* Prompts of the conformance cases, tokenized as llama.cpp's multimodal
 * tokenizer does (text split at <__media__>, each piece on its own with
 * special tokens parsed, BOS/EOS as the vocabulary asks), must give the text
 * chunks of expected/tokens.json. Qwen-VL wraps every image in
 * <|vision_start|>/<|vision_end|>; SmolVLM's per-tile text is the projector's
 * business, so there only the prompt's own pieces are checked. The pieces of
 * the reference greedy tokens (expected/greedy.json) are checked too. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seer/chat.h"
#include "seer/gguf.h"
#include "seer/tokenizer.h"
#include "testlib.h"

#define MAX_TOK 4096
#define MAX_CHUNKS 64

typedef struct tok_list { int32_t ids[MAX_TOK]; int n; } tok_list;

static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) { free(buf); buf = NULL; }
    fclose(f);
    if (buf) { buf[n] = '\0'; if (len) *len = (size_t)n; }
    return buf;
}

/* The string value of "key" in a flat JSON text (no escapes needed here). */
static bool json_string(const char *json, const char *key, char *out, size_t cap) {
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\"", key);
    const char *p = strstr(json, pat);
    if (!p) return false;
    p = strchr(p + strlen(pat), ':');
    if (!p) return false;
    p++;
    while (*p == ' ') p++;
    if (*p != '"') return false;
    const char *e = strchr(++p, '"');
    if (!e || (size_t)(e - p) >= cap) return false;
    memcpy(out, p, (size_t)(e - p));
    out[e - p] = '\0';
    return true;
}

/* Text chunks of tokens.json, in order. */
static int parse_text_chunks(const char *json, tok_list *chunks, int max_chunks) {
    int n = 0;
    for (const char *p = strstr(json, "\"type\""); p && n < max_chunks; p = strstr(p + 6, "\"type\"")) {
        const char *v = strchr(p + 6, '"');
        if (!v || strncmp(v, "\"text\"", 6) != 0) continue;
        const char *t = strstr(v, "\"tokens\"");
        const char *b = t ? strchr(t, '[') : NULL;
        if (!b) break;
        chunks[n].n = 0;
        for (const char *q = b + 1; *q && *q != ']';) {
            char *end;
            long id = strtol(q, &end, 10);
            if (end == q) { q++; continue; }
            if (chunks[n].n < MAX_TOK) chunks[n].ids[chunks[n].n++] = (int32_t)id;
            q = end;
        }
        n++;
    }
    return n;
}

static bool same(const tok_list *a, const tok_list *b) {
    return a->n == b->n && memcmp(a->ids, b->ids, (size_t)a->n * sizeof a->ids[0]) == 0;
}

static void print_list(const char *what, const tok_list *l) {
    fprintf(stderr, "  %s:", what);
    for (int i = 0; i < l->n; i++) fprintf(stderr, " %d", l->ids[i]);
    fprintf(stderr, "\n");
}


/* Decodes the JSON string starting at p (just after its opening quote) into
 * out; returns a pointer after the closing quote, NULL on malformed input. */
static const char *json_unescape(const char *p, char *out, size_t cap, size_t *len) {
    size_t n = 0;
    while (*p && *p != '"') {
        uint32_t cp;
        if (*p != '\\') { if (n + 1 < cap) out[n++] = *p; p++; continue; }
        p++;
        switch (*p) {
        case 'n': cp = '\n'; break;
        case 't': cp = '\t'; break;
        case 'r': cp = '\r'; break;
        case 'b': cp = '\b'; break;
        case 'f': cp = '\f'; break;
        case 'u': {
            unsigned hi;
            if (sscanf(p + 1, "%4x", &hi) != 1) return NULL;
            p += 4;
            cp = hi;
            if (hi >= 0xD800 && hi < 0xDC00 && p[1] == '\\' && p[2] == 'u') {
                unsigned lo;
                if (sscanf(p + 3, "%4x", &lo) != 1) return NULL;
                cp = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                p += 6;
            }
            break;
        }
        default: cp = (unsigned char)*p; break;
        }
        p++;
        char u[4];
        int k = cp < 0x80 ? (u[0] = (char)cp, 1)
              : cp < 0x800 ? (u[0] = (char)(0xC0 | (cp >> 6)), u[1] = (char)(0x80 | (cp & 0x3F)), 2)
              : cp < 0x10000 ? (u[0] = (char)(0xE0 | (cp >> 12)), u[1] = (char)(0x80 | ((cp >> 6) & 0x3F)),
                                u[2] = (char)(0x80 | (cp & 0x3F)), 3)
                             : (u[0] = (char)(0xF0 | (cp >> 18)), u[1] = (char)(0x80 | ((cp >> 12) & 0x3F)),
                                u[2] = (char)(0x80 | ((cp >> 6) & 0x3F)), u[3] = (char)(0x80 | (cp & 0x3F)), 4);
        for (int i = 0; i < k; i++)
            if (n + 1 < cap) out[n++] = u[i];
    }
    if (*p != '"') return NULL;
    out[n] = '\0';
    *len = n;
    return p + 1;
}

/* JSON cannot carry stray bytes: the reference shows each byte that is not
 * part of valid UTF-8 as U+FFFD. Does the same to s (in place into out). */
static size_t lossy_utf8(const char *s, size_t n, char *out, size_t cap) {
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        const unsigned char *u = (const unsigned char *)s + i;
        int k = u[0] < 0x80 ? 1 : (u[0] >> 5) == 6 ? 2 : (u[0] >> 4) == 14 ? 3 : (u[0] >> 3) == 30 ? 4 : 0;
        bool ok = k > 0 && i + (size_t)k <= n;
        for (int j = 1; ok && j < k; j++) ok = (u[j] & 0xC0) == 0x80;
        if (!ok) {
            if (o + 3 < cap) { memcpy(out + o, "\xef\xbf\xbd", 3); o += 3; }
            i++;
            continue;
        }
        if (o + (size_t)k < cap) { memcpy(out + o, s + i, (size_t)k); o += (size_t)k; }
        i += (size_t)k;
    }
    return o;
}

/* greedy.json: every reference token's piece (special tokens written out)
 * must be what seer_token_to_piece gives. */
static void check_greedy_pieces(const char *dir, const char *name, const seer_vocab *v) {
    char path[2048];
    snprintf(path, sizeof path, "%s/cases/%s/expected/greedy.json", dir, name);
    char *json = read_file(path, NULL);
    if (!json) return;
    tok_list *ids = calloc(1, sizeof *ids);
    const char *t = strstr(json, "\"tokens\"");
    const char *b = t ? strchr(t, '[') : NULL;
    for (const char *q = b ? b + 1 : ""; *q && *q != ']' && ids->n < MAX_TOK;) {
        char *end;
        long id = strtol(q, &end, 10);
        if (end == q) { q++; continue; }
        ids->ids[ids->n++] = (int32_t)id;
        q = end;
    }
    const char *pp = strstr(json, "\"pieces\"");
    pp = pp ? strchr(pp, '[') : NULL;
    int checked = 0;
    for (int i = 0; pp && i < ids->n; i++) {
        pp = strchr(pp, '"');
        if (!pp) break;
        char want[512], raw[512], got[1600];
        size_t wlen = 0;
        pp = json_unescape(pp + 1, want, sizeof want, &wlen);
        if (!pp) break;
        int rlen = seer_token_to_piece(v, ids->ids[i], true, raw, (int)sizeof raw);
        size_t glen = rlen >= 0 && rlen <= (int)sizeof raw ? lossy_utf8(raw, (size_t)rlen, got, sizeof got) : 0;
        bool eq = rlen >= 0 && glen == wlen && memcmp(got, want, wlen) == 0;
        CHECK_MSG(eq, "%s: piece of greedy token %d (id %d) differs", name, i, ids->ids[i]);
        checked++;
    }
    CHECK_MSG(checked == ids->n && checked > 0, "%s: checked %d of %d greedy pieces", name, checked, ids->n);

    /* text_hex: the raw bytes of the detokenized continuation (no special
     * tokens; a SentencePiece text loses the space that starts it). */
    char *raw = malloc(65536), *streamed = malloc(65536), *lossy = malloc(3 * 65536);
    size_t n_raw = 0, n_streamed = 0;
    seer_detok d = {0};
    for (int i = 0; i < ids->n && raw && streamed; i++) {
        int k = seer_token_to_piece(v, ids->ids[i], false, raw + n_raw, 65536 - (int)n_raw);
        if (k > 0) n_raw += (size_t)k;
        n_streamed += (size_t)seer_detok_push(&d, v, ids->ids[i], streamed + n_streamed, 65536 - (int)n_streamed);
    }
    if (raw && streamed) n_streamed += (size_t)seer_detok_flush(&d, streamed + n_streamed, 65536 - (int)n_streamed);
    size_t skip = strcmp(seer_vocab_model_name(v), "llama") == 0 && n_raw > 0 && raw && raw[0] == ' ' ? 1 : 0;
    const char *hex = strstr(json, "\"text_hex\"");
    hex = hex ? strchr(hex + 10, '"') : NULL;
    char want_bytes[65536];
    size_t n_want = 0;
    for (const char *h = hex ? hex + 1 : ""; h[0] && h[1] && h[0] != '"' && n_want < sizeof want_bytes; h += 2) {
        unsigned b;
        if (sscanf(h, "%2x", &b) != 1) break;
        want_bytes[n_want++] = (char)b;
    }
    CHECK_MSG(hex && raw && n_raw - skip == n_want && memcmp(raw + skip, want_bytes, n_want) == 0,
              "%s: detokenized bytes differ from text_hex", name);
    /* Streaming: the same text, stray bytes shown as U+FFFD. */
    size_t n_lossy = lossy ? lossy_utf8(want_bytes, n_want, lossy, 3 * 65536) : 0;
    CHECK_MSG(lossy && streamed && n_streamed - skip == n_lossy && memcmp(streamed + skip, lossy, n_lossy) == 0,
              "%s: streamed text differs: [%.*s] want [%.*s]", name, (int)n_streamed, streamed ? streamed : "",
              (int)n_lossy, lossy ? lossy : "");
    free(raw);
    free(streamed);
    free(lossy);
    free(ids);
    free(json);
}

static void check_case(const char *dir, const char *name) {
    char path[2048], llm[512];
    snprintf(path, sizeof path, "%s/cases/%s/case.json", dir, name);
    char *case_json = read_file(path, NULL);
    if (!case_json) return;
    bool ok = json_string(case_json, "llm", llm, sizeof llm);
    free(case_json);
    CHECK_MSG(ok, "%s: no llm in case.json", name);
    if (!ok) return;
    snprintf(path, sizeof path, "%s/cases/%s/%s", dir, name, llm);
    seer_error err = {{0}};
    gguf_file *f = gguf_open(path, &err);
    CHECK_MSG(f != NULL, "%s: %s", name, err.msg);
    if (!f) return;
    seer_vocab *v = seer_vocab_load(f, &err);
    gguf_close(f);
    CHECK_MSG(v != NULL, "%s: %s", name, err.msg);
    if (!v) return;

    size_t plen = 0;
    snprintf(path, sizeof path, "%s/cases/%s/prompt.txt", dir, name);
    char *prompt = read_file(path, &plen);
    snprintf(path, sizeof path, "%s/cases/%s/expected/tokens.json", dir, name);
    char *tokens_json = read_file(path, NULL);
    static tok_list want[MAX_CHUNKS], got[MAX_CHUNKS];
    int n_want = tokens_json ? parse_text_chunks(tokens_json, want, MAX_CHUNKS) : 0;
    CHECK_MSG(prompt && n_want > 0, "%s: cannot read prompt.txt / tokens.json", name);

    int32_t vstart = seer_vocab_find(v, "<|vision_start|>"), vend = seer_vocab_find(v, "<|vision_end|>");
    bool qwen = vstart >= 0 && vend >= 0;
    bool smolvlm = seer_vocab_find(v, "<fake_token_around_image>") >= 0;

    /* Pieces between media markers. */
    int n_pieces = 0;
    const char *p = prompt;
    for (;;) {
        const char *m = strstr(p, SEER_MEDIA_MARKER);
        size_t len = m ? (size_t)(m - p) : plen - (size_t)(p - prompt);
        tok_list *t = &got[n_pieces];
        t->n = 0;
        bool first = n_pieces == 0, last = m == NULL;
        if (first && seer_vocab_add_bos(v)) t->ids[t->n++] = seer_vocab_bos(v);
        if (!first && qwen) t->ids[t->n++] = vend;
        int64_t n = seer_tokenize(v, p, len, false, true, t->ids + t->n, MAX_TOK - 2 - t->n);
        CHECK(n >= 0 && n < MAX_TOK - 2 - t->n);
        if (n > 0) t->n += (int)n;
        if (!last && qwen) t->ids[t->n++] = vstart;
        if (last && seer_vocab_add_eos(v)) t->ids[t->n++] = seer_vocab_eos(v);
        if (t->n > 0) n_pieces++;
        if (last || n_pieces >= MAX_CHUNKS) break;
        p = m + strlen(SEER_MEDIA_MARKER);
    }

    if (smolvlm) {
        /* First chunk starts with the first piece, the last chunk ends with the last one. */
        const tok_list *a = &got[0], *b = &got[n_pieces - 1], *wa = &want[0], *wb = &want[n_want - 1];
        bool ok_first = wa->n >= a->n && memcmp(wa->ids, a->ids, (size_t)a->n * sizeof a->ids[0]) == 0;
        bool ok_last = wb->n >= b->n && memcmp(wb->ids + wb->n - b->n, b->ids, (size_t)b->n * sizeof b->ids[0]) == 0;
        CHECK_MSG(ok_first && ok_last, "%s: prompt pieces do not match the first/last text chunks", name);
        if (!ok_first) { print_list("want", wa); print_list("got ", a); }
        if (!ok_last) { print_list("want", wb); print_list("got ", b); }
    } else {
        CHECK_MSG(n_pieces == n_want, "%s: %d text pieces, tokens.json has %d text chunks", name, n_pieces, n_want);
        for (int i = 0; i < n_pieces && i < n_want; i++) {
            bool eq = same(&got[i], &want[i]);
            CHECK_MSG(eq, "%s: text chunk %d differs", name, i);
            if (!eq) { print_list("want", &want[i]); print_list("got ", &got[i]); }
        }
    }
    check_greedy_pieces(dir, name, v);

    /* BOS/EOS ids as llama.cpp reported them (meta.json). */
    snprintf(path, sizeof path, "%s/cases/%s/expected/meta.json", dir, name);
    char *meta = read_file(path, NULL);
    const char *kb = meta ? strstr(meta, "\"vocab_bos\":") : NULL, *ke = meta ? strstr(meta, "\"vocab_eos\":") : NULL;
    CHECK_MSG(kb && ke && atoi(kb + 12) == seer_vocab_bos(v) && atoi(ke + 12) == seer_vocab_eos(v),
              "%s: BOS/EOS %d/%d differ from meta.json", name, seer_vocab_bos(v), seer_vocab_eos(v));
    free(meta);
    if (smolvlm) { /* the README spells out llama.cpp's end-of-generation set */
        int n_eog = 0;
        for (int32_t id = 0; id < seer_vocab_size(v); id++) n_eog += seer_vocab_is_eog(v, id);
        CHECK_MSG(n_eog == 4 && seer_vocab_is_eog(v, 0) && seer_vocab_is_eog(v, 2) && seer_vocab_is_eog(v, 4) &&
                      seer_vocab_is_eog(v, 49279),
                  "%s: end-of-generation set is not {0, 2, 4, 49279}", name);
    }
    fprintf(stderr, "%s: checked %d text chunk(s)%s and the greedy pieces\n", name, n_pieces,
            smolvlm ? " (prefix/suffix)" : "");
    free(prompt);
    free(tokens_json);
    seer_vocab_free(v);
}

int main(void) {
    const char *dir = test_conformance_dir();
    if (!dir) {
        fprintf(stderr, "SKIP: conformance folder not found (set CONFORMANCE_DIR)\n");
        return 0;
    }
    char cases[1024];
    snprintf(cases, sizeof cases, "%s/cases", dir);
    DIR *d = opendir(cases);
    CHECK_MSG(d != NULL, "cannot open %s", cases);
    if (!d) TEST_MAIN_END();
    int n_cases = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        check_case(dir, e->d_name);
        n_cases++;
    }
    closedir(d);
    CHECK_MSG(n_cases > 0, "no cases in %s", cases);
    TEST_MAIN_END();
}
