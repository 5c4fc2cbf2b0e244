/* The input line: GNU readline through its callback interface, fed bytes by
 * the UI loop and drawn inside a curses window. */
#ifndef SEER_UI_INPUT_H
#define SEER_UI_INPUT_H

#include <curses.h>
#include <stdbool.h>

/* Called with each accepted line (malloc'd; the callee frees it). NULL on EOF. */
typedef void (*input_line_fn)(char *line);
/* Shows completion candidates (readline would print them to stdout). */
typedef void (*input_matches_fn)(char **matches, int n);

/* history_path may be NULL (no history file). */
void input_init(const char *history_path, input_line_fn on_line, input_matches_fn on_matches);
void input_shutdown(void);
/* The window readline's redisplay draws into (NULL: none); set on every layout. */
void input_set_window(WINDOW *win);
/* Feeds one byte typed by the user. */
void input_feed(int byte);
void input_feed_str(const char *s);
/* Inserts text at the cursor as typed characters (pastes; newlines kept). */
void input_insert_text(const char *s);
/* hold: readline's redraws are put off; releasing draws once if any was
 * owed. Keys that arrive together (a paste in a terminal without bracketed
 * paste comes as that many typed keys) are drawn once after the last: each
 * draw lays out the whole line, so a 200 KB paste drawn key by key kept the
 * UI busy for minutes. */
void input_hold_draw(bool hold);
/* Draws prompt + line into win and places the cursor. Returns rows wanted. */
void input_draw(WINDOW *win);
int input_rows_wanted(int width);
bool input_line_empty(void);
/* True while readline runs an incremental history search (Ctrl-R). */
bool input_in_search(void);
void input_clear_line(void);
/* Adds a line to the history and saves the file atomically. */
void input_remember(const char *line);
/* Where the history file lives: $XDG_STATE_HOME/seer/history or
 * ~/.local/state/seer/history (directory created). buf gets the path. */
bool input_history_path(char *buf, size_t cap);

#endif
