/* The interactive terminal UI (ncurses + readline + sixel previews). */
#ifndef SEER_UI_TUI_H
#define SEER_UI_TUI_H

#include "cell_fit.h"
#include "seer/session.h"

typedef enum tui_sixel_mode { TUI_SIXEL_AUTO = 0, TUI_SIXEL_ON, TUI_SIXEL_OFF } tui_sixel_mode;

/* Everything the UI needs to start; strings are borrowed for the call. */
typedef struct tui_config {
    const char *model_path;
    const char *mmproj_path;         /* NULL: text only */
    const char *const *images;       /* attached to the first turn */
    int n_images;
    const char *theme;               /* NULL: "dark" */
    tui_sixel_mode sixel;
    cell_art preview;                /* glyphs of the text-art preview (no sixel) */
    int n_threads;                   /* <= 0: all cores */
    const char *index_path;          /* --index: what /find searches (NULL: none until /index) */
    seer_session_params params;
} tui_config;

/* Runs the UI until the user quits; returns the process exit code (0, or 1
 * when the model could not be loaded). */
int tui_run(const tui_config *cfg);

#ifdef SEER_APP_OPTIONS_H
/* Entry point used by the app: maps its options onto tui_config. */
int tui_main(const app_options *opts);
#endif

#endif
