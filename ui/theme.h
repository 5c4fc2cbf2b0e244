/* Colour themes: semantic roles mapped to colours by small text files, shown
 * on 8, 256 and true-colour terminals (or attributes only under NO_COLOR). */
#ifndef SEER_UI_THEME_H
#define SEER_UI_THEME_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>

typedef enum ui_role {
    ROLE_BACKGROUND, ROLE_USER, ROLE_ASSISTANT, ROLE_SYSTEM, ROLE_IMAGE, ROLE_BORDER, ROLE_TITLE, ROLE_STATUS,
    ROLE_STATUS_BUSY, ROLE_INPUT, ROLE_PROMPT, ROLE_TIMING_FAST, ROLE_TIMING_MID, ROLE_TIMING_SLOW, ROLE_ERROR,
    ROLE_SELECTION, ROLE_MUTED, ROLE_THOUGHT, ROLE_COUNT
} ui_role;

/* Finds NAME.theme in each of dirs (NULL-terminated), parses it and applies
 * it (after initscr). On failure err says why and the current theme stays. */
bool ui_theme_load(const char *name, const char *const *dirs, char *err, size_t errlen);
/* Applies the built-in dark theme (used when no theme file is found). */
void ui_theme_builtin(void);
const char *ui_theme_name(void);
/* Attributes (colour pair and bold/dim/…) of a role. */
attr_t ui_attr(ui_role r);
/* Colour capability in use: 0 (none), 8, 256 or 16777216. */
int ui_color_depth(void);
/* A colour pair for arbitrary RGB foreground/background (image art);
 * returns 0 when colours are off. */
int ui_rgb_pair(unsigned fg_rgb, unsigned bg_rgb);
/* Forgets the image-art pairs (one picture is on screen at a time: each
 * drawing starts afresh, so pairs never run out). */
void ui_rgb_pairs_reset(void);
/* Names of the themes found in dirs, comma-separated, into buf. */
void ui_theme_list(const char *const *dirs, char *buf, size_t cap);

#endif
