/* A small JSON reader (the hub's API answers, the tests' golden files): parses
 * a whole document into a tree, depth-limited. Strings are decoded (\uXXXX
 * incl. surrogate pairs to UTF-8); numbers are doubles. */
#ifndef SEER_JSON_H
#define SEER_JSON_H

#include <stdbool.h>
#include <stddef.h>

typedef enum json_type { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT } json_type;

typedef struct json_value {
    json_type type;
    bool b;
    double num;
    char *str;                 /* JSON_STRING (NUL-terminated; len = str_len) */
    size_t str_len;
    size_t n;                  /* items of an array or object */
    struct json_value *items;
    char **keys;               /* object keys, parallel to items */
} json_value;

/* NULL on a syntax error (err gets "line L: what"). */
json_value *json_parse(const char *text, size_t len, char *err, size_t err_cap);
json_value *json_parse_file(const char *path, char *err, size_t err_cap);
void json_free(json_value *v);

/* Lookups; all accept NULL and return NULL / def when absent or mistyped. */
const json_value *json_get(const json_value *obj, const char *key);
const json_value *json_at(const json_value *arr, size_t i);
size_t json_len(const json_value *v);          /* array/object items, 0 otherwise */
double json_num(const json_value *v, double def);
const char *json_str(const json_value *v);     /* NULL unless a string */
bool json_is_null(const json_value *v);        /* absent or null */

#endif
