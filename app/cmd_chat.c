/* PLACEHOLDER: replaced by the real implementation of 'seer chat'. */
#include <stdio.h>
#include "commands.h"
int cmd_chat(int argc, char **argv) { (void)argc; (void)argv; fprintf(stderr, "seer: 'chat' is not built yet\n"); return 2; }
