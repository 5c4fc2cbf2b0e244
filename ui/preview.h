/* The image preview pane: sixel (libsixel) when the terminal has it,
 * otherwise colour block-glyph art. */
#ifndef SEER_UI_PREVIEW_H
#define SEER_UI_PREVIEW_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cell_fit.h"
#include "seer/image.h"

/* Largest size that fits w×h keeping the aspect ratio (at least 1×1). */
void preview_fit(int iw, int ih, int w, int h, int *ow, int *oh);

/* Sixel bytes (DCS … ST) of img scaled to fit pw×ph pixels; *out malloc'd. */
int preview_sixel_encode(const seer_image *img, int pw, int ph, char **out, size_t *len, int *out_w, int *out_h);

/* Draws img into win as block glyphs (see cell_fit.h: half blocks,
 * quadrants or sextants, two colours per cell), centred. Without colours:
 * shade characters. */
void preview_draw_cells(WINDOW *win, const seer_image *img, cell_art art);

/* The same cells printed to a terminal outside curses (24-bit colour
 * escapes), w×h cells at most, each row after indent spaces; returns the
 * rows printed or -1. */
int preview_print_cells(FILE *out, const seer_image *img, int w, int h, cell_art art, int indent);

/* Asks the terminal (before curses starts) for its primary device
 * attributes and cell size; true when the DA1 reply lists sixel (4). */
bool preview_detect_sixel(int *cell_w, int *cell_h);

#endif
