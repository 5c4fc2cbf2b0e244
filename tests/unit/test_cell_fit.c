/* The preview's per-cell glyph and colour fitting (ui/cell_fit.c, compiled
 * in: the unit tests link only the engine): two-colour cells map to exactly
 * the glyph drawing their pattern with exactly those colours, in every art;
 * a mixed cell gets the split with the least squared error; names parse. */
#include "../../ui/cell_fit.c"
#include "testlib.h"

#define CHECK_EQ_INT(a, b) CHECK_MSG((long)(a) == (long)(b), "%s = 0x%lx, expected 0x%lx", #a, (long)(a), (long)(b))
#define CHECK_STR_EQ(a, b) CHECK_MSG(!strcmp(a, b), "%s = \"%s\", expected \"%s\"", #a, a, b)

enum { RED = 0xFF0000, BLUE = 0x0000FF, WHITE = 0xFFFFFF, BLACK = 0x000000 };

/* Sub-pixels of one cell: bit i of mask is ink, the rest paper. */
static void paint(int n, unsigned mask, unsigned ink, unsigned paper, unsigned *sub) {
    for (int i = 0; i < n; i++) sub[i] = mask >> i & 1 ? ink : paper;
}

/* Every two-colour pattern of an art: the glyph of that very pattern (or of
 * its mirror, colours swapped, when the pattern covers the top-left
 * sub-pixel, which is always on the background side). */
static void exact_patterns(cell_art art) {
    int cols, rows;
    cell_art_grid(art, &cols, &rows);
    int n = cols * rows;
    unsigned full = (1u << n) - 1;
    for (unsigned mask = 1; mask < full; mask++) {
        unsigned sub[CELL_MAX_SUB];
        paint(n, mask, RED, BLUE, sub);
        cell_glyph g = cell_fit(art, sub);
        bool mirrored = mask & 1;
        unsigned want_mask = mirrored ? full & ~mask : mask;
        CHECK_EQ_INT(g.mask, want_mask);
        CHECK_STR_EQ(g.utf8, cell_art_glyph(art, want_mask));
        CHECK_EQ_INT(g.fg, mirrored ? BLUE : RED);
        CHECK_EQ_INT(g.bg, mirrored ? RED : BLUE);
    }
}

/* fit(art, sub) must be exactly glyph, fg on bg. */
#define EXPECT_CELL(art, sub, glyph, ink, paper)                                                                      \
    do {                                                                                                               \
        cell_glyph g_ = cell_fit(art, sub);                                                                            \
        CHECK_STR_EQ(g_.utf8, glyph);                                                                                  \
        CHECK_EQ_INT(g_.fg, ink);                                                                                      \
        CHECK_EQ_INT(g_.bg, paper);                                                                                    \
    } while (0)

static void test_quadrant_patterns(void) {
    /* Upper right red, the rest blue: U+259D QUADRANT UPPER RIGHT, red on blue. */
    EXPECT_CELL(CELL_QUADRANT, ((unsigned[4]){BLUE, RED, BLUE, BLUE}), "\u259D", RED, BLUE);
    /* Upper left red: drawn as its mirror U+259F (the other three), blue on red. */
    EXPECT_CELL(CELL_QUADRANT, ((unsigned[4]){RED, BLUE, BLUE, BLUE}), "\u259F", BLUE, RED);
    /* The diagonal pair U+259E (upper right and lower left), black on white. */
    EXPECT_CELL(CELL_QUADRANT, ((unsigned[4]){WHITE, BLACK, BLACK, WHITE}), "\u259E", BLACK, WHITE);
    exact_patterns(CELL_QUADRANT);
}

static void test_sextant_and_halfblock_patterns(void) {
    /* Sextant cells 2, 3, 4 (sub-pixels 1, 2, 3) are U+1FB0D BLOCK SEXTANT-234. */
    unsigned sub[6];
    paint(6, 2 | 4 | 8, RED, BLUE, sub);
    EXPECT_CELL(CELL_SEXTANT, sub, "\U0001FB0D", RED, BLUE);
    /* The right column is the older RIGHT HALF BLOCK. */
    paint(6, 2 | 8 | 32, RED, BLUE, sub);
    EXPECT_CELL(CELL_SEXTANT, sub, "\u2590", RED, BLUE);
    exact_patterns(CELL_SEXTANT);
    /* Half blocks: the lower half in fg, the upper in bg. */
    EXPECT_CELL(CELL_HALFBLOCK, ((unsigned[2]){BLUE, RED}), "\u2584", RED, BLUE);
    exact_patterns(CELL_HALFBLOCK);
}

static void test_one_colour_is_a_space(void) {
    unsigned sub[6] = {0x123456, 0x123456, 0x123456, 0x123456, 0x123456, 0x123456};
    for (int a = 0; a < 3; a++) EXPECT_CELL((cell_art)a, sub, " ", 0x123456, 0x123456);
}

/* Brute force: the squared error of the chosen glyph's colours over the
 * cell is the least over every split, on cells of four different colours. */
static void test_least_squared_error(void) {
    unsigned seed = 7;
    for (int trial = 0; trial < 500; trial++) {
        for (int a = 0; a < 3; a++) {
            int cols, rows;
            cell_art_grid((cell_art)a, &cols, &rows);
            int n = cols * rows;
            unsigned sub[CELL_MAX_SUB];
            for (int i = 0; i < n; i++) {
                seed = seed * 1103515245u + 12345u;
                sub[i] = seed >> 8 & 0xFFFFFF;
            }
            cell_glyph g = cell_fit((cell_art)a, sub);
            double got = 0, best = -1;
            for (int i = 0; i < n; i++)
                for (int c = 0; c < 3; c++) {
                    double d = (double)channel(sub[i], c) - channel(g.mask >> i & 1 ? g.fg : g.bg, c);
                    got += d * d;
                }
            for (unsigned mask = 0; mask < 1u << n; mask++) {
                double err = 0;
                for (int side = 0; side < 2; side++) {
                    double sum[3] = {0}, sq = 0;
                    int k = 0;
                    for (int i = 0; i < n; i++)
                        if ((int)(mask >> i & 1) == side) {
                            k++;
                            for (int c = 0; c < 3; c++) {
                                sum[c] += channel(sub[i], c);
                                sq += (double)channel(sub[i], c) * channel(sub[i], c);
                            }
                        }
                    if (k) err += sq - (sum[0] * sum[0] + sum[1] * sum[1] + sum[2] * sum[2]) / k;
                }
                if (best < 0 || err < best) best = err;
            }
            /* got uses means rounded to whole levels: at most n/4 more per channel. */
            CHECK(got <= best + 0.25 * n * 3 + 1e-6);
        }
    }
}

static void test_names(void) {
    cell_art a = CELL_QUADRANT;
    CHECK(cell_art_parse("sextant", &a) && a == CELL_SEXTANT);
    CHECK(cell_art_parse("halfblock", &a) && a == CELL_HALFBLOCK);
    CHECK(cell_art_parse("quadrant", &a) && a == CELL_QUADRANT);
    CHECK(!cell_art_parse("octant", &a) && a == CELL_QUADRANT);
    CHECK_STR_EQ(cell_art_name(CELL_SEXTANT), "sextant");
}

int main(void) {
    test_quadrant_patterns();
    test_sextant_and_halfblock_patterns();
    test_one_colour_is_a_space();
    test_least_squared_error();
    test_names();
    TEST_MAIN_END();
}
