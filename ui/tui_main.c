/* The app's entry into the UI: its command-line options → tui_config. */
#include "../app/options.h"
#include "tui.h"

int tui_main(const app_options *opts) {
    tui_config c = {0};
    c.model_path = opts->model_path;
    c.mmproj_path = opts->mmproj_path;
    c.images = opts->images;
    c.n_images = opts->n_images;
    c.theme = opts->theme;
    c.sixel = opts->sixel == APP_SIXEL_ON ? TUI_SIXEL_ON : opts->sixel == APP_SIXEL_OFF ? TUI_SIXEL_OFF : TUI_SIXEL_AUTO;
    c.preview = opts->preview;
    c.n_threads = opts->n_threads;
    c.index_path = opts->index_path;
    c.params = app_options_session_params(opts);
    return tui_run(&c);
}
