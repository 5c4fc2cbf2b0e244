/* seer_tokenize: split out special tokens, run the vocabulary's tokenizer on
 * the text between them, add BOS/EOS. Follows llama.cpp's order of work so
 * ids match it exactly. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memmem */
#endif
#include <stdlib.h>
#include <string.h>

#include "tokenizer/vocab_internal.h"

/* A piece of the input: raw text (token < 0) or one special token. */
typedef struct fragment {
    int32_t token;
    size_t start, len;
} fragment;

typedef struct fragment_list { fragment *f; size_t n, cap; } fragment_list;

static int frag_push(fragment_list *l, fragment x) {
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        fragment *f = realloc(l->f, cap * sizeof *f);
        if (!f) return -1;
        l->f = f;
        l->cap = cap;
    }
    l->f[l->n++] = x;
    return 0;
}

static bool ascii_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

/* Splits one raw fragment at every occurrence of special token id. */
static int split_fragment(const seer_vocab *v, const char *text, fragment raw, int32_t id, fragment_list *out) {
    const char *tok = v->text[id];
    size_t tlen = v->text_len[id];
    uint32_t attr = v->attr[id];
    size_t base = raw.start, blen = raw.len;
    for (;;) {
        const char *hit = blen >= tlen ? memmem(text + base, blen, tok, tlen) : NULL;
        if (!hit) {
            if (blen > 0 && frag_push(out, (fragment){-1, base, blen}) != 0) return -1;
            return 0;
        }
        size_t match = (size_t)(hit - text);
        size_t left_len = match - base;
        if (attr & TOK_ATTR_LSTRIP)
            while (left_len > 0 && ascii_space(text[base + left_len - 1])) left_len--;
        if (left_len > 0 && frag_push(out, (fragment){-1, base, left_len}) != 0) return -1;
        if (frag_push(out, (fragment){id, match, tlen}) != 0) return -1;
        size_t right = match + tlen, right_len = base + blen - right;
        if (attr & TOK_ATTR_RSTRIP)
            while (right_len > 0 && ascii_space(text[right])) { right++; right_len--; }
        base = right;
        blen = right_len;
    }
}

/* Longest special tokens first, each over every remaining raw fragment.
 * Without parse_special only user-defined tokens are split out. */
static int partition_specials(const seer_vocab *v, const char *text, bool parse_special, fragment_list *frags) {
    fragment_list next = {0};
    for (int k = 0; k < v->n_specials; k++) {
        int32_t id = v->specials[k];
        if (!parse_special && (v->attr[id] & (TOK_ATTR_CONTROL | TOK_ATTR_UNKNOWN))) continue;
        if (v->text_len[id] == 0) continue;
        bool any = false;
        for (size_t i = 0; i < frags->n && !any; i++)
            any = frags->f[i].token < 0 && frags->f[i].len >= v->text_len[id] &&
                  memmem(text + frags->f[i].start, frags->f[i].len, v->text[id], v->text_len[id]);
        if (!any) continue;
        next.n = 0;
        for (size_t i = 0; i < frags->n; i++) {
            int rc = frags->f[i].token >= 0 ? frag_push(&next, frags->f[i])
                                            : split_fragment(v, text, frags->f[i], id, &next);
            if (rc != 0) { free(next.f); return -1; }
        }
        fragment_list tmp = *frags; *frags = next; next = tmp;
    }
    free(next.f);
    return 0;
}

static int tokenize_raw_spm(const seer_vocab *v, const char *text, size_t len, bool space_prefix, token_buf *out) {
    /* Spaces become U+2581 "▁" (3 bytes); an optional one goes in front. */
    char *esc = malloc(3 * (len + 1) + 1);
    if (!esc) return -1;
    size_t n = 0;
    if (space_prefix) { memcpy(esc, "\xe2\x96\x81", 3); n = 3; }
    for (size_t i = 0; i < len; i++) {
        if (text[i] == ' ') { memcpy(esc + n, "\xe2\x96\x81", 3); n += 3; }
        else esc[n++] = text[i];
    }
    int rc = spm_tokenize(v, esc, n, out);
    free(esc);
    return rc;
}

/* The tokens of text into toks (which the caller frees); 0, or -1 on error. */
static int tokenize_into(const seer_vocab *v, const char *text, size_t len, bool add_special, bool parse_special,
                         token_buf *out) {
    fragment_list frags = {0};
    token_buf toks = {0};
    int rc = 0;
    if (len > 0) {
        rc = frag_push(&frags, (fragment){-1, 0, len});
        if (rc == 0) rc = partition_specials(v, text, parse_special, &frags);
    }
    if (rc == 0 && add_special && v->add_bos && v->bos >= 0) rc = token_buf_push(&toks, v->bos);
    bool prev_special = true; /* SPM puts a space prefix at the start and after each special token */
    for (size_t i = 0; rc == 0 && i < frags.n; i++) {
        fragment f = frags.f[i];
        if (f.token >= 0) {
            rc = token_buf_push(&toks, f.token);
            prev_special = true;
        } else if (v->kind == VOCAB_SPM) {
            rc = tokenize_raw_spm(v, text + f.start, f.len, v->add_space_prefix && prev_special, &toks);
            prev_special = false;
        } else {
            rc = bpe_tokenize(v, text + f.start, f.len, &toks);
        }
    }
    if (rc == 0 && add_special && v->add_eos && v->eos >= 0) rc = token_buf_push(&toks, v->eos);
    free(frags.f);
    *out = toks;
    return rc;
}

int64_t seer_tokenize(const seer_vocab *v, const char *text, size_t len, bool add_special, bool parse_special,
                      int32_t *out, int64_t max_tokens) {
    if (!v || (!text && len > 0) || max_tokens < 0) return -1;
    token_buf toks;
    if (tokenize_into(v, text, len, add_special, parse_special, &toks) != 0) { free(toks.ids); return -1; }
    if ((int64_t)toks.n <= max_tokens && toks.n > 0) memcpy(out, toks.ids, toks.n * sizeof *out);
    free(toks.ids);
    return (int64_t)toks.n;
}

int32_t *seer_tokenize_new(const seer_vocab *v, const char *text, size_t len, bool add_special, bool parse_special,
                           size_t room, int64_t *n_tokens) {
    if (!v || (!text && len > 0) || !n_tokens) return NULL;
    token_buf toks;
    if (tokenize_into(v, text, len, add_special, parse_special, &toks) != 0) { free(toks.ids); return NULL; }
    /* room free slots in front of the tokens */
    int32_t *ids = toks.ids && toks.cap >= toks.n + room ? toks.ids
                                                         : realloc(toks.ids, sizeof *ids * (toks.n + room + 1));
    if (!ids) { free(toks.ids); return NULL; }
    if (room && toks.n) memmove(ids + room, ids, sizeof *ids * toks.n);
    *n_tokens = (int64_t)toks.n;
    return ids;
}
