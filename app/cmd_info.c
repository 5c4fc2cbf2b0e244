/* PLACEHOLDER: replaced by the real implementation of 'seer info'. */
#include <stdio.h>
#include "commands.h"
int cmd_info(int argc, char **argv) { (void)argc; (void)argv; fprintf(stderr, "seer: 'info' is not built yet\n"); return 2; }
