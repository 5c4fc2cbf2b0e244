/* Image files by name and the images under a directory. */
#include "image_files.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
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

#define MAX_DEPTH 32 /* folders below the root followed at most */

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

/* The directories entered so far, by device and inode (an open-addressing
 * set): a directory reached again through a symbolic link (a loop back to
 * an ancestor, or two links to one folder) is not read again, so its images
 * are not listed twice or under ever longer paths, and the walk is bounded
 * by the folders there are. */
typedef struct dir_set {
    struct dir_key {
        dev_t dev;
        ino_t ino;
        bool used;
    } *slot;
    size_t n, cap;
} dir_set;

static size_t dir_hash(dev_t dev, ino_t ino) {
    return (size_t)(((uint64_t)ino * 0x9E3779B97F4A7C15u) ^ ((uint64_t)dev * 0xC2B2AE3D27D4EB4Fu));
}

/* Adds the directory; false when it was there already (or out of memory:
 * then it is not read, as if seen). */
static bool dir_set_add(dir_set *s, const struct stat *st) {
    if (2 * (s->n + 1) > s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        struct dir_key *slot = calloc(cap, sizeof *slot);
        if (!slot) return false;
        for (size_t i = 0; i < s->cap; i++) {
            if (!s->slot[i].used) continue;
            size_t h = dir_hash(s->slot[i].dev, s->slot[i].ino) & (cap - 1);
            while (slot[h].used) h = (h + 1) & (cap - 1);
            slot[h] = s->slot[i];
        }
        free(s->slot);
        s->slot = slot;
        s->cap = cap;
    }
    size_t h = dir_hash(st->st_dev, st->st_ino) & (s->cap - 1);
    for (; s->slot[h].used; h = (h + 1) & (s->cap - 1))
        if (s->slot[h].dev == st->st_dev && s->slot[h].ino == st->st_ino) return false;
    s->slot[h] = (struct dir_key){st->st_dev, st->st_ino, true};
    s->n++;
    return true;
}

/* rel: the directory's path relative to the root ("" for the root). A
 * subdirectory that cannot be read is skipped with a line on stderr (one
 * unreadable folder under ~/Pictures failed the whole listing); only the
 * root's own failure is an error. */
static int walk(const char *root, const char *rel, bool recursive, int depth, dir_set *seen, name_list *out) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s%s%s", root, *rel ? "/" : "", rel);
    DIR *d = opendir(dir);
    if (!d) {
        if (!*rel) return -1;
        fprintf(stderr, "seer: skipped %s: %s\n", dir, strerror(errno));
        return 0;
    }
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
        if (!recursive || depth >= MAX_DEPTH) continue;
        char full[8192];
        struct stat st;
        snprintf(full, sizeof full, "%s/%s", root, sub);
        if (stat(full, &st) == 0 && S_ISDIR(st.st_mode) && dir_set_add(seen, &st))
            rc = walk(root, sub, recursive, depth + 1, seen, out);
    }
    closedir(d);
    return rc;
}

int app_compare_names(const void *x, const void *y) { return strcmp(*(char *const *)x, *(char *const *)y); }

int app_list_images(const char *dir, bool recursive, char ***names, int *n) {
    name_list l = {0};
    dir_set seen = {0};
    struct stat st;
    if (stat(dir, &st) == 0) dir_set_add(&seen, &st);
    const int rc = walk(dir, "", recursive, 0, &seen, &l);
    free(seen.slot);
    if (rc != 0) {
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
