/* mkdir -p: every missing folder of a path, for outputs the user names. */
#include "seer/safe_write.h"

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>

static int make_one(const char *path, unsigned mode, seer_error *err) {
    if (mkdir(path, (mode_t)mode) == 0) return 0;
    int e = errno;
    struct stat st;
    if (e == EEXIST && stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) return 0;
        e = ENOTDIR; /* a file is in the way */
    }
    seer_error_set(err, "cannot create the folder %.300s: %s", path, strerror(e));
    return -1;
}

int seer_mkdirs(const char *dir, unsigned mode, seer_error *err) {
    char path[PATH_MAX];
    size_t n = strlen(dir);
    if (n == 0 || n >= sizeof path) {
        seer_error_set(err, "cannot create the folder %.200s: %s", dir, n ? "path too long" : "empty path");
        return -1;
    }
    memcpy(path, dir, n + 1);
    while (n > 1 && path[n - 1] == '/') path[--n] = '\0';
    for (char *p = path + 1; *p; p++) {
        if (*p != '/' || p[-1] == '/') continue;
        *p = '\0';
        int rc = make_one(path, mode, err);
        *p = '/';
        if (rc != 0) return -1;
    }
    return make_one(path, mode, err);
}
