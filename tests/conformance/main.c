/* conformance [--vision-precision bf16] DIR...: walks each DIR (default $CONFORMANCE_DIR) recursively;
 * every folder with a case.json is a case. One line per case, then one
 * "N passed, N failed[, N skipped]" over all folders (a folder that does not
 * exist is one skip). Exit status 1 when any case failed. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "conformance.h"
#include "seer/matmul.h"

bool conformance_bf16 = false;

typedef struct tally {
    int passed, failed, skipped;
} tally;

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void walk(const char *dir, seer_pool *pool, tally *t) {
    char *cj = path_join(dir, "case.json");
    if (cj && file_exists(cj)) {
        const char *name = strrchr(dir, '/');
        name = name ? name + 1 : dir;
        case_result res = {0};
        run_case(dir, pool, &res);
        switch (res.status) {
        case CASE_PASS: printf("PASS %s%s\n", name, res.detail); t->passed++; break;
        case CASE_FAIL: printf("FAIL %s: %s\n", name, res.detail); t->failed++; break;
        case CASE_SKIP: printf("SKIP %s: %s\n", name, res.detail); t->skipped++; break;
        }
        fflush(stdout);
    }
    free(cj);
    DIR *d = opendir(dir);
    if (!d) return;
    char **subs = NULL;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char *p = path_join(dir, e->d_name);
        struct stat st;
        if (p && stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
            char **s = realloc(subs, (n + 1) * sizeof *s);
            if (s) {
                subs = s;
                subs[n++] = p;
                continue;
            }
        }
        free(p);
    }
    closedir(d);
    if (n) qsort(subs, n, sizeof *subs, cmp_str); /* subs is NULL when n == 0: qsort(NULL) is UB */
    for (size_t i = 0; i < n; i++) {
        walk(subs[i], pool, t);
        free(subs[i]);
    }
    free(subs);
}

int main(int argc, char **argv) {
    const char *env = getenv("CONFORMANCE_DIR");
    const char *const *dirs = (const char *const *)argv + 1;
    int n_dirs = argc - 1;
    if (n_dirs >= 2 && strcmp(dirs[0], "--vision-precision") == 0) {
        if (strcmp(dirs[1], "bf16") != 0 && strcmp(dirs[1], "exact") != 0) {
            fprintf(stderr, "conformance: --vision-precision takes exact or bf16, not '%s'\n", dirs[1]);
            return 2;
        }
        conformance_bf16 = strcmp(dirs[1], "bf16") == 0;
        if (conformance_bf16 && !seer_matmul_bf16_ready()) {
            printf("SKIP conformance --vision-precision bf16: no BF16 dot products on this CPU\n");
            return 0;
        }
        dirs += 2;
        n_dirs -= 2;
    }
    if (n_dirs == 0 && env && *env) {
        dirs = &env;
        n_dirs = 1;
    }
    if (n_dirs == 0) {
        fprintf(stderr, "usage: conformance [--vision-precision exact|bf16] DIR... (or set CONFORMANCE_DIR)\n");
        return 2;
    }
    seer_pool *pool = seer_pool_create(0);
    tally t = {0};
    for (int i = 0; i < n_dirs; i++) {
        struct stat st;
        if (stat(dirs[i], &st) != 0 || !S_ISDIR(st.st_mode)) {
            printf("SKIP conformance: folder %s not found\n", dirs[i]);
            t.skipped++;
            continue;
        }
        walk(dirs[i], pool, &t);
    }
    seer_pool_destroy(pool);
    printf("%d passed, %d failed", t.passed, t.failed);
    if (t.skipped) printf(", %d skipped", t.skipped);
    printf("\n");
    return t.failed ? 1 : 0;
}
