/* seer: entry point. Dispatches to a subcommand, or to the chat (TUI or headless). */
#include <stdio.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "commands.h"
#include "seer/cpu.h"

typedef struct subcommand {
    const char *name;
    int (*run)(int argc, char **argv);
} subcommand;

static const subcommand SUBCOMMANDS[] = {
    {"info", cmd_info}, {"tokenize", cmd_tokenize}, {"encode", cmd_encode}, {"bench", cmd_bench},
    {"embed", cmd_embed}, {"quantize", cmd_quantize}, {"index", cmd_index}, {"search", cmd_search},
    {"ocr", cmd_ocr}, {"serve", cmd_serve},
};

/* Large buffers (an encoder's scratch, an image's tiles) are mapped and
 * returned to the system when freed. glibc otherwise raises its mapping
 * threshold to the largest block freed so far (up to 32 MB) and keeps later
 * blocks of that size in its heap after free: SmolVLM's 17-tile image left
 * ~25 MB resident through the prompt that followed (peak 468 vs 445 MB,
 * weights + KV cache 396 MB). Fixing the threshold turns that off; the
 * extra page faults were not measurable in encode time. */
static void return_large_blocks(void) {
#ifdef __GLIBC__
    mallopt(M_MMAP_THRESHOLD, 256 * 1024);
#endif
}

int main(int argc, char **argv) {
    return_large_blocks();
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
