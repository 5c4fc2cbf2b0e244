/* A tiny JSON reader for the image/mtmd tests (case.json, meta.json,
 * tokens.json of the conformance suite). Header-only, static functions:
 * each test binary that includes it gets its own copy. Not for hostile
 * input; the files are the suite's own. */
#ifndef SEER_TEST_IMAGE_JSON_H
#define SEER_TEST_IMAGE_JSON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seer/vision.h"

typedef enum { TJ_NULL, TJ_BOOL, TJ_NUM, TJ_STR, TJ_ARR, TJ_OBJ } tj_type;

typedef struct tj {
    tj_type type;
    double num;
    char *str;            /* TJ_STR; also the key of an object member */
    char *key;
    int n;                /* TJ_ARR / TJ_OBJ children */
    struct tj *kids;
} tj;

static void tj_ws(const char **p) {
    while (**p == ' ' || **p == '\n' || **p == '\r' || **p == '\t') (*p)++;
}

static char *tj_parse_str(const char **p) {
    (*p)++; /* opening quote */
    size_t cap = 16, n = 0;
    char *s = malloc(cap);
    while (**p && **p != '"') {
        char c = **p;
        if (c == '\\') {
            (*p)++;
            c = **p;
            if (c == 'n') c = '\n';
            else if (c == 't') c = '\t';
            else if (c == 'r') c = '\r';
            else if (c == 'u') { /* keep ASCII only; others become '?' */
                unsigned v = 0;
                sscanf(*p + 1, "%4x", &v);
                *p += 4;
                c = v < 0x80 ? (char)v : '?';
            }
        }
        if (n + 2 > cap) s = realloc(s, cap *= 2);
        s[n++] = c;
        (*p)++;
    }
    if (**p == '"') (*p)++;
    s[n] = 0;
    return s;
}

static int tj_parse(const char **p, tj *out) {
    memset(out, 0, sizeof *out);
    tj_ws(p);
    char c = **p;
    if (c == '{' || c == '[') {
        out->type = c == '{' ? TJ_OBJ : TJ_ARR;
        (*p)++;
        int cap = 0;
        for (;;) {
            tj_ws(p);
            if (**p == (c == '{' ? '}' : ']')) { (*p)++; return 0; }
            if (**p == ',') { (*p)++; continue; }
            if (!**p) return -1;
            char *key = NULL;
            if (c == '{') {
                if (**p != '"') return -1;
                key = tj_parse_str(p);
                tj_ws(p);
                if (**p != ':') { free(key); return -1; }
                (*p)++;
            }
            if (out->n == cap) out->kids = realloc(out->kids, sizeof(tj) * (size_t)(cap = cap ? cap * 2 : 8));
            if (tj_parse(p, &out->kids[out->n]) != 0) { free(key); return -1; }
            out->kids[out->n++].key = key;
        }
    }
    if (c == '"') { out->type = TJ_STR; out->str = tj_parse_str(p); return 0; }
    if (!strncmp(*p, "true", 4)) { out->type = TJ_BOOL; out->num = 1; *p += 4; return 0; }
    if (!strncmp(*p, "false", 5)) { out->type = TJ_BOOL; *p += 5; return 0; }
    if (!strncmp(*p, "null", 4)) { out->type = TJ_NULL; *p += 4; return 0; }
    char *end;
    out->type = TJ_NUM;
    out->num = strtod(*p, &end);
    if (end == *p) return -1;
    *p = end;
    return 0;
}

static void tj_free(tj *j) {
    for (int i = 0; i < j->n; i++) {
        free(j->kids[i].key);
        tj_free(&j->kids[i]);
    }
    free(j->kids);
    free(j->str);
}

static const tj *tj_get(const tj *j, const char *key) {
    if (!j || j->type != TJ_OBJ) return NULL;
    for (int i = 0; i < j->n; i++)
        if (!strcmp(j->kids[i].key, key)) return &j->kids[i];
    return NULL;
}

static char *tj_read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    size_t got = fread(buf, 1, (size_t)n, f);
    fclose(f);
    buf[got] = 0;
    if (len) *len = got;
    return buf;
}

/* Parses a whole file; returns 0 on success. */
static int tj_load(const char *path, tj *out) {
    char *text = tj_read_file(path, NULL);
    if (!text) return -1;
    const char *p = text;
    int rc = tj_parse(&p, out);
    free(text);
    return rc;
}

/* The preprocessing a conformance case's reference used: case.json
 * "image_preproc" ("original" where that llama.cpp's rule is the model's own
 * processor, as upstream's Idefics3 is), llama.cpp's by default. */
static inline seer_preproc_mode tj_case_preproc(const tj *cs) {
    const tj *p = tj_get(cs, "image_preproc");
    return p && p->type == TJ_STR && strcmp(p->str, "original") == 0 ? SEER_PREPROC_ORIGINAL : SEER_PREPROC_LLAMACPP;
}

#endif
