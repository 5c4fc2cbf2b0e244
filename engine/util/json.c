/* Recursive-descent JSON parser (RFC 8259), depth-limited. */
#include "seer/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JSON_MAX_DEPTH 256

typedef struct parser {
    const char *s, *end;
    int line;
    char *err;
    size_t err_cap;
    bool failed;
} parser;

static void fail(parser *p, const char *what) {
    if (!p->failed && p->err && p->err_cap) snprintf(p->err, p->err_cap, "line %d: %s", p->line, what);
    p->failed = true;
}

static void skip_ws(parser *p) {
    while (p->s < p->end && (*p->s == ' ' || *p->s == '\t' || *p->s == '\n' || *p->s == '\r')) {
        if (*p->s == '\n') p->line++;
        p->s++;
    }
}

static void free_inner(json_value *v) {
    if (!v) return;
    free(v->str);
    for (size_t i = 0; i < v->n; i++) {
        free_inner(&v->items[i]);
        if (v->keys) free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
}

static void put_utf8(char *out, size_t *o, unsigned cp) {
    if (cp < 0x80) out[(*o)++] = (char)cp;
    else if (cp < 0x800) {
        out[(*o)++] = (char)(0xC0 | cp >> 6);
        out[(*o)++] = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out[(*o)++] = (char)(0xE0 | cp >> 12);
        out[(*o)++] = (char)(0x80 | (cp >> 6 & 0x3F));
        out[(*o)++] = (char)(0x80 | (cp & 0x3F));
    } else {
        out[(*o)++] = (char)(0xF0 | cp >> 18);
        out[(*o)++] = (char)(0x80 | (cp >> 12 & 0x3F));
        out[(*o)++] = (char)(0x80 | (cp >> 6 & 0x3F));
        out[(*o)++] = (char)(0x80 | (cp & 0x3F));
    }
}

static int hex4(const char *s, unsigned *v) {
    *v = 0;
    for (int i = 0; i < 4; i++) {
        char c = s[i];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0) return -1;
        *v = *v * 16 + (unsigned)d;
    }
    return 0;
}

/* p->s at the opening quote. */
static char *parse_string(parser *p, size_t *len_out) {
    p->s++;
    const char *start = p->s;
    size_t cap = 0;
    while (p->s < p->end && *p->s != '"') {
        if (*p->s == '\\') p->s++;
        p->s++;
        cap++;
    }
    if (p->s >= p->end) {
        fail(p, "unterminated string");
        return NULL;
    }
    char *out = malloc(cap * 4 + 1);
    if (!out) {
        fail(p, "out of memory");
        return NULL;
    }
    size_t o = 0;
    for (const char *s = start; s < p->s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c < 0x20) {
            free(out);
            fail(p, "control character in string");
            return NULL;
        }
        if (c != '\\') {
            out[o++] = (char)c;
            continue;
        }
        s++;
        switch (*s) {
        case '"': out[o++] = '"'; break;
        case '\\': out[o++] = '\\'; break;
        case '/': out[o++] = '/'; break;
        case 'b': out[o++] = '\b'; break;
        case 'f': out[o++] = '\f'; break;
        case 'n': out[o++] = '\n'; break;
        case 'r': out[o++] = '\r'; break;
        case 't': out[o++] = '\t'; break;
        case 'u': {
            unsigned cp, lo;
            if (p->s - s < 5 || hex4(s + 1, &cp)) goto bad;
            s += 4;
            if (cp >= 0xD800 && cp < 0xDC00 && p->s - s >= 7 && s[1] == '\\' && s[2] == 'u' && !hex4(s + 3, &lo) &&
                lo >= 0xDC00 && lo < 0xE000) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                s += 6;
            } else if (cp >= 0xD800 && cp < 0xE000) {
                cp = 0xFFFD;
            }
            put_utf8(out, &o, cp);
            break;
        }
        default: goto bad;
        }
    }
    p->s++;
    out[o] = 0;
    *len_out = o;
    return out;
bad:
    free(out);
    fail(p, "bad escape in string");
    return NULL;
}

static bool parse_value(parser *p, json_value *v, int depth);

static bool parse_container(parser *p, json_value *v, int depth, bool object) {
    v->type = object ? JSON_OBJECT : JSON_ARRAY;
    const char close = object ? '}' : ']';
    p->s++;
    skip_ws(p);
    if (p->s < p->end && *p->s == close) {
        p->s++;
        return true;
    }
    size_t cap = 0;
    for (;;) {
        if (v->n == cap) {
            cap = cap ? cap * 2 : 8;
            json_value *it = realloc(v->items, cap * sizeof *it);
            if (!it) return fail(p, "out of memory"), false;
            v->items = it;
            if (object) {
                char **k = realloc(v->keys, cap * sizeof *k);
                if (!k) return fail(p, "out of memory"), false;
                v->keys = k;
            }
        }
        json_value *item = &v->items[v->n];
        memset(item, 0, sizeof *item);
        if (object) {
            skip_ws(p);
            size_t kl;
            if (p->s >= p->end || *p->s != '"') return fail(p, "expected a key"), false;
            v->keys[v->n] = parse_string(p, &kl);
            if (!v->keys[v->n]) return false;
            skip_ws(p);
            if (p->s >= p->end || *p->s != ':') {
                v->n++;
                return fail(p, "expected ':'"), false;
            }
            p->s++;
        }
        v->n++;
        if (!parse_value(p, item, depth + 1)) return false;
        skip_ws(p);
        if (p->s < p->end && *p->s == ',') {
            p->s++;
            continue;
        }
        if (p->s < p->end && *p->s == close) {
            p->s++;
            return true;
        }
        return fail(p, object ? "expected ',' or '}'" : "expected ',' or ']'"), false;
    }
}

static bool parse_value(parser *p, json_value *v, int depth) {
    if (depth > JSON_MAX_DEPTH) return fail(p, "nested too deeply"), false;
    skip_ws(p);
    if (p->s >= p->end) return fail(p, "unexpected end"), false;
    const char c = *p->s;
    size_t rest = (size_t)(p->end - p->s);
    if (c == '{' || c == '[') return parse_container(p, v, depth, c == '{');
    if (c == '"') {
        v->type = JSON_STRING;
        v->str = parse_string(p, &v->str_len);
        return v->str != NULL;
    }
    if (rest >= 4 && !memcmp(p->s, "null", 4)) {
        v->type = JSON_NULL;
        p->s += 4;
        return true;
    }
    if (rest >= 4 && !memcmp(p->s, "true", 4)) {
        v->type = JSON_BOOL;
        v->b = true;
        p->s += 4;
        return true;
    }
    if (rest >= 5 && !memcmp(p->s, "false", 5)) {
        v->type = JSON_BOOL;
        p->s += 5;
        return true;
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
        char buf[64];
        size_t n = 0;
        while (p->s + n < p->end && n < sizeof buf - 1 && strchr("+-0123456789.eE", p->s[n])) n++;
        memcpy(buf, p->s, n);
        buf[n] = 0;
        char *e;
        v->type = JSON_NUMBER;
        v->num = strtod(buf, &e);
        if (e != buf + n) return fail(p, "bad number"), false;
        p->s += n;
        return true;
    }
    return fail(p, "unexpected character"), false;
}

json_value *json_parse(const char *text, size_t len, char *err, size_t err_cap) {
    parser p = {.s = text, .end = text + len, .line = 1, .err = err, .err_cap = err_cap};
    json_value *v = calloc(1, sizeof *v);
    if (!v) return NULL;
    if (parse_value(&p, v, 0)) {
        skip_ws(&p);
        if (p.s != p.end) fail(&p, "trailing characters");
    }
    if (p.failed) {
        json_free(v);
        return NULL;
    }
    return v;
}

json_value *json_parse_file(const char *path, char *err, size_t err_cap) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (err && err_cap) snprintf(err, err_cap, "cannot open %s", path);
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *b = realloc(buf, cap *= 2);
            if (!b) {
                free(buf);
                buf = NULL;
            } else buf = b;
        }
    }
    fclose(f);
    if (!buf) {
        if (err && err_cap) snprintf(err, err_cap, "out of memory reading %s", path);
        return NULL;
    }
    json_value *v = json_parse(buf, n, err, err_cap);
    free(buf);
    return v;
}

void json_free(json_value *v) {
    if (!v) return;
    free_inner(v);
    free(v);
}

const json_value *json_get(const json_value *obj, const char *key) {
    if (!obj || obj->type != JSON_OBJECT) return NULL;
    for (size_t i = 0; i < obj->n; i++)
        if (strcmp(obj->keys[i], key) == 0) return &obj->items[i];
    return NULL;
}
const json_value *json_at(const json_value *arr, size_t i) {
    return arr && (arr->type == JSON_ARRAY || arr->type == JSON_OBJECT) && i < arr->n ? &arr->items[i] : NULL;
}
size_t json_len(const json_value *v) { return v && (v->type == JSON_ARRAY || v->type == JSON_OBJECT) ? v->n : 0; }
double json_num(const json_value *v, double def) { return v && v->type == JSON_NUMBER ? v->num : def; }
const char *json_str(const json_value *v) { return v && v->type == JSON_STRING ? v->str : NULL; }
bool json_is_null(const json_value *v) { return !v || v->type == JSON_NULL; }
