/* Locating seer's data files from the binary's own path (data_files.h). */
#include "data_files.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool app_data_file(const char *rel, char *out, size_t cap) {
    char dir[PATH_MAX];
    const ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - 1);
    if (n <= 0) return false;
    dir[n] = 0;
    char *slash = strrchr(dir, '/');
    if (!slash) return false;
    *slash = 0;
    /* source tree (./seer), a build folder in it (build-san/seer), installed */
    static const char *const layouts[] = {"%s/assets/%s", "%s/../assets/%s", "%s/../share/seer/%s"};
    for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; i++) {
        const int len = snprintf(out, cap, layouts[i], dir, rel);
        if (len <= 0 || (size_t)len >= cap || access(out, R_OK) != 0) continue;
        char clean[PATH_MAX]; /* shown to the user: no "bin/../" in it */
        if (realpath(out, clean) && strlen(clean) < cap) memcpy(out, clean, strlen(clean) + 1);
        return true;
    }
    return false;
}
