/* seer_contact_sheet: /find's results as one picture. Each image lands in
 * its cell in reading order (rows of three), centred with its aspect kept,
 * numbered in its corner; a file that does not decode keeps its place as a
 * red square; nonsense counts are refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "seer/search.h"
#include "testlib.h"

/* A w×h PPM of one colour. */
static void write_ppm(const char *path, int w, int h, uint8_t r, uint8_t g, uint8_t b) {
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f) return;
    fprintf(f, "P6\n%d %d\n255\n", w, h);
    for (int i = 0; i < w * h; i++) fputc(r, f), fputc(g, f), fputc(b, f);
    fclose(f);
}

static const uint8_t *px(const seer_image *im, int x, int y) { return im->rgb + ((size_t)y * im->w + x) * 3; }
static bool is(const uint8_t *p, int r, int g, int b) { return abs(p[0] - r) < 8 && abs(p[1] - g) < 8 && abs(p[2] - b) < 8; }

int main(void) {
    char dir[] = "/tmp/seer-sheet-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char red[300], blue[300], wide[300], gone[300], green[300];
    snprintf(red, sizeof red, "%s/red.ppm", dir);
    snprintf(blue, sizeof blue, "%s/blue.ppm", dir);
    snprintf(wide, sizeof wide, "%s/wide.ppm", dir);
    snprintf(gone, sizeof gone, "%s/missing.png", dir);
    snprintf(green, sizeof green, "%s/green.ppm", dir);
    write_ppm(red, 50, 50, 250, 0, 0);
    write_ppm(blue, 40, 40, 0, 0, 250);
    write_ppm(wide, 200, 50, 0, 250, 0); /* 4:1: a quarter of the cell high */
    write_ppm(green, 30, 30, 0, 200, 0);
    const char *paths[] = {red, blue, wide, gone, green};
    seer_image s;
    seer_error err = {{0}};
    const int cell = 64, gap = 6;
    CHECK_MSG(seer_contact_sheet(paths, 5, cell, &s, &err) == 0, "%s", err.msg);
    CHECK(s.w == 3 * cell + 4 * gap && s.h == 2 * cell + 3 * gap);
    /* cell centres, reading order */
    const int cx[] = {gap + cell / 2, 2 * gap + cell + cell / 2, 3 * gap + 2 * cell + cell / 2};
    const int cy[] = {gap + cell / 2, 2 * gap + cell + cell / 2};
    CHECK(is(px(&s, cx[0], cy[0]), 250, 0, 0));
    CHECK(is(px(&s, cx[1], cy[0]), 0, 0, 250));
    CHECK(is(px(&s, cx[2], cy[0]), 0, 250, 0));
    /* the wide image is centred in its cell, background above and below */
    CHECK(is(px(&s, cx[2], gap + 4), 40, 40, 40));
    CHECK(is(px(&s, cx[2], gap + cell - 4), 40, 40, 40));
    CHECK(is(px(&s, cx[0], cy[1]), 90, 30, 30)); /* missing: red square */
    CHECK(is(px(&s, cx[1], cy[1]), 0, 200, 0));
    CHECK(is(px(&s, cx[2], cy[1]), 40, 40, 40)); /* no sixth image */
    /* numbers: "1" in the first cell's corner has white pixels, and the
     * labels differ from cell to cell */
    int white[5] = {0}; /* white pixels, and where they are */
    long where[5] = {0};
    for (int k = 0; k < 5; k++) {
        const int x0 = gap + (k % 3) * (cell + gap), y0 = gap + (k / 3) * (cell + gap);
        for (int y = y0; y < y0 + 31; y++)
            for (int x = x0; x < x0 + 21; x++)
                if (is(px(&s, x, y), 255, 255, 255)) white[k]++, where[k] += (long)(y - y0) * 37 + (x - x0);
    }
    for (int k = 0; k < 5; k++) CHECK_MSG(white[k] > 0, "no number on image %d", k + 1);
    for (int k = 1; k < 5; k++) CHECK_MSG(where[k] != where[k - 1], "labels %d and %d look alike", k, k + 1);
    seer_image_free(&s);

    CHECK(seer_contact_sheet(paths, 0, cell, &s, &err) != 0 && s.rgb == NULL);
    CHECK(seer_contact_sheet(paths, 5, 8, &s, &err) != 0);
    for (int i = 0; i < 4; i++) remove(paths[i == 3 ? 4 : i]);
    rmdir(dir);
    TEST_MAIN_END();
}
