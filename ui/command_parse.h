/* What a line typed in the TUI asks for, decided without the UI: a user turn,
 * images to attach (a pasted path or /image), a slash command with its
 * checked arguments, or a one-line error. Pure apart from the is_file
 * callback, so it is unit-tested and fuzzed on its own. */
#ifndef SEER_UI_COMMAND_PARSE_H
#define SEER_UI_COMMAND_PARSE_H

#include <stdbool.h>

typedef enum cmd_kind {
    CMD_NONE,   /* a blank line */
    CMD_TURN,   /* text: the user message */
    CMD_ATTACH, /* paths: n_paths NUL-separated image paths */
    CMD_QUIT,
    CMD_HELP,
    CMD_IMAGES, /* text: "" = list; else show image number `image` */
    CMD_CLEAR,
    CMD_SYSTEM, /* text: the system prompt ("" removes it) */
    CMD_SET,    /* setting, setting_name, value (finite, in range, checked sign) */
    CMD_THEME,  /* text: the theme's name ("" = list them) */
    CMD_STATS,
    CMD_TOKENS,
    CMD_SAVE,   /* text: the file */
    CMD_FIND,   /* text: what to look for in the image index */
    CMD_INDEX,  /* text: the index /find uses ("" = show it) */
    CMD_THINK,  /* think: 1 on, 0 off, -1 show the mode */
    CMD_OCR,    /* text: the instruction ("" = the model's OCR prompt) */
    CMD_ERROR,  /* error: what to tell the user */
} cmd_kind;

typedef enum cmd_setting {
    SET_TEMP, SET_TOP_K, SET_TOP_P, SET_MIN_P, SET_SEED, SET_N_PREDICT, SET_REPEAT_PENALTY,
} cmd_setting;

typedef struct cmd {
    cmd_kind kind;
    const char *text;  /* points into the line */
    const char *paths; /* into the line, or `pasted` */
    int n_paths;
    int image;         /* CMD_IMAGES: the number given (strtol, clamped to int) */
    int think;         /* CMD_THINK */
    cmd_setting setting;
    const char *setting_name;
    double value;
    char pasted[4096];
    char error[2048];
} cmd;

/* Whether path names an existing regular file (the TUI asks stat). */
typedef bool (*cmd_is_file_fn)(const char *path);

/* Parses `line` (modified in place: trimmed, split, unescaped; c->text and
 * c->paths point into it). A line that is just the path of an existing image
 * (maybe quoted, file://, with "\ " escapes) attaches it, even if it starts
 * with '/'. Returns c->kind. */
cmd_kind cmd_parse(char *line, cmd_is_file_fn is_file, cmd *c);

/* The trimmed line (what history keeps); modifies line in place. */
char *cmd_trim(char *line);

#endif
