/* The subcommands' one-line errors (cli_errors.h). */
#include "cli_errors.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seer/sanitize.h"

int app_usage_error(const char *cmd, const char *msg, const char *arg) {
    char *safe = arg ? seer_text_sanitize_dup(arg, strlen(arg), 0) : NULL;
    fprintf(stderr, "seer %s: %s%s%s (try 'seer %s --help')\n", cmd, msg, safe ? " " : "", safe ? safe : "", cmd);
    free(safe);
    return 2;
}

int app_fail(const char *cmd, const char *msg) {
    char *safe = seer_text_sanitize_dup(msg, strlen(msg), 0);
    fprintf(stderr, "seer %s: %s\n", cmd, safe ? safe : "error");
    free(safe);
    return 1;
}

int app_fail_path(const char *cmd, const char *what, const char *path, const char *why) {
    size_t len = strlen(what) + strlen(path) + strlen(why) + 8;
    char *msg = malloc(len);
    if (!msg) return app_fail(cmd, what);
    snprintf(msg, len, "%s %s: %s", what, path, why);
    int rc = app_fail(cmd, msg);
    free(msg);
    return rc;
}
