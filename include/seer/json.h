/* JSON through jansson (Debian's libjansson: maintained, one implementation
 * for the whole project): the hub's API answers, the tests' golden files,
 * the server's requests. json_value is jansson's json_t, so code that needs
 * more than these lookups uses jansson's own API on it. */
#ifndef SEER_JSON_H
#define SEER_JSON_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef json_t json_value;

/* NULL on a syntax error (err gets "line L: what"). Any value may be the
 * top level; every number reads as a double, like JavaScript. */
json_value *json_parse(const char *text, size_t len, char *err, size_t err_cap);
json_value *json_parse_file(const char *path, char *err, size_t err_cap);
void json_free(json_value *v);

/* Lookups; all accept NULL and return NULL / def when absent or mistyped. */
const json_value *json_get(const json_value *obj, const char *key);
const json_value *json_at(const json_value *arr, size_t i);
size_t json_len(const json_value *v);          /* array/object items, 0 otherwise */
double json_num(const json_value *v, double def);
const char *json_str(const json_value *v);     /* NULL unless a string */

/* Writes s[0..len) as a JSON string: control bytes, quotes and backslashes
 * escaped, valid UTF-8 kept, each invalid byte written as U+FFFD (JSON text
 * is UTF-8). Returns 0, or -1 when out of memory or the write failed. */
int json_put_string(FILE *f, const char *s, size_t len);
/* The same text as a new jansson string (NULL: out of memory). */
json_value *json_string_repaired(const char *s, size_t len);

#endif
