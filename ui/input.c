/* readline inside curses: readline never touches the terminal; bytes come from
 * a small queue filled by the UI loop, and redisplay draws into a window. */
#include "input.h"

#include <errno.h>
#include <readline/history.h>
#include <readline/readline.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "seer/safe_write.h"
#include "seer/sanitize.h"
#include "text.h"
#include "theme.h"

/* The input line's terminal state (one per process, like readline's own). */
static struct {
    unsigned char queue[256];
    int head, tail;
    char history[4096];
    input_line_fn on_line;
    input_matches_fn on_matches;
    WINDOW *win;
    FILE *devnull;
    bool hold, held; /* input_hold_draw: drawing put off, and owed */
} I;

static int queue_getc(FILE *f) {
    (void)f;
    if (I.head == I.tail) return EOF;
    int c = I.queue[I.head];
    I.head = (I.head + 1) % (int)sizeof I.queue;
    return c;
}

static int queue_available(void) { return I.head != I.tail; }

static void redisplay(void) {
    if (I.hold) I.held = true;
    else if (I.win) input_draw(I.win);
}

void input_hold_draw(bool hold) {
    I.hold = hold;
    if (!hold && I.held) {
        I.held = false;
        redisplay();
    }
}

static void noop_prep(int meta) { (void)meta; }
static void noop_deprep(void) {}

static void line_done(char *line) { I.on_line(line); }

static char *command_generator(const char *text, int state) {
    static const char *const CMDS[] = {"/image", "/images", "/clear", "/system", "/set", "/theme", "/stats",
                                       "/tokens", "/save", "/help", "/quit", NULL};
    static int idx;
    if (!state) idx = 0;
    while (CMDS[idx]) {
        const char *c = CMDS[idx++];
        if (strncmp(c, text, strlen(text)) == 0) return strdup(c);
    }
    return NULL;
}

/* Paths after /image (and /save); command names at the start of the line. */
static char **complete(const char *text, int start, int end) {
    (void)end;
    rl_attempted_completion_over = 1;
    if (start == 0 && text[0] == '/') return rl_completion_matches(text, command_generator);
    if (strncmp(rl_line_buffer, "/image ", 7) == 0 || strncmp(rl_line_buffer, "/save ", 6) == 0)
        return rl_completion_matches(text, rl_filename_completion_function);
    return NULL;
}

static void show_matches(char **matches, int n, int max_len) {
    (void)max_len;
    if (I.on_matches) I.on_matches(matches + 1, n);
}

/* Alt-Enter (or Enter after a trailing backslash) inserts a newline. */
static int insert_newline(int count, int key) {
    (void)count;
    (void)key;
    return rl_insert_text("\n");
}

static int accept_or_continue(int count, int key) {
    if (rl_end > 0 && rl_line_buffer[rl_end - 1] == '\\' && rl_point == rl_end) {
        rl_delete_text(rl_end - 1, rl_end);
        rl_point = rl_end;
        return rl_insert_text("\n");
    }
    return rl_newline(count, key);
}

bool input_history_path(char *buf, size_t cap) {
    const char *state = getenv("XDG_STATE_HOME");
    char dir[4096];
    if (state && *state) snprintf(dir, sizeof dir, "%s/seer", state);
    else if (getenv("HOME")) snprintf(dir, sizeof dir, "%s/.local/state/seer", getenv("HOME"));
    else return false;
    /* mkdir -p */
    for (char *p = dir + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            mkdir(dir, 0700);
            *p = '/';
        }
    mkdir(dir, 0700);
    return snprintf(buf, cap, "%s/history", dir) < (int)cap;
}

void input_init(const char *history_path, input_line_fn on_line, input_matches_fn on_matches) {
    I.on_line = on_line;
    I.on_matches = on_matches;
    I.devnull = fopen("/dev/null", "w");
    rl_readline_name = "seer";
    rl_catch_signals = 0;
    rl_catch_sigwinch = 0;
    rl_change_environment = 0;
    rl_prep_term_function = noop_prep;
    rl_deprep_term_function = noop_deprep;
    rl_getc_function = queue_getc;
    rl_input_available_hook = queue_available;
    rl_redisplay_function = redisplay;
    rl_outstream = I.devnull;
    rl_instream = stdin;
    rl_attempted_completion_function = complete;
    rl_completion_display_matches_hook = show_matches;
    rl_bind_keyseq("\\e\\r", insert_newline);
    rl_bind_keyseq("\\e\\n", insert_newline);
    rl_bind_key('\r', accept_or_continue);
    rl_bind_key('\n', accept_or_continue);
    rl_variable_bind("bell-style", "none");
    rl_variable_bind("enable-bracketed-paste", "off");
    using_history();
    stifle_history(1000);
    if (history_path) {
        snprintf(I.history, sizeof I.history, "%s", history_path);
        read_history(I.history);
    }
    rl_callback_handler_install("", line_done);
    /* Our bindings must survive readline's first-time initialisation. */
    rl_bind_keyseq("\\e\\r", insert_newline);
    rl_bind_key('\r', accept_or_continue);
    rl_bind_key('\n', accept_or_continue);
}

void input_shutdown(void) {
    rl_callback_handler_remove();
    if (I.devnull) fclose(I.devnull);
    I.devnull = NULL;
}

void input_feed(int byte) {
    int next = (I.tail + 1) % (int)sizeof I.queue;
    if (next == I.head) return;
    I.queue[I.tail] = (unsigned char)byte;
    I.tail = next;
    while (I.head != I.tail) rl_callback_read_char();
}

void input_feed_str(const char *s) {
    for (; *s; s++) {
        int next = (I.tail + 1) % (int)sizeof I.queue;
        if (next == I.head) break;
        I.queue[I.tail] = (unsigned char)*s;
        I.tail = next;
    }
    while (I.head != I.tail) rl_callback_read_char();
}

void input_insert_text(const char *s) {
    rl_insert_text(s);
    redisplay();
}

void input_remember(const char *line) {
    if (!line || !*line) return;
    HIST_ENTRY *last = history_length > 0 ? history_get(history_base + history_length - 1) : NULL;
    if (!last || strcmp(last->line, line) != 0) add_history(line);
    if (!I.history[0]) return;
    /* readline writes by name: into seer_safe_open's temporary (or the
     * device itself), so a history file at /dev/null stays a device */
    seer_safe_file out;
    if (seer_safe_open(&out, I.history, NULL) != 0) return;
    if (write_history(seer_safe_write_path(&out)) == 0) (void)seer_safe_commit(&out, NULL);
    else seer_safe_abandon(&out);
}

bool input_line_empty(void) { return rl_end == 0; }

bool input_in_search(void) { return RL_ISSTATE(RL_STATE_ISEARCH) != 0; }

void input_clear_line(void) {
    rl_replace_line("", 0);
    rl_point = rl_end = 0;
    redisplay();
}

/* Prompt + line with the cursor, wrapped; newlines in the line start new rows. */
static int layout(int width, int *cur_y, int *cur_x, WINDOW *win) {
    const char *prompt = rl_display_prompt && *rl_display_prompt ? rl_display_prompt : "› ";
    int y = 0, x = 0;
    if (win) {
        wattrset(win, ui_attr(ROLE_PROMPT));
        mvwaddstr(win, 0, 0, "");
    }
    for (int pass = 0; pass < 2; pass++) {
        const char *s = pass == 0 ? prompt : rl_line_buffer;
        int len = pass == 0 ? (int)strlen(prompt) : rl_end;
        if (win && pass == 1) wattrset(win, ui_attr(ROLE_INPUT));
        for (int i = 0; i <= len; ) {
            if (pass == 1 && i == rl_point) {
                *cur_y = y;
                *cur_x = x;
            }
            if (i == len) break;
            if (s[i] == '\n') {
                y++;
                x = 0;
                i++;
                continue;
            }
            int w;
            int n = ui_char_at(s + i, (size_t)(len - i), &w);
            if (x + w > width) {
                y++;
                x = 0;
            }
            if (win) {
                char tmp[64];
                size_t m = seer_text_sanitize(s + i, (size_t)n, tmp, sizeof tmp, 0);
                (void)m;
                mvwaddstr(win, y, x, tmp);
            }
            x += w;
            i += n;
        }
    }
    return y + 1;
}

int input_rows_wanted(int width) {
    int cy = 0, cx = 0;
    return layout(width, &cy, &cx, NULL);
}

void input_set_window(WINDOW *win) { I.win = win; }

void input_draw(WINDOW *win) {
    if (!win) return;
    int h, w;
    getmaxyx(win, h, w);
    werase(win);
    int cy = 0, cx = 0;
    /* Draw into a pad-sized pass: rows above the window are skipped by
     * scrolling the view so the cursor row stays visible. */
    int rows = layout(w, &cy, &cx, NULL);
    int top = cy >= h ? cy - h + 1 : 0;
    if (top == 0 && rows <= h) {
        layout(w, &cy, &cx, win);
    } else {
        /* Tall input: show the tail that holds the cursor. */
        WINDOW *pad = newpad(rows + 1, w);
        if (pad) {
            layout(w, &cy, &cx, pad);
            int wy, wx;
            getbegyx(win, wy, wx);
            copywin(pad, win, top, 0, 0, 0, h - 1, w - 1, FALSE);
            (void)wy;
            (void)wx;
            delwin(pad);
        }
    }
    wattrset(win, 0);
    wmove(win, cy - top, cx < w ? cx : w - 1);
    wnoutrefresh(win);
}
