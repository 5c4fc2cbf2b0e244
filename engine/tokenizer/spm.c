/* SentencePiece-style tokenization as llama.cpp does it for `llama`
 * vocabularies: start from UTF-8 characters, repeatedly merge the adjacent
 * pair whose concatenation is the highest-scoring token (ties: leftmost),
 * then emit the pieces, falling back to <0xNN> byte tokens for pieces that
 * are not in the vocabulary. The caller has already escaped spaces as "▁". */
#include <stdlib.h>

#include "tokenizer/merge_heap.h"
#include "tokenizer/unicode.h"
#include "tokenizer/vocab_internal.h"

typedef struct spm_symbol {
    int prev, next;
    size_t start, n; /* bytes of text; n == 0 once merged away */
} spm_symbol;

typedef struct spm_bigram {
    float score;
    int left, right;
    size_t size;
} spm_bigram;

/* a pops before b: higher score first, then the leftmost pair. */
static bool before(const void *pa, const void *pb) {
    const spm_bigram *a = pa, *b = pb;
    return a->score > b->score || (a->score == b->score && a->left < b->left);
}

static int try_add_bigram(const seer_vocab *v, const char *text, const spm_symbol *syms, int left, int right,
                          merge_heap *h) {
    if (left < 0 || right < 0) return 0;
    size_t size = syms[left].n + syms[right].n;
    int32_t id = str_map_get(&v->token_ids, text + syms[left].start, size);
    if (id < 0) return 0;
    spm_bigram b = {v->score[id], left, right, size};
    return merge_heap_push(h, &b);
}

int spm_tokenize(const seer_vocab *v, const char *text, size_t len, token_buf *out) {
    if (len == 0) return 0;
    spm_symbol *syms = malloc(len * sizeof *syms);
    merge_heap h = merge_heap_new(sizeof(spm_bigram), before);
    if (!syms) return -1;
    int n = 0;
    for (size_t off = 0; off < len; n++) {
        size_t clen = (size_t)seer_utf8_len((unsigned char)text[off]);
        if (clen > len - off) clen = len - off;
        syms[n] = (spm_symbol){n - 1, off + clen == len ? -1 : n + 1, off, clen};
        off += clen;
    }
    int rc = 0;
    for (int i = 1; i < n && rc == 0; i++) rc = try_add_bigram(v, text, syms, i - 1, i, &h);
    while (rc == 0 && h.n > 0) {
        spm_bigram b;
        merge_heap_pop(&h, &b);
        spm_symbol *l = &syms[b.left], *r = &syms[b.right];
        if (l->n == 0 || r->n == 0 || l->n + r->n != b.size) continue; /* stale */
        l->n += r->n;
        r->n = 0;
        l->next = r->next;
        if (r->next >= 0) syms[r->next].prev = b.left;
        rc = try_add_bigram(v, text, syms, l->prev, b.left, &h);
        if (rc == 0) rc = try_add_bigram(v, text, syms, b.left, l->next, &h);
    }
    for (int i = 0; rc == 0 && i != -1; i = syms[i].next) {
        int32_t id = str_map_get(&v->token_ids, text + syms[i].start, syms[i].n);
        if (id >= 0) { rc = token_buf_push(out, id); continue; }
        for (size_t j = 0; j < syms[i].n && rc == 0; j++) {
            int32_t byte_id = v->byte_token[(unsigned char)text[syms[i].start + j]];
            if (byte_id < 0) byte_id = v->unk;
            if (byte_id >= 0) rc = token_buf_push(out, byte_id);
        }
    }
    free(syms);
    merge_heap_free(&h);
    return rc;
}
