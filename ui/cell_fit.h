/* Text-art cells for the image preview: each character cell covers a small
 * grid of sub-pixels (1x2 for half blocks, 2x2 for quadrants, 2x3 for
 * sextants) and shows one block glyph in two colours. The fitting picks, as
 * chafa does, the split of the sub-pixels into two sides and the glyph
 * drawing it whose side means leave the least squared colour error.
 * No curses here: the unit tests use it directly. */
#ifndef SEER_UI_CELL_FIT_H
#define SEER_UI_CELL_FIT_H

#include <stdbool.h>

typedef enum cell_art { CELL_QUADRANT = 0, CELL_HALFBLOCK, CELL_SEXTANT } cell_art;

/* At most 2x3 sub-pixels per cell. */
#define CELL_MAX_SUB 6

/* Sub-pixel columns and rows of one cell. */
void cell_art_grid(cell_art art, int *cols, int *rows);

/* "halfblock", "quadrant" or "sextant" → *out; false for anything else. */
bool cell_art_parse(const char *name, cell_art *out);
const char *cell_art_name(cell_art art);

typedef struct cell_glyph {
    const char *utf8; /* the block character (a space when the cell is one colour) */
    unsigned fg, bg;  /* 0xRRGGBB: the glyph's ink and the cell's background */
    unsigned mask;    /* sub-pixels drawn in fg: bit i = sub-pixel i, row-major */
} cell_glyph;

/* The best glyph and colours for one cell; sub holds its cols*rows
 * sub-pixels (0xRRGGBB, row-major). The top-left sub-pixel is always on the
 * background side, so a split and its mirror give one answer, and where a
 * font's block glyphs fall a pixel short of the cell's top (xterm with
 * DejaVu Sans Mono) the background that shows there is the top's colour. */
cell_glyph cell_fit(cell_art art, const unsigned *sub);

/* The glyph (UTF-8) that draws exactly the sub-pixels in mask. */
const char *cell_art_glyph(cell_art art, unsigned mask);

#endif
