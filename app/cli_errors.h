/* The subcommands' one-line errors on stderr, "seer CMD: …", with outside
 * text (arguments, paths, metadata) made terminal-safe. */
#ifndef SEER_APP_CLI_ERRORS_H
#define SEER_APP_CLI_ERRORS_H

/* "seer CMD: MSG ARG (try 'seer CMD --help')"; arg may be NULL. Returns 2. */
int app_usage_error(const char *cmd, const char *msg, const char *arg);
/* "seer CMD: MSG". Returns 1. */
int app_fail(const char *cmd, const char *msg);
/* "seer CMD: WHAT PATH: WHY". Returns 1. */
int app_fail_path(const char *cmd, const char *what, const char *path, const char *why);

#endif
