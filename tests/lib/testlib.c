#include "testlib.h"

#include <dirent.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

int test_failures = 0;

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static char tmpdir_path[256];

/* The test's files go with it (they used to pile up in /tmp, one folder per test run). */
static void remove_tmpdir(void) { nftw(tmpdir_path, remove_entry, 16, FTW_DEPTH | FTW_PHYS); }

const char *test_tmpdir(void) {
    char *dir = tmpdir_path;
    if (!dir[0]) {
        const char *base = getenv("TMPDIR");
        snprintf(dir, sizeof tmpdir_path, "%s/seer-test-XXXXXX", base && *base ? base : "/tmp");
        if (!mkdtemp(dir)) { perror("mkdtemp"); exit(2); }
        atexit(remove_tmpdir);
    }
    return dir;
}

const char *test_conformance_dir(void) {
    const char *d = getenv("CONFORMANCE_DIR");
    if (!d || !*d) d = "../shared/conformance";
    struct stat st;
    return stat(d, &st) == 0 && S_ISDIR(st.st_mode) ? d : NULL;
}

static int cmp_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int test_each_case(const char *root, int (*fn)(const char *root, const char *name, void *ctx), void *ctx) {
    char path[1024];
    snprintf(path, sizeof path, "%s/cases", root);
    DIR *d = opendir(path);
    if (!d) {
        printf("SKIP: %s not readable\n", path);
        return 0;
    }
    char *names[256];
    int n = 0, sum = 0;
    for (struct dirent *e; (e = readdir(d)) && n < 256;)
        if (e->d_name[0] != '.') names[n++] = strdup(e->d_name);
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, cmp_names);
    for (int i = 0; i < n; i++) {
        sum += fn(root, names[i], ctx);
        free(names[i]);
    }
    return sum;
}

int test_each_conformance_case(int (*fn)(const char *root, const char *name, void *ctx), void *ctx,
                               int *have_shared) {
    const char *shared = test_conformance_dir();
    *have_shared = shared != NULL;
    if (!shared) printf("SKIP: shared conformance folder not found (set CONFORMANCE_DIR)\n");
    return (shared ? test_each_case(shared, fn, ctx) : 0) + test_each_case("tests/conformance", fn, ctx);
}
