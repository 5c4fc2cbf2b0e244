/* Command-line options of the chat modes (headless one-shot and the TUI):
 * one struct holds everything either mode needs. */
#ifndef SEER_APP_OPTIONS_H
#define SEER_APP_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "../ui/cell_fit.h"
#include "hub_fetch.h"
#include "seer/sampler.h"
#include "seer/session.h"

typedef enum app_sixel_mode { APP_SIXEL_AUTO = 0, APP_SIXEL_ON, APP_SIXEL_OFF } app_sixel_mode;

#define APP_MAX_IMAGES 64

typedef struct app_options {
    const char *model_path;        /* -m */
    const char *mmproj_path;       /* --mmproj (NULL: text only) */
    app_hub_args hub;              /* -hf user/repo[:TAG], --hf-file, --offline, --no-mmproj */
    const char *prompt;            /* -p */
    const char *prompt_file;       /* -f ('-' = standard input) */
    const char *images[APP_MAX_IMAGES]; /* --image …, and bare image paths */
    int n_images;
    int n_predict;                 /* -n; < 0: until end of generation or context full */
    int n_threads;                 /* -t; <= 0: all cores */
    int n_ctx;                     /* -c; <= 0: min(model context, 4096) */
    seer_kv_type kv_type;          /* --kv-type f16|f32 (default f16) */
    seer_preproc_mode image_preproc; /* --image-preproc original|llamacpp (default original) */
    seer_vision_precision vision_precision; /* --vision-precision exact|bf16 (default exact) */
    seer_sampling sampling;        /* --temp --top-k --top-p --min-p --repeat-penalty --repeat-last-n --seed */
    bool seed_set;                 /* --seed given (else a time-based seed) */
    bool raw;                      /* --raw: no chat template */
    bool json;                     /* --json: one JSON event per line on stdout */
    bool think_off;                /* --think off: a thinking template's thinking-off form */
    const char *chat_template;     /* --chat-template NAME (NULL: detect) */
    const char *system_prompt;     /* --system TEXT (NULL: the template's default) */
    const char *theme;             /* --theme NAME (TUI) */
    const char *index_path;        /* --index INDEX: what /find searches (TUI) */
    app_sixel_mode sixel;          /* --sixel auto|on|off (TUI) */
    cell_art preview;              /* --preview quadrant|halfblock|sextant: text art without sixel (TUI) */
    bool no_tui;                   /* --no-tui: never start the TUI */
    bool tui;                      /* decided by app_options_parse: start the TUI */
    bool help;                     /* --help */
    bool demo;                     /* --demo: the bundled demo model and picture */
    char demo_paths[3][4096];      /* where --demo found them: LLM, mmproj, picture */
    bool verbose;                  /* --verbose: load details on stderr */
} app_options;

/* Parses argv (argv[0] is the program). Returns 0, or -1 with a one-line
 * message in err for a usage error (exit code 2). Sets opts->tui when the
 * TUI should start: stdout and stdin are terminals, no -p/-f, no --json and
 * no --no-tui. Strings point into argv. */
int app_options_parse(int argc, char **argv, app_options *opts, char *err, size_t err_cap);

/* The --help text. */
void app_options_usage(FILE *out);

/* Session parameters from the options (context, sampling, template, system). */
seer_session_params app_options_session_params(const app_options *opts);

/* Sets the encoder's precision; when bf16 is asked for on a CPU without
 * BF16 dot products, says so in one line on stderr and runs exact (the
 * answer is the same, only slower: a command line that works on one
 * machine works on every one). */
void app_vision_precision(seer_vision *v, seer_vision_precision want);

#endif
