/* PLACEHOLDER: replaced by the real implementation of 'seer encode'. */
#include <stdio.h>
#include "commands.h"
int cmd_encode(int argc, char **argv) { (void)argc; (void)argv; fprintf(stderr, "seer: 'encode' is not built yet\n"); return 2; }
