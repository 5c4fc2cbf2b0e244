/* The conversation as shown: entries (user, assistant, image, notes) kept as
 * raw text (for /save) and terminal-safe text (for the screen), wrapped and
 * drawn with scrolling that follows the stream unless scrolled up. */
#ifndef SEER_UI_TRANSCRIPT_H
#define SEER_UI_TRANSCRIPT_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>

#include "text.h"

/* TR_THOUGHT: a thinking model's reasoning before its answer (dimmed; one
 * line when folded). */
typedef enum tr_kind { TR_USER, TR_ASSISTANT, TR_IMAGE, TR_SYSTEM, TR_ERROR, TR_THOUGHT } tr_kind;

typedef struct tr_entry {
    tr_kind kind;
    char *raw; size_t raw_len, raw_cap;     /* as received */
    char *shown; size_t shown_len, shown_cap; /* sanitised */
    int wrap_width;                         /* cache of the wrapped lines */
    ui_span *lines;
    int n_lines;
    bool folded;                            /* drawn as fold_label alone */
    char fold_label[160];
} tr_entry;

typedef struct transcript {
    tr_entry *e;
    int n, cap;
    int scroll;          /* lines above the bottom; 0 follows the stream */
    int last_total, last_height, last_width;
} transcript;

/* Adds an entry (text copied and sanitised); returns its index. */
int tr_add(transcript *t, tr_kind kind, const char *text, size_t len);
/* An entry whose screen text (label, sanitised) differs from its raw text. */
int tr_add_labelled(transcript *t, tr_kind kind, const char *raw, const char *label);
/* Appends to an entry (streaming tokens). */
void tr_append(transcript *t, int idx, const char *text, size_t len);
/* Replaces an entry's screen text (sanitised here); the raw text stays. */
void tr_set_shown(transcript *t, int idx, const char *text, size_t len);
/* Folds an entry to one line (label) or unfolds it. */
void tr_fold(transcript *t, int idx, bool folded, const char *label);
void tr_clear(transcript *t);
void tr_free(transcript *t);
void tr_scroll(transcript *t, int delta);   /* > 0: up (older) */
/* Draws into win (whole window). */
void tr_draw(transcript *t, WINDOW *win);
/* Writes the transcript as Markdown to path atomically (temp + rename). */
int tr_save_markdown(const transcript *t, const char *path, const char *model_name, char *err, size_t errlen);

#endif
