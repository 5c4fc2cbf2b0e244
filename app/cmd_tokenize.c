/* PLACEHOLDER: replaced by the real implementation of 'seer tokenize'. */
#include <stdio.h>
#include "commands.h"
int cmd_tokenize(int argc, char **argv) { (void)argc; (void)argv; fprintf(stderr, "seer: 'tokenize' is not built yet\n"); return 2; }
