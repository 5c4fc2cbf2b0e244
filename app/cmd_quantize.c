/* seer quantize [--force] IN.gguf OUT.gguf TYPE: a language model or an
 * mmproj rewritten with quantized weights (llama-quantize's per-tensor
 * choices and bytes). Progress on stderr. Exit status: 0 ok, 1 failure,
 * 2 usage. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "seer/quantize.h"
#include "seer/tensor.h"

static void usage(FILE *out) {
    fprintf(out, "usage: seer quantize [--force] IN.gguf OUT.gguf TYPE\n"
                 "  TYPE: %s\n"
                 "  --force  overwrite OUT if it exists\n",
            seer_quantize_type_names());
    fprintf(out, "example: seer quantize model-f16.gguf model-q4_k_m.gguf Q4_K_M\n");
}

/* One line rewritten in place on a terminal, a line per tensor elsewhere. */
static void show_progress(void *ctx, int i, int n, const char *name, int type, uint64_t written) {
    bool tty = isatty(STDERR_FILENO);
    fprintf(stderr, "%s[%d/%d] %-40.40s %-5s %8.1f MB written%s", tty ? "\r" : "", i, n, name, seer_type_name(type),
            written / 1e6, tty && i < n ? "" : "\n");
}

/* Ctrl-C or a kill: the writer stops at the next tensor and removes its
 * temporary file, so no half file is left beside OUT. */
static volatile int stop_flag;
static void on_stop(int sig) {
    (void)sig;
    stop_flag = 1;
}

int cmd_quantize(int argc, char **argv) {
    const char *pos[3];
    int n_pos = 0;
    seer_quantize_opts opts = {.progress = show_progress};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(argv[i], "--force")) {
            opts.force = true;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "seer quantize: unknown option '%s' (try 'seer quantize --help')\n", argv[i]);
            return 2;
        } else if (n_pos < 3) {
            pos[n_pos++] = argv[i];
        } else {
            fprintf(stderr, "seer quantize: unexpected argument '%s' (try 'seer quantize --help')\n", argv[i]);
            return 2;
        }
    }
    if (n_pos != 3) {
        usage(stderr);
        return 2;
    }
    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    opts.cancel = &stop_flag;
    seer_error err = {{0}};
    const int rc = seer_quantize_file(pos[0], pos[1], pos[2], &opts, &err);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    if (rc != 0 && stop_flag) {
        fprintf(stderr, "\nseer quantize: interrupted; %s was not written\n", pos[1]);
        return 130;
    }
    if (rc != 0) {
        fprintf(stderr, "seer quantize: %s\n", err.msg);
        return 1;
    }
    return 0;
}
