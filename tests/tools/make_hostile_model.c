/* make_hostile_model: rewrites a tiny F32 model from make_tiny_model so that
 * greedy decoding emits one chosen byte sequence on every step, and (with
 * --name) its general.name is a chosen byte sequence too. The terminal-safety
 * tests use it to make "model output" hostile: escape sequences, OSC 52, C1
 * controls, bidi overrides, invalid UTF-8.
 *
 *   make_hostile_model IN.gguf OUT.gguf --bytes HEX [--name-bytes HEX]
 *
 * How the rig works: one token whose text is HEX (byte-level BPE spelling) is
 * appended to the vocabulary. Every embedding row is all ones and every block
 * weight is zero, so the residual stream is the same positive vector at every
 * position whatever the input; the output matrix is zero except the new
 * token's row (ones), so that token has the only positive logit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seer/gguf.h"
#include "seer/tensor.h"
#include "tokenizer/unicode.h"

static int hex_decode(const char *hex, unsigned char *out, int cap) {
    int n = 0;
    for (const char *p = hex; p[0] && p[1]; p += 2) {
        unsigned v;
        if (n == cap || sscanf(p, "%2x", &v) != 1) return -1;
        out[n++] = (unsigned char)v;
    }
    return n;
}

/* The byte-level BPE spelling of raw bytes (each byte one code point < 0x800). */
static char *bpe_spelling(const unsigned char *b, int n) {
    char *s = malloc((size_t)n * 2 + 1), *o = s;
    if (!s) return NULL;
    for (int i = 0; i < n; i++) {
        o += seer_utf8_encode(seer_byte_to_cp(b[i]), o);
    }
    *o = 0;
    return s;
}

/* Copies one metadata entry as it is. */
static void copy_kv(gguf_writer *w, const gguf_kv *kv) {
    switch (kv->type) {
    case GGUF_TYPE_STRING: gguf_writer_set_raw(w, kv->key, kv->type, 0, kv->str, 1); break;
    case GGUF_TYPE_ARRAY:
        if (kv->arr_type == GGUF_TYPE_STRING)
            gguf_writer_set_raw(w, kv->key, kv->type, kv->arr_type, kv->arr_str, kv->n);
        else gguf_writer_set_raw(w, kv->key, kv->type, kv->arr_type, kv->arr, kv->n);
        break;
    case GGUF_TYPE_FLOAT32: {
        float f = (float)kv->v.f64;
        gguf_writer_set_raw(w, kv->key, kv->type, 0, &f, 1);
        break;
    }
    case GGUF_TYPE_FLOAT64: gguf_writer_set_raw(w, kv->key, kv->type, 0, &kv->v.f64, 1); break;
    default: {
        /* integers and bools are widened: write back the low bytes (little endian) */
        uint64_t v = kv->v.u64;
        unsigned char b[8];
        for (int i = 0; i < 8; i++) b[i] = (unsigned char)(v >> (8 * i));
        gguf_writer_set_raw(w, kv->key, kv->type, 0, b, 1);
    }
    }
}

int main(int argc, char **argv) {
    if (argc < 5 || strcmp(argv[3], "--bytes") != 0) {
        fprintf(stderr, "usage: make_hostile_model IN.gguf OUT.gguf --bytes HEX [--name-bytes HEX]\n");
        return 2;
    }
    unsigned char payload[512], name[512];
    int n_payload = hex_decode(argv[4], payload, (int)sizeof payload), n_name = -1;
    if (argc >= 7 && strcmp(argv[5], "--name-bytes") == 0) n_name = hex_decode(argv[6], name, (int)sizeof name - 1);
    if (n_payload <= 0 || (argc >= 7 && n_name < 0)) {
        fprintf(stderr, "make_hostile_model: bad hex\n");
        return 2;
    }
    seer_error err;
    gguf_file *f = gguf_open(argv[1], &err);
    if (!f) {
        fprintf(stderr, "make_hostile_model: %s\n", err.msg);
        return 1;
    }
    const gguf_kv *toks = gguf_find_kv(f, "tokenizer.ggml.tokens");
    const gguf_kv *types = gguf_find_kv(f, "tokenizer.ggml.token_type");
    const gguf_tensor *emb = gguf_find_tensor(f, "token_embd.weight");
    if (!toks || !types || !emb || emb->type != SEER_TYPE_F32) {
        fprintf(stderr, "make_hostile_model: needs an F32 model from make_tiny_model\n");
        return 1;
    }
    const uint64_t n_vocab = toks->n + 1, n_embd = (uint64_t)emb->ne[0];
    const char **tok = malloc(sizeof *tok * n_vocab);
    int32_t *type = malloc(sizeof *type * n_vocab);
    char *spelled = bpe_spelling(payload, n_payload);
    if (!tok || !type || !spelled) return 1;
    for (uint64_t i = 0; i < toks->n; i++) {
        tok[i] = toks->arr_str[i];
        type[i] = (int32_t)((const int32_t *)types->arr)[i];
    }
    tok[toks->n] = spelled;
    type[toks->n] = 1; /* normal */

    gguf_writer *w = gguf_writer_new();
    for (uint64_t i = 0; i < f->n_kv; i++) {
        const gguf_kv *kv = &f->kv[i];
        if (!strcmp(kv->key, "tokenizer.ggml.tokens"))
            gguf_writer_set_arr_str(w, kv->key, tok, n_vocab);
        else if (!strcmp(kv->key, "tokenizer.ggml.token_type"))
            gguf_writer_set_arr_i32(w, kv->key, type, n_vocab);
        else if (!strcmp(kv->key, "general.name") && n_name >= 0) {
            name[n_name] = 0;
            gguf_writer_set_str(w, kv->key, (const char *)name);
        } else copy_kv(w, kv);
    }
    float *ones = malloc(sizeof(float) * n_embd * n_vocab), *outw = calloc(n_embd * n_vocab, sizeof(float));
    if (!ones || !outw) return 1;
    for (uint64_t i = 0; i < n_embd * n_vocab; i++) ones[i] = 1.0f;
    for (uint64_t k = 0; k < n_embd; k++) outw[toks->n * n_embd + k] = 1.0f;
    for (uint64_t i = 0; i < f->n_tensors; i++) {
        const gguf_tensor *t = &f->tensors[i];
        if (!strcmp(t->name, "token_embd.weight") || !strcmp(t->name, "output.weight")) {
            int64_t ne[2] = {(int64_t)n_embd, (int64_t)n_vocab};
            gguf_writer_add_tensor(w, t->name, SEER_TYPE_F32, 2, ne, t->name[0] == 't' ? ones : outw);
        } else if (!strncmp(t->name, "blk.", 4)) {
            void *zero = calloc(1, t->nbytes ? t->nbytes : 1);
            if (!zero) return 1;
            gguf_writer_add_tensor(w, t->name, t->type, t->n_dims, t->ne, zero);
            free(zero);
        } else gguf_writer_add_tensor(w, t->name, t->type, t->n_dims, t->ne, t->data);
    }
    int rc = gguf_writer_write(w, argv[2], &err);
    if (rc != 0) fprintf(stderr, "make_hostile_model: %s\n", err.msg);
    gguf_writer_free(w);
    gguf_close(f);
    free(ones);
    free(outw);
    free(spelled);
    free(tok);
    free(type);
    return rc == 0 ? 0 : 1;
}
