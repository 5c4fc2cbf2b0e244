/* Choosing a block glyph and two colours per cell (see cell_fit.h). */
#include "cell_fit.h"

#include <string.h>

void cell_art_grid(cell_art art, int *cols, int *rows) {
    *cols = art == CELL_HALFBLOCK ? 1 : 2;
    *rows = art == CELL_SEXTANT ? 3 : 2;
}

static const char *const ART_NAMES[] = {[CELL_QUADRANT] = "quadrant", [CELL_HALFBLOCK] = "halfblock",
                                        [CELL_SEXTANT] = "sextant"};

bool cell_art_parse(const char *name, cell_art *out) {
    for (int a = 0; a < (int)(sizeof ART_NAMES / sizeof ART_NAMES[0]); a++)
        if (!strcmp(name, ART_NAMES[a])) {
            *out = (cell_art)a;
            return true;
        }
    return false;
}

const char *cell_art_name(cell_art art) { return ART_NAMES[art]; }

/* Glyphs by mask (bit i = sub-pixel i, row-major). */
static const char *const HALF_BLOCKS[4] = {" ", "\u2580", "\u2584", "\u2588"}; /* top, bottom */
static const char *const QUADRANTS[16] = {
    " ",      "\u2598", "\u259D", "\u2580", "\u2596", "\u258C", "\u259E", "\u259B",
    "\u2597", "\u259A", "\u2590", "\u259C", "\u2584", "\u2599", "\u259F", "\u2588",
};
/* Unicode numbers the sextants U+1FB00.. by their mask, leaving out the four
 * that older block elements draw: empty, left half (21), right half (42), full. */
static const char *const SEXTANTS[64] = {
    " ", "\U0001FB00", "\U0001FB01", "\U0001FB02", "\U0001FB03", "\U0001FB04", "\U0001FB05", "\U0001FB06",
    "\U0001FB07", "\U0001FB08", "\U0001FB09", "\U0001FB0A", "\U0001FB0B", "\U0001FB0C", "\U0001FB0D", "\U0001FB0E",
    "\U0001FB0F", "\U0001FB10", "\U0001FB11", "\U0001FB12", "\U0001FB13", "\u258C", "\U0001FB14", "\U0001FB15",
    "\U0001FB16", "\U0001FB17", "\U0001FB18", "\U0001FB19", "\U0001FB1A", "\U0001FB1B", "\U0001FB1C", "\U0001FB1D",
    "\U0001FB1E", "\U0001FB1F", "\U0001FB20", "\U0001FB21", "\U0001FB22", "\U0001FB23", "\U0001FB24", "\U0001FB25",
    "\U0001FB26", "\U0001FB27", "\u2590", "\U0001FB28", "\U0001FB29", "\U0001FB2A", "\U0001FB2B", "\U0001FB2C",
    "\U0001FB2D", "\U0001FB2E", "\U0001FB2F", "\U0001FB30", "\U0001FB31", "\U0001FB32", "\U0001FB33", "\U0001FB34",
    "\U0001FB35", "\U0001FB36", "\U0001FB37", "\U0001FB38", "\U0001FB39", "\U0001FB3A", "\U0001FB3B", "\u2588",
};

const char *cell_art_glyph(cell_art art, unsigned mask) {
    if (art == CELL_HALFBLOCK) return HALF_BLOCKS[mask & 3];
    if (art == CELL_QUADRANT) return QUADRANTS[mask & 15];
    return SEXTANTS[mask & 63];
}

static unsigned channel(unsigned rgb, int c) { return rgb >> (16 - 8 * c) & 255; }

static unsigned mean_rgb(const long sum[3], int n) {
    unsigned rgb = 0;
    for (int c = 0; c < 3; c++) rgb = rgb << 8 | (unsigned)((sum[c] + n / 2) / n);
    return rgb;
}

cell_glyph cell_fit(cell_art art, const unsigned *sub) {
    int cols, rows;
    cell_art_grid(art, &cols, &rows);
    int n = cols * rows;
    long total[3] = {0}, total_sq = 0;
    for (int i = 0; i < n; i++)
        for (int c = 0; c < 3; c++) {
            long v = channel(sub[i], c);
            total[c] += v;
            total_sq += v * v;
        }
    /* A side's squared error is its sum of squares less (its sum)^2 / its
     * count: the sums of squares add up to total_sq whatever the split, so
     * the best split is the one with the largest sum of (side sum)^2 / count. */
    unsigned best_mask = 0;
    int best_n_fg = 0;
    double best_err = -1;
    long best_fg[3] = {0};
    for (unsigned mask = 0; mask < 1u << n; mask += 2) { /* bit 0 clear: sub-pixel 0 is background */
        long fg[3] = {0};
        int n_fg = 0;
        for (int i = 0; i < n; i++)
            if (mask >> i & 1) {
                n_fg++;
                for (int c = 0; c < 3; c++) fg[c] += channel(sub[i], c);
            }
        double explained = 0;
        for (int c = 0; c < 3; c++) {
            long bg = total[c] - fg[c];
            if (n_fg) explained += (double)fg[c] * (double)fg[c] / n_fg;
            explained += (double)bg * (double)bg / (n - n_fg);
        }
        double err = (double)total_sq - explained;
        if (best_err < 0 || err < best_err - 1e-6) {
            best_err = err;
            best_mask = mask;
            best_n_fg = n_fg;
            memcpy(best_fg, fg, sizeof fg);
        }
    }
    long bg[3];
    for (int c = 0; c < 3; c++) bg[c] = total[c] - best_fg[c];
    cell_glyph g = {cell_art_glyph(art, best_mask), 0, mean_rgb(bg, n - best_n_fg), best_mask};
    g.fg = best_n_fg ? mean_rgb(best_fg, best_n_fg) : g.bg;
    return g;
}
