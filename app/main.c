/* seer: entry point. Dispatches to a subcommand, or to the chat (TUI or headless). */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "seer/cpu.h"

typedef struct subcommand {
    const char *name;
    int (*run)(int argc, char **argv);
} subcommand;

static const subcommand SUBCOMMANDS[] = {
    {"info", cmd_info}, {"tokenize", cmd_tokenize}, {"encode", cmd_encode}, {"bench", cmd_bench},
};

int main(int argc, char **argv) {
    const char *simd_problem = seer_simd_env_problem(); /* a typo must not silently run other kernels */
    if (simd_problem) {
        fprintf(stderr, "seer: %s\n", simd_problem);
        return 2;
    }
    if (argc > 1) {
        for (size_t i = 0; i < sizeof SUBCOMMANDS / sizeof SUBCOMMANDS[0]; i++)
            if (strcmp(argv[1], SUBCOMMANDS[i].name) == 0) return SUBCOMMANDS[i].run(argc - 1, argv + 1);
    }
    return cmd_chat(argc, argv);
}
