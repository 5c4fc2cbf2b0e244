/* State shared by the UI's files (the UI thread's terminal state). */
#ifndef SEER_UI_TUI_INTERNAL_H
#define SEER_UI_TUI_INTERNAL_H

#include <curses.h>
#include <limits.h>
#include <stdio.h>

#include "preview.h"
#include "seer/worker.h"
#include "theme.h"
#include "transcript.h"
#include "tui.h"

#define TUI_MIN_COLS 30
#define TUI_MIN_ROWS 8
#define TUI_SPARK 64

typedef enum tui_state { ST_LOADING, ST_IDLE, ST_ENCODING, ST_PREFILL, ST_GENERATING, ST_FAILED } tui_state;

typedef struct tui_token {
    int32_t id;
    char *text;          /* sanitised, control bytes as pictures */
    double ms;
    float prob;
} tui_token;

typedef struct tui_image {
    char *path;
    seer_image img;      /* for the preview (decoded by the UI) */
    int n_tokens;
    double encode_ms;
    bool encoded;
    bool sent;           /* went into a user turn already */
    uint64_t request;    /* the worker request that encodes it */
} tui_image;

struct tui_find; /* /find: the open index and the last results (tui_find.c) */

typedef struct tui {
    tui_config cfg;
    struct tui_find *find;
    seer_worker *worker;
    tui_state state;
    bool quit;
    int exit_code;
    char load_error[SEER_ERR_MAX];
    float load_fraction;
    double load_mb, load_mb_total;
    float encode_fraction;    /* of the image being encoded (SEER_EV_ENCODE_PROGRESS); 0: no report yet */
    seer_model_summary model;
    seer_sampling sampling;
    int n_predict;
    int pending_requests;     /* image/turn requests in flight */

    /* windows (NULL when collapsed) */
    WINDOW *w_transcript, *w_side_border, *w_preview, *w_timings, *w_status, *w_input, *w_overlay;
    int rows, cols, input_rows;
    bool too_small;
    int preview_y, preview_x, preview_h, preview_w; /* pane position in cells */

    transcript tr;
    int cur_reply;            /* transcript index of the streaming reply, -1 */
    int cur_thought;          /* … and of its thought (thinking models), -1 */
    bool answer_started;      /* the reply's answer has begun (its thought then folds) */
    bool thoughts_open;       /* Ctrl-T: finished thoughts shown whole */
    int think_tokens;         /* of the last reply: thought and answer apart */
    double think_ms, answer_ms;

    tui_image *images;
    int n_images, cap_images;
    int selected_image;       /* -1: none */

    /* timings */
    double spark[TUI_SPARK];
    int n_spark;
    double last_ms, ttft_ms, turn_start_ms, gen_first_ms, gen_total_ms;
    int gen_tokens, gen_tokens_total;
    double gen_ms_total;
    int prefill_tokens;
    double prefill_ms;
    double image_ms;
    int image_tokens;
    int ctx_used, ctx_size;
    seer_turn_stats last_stats;
    bool have_stats;

    tui_token *tokens;        /* of the last reply */
    int n_tokens, cap_tokens;

    /* token inspector */
    bool inspector;
    int insp_top;

    /* sixel */
    bool sixel;
    int cell_w, cell_h;
    bool sixel_dirty;
    char *sixel_bytes;
    size_t sixel_len;
    int sixel_key_image, sixel_key_w, sixel_key_h;

    double last_ctrl_c;
    char notice[256];
    double notice_until;
    const char *theme_dirs[5];
    char theme_dir_buf[4][PATH_MAX + 64];
    FILE *event_log;
} tui;

extern tui *TUI;

/* panels */
void tui_layout(tui *t);
void tui_draw_all(tui *t);
void tui_draw_status(tui *t);
void tui_draw_timings(tui *t);
void tui_draw_preview(tui *t);
void tui_draw_inspector(tui *t);
void tui_emit_sixel(tui *t);
void tui_notice(tui *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* commands and lines */
void tui_handle_line(tui *t, char *line);
void tui_note(tui *t, tr_kind kind, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int tui_add_image(tui *t, const char *path);
void tui_reset_timings(tui *t);
double tui_rss_mb(void);

/* thinking models' thoughts in the transcript (tui_thought.c) */
void tui_thought_turn_start(tui *t);
void tui_thought_token(tui *t, const seer_event *ev); /* a TOKEN event: thought and answer bytes to their entries */
void tui_thought_turn_end(tui *t, const seer_turn_stats *st);
void tui_thought_toggle(tui *t);                      /* Ctrl-T */
void tui_think_command(tui *t, int on);               /* /think on|off (-1: show) */

/* /find TEXT, /index [PATH], and a number typed after /find (tui_find.c) */
void tui_find(tui *t, const char *text);
void tui_find_set_index(tui *t, const char *path);
bool tui_find_pick(tui *t, const char *line); /* true: the line chose a result */
/* The worker's answer to the search in flight (FOUND, or ERROR): true when
 * the event was that answer, now handled (results listed, or the error noted). */
bool tui_find_answer(tui *t, seer_event *ev);
/* The last results' numbered thumbnails while they wait for a pick, else NULL. */
const seer_image *tui_find_sheet(const tui *t);
/* sixel_key_image of /find's thumbnails; SIXEL_KEY_NONE: the cached sixel is stale */
enum { SIXEL_KEY_SHEET = -2, SIXEL_KEY_NONE = -3 };
int tui_find_count(const tui *t);
void tui_find_free(tui *t);

#endif
