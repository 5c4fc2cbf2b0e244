#include "testlib.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

int test_failures = 0;

const char *test_tmpdir(void) {
    static char dir[256];
    if (!dir[0]) {
        const char *base = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/seer-test-XXXXXX", base && *base ? base : "/tmp");
        if (!mkdtemp(dir)) { perror("mkdtemp"); exit(2); }
    }
    return dir;
}

const char *test_conformance_dir(void) {
    const char *d = getenv("CONFORMANCE_DIR");
    if (!d || !*d) d = "../shared/conformance";
    struct stat st;
    return stat(d, &st) == 0 && S_ISDIR(st.st_mode) ? d : NULL;
}
