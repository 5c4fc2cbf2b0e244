/* Numbers in the subcommands' arguments. */
#ifndef SEER_APP_CLI_ARGS_H
#define SEER_APP_CLI_ARGS_H

/* A whole decimal integer in [lo, hi] → *out, 0; else -1. */
int app_parse_int(const char *val, int lo, int hi, int *out);

#endif
