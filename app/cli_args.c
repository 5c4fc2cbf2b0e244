/* Numbers in the subcommands' arguments. */
#include "cli_args.h"

#include <stdlib.h>

int app_parse_int(const char *val, int lo, int hi, int *out) {
    char *end;
    long v = strtol(val, &end, 10);
    if (*val == 0 || *end != 0 || v < lo || v > hi) return -1;
    *out = (int)v;
    return 0;
}
