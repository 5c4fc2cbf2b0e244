/* A contact sheet: search results as one picture, thumbnails in reading
 * order, each numbered in its corner with the number a user types to pick
 * it, so a preview pane shows every hit at once. */
#include <stdlib.h>
#include <string.h>

#include "seer/image.h"
#include "seer/search.h"

enum { GAP = 6, DIGIT_SCALE = 5, LABEL_PAD = 3 };

/* Digits 0-9 as 3×5 bitmaps, one row per 3 bits (MSB left). */
static const uint8_t DIGITS[10][5] = {
    {7, 5, 5, 5, 7}, {2, 6, 2, 2, 7}, {7, 1, 7, 4, 7}, {7, 1, 7, 1, 7}, {5, 5, 7, 1, 1},
    {7, 4, 7, 1, 7}, {7, 4, 7, 5, 7}, {7, 1, 1, 1, 1}, {7, 5, 7, 5, 7}, {7, 5, 7, 1, 7},
};

static void fill_rect(seer_image *im, int x0, int y0, int w, int h, const uint8_t rgb[3]) {
    for (int y = y0 < 0 ? 0 : y0; y < y0 + h && y < im->h; y++)
        for (int x = x0 < 0 ? 0 : x0; x < x0 + w && x < im->w; x++) memcpy(im->rgb + ((size_t)y * im->w + x) * 3, rgb, 3);
}

/* The number n (1-99) in white on a dark box at (x, y). */
static void draw_label(seer_image *im, int x, int y, int n) {
    static const uint8_t box[3] = {20, 20, 20}, ink[3] = {255, 255, 255};
    char s[4];
    int len = n >= 10 ? 2 : 1;
    s[0] = (char)('0' + (n >= 10 ? n / 10 : n));
    s[1] = (char)('0' + n % 10);
    const int dw = 3 * DIGIT_SCALE, dh = 5 * DIGIT_SCALE;
    fill_rect(im, x, y, len * (dw + DIGIT_SCALE) - DIGIT_SCALE + 2 * LABEL_PAD, dh + 2 * LABEL_PAD, box);
    for (int c = 0; c < len; c++)
        for (int r = 0; r < 5; r++)
            for (int b = 0; b < 3; b++)
                if (DIGITS[s[c] - '0'][r] & (4 >> b))
                    fill_rect(im, x + LABEL_PAD + c * (dw + DIGIT_SCALE) + b * DIGIT_SCALE, y + LABEL_PAD + r * DIGIT_SCALE,
                              DIGIT_SCALE, DIGIT_SCALE, ink);
}

int seer_contact_sheet(const char *const *paths, int n, int cell, seer_image *out, seer_error *err) {
    memset(out, 0, sizeof *out);
    if (n <= 0 || n > 99 || cell < 32) {
        seer_error_set(err, "contact sheet: %d images of %d px", n, cell);
        return -1;
    }
    const int cols = n < 3 ? n : 3, rows = (n + cols - 1) / cols;
    out->w = cols * cell + (cols + 1) * GAP;
    out->h = rows * cell + (rows + 1) * GAP;
    if (!(out->rgb = malloc((size_t)out->w * out->h * 3))) {
        seer_error_set(err, "out of memory");
        return -1;
    }
    static const uint8_t background[3] = {40, 40, 40}, missing[3] = {90, 30, 30};
    fill_rect(out, 0, 0, out->w, out->h, background);
    for (int i = 0; i < n; i++) {
        const int x0 = GAP + (i % cols) * (cell + GAP), y0 = GAP + (i / cols) * (cell + GAP);
        seer_image src = {0}, thumb = {0};
        /* A file that is gone or does not decode keeps its numbered place, in red. */
        if (seer_image_load(paths[i], 0, &src, NULL) != 0) {
            fill_rect(out, x0, y0, cell, cell, missing);
        } else {
            int tw = cell, th = cell;
            if (src.w >= src.h) th = (int)((int64_t)cell * src.h / src.w);
            else tw = (int)((int64_t)cell * src.w / src.h);
            if (tw < 1) tw = 1;
            if (th < 1) th = 1;
            if (seer_image_resize_pil(&src, tw, th, SEER_PIL_BILINEAR, &thumb) == 0) {
                const int ox = x0 + (cell - tw) / 2, oy = y0 + (cell - th) / 2;
                for (int y = 0; y < th; y++)
                    memcpy(out->rgb + ((size_t)(oy + y) * out->w + ox) * 3, thumb.rgb + (size_t)y * tw * 3, (size_t)tw * 3);
            } else {
                fill_rect(out, x0, y0, cell, cell, missing);
            }
            seer_image_free(&thumb);
            seer_image_free(&src);
        }
        draw_label(out, x0, y0, i + 1);
    }
    return 0;
}
