/* BPE as llama.cpp does it for `gpt2` vocabularies: the text is split into
 * words by the pre-tokenizer, each word's bytes are mapped to GPT-2's
 * printable code points, and within a word the adjacent pair with the lowest
 * merge rank is merged until no ranked pair is left (ties: leftmost).
 * Gemma 4's vocabulary (raw_utf8) merges the word's UTF-8 as it is, with
 * spaces written as U+2581, and falls back to <0xXX> byte tokens. */
#include <stdlib.h>
#include <string.h>

#include "tokenizer/merge_heap.h"
#include "tokenizer/unicode.h"
#include "tokenizer/vocab_internal.h"

typedef struct bpe_symbol {
    int prev, next;
    size_t start, n;
} bpe_symbol;

typedef struct bpe_bigram {
    int32_t rank;
    int left, right;
    size_t left_n, right_n; /* sizes when queued: a changed size means stale */
} bpe_bigram;

static bool before(const void *pa, const void *pb) {
    const bpe_bigram *a = pa, *b = pb;
    return a->rank < b->rank || (a->rank == b->rank && a->left < b->left);
}

typedef struct bpe_word {
    const seer_vocab *v;
    const char *text; /* byte-encoded word */
    bpe_symbol *syms;
    char *key;        /* scratch: "left\0right" */
    merge_heap heap;
} bpe_word;

static int add_bigram(bpe_word *w, int left, int right) {
    if (left < 0 || right < 0) return 0;
    const bpe_symbol *l = &w->syms[left], *r = &w->syms[right];
    memcpy(w->key, w->text + l->start, l->n);
    w->key[l->n] = '\0';
    memcpy(w->key + l->n + 1, w->text + r->start, r->n);
    int32_t rank = str_map_get(&w->v->merge_ranks, w->key, l->n + 1 + r->n);
    if (rank < 0) return 0;
    bpe_bigram b = {rank, left, right, l->n, r->n};
    return merge_heap_push(&w->heap, &b);
}

static int emit_symbol(const seer_vocab *v, const char *s, size_t n, token_buf *out) {
    int32_t id = str_map_get(&v->token_ids, s, n);
    if (id >= 0) return token_buf_push(out, id);
    /* Not a token: llama.cpp then tries each byte of the encoded text alone
     * (raw UTF-8: its <0xXX> token). */
    for (size_t j = 0; j < n; j++) {
        int32_t b = v->raw_utf8 ? v->byte_token[(uint8_t)s[j]] : str_map_get(&v->token_ids, s + j, 1);
        if (b >= 0 && token_buf_push(out, b) != 0) return -1;
    }
    return 0;
}

static bool only_newlines(const char *s, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (s[i] != '\n') return false;
    return true;
}

static int merge_word(bpe_word *w, size_t len, token_buf *out) {
    const seer_vocab *v = w->v;
    /* Whole words that are tokens: Llama-3 style vocabularies take any, Gemma 4
     * newline runs (its merges would split them otherwise). */
    if (v->ignore_merges || (v->pre == PRETOK_GEMMA4 && only_newlines(w->text, len))) {
        int32_t id = str_map_get(&v->token_ids, w->text, len);
        if (id >= 0) return token_buf_push(out, id);
    }
    int n = 0;
    for (size_t off = 0; off < len; n++) {
        size_t clen = (size_t)seer_utf8_len((unsigned char)w->text[off]);
        if (clen > len - off) clen = len - off;
        w->syms[n] = (bpe_symbol){n - 1, off + clen == len ? -1 : n + 1, off, clen};
        off += clen;
    }
    w->heap.n = 0;
    int rc = 0;
    for (int i = 1; i < n && rc == 0; i++) rc = add_bigram(w, i - 1, i);
    while (rc == 0 && w->heap.n > 0) {
        bpe_bigram b;
        merge_heap_pop(&w->heap, &b);
        bpe_symbol *l = &w->syms[b.left], *r = &w->syms[b.right];
        if (l->n == 0 || r->n == 0 || l->n != b.left_n || r->n != b.right_n) continue; /* stale */
        l->n += r->n;
        r->n = 0;
        l->next = r->next;
        if (r->next >= 0) w->syms[r->next].prev = b.left;
        rc = add_bigram(w, l->prev, b.left);
        if (rc == 0) rc = add_bigram(w, b.left, l->next);
    }
    for (int i = 0; rc == 0 && i < n; i++)
        if (w->syms[i].n > 0) rc = emit_symbol(v, w->text + w->syms[i].start, w->syms[i].n, out);
    return rc;
}

/* Grows *buf to hold n elements of size sz. */
static int reserve(void **buf, size_t *cap, size_t n, size_t sz) {
    if (n <= *cap) return 0;
    size_t want = n < 2 * *cap ? 2 * *cap : n;
    void *g = realloc(*buf, want * sz);
    if (!g) return -1;
    *buf = g;
    *cap = want;
    return 0;
}

int bpe_tokenize(const seer_vocab *v, const char *text, size_t len, token_buf *out) {
    if (len == 0) return 0;
    uint32_t *cps = malloc(len * sizeof *cps);
    size_t *bounds = NULL;
    /* Per-word buffers, grown to the longest word seen: a byte becomes a
     * GPT-2 code point of at most 2 UTF-8 bytes, a code point at most 4 bytes. */
    char *enc = NULL, *key = NULL;
    bpe_symbol *syms = NULL;
    size_t enc_cap = 0, key_cap = 0, syms_cap = 0;
    bpe_word w = {v, NULL, NULL, NULL, merge_heap_new(sizeof(bpe_bigram), before)};
    int rc = -1;
    if (!cps) goto done;
    size_t n = 0;
    for (size_t pos = 0; pos < len;) {
        uint32_t cp = seer_utf8_decode(text, len, &pos);
        cps[n++] = v->raw_utf8 && cp == ' ' ? 0x2581 : cp;
    }
    int64_t n_words = pretokenize(v->pre, cps, n, &bounds);
    if (n_words < 0) goto done;
    rc = 0;
    for (int64_t k = 0; k < n_words && rc == 0; k++) {
        size_t word_cps = bounds[k + 1] - bounds[k];
        if (reserve((void **)&enc, &enc_cap, 8 * word_cps, 1) != 0 || reserve((void **)&key, &key_cap, 8 * word_cps + 2, 1) != 0 ||
            reserve((void **)&syms, &syms_cap, 4 * word_cps, sizeof *syms) != 0) {
            rc = -1;
            break;
        }
        size_t elen = 0;
        for (size_t i = bounds[k]; i < bounds[k + 1]; i++) {
            char utf8[4];
            int nb = seer_utf8_encode(cps[i], utf8);
            if (v->raw_utf8) { memcpy(enc + elen, utf8, (size_t)nb); elen += (size_t)nb; continue; }
            for (int j = 0; j < nb; j++) elen += (size_t)seer_utf8_encode(seer_byte_to_cp((uint8_t)utf8[j]), enc + elen);
        }
        w.text = enc;
        w.syms = syms;
        w.key = key;
        rc = merge_word(&w, elen, out);
    }
done:
    free(cps); free(enc); free(key); free(syms); merge_heap_free(&w.heap); free(bounds);
    return rc;
}
