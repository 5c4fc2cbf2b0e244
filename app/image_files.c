/* Image files by name and the images under a directory. */
#include "image_files.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

bool app_image_name(const char *name) {
    static const char *const exts[] = {".png", ".jpg", ".jpeg", ".bmp", ".gif", ".tga", ".ppm", ".pgm", ".pnm"};
    const char *dot = strrchr(name, '.');
    if (!dot || name[0] == '.') return false;
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++)
        if (!strcasecmp(dot, exts[i])) return true;
    return false;
}

typedef struct name_list {
    char **v;
    int n, cap;
} name_list;

static int push(name_list *l, char *s) {
    if (!s) return -1;
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 64;
        char **grown = realloc(l->v, sizeof *grown * (size_t)cap);
        if (!grown) {
            free(s);
            errno = ENOMEM;
            return -1;
        }
        l->v = grown;
        l->cap = cap;
    }
    l->v[l->n++] = s;
    return 0;
}

/* rel: the directory's path relative to the root ("" for the root). */
static int walk(const char *root, const char *rel, bool recursive, int depth, name_list *out) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s%s%s", root, *rel ? "/" : "", rel);
    DIR *d = opendir(dir);
    if (!d) return -1;
    int rc = 0;
    for (struct dirent *e; rc == 0 && (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.') continue;
        char sub[4096];
        if ((size_t)snprintf(sub, sizeof sub, "%s%s%s", rel, *rel ? "/" : "", e->d_name) >= sizeof sub) continue;
        if (app_image_name(e->d_name)) {
            char full[8192];
            struct stat st;
            snprintf(full, sizeof full, "%s/%s", root, sub);
            if (stat(full, &st) == 0 && S_ISREG(st.st_mode)) rc = push(out, strdup(sub));
            continue;
        }
        if (!recursive || depth >= 32) continue;
        char full[8192];
        struct stat st;
        snprintf(full, sizeof full, "%s/%s", root, sub);
        if (stat(full, &st) == 0 && S_ISDIR(st.st_mode)) rc = walk(root, sub, recursive, depth + 1, out);
    }
    closedir(d);
    return rc;
}

int app_compare_names(const void *x, const void *y) { return strcmp(*(char *const *)x, *(char *const *)y); }

int app_list_images(const char *dir, bool recursive, char ***names, int *n) {
    name_list l = {0};
    if (walk(dir, "", recursive, 0, &l) != 0) {
        int e = errno;
        app_free_names(l.v, l.n);
        errno = e;
        return -1;
    }
    if (l.n) qsort(l.v, (size_t)l.n, sizeof *l.v, app_compare_names);
    *names = l.v;
    *n = l.n;
    return 0;
}

void app_free_names(char **names, int n) {
    for (int i = 0; i < n; i++) free(names[i]);
    free(names);
}
