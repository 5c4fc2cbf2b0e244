/* seer's JSON entry points over jansson. */
#include "seer/json.h"

#include <stdlib.h>
#include <string.h>

#include "seer/sanitize.h"

json_value *json_parse(const char *text, size_t len, char *err, size_t err_cap) {
    json_error_t e;
    json_t *v = json_loadb(text, len, JSON_DECODE_ANY | JSON_DECODE_INT_AS_REAL | JSON_ALLOW_NUL, &e);
    if (!v && err && err_cap) snprintf(err, err_cap, "line %d: %s", e.line, e.text);
    return v;
}

json_value *json_parse_file(const char *path, char *err, size_t err_cap) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (err && err_cap) snprintf(err, err_cap, "cannot open %s", path);
        return NULL;
    }
    json_error_t e;
    json_t *v = json_loadf(f, JSON_DECODE_ANY | JSON_DECODE_INT_AS_REAL | JSON_ALLOW_NUL, &e);
    fclose(f);
    if (!v && err && err_cap) snprintf(err, err_cap, "line %d: %s", e.line, e.text);
    return v;
}

void json_free(json_value *v) { json_decref(v); }

const json_value *json_get(const json_value *obj, const char *key) {
    return json_is_object(obj) ? json_object_get(obj, key) : NULL;
}
const json_value *json_at(const json_value *arr, size_t i) { return json_is_array(arr) ? json_array_get(arr, i) : NULL; }
size_t json_len(const json_value *v) {
    return json_is_array(v) ? json_array_size(v) : json_is_object(v) ? json_object_size(v) : 0;
}
double json_num(const json_value *v, double def) { return json_is_number(v) ? json_number_value(v) : def; }
const char *json_str(const json_value *v) { return json_is_string(v) ? json_string_value(v) : NULL; }

json_value *json_string_repaired(const char *s, size_t len) {
    json_t *v = json_stringn(s, len);
    if (v) return v;
    /* not valid UTF-8: each byte that starts no valid sequence becomes U+FFFD */
    char *fixed = malloc(len * 3 + 1);
    if (!fixed) return NULL;
    size_t o = 0;
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        int n = seer_utf8_seq_len((const unsigned char *)s + i, len - i, &cp);
        if (n > 0) {
            memcpy(fixed + o, s + i, (size_t)n);
            o += (size_t)n;
            i += (size_t)n;
        } else {
            memcpy(fixed + o, "\xEF\xBF\xBD", 3);
            o += 3;
            i++;
        }
    }
    v = json_stringn(fixed, o);
    free(fixed);
    return v;
}

int json_put_string(FILE *f, const char *s, size_t len) {
    json_t *v = json_string_repaired(s, len);
    int rc = v ? json_dumpf(v, f, JSON_ENCODE_ANY) : -1;
    json_decref(v);
    return rc;
}
