/* PLACEHOLDER: replaced by the real implementation of 'seer bench'. */
#include <stdio.h>
#include "commands.h"
int cmd_bench(int argc, char **argv) { (void)argc; (void)argv; fprintf(stderr, "seer: 'bench' is not built yet\n"); return 2; }
