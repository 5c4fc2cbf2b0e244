/* File and number helpers of the conformance runner. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "conformance.h"

char *path_join(const char *dir, const char *rel) {
    if (rel[0] == '/') return strdup(rel);
    size_t a = strlen(dir), b = strlen(rel);
    char *p = malloc(a + b + 2);
    if (!p) return NULL;
    memcpy(p, dir, a);
    p[a] = '/';
    memcpy(p + a + 1, rel, b + 1);
    return p;
}

char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) {
        buf[n] = 0;
        *len = (size_t)n;
    }
    return buf;
}

float *read_f32(const char *path, size_t *n) {
    size_t len = 0;
    char *buf = read_file(path, &len);
    if (!buf) return NULL;
    if (len % 4) {
        free(buf);
        return NULL;
    }
    *n = len / 4;
    return (float *)(void *)buf; /* malloc'd memory is suitably aligned */
}

bool file_exists(const char *path) {
    struct stat st;
    return stat(path, &st) == 0;
}

double rel_l2(const float *x, const float *ref, size_t n) {
    double num = 0, den = 0;
    for (size_t i = 0; i < n; i++) {
        double d = (double)x[i] - ref[i];
        num += d * d;
        den += (double)ref[i] * ref[i];
    }
    return den > 0 ? sqrt(num / den) : sqrt(num);
}

void detail_add(case_result *res, const char *fmt, ...) {
    size_t used = strlen(res->detail);
    if (used + 1 >= sizeof res->detail) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(res->detail + used, sizeof res->detail - used, fmt, ap);
    va_end(ap);
}
