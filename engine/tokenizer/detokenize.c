/* Token ids back to bytes: single pieces (as llama.cpp's token_to_piece) and
 * a streaming decoder that only ever hands out complete UTF-8 characters. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokenizer/unicode.h"
#include "tokenizer/vocab_internal.h"

/* Writes n bytes if they fit; always returns n. */
static int copy_out(const char *s, size_t n, char *buf, int cap) {
    if (n > (size_t)INT32_MAX) return -1;
    if (buf && cap >= 0 && n <= (size_t)cap) memcpy(buf, s, n);
    return (int)n;
}

/* SentencePiece and Gemma 4: "▁" back to a space. */
static int spm_normal_piece(const char *t, size_t len, char *buf, int cap) {
    char *tmp = malloc(len + 1);
    if (!tmp) return -1;
    size_t n = 0;
    for (size_t i = 0; i < len;) {
        if (i + 3 <= len && memcmp(t + i, "\xe2\x96\x81", 3) == 0) { tmp[n++] = ' '; i += 3; }
        else tmp[n++] = t[i++];
    }
    int r = copy_out(tmp, n, buf, cap);
    free(tmp);
    return r;
}

/* Byte-level BPE: each code point back to its byte; a code point outside
 * the map is written as llama.cpp writes it ("[UNK_BYTE_0x..<token>]"). */
static int bpe_normal_piece(const char *t, size_t len, char *buf, int cap) {
    size_t room = len + 64, n = 0;
    char *tmp = malloc(room);
    if (!tmp) return -1;
    for (size_t pos = 0; pos < len;) {
        uint32_t cp = seer_utf8_decode(t, len, &pos);
        int b = seer_cp_to_byte(cp);
        if (b >= 0) { tmp[n++] = (char)b; continue; }
        char utf8[4];
        int nb = seer_utf8_encode(cp, utf8);
        size_t need = n + 12 + 2 * (size_t)nb + len + 1 + 1;
        if (need > room) {
            room = need * 2;
            char *g = realloc(tmp, room);
            if (!g) { free(tmp); return -1; }
            tmp = g;
        }
        memcpy(tmp + n, "[UNK_BYTE_0x", 12); n += 12;
        for (int j = 0; j < nb; j++) n += (size_t)snprintf(tmp + n, 3, "%02x", (unsigned char)utf8[j]);
        memcpy(tmp + n, t, len); n += len;
        tmp[n++] = ']';
    }
    int r = copy_out(tmp, n, buf, cap);
    free(tmp);
    return r;
}

int seer_token_to_piece(const seer_vocab *v, int32_t id, bool render_special, char *buf, int cap) {
    if (!v || id < 0 || id >= v->n_tokens) return -1;
    uint32_t attr = v->attr[id];
    const char *t = v->text[id];
    size_t len = v->text_len[id];
    if (attr & (TOK_ATTR_UNKNOWN | TOK_ATTR_CONTROL)) return render_special ? copy_out(t, len, buf, cap) : 0;
    if (attr & TOK_ATTR_USER_DEFINED) return copy_out(t, len, buf, cap);
    if (attr & TOK_ATTR_NORMAL)
        return v->kind == VOCAB_SPM || v->raw_utf8 ? spm_normal_piece(t, len, buf, cap) : bpe_normal_piece(t, len, buf, cap);
    if ((attr & TOK_ATTR_BYTE) && (v->kind == VOCAB_SPM || v->raw_utf8) && len == 6 && t[0] == '<' && t[1] == '0' &&
        t[2] == 'x') {
        char byte = (char)strtol(t + 3, NULL, 16);
        return copy_out(&byte, 1, buf, cap);
    }
    return 0; /* unused / undefined tokens have no text */
}

/* ---- streaming ---- */

static const char REPLACEMENT[] = "\xef\xbf\xbd";

typedef struct sink { char *out; int cap, n; } sink;

static void sink_put(sink *s, const char *p, int n) {
    if (s->n + n > s->cap) return; /* never overflow: drop what does not fit */
    memcpy(s->out + s->n, p, (size_t)n);
    s->n += n;
}

/* Length of the valid UTF-8 sequence at p (avail bytes), 0 when it is
 * incomplete but could still become valid, -1 when it is invalid (then the
 * first byte is replaced). */
static int utf8_complete(const unsigned char *p, int avail) {
    int need;
    if (p[0] < 0x80) return 1;
    if (p[0] >= 0xC2 && p[0] <= 0xDF) need = 2;
    else if (p[0] >= 0xE0 && p[0] <= 0xEF) need = 3;
    else if (p[0] >= 0xF0 && p[0] <= 0xF4) need = 4;
    else return -1;
    for (int i = 1; i < need; i++) {
        if (i >= avail) return 0;
        unsigned char lo = 0x80, hi = 0xBF;
        if (i == 1) {
            if (p[0] == 0xE0) lo = 0xA0;
            else if (p[0] == 0xED) hi = 0x9F;
            else if (p[0] == 0xF0) lo = 0x90;
            else if (p[0] == 0xF4) hi = 0x8F;
        }
        if (p[i] < lo || p[i] > hi) return -1;
    }
    return need;
}

/* Emits every complete character of bytes[0..n) and keeps an unfinished
 * tail in d->pending. */
static void drain(seer_detok *d, const unsigned char *bytes, int n, sink *s) {
    int i = 0;
    while (i < n) {
        int c = utf8_complete(bytes + i, n - i);
        if (c > 0) { sink_put(s, (const char *)bytes + i, c); i += c; }
        else if (c < 0) {
            /* Invalid: one U+FFFD for the maximal ill-formed prefix. */
            int skip = 1;
            while (i + skip < n && (bytes[i + skip] & 0xC0) == 0x80 && bytes[i] >= 0xC0 &&
                   utf8_complete(bytes + i, skip + 1) == 0)
                skip++;
            sink_put(s, REPLACEMENT, 3);
            i += skip;
        } else {
            d->n_pending = n - i;
            memcpy(d->pending, bytes + i, (size_t)d->n_pending);
            return;
        }
    }
    d->n_pending = 0;
}

int seer_detok_push(seer_detok *d, const seer_vocab *v, int32_t id, char *out, int cap) {
    if (!d || !out || cap <= 0) return 0;
    if (d->n_pending < 0 || d->n_pending > 3) d->n_pending = 0;
    char piece[256];
    char *heap = NULL;
    int n = seer_token_to_piece(v, id, false, piece, (int)sizeof piece);
    const char *src = piece;
    if (n < 0) n = 0;
    if (n > (int)sizeof piece) {
        heap = malloc((size_t)n);
        if (!heap) return 0;
        seer_token_to_piece(v, id, false, heap, n);
        src = heap;
    }
    int total = d->n_pending + n;
    unsigned char *bytes = malloc((size_t)total + 1);
    if (!bytes) { free(heap); return 0; }
    memcpy(bytes, d->pending, (size_t)d->n_pending);
    memcpy(bytes + d->n_pending, src, (size_t)n);
    sink s = {out, cap, 0};
    drain(d, bytes, total, &s);
    free(bytes);
    free(heap);
    return s.n;
}

int seer_detok_flush(seer_detok *d, char *out, int cap) {
    if (!d) return 0;
    int n = d->n_pending > 0 && d->n_pending <= 3 ? 1 : 0;
    d->n_pending = 0;
    if (n && out && cap >= 3) { memcpy(out, REPLACEMENT, 3); return 3; }
    return 0;
}
