/* Turns the trainer's export (manifest.txt + weights.bin, see train.py) into
 * the demo model's two GGUF files with seer's own GGUF writer:
 *   export_gguf EXPORT_DIR LLM.gguf MMPROJ.gguf
 * Matrices marked f16 are rounded to F16 here; everything else stays F32. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seer/gguf.h"
#include "seer/tensor.h"

typedef struct blob {
    float *data;
    size_t n_floats;
} blob;

static int fail(const char *what, const char *detail) {
    fprintf(stderr, "export_gguf: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    return 1;
}

static int read_blob(const char *path, blob *b) {
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    if (size < 0 || size % 4) { fclose(f); return -1; }
    b->data = malloc((size_t)size + 4);
    b->n_floats = (size_t)size / 4;
    size_t got = fread(b->data, 1, (size_t)size, f);
    fclose(f);
    return got == (size_t)size ? 0 : -1;
}

/* Hex string -> malloc'd NUL-terminated string ("-" is the empty string). */
static char *unhex(const char *h) {
    if (strcmp(h, "-") == 0) return calloc(1, 1);
    size_t n = strlen(h) / 2;
    char *s = malloc(n + 1);
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        if (sscanf(h + 2 * i, "%2x", &v) != 1) { free(s); return NULL; }
        s[i] = (char)v;
    }
    s[n] = 0;
    return s;
}

/* Splits line in place on spaces; returns the number of fields. */
static int split(char *line, char **field, int max) {
    int n = 0;
    for (char *save = NULL, *t = strtok_r(line, " \n", &save); t && n < max; t = strtok_r(NULL, " \n", &save))
        field[n++] = t;
    return n;
}

static int add_kv(gguf_writer *w, char **f, int n) {
    const char *type = f[2], *key = f[3];
    if (n < 5) return -1;
    if (strcmp(type, "str") == 0) {
        char *s = unhex(f[4]);
        if (!s) return -1;
        gguf_writer_set_str(w, key, s);
        free(s);
    } else if (strcmp(type, "u32") == 0) {
        gguf_writer_set_u32(w, key, (uint32_t)strtoul(f[4], NULL, 10));
    } else if (strcmp(type, "f32") == 0) {
        gguf_writer_set_f32(w, key, strtof(f[4], NULL));
    } else if (strcmp(type, "bool") == 0) {
        gguf_writer_set_bool(w, key, f[4][0] == '1');
    } else if (strncmp(type, "arr_", 4) == 0) {
        long count = strtol(f[4], NULL, 10);
        if (count < 0 || 5 + count > n) return -1;
        if (strcmp(type, "arr_str") == 0) {
            char **items = calloc((size_t)count + 1, sizeof *items);
            int ok = 1;
            for (long i = 0; i < count; i++) ok &= (items[i] = unhex(f[5 + i])) != NULL;
            if (ok) gguf_writer_set_arr_str(w, key, (const char *const *)items, (uint64_t)count);
            for (long i = 0; i < count; i++) free(items[i]);
            free(items);
            if (!ok) return -1;
        } else if (strcmp(type, "arr_i32") == 0) {
            int32_t *v = malloc(((size_t)count + 1) * sizeof *v);
            for (long i = 0; i < count; i++) v[i] = (int32_t)strtol(f[5 + i], NULL, 10);
            gguf_writer_set_arr_i32(w, key, v, (uint64_t)count);
            free(v);
        } else if (strcmp(type, "arr_f32") == 0) {
            float *v = malloc(((size_t)count + 1) * sizeof *v);
            for (long i = 0; i < count; i++) v[i] = strtof(f[5 + i], NULL);
            gguf_writer_set_arr_f32(w, key, v, (uint64_t)count);
            free(v);
        } else {
            return -1;
        }
    } else {
        return -1;
    }
    return 0;
}

static int add_tensor(gguf_writer *w, char **f, int n, const blob *b) {
    if (n < 5) return -1;
    const char *name = f[2], *type = f[3];
    int nd = atoi(f[4]);
    if (nd < 1 || nd > GGUF_MAX_DIMS || n != 6 + nd) return -1;
    int64_t ne[GGUF_MAX_DIMS] = {1, 1, 1, 1};
    size_t count = 1;
    for (int i = 0; i < nd; i++) {
        ne[i] = strtoll(f[5 + i], NULL, 10);
        count *= (size_t)ne[i];
    }
    size_t off = strtoull(f[5 + nd], NULL, 10);
    if (off % 4 || off / 4 + count > b->n_floats) return -1;
    const float *src = b->data + off / 4;
    if (strcmp(type, "f16") == 0) {
        uint16_t *h = malloc(count * sizeof *h);
        for (size_t i = 0; i < count; i++) h[i] = seer_f32_to_fp16(src[i]);
        gguf_writer_add_tensor(w, name, SEER_TYPE_F16, nd, ne, h);
        free(h);
    } else if (strcmp(type, "f32") == 0) {
        gguf_writer_add_tensor(w, name, SEER_TYPE_F32, nd, ne, src);
    } else {
        return -1;
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: export_gguf EXPORT_DIR LLM.gguf MMPROJ.gguf\n");
        return 2;
    }
    char path[4096];
    blob b = {0};
    snprintf(path, sizeof path, "%s/weights.bin", argv[1]);
    if (read_blob(path, &b) != 0) return fail("cannot read", path);
    snprintf(path, sizeof path, "%s/manifest.txt", argv[1]);
    FILE *mf = fopen(path, "r");
    if (!mf) return fail("cannot read", path);

    gguf_writer *llm = gguf_writer_new(), *mmproj = gguf_writer_new();
    char *line = NULL;
    size_t cap = 0;
    int lineno = 0, rc = 0;
    char **field = malloc(200000 * sizeof *field);
    while (getline(&line, &cap, mf) > 0) {
        lineno++;
        int n = split(line, field, 200000);
        if (n == 0) continue;
        gguf_writer *w = n > 1 && strcmp(field[1], "llm") == 0 ? llm
                       : n > 1 && strcmp(field[1], "mmproj") == 0 ? mmproj : NULL;
        int bad = !w;
        if (!bad && strcmp(field[0], "kv") == 0) bad = add_kv(w, field, n) != 0;
        else if (!bad && strcmp(field[0], "tensor") == 0) bad = add_tensor(w, field, n, &b) != 0;
        else bad = 1;
        if (bad) {
            fprintf(stderr, "export_gguf: manifest line %d is malformed\n", lineno);
            rc = 1;
            break;
        }
    }
    fclose(mf);
    free(line);
    free(field);
    seer_error err = {{0}};
    if (rc == 0 && gguf_writer_write(llm, argv[2], &err) != 0) rc = fail(argv[2], err.msg);
    if (rc == 0 && gguf_writer_write(mmproj, argv[3], &err) != 0) rc = fail(argv[3], err.msg);
    gguf_writer_free(llm);
    gguf_writer_free(mmproj);
    free(b.data);
    return rc;
}
