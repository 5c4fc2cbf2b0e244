/* Image preview rendering: scaled RGB → sixel bytes or block-glyph cells. */
#include "preview.h"

#include <poll.h>
#include <sixel.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "theme.h"

void preview_fit(int iw, int ih, int w, int h, int *ow, int *oh) {
    if (iw <= 0 || ih <= 0 || w <= 0 || h <= 0) {
        *ow = *oh = 1;
        return;
    }
    double s = (double)w / iw < (double)h / ih ? (double)w / iw : (double)h / ih;
    *ow = (int)(iw * s + 0.5);
    *oh = (int)(ih * s + 0.5);
    if (*ow < 1) *ow = 1;
    if (*oh < 1) *oh = 1;
    if (*ow > w) *ow = w;
    if (*oh > h) *oh = h;
}

typedef struct byte_buf {
    char *p;
    size_t len, cap;
} byte_buf;

static int write_bytes(char *data, int size, void *priv) {
    byte_buf *b = priv;
    if (b->len + (size_t)size > b->cap) {
        size_t c = b->cap ? b->cap * 2 : 65536;
        while (c < b->len + (size_t)size) c *= 2;
        char *q = realloc(b->p, c);
        if (!q) return -1;
        b->p = q;
        b->cap = c;
    }
    memcpy(b->p + b->len, data, (size_t)size);
    b->len += (size_t)size;
    return size;
}

int preview_sixel_encode(const seer_image *img, int pw, int ph, char **out, size_t *len, int *out_w, int *out_h) {
    *out = NULL;
    *len = 0;
    int w, h;
    preview_fit(img->w, img->h, pw, ph, &w, &h);
    seer_image scaled;
    if (seer_image_resize_bilinear(img, w, h, &scaled) != 0) return -1;
    byte_buf buf = {0};
    sixel_output_t *output = NULL;
    sixel_dither_t *dither = NULL;
    int rc = -1;
    if (SIXEL_FAILED(sixel_output_new(&output, write_bytes, &buf, NULL))) goto done;
    if (SIXEL_FAILED(sixel_dither_new(&dither, 256, NULL))) goto done;
    if (SIXEL_FAILED(sixel_dither_initialize(dither, scaled.rgb, w, h, SIXEL_PIXELFORMAT_RGB888, SIXEL_LARGE_AUTO,
                                             SIXEL_REP_AUTO, SIXEL_QUALITY_AUTO)))
        goto done;
    if (SIXEL_FAILED(sixel_encode(scaled.rgb, w, h, 3, dither, output))) goto done;
    rc = 0;
done:
    if (dither) sixel_dither_unref(dither);
    if (output) sixel_output_unref(output);
    seer_image_free(&scaled);
    if (rc == 0) {
        *out = buf.p;
        *len = buf.len;
        if (out_w) *out_w = w;
        if (out_h) *out_h = h;
    } else {
        free(buf.p);
    }
    return rc;
}

static unsigned rgb_at(const seer_image *im, int x, int y) {
    /* A cell past the picture's last sub-pixel row or column repeats it. */
    if (x >= im->w) x = im->w - 1;
    if (y >= im->h) y = im->h - 1;
    const uint8_t *p = im->rgb + ((size_t)y * (size_t)im->w + (size_t)x) * 3;
    return (unsigned)p[0] << 16 | (unsigned)p[1] << 8 | p[2];
}

/* Without colours: a shade character by the cell's mean brightness. */
static const char *shade(const unsigned *sub, int n) {
    static const char *const SHADES[] = {" ", "\u2591", "\u2592", "\u2593", "\u2588"};
    int sum = 0;
    for (int i = 0; i < n; i++) sum += (int)((sub[i] >> 16 & 255) + (sub[i] >> 8 & 255) + (sub[i] & 255));
    return SHADES[sum / (3 * n) * 5 / 256];
}

/* img resized for w×h cells of art's sub-pixel grid, fitted in square
 * units (a cell is taken as twice as high as wide), antialiased when
 * shrinking so fine texture averages out instead of aliasing: *sc has
 * sx*sy sub-pixels per cell over *cw × *ch cells. */
static int cell_image(const seer_image *img, int w, int h, cell_art art, seer_image *sc, int *cw, int *ch) {
    if (!img || !img->rgb || img->w < 1 || img->h < 1 || w < 1 || h < 1) return -1;
    int sx, sy;
    cell_art_grid(art, &sx, &sy);
    double s = (double)w / img->w < 2.0 * h / img->h ? (double)w / img->w : 2.0 * h / img->h;
    int cols = (int)(img->w * s * sx + 0.5), rows = (int)(img->h * s / 2 * sy + 0.5);
    cols = cols < 1 ? 1 : cols > w * sx ? w * sx : cols;
    rows = rows < 1 ? 1 : rows > h * sy ? h * sy : rows;
    if (seer_image_resize_pil(img, cols, rows, SEER_PIL_BILINEAR, sc) != 0) return -1;
    *cw = (cols + sx - 1) / sx;
    *ch = (rows + sy - 1) / sy;
    return 0;
}

/* The sub-pixels of cell (r, c). */
static void cell_sub(const seer_image *sc, cell_art art, int r, int c, unsigned *sub) {
    int sx, sy;
    cell_art_grid(art, &sx, &sy);
    for (int j = 0; j < sy; j++)
        for (int i = 0; i < sx; i++) sub[j * sx + i] = rgb_at(sc, c * sx + i, r * sy + j);
}

void preview_draw_cells(WINDOW *win, const seer_image *img, cell_art art) {
    int h, w, cw, ch, sx, sy;
    getmaxyx(win, h, w);
    werase(win);
    seer_image sc;
    if (cell_image(img, w, h, art, &sc, &cw, &ch) != 0) return;
    cell_art_grid(art, &sx, &sy);
    int x0 = (w - cw) / 2, y0 = (h - ch) / 2;
    bool colour = ui_color_depth() > 0;
    ui_rgb_pairs_reset();
    for (int r = 0; r < ch; r++) {
        for (int c = 0; c < cw; c++) {
            unsigned sub[CELL_MAX_SUB];
            cell_sub(&sc, art, r, c, sub);
            if (colour) {
                cell_glyph g = cell_fit(art, sub);
                int pair = ui_rgb_pair(g.fg, g.bg);
                wattr_set(win, A_NORMAL, 0, &pair);
                mvwaddstr(win, y0 + r, x0 + c, g.utf8);
            } else {
                wattrset(win, A_NORMAL);
                mvwaddstr(win, y0 + r, x0 + c, shade(sub, sx * sy));
            }
        }
    }
    wattrset(win, A_NORMAL);
    seer_image_free(&sc);
}

int preview_print_cells(FILE *out, const seer_image *img, int w, int h, cell_art art, int indent) {
    int cw, ch;
    seer_image sc;
    if (cell_image(img, w, h, art, &sc, &cw, &ch) != 0) return -1;
    for (int r = 0; r < ch; r++) {
        fprintf(out, "%*s", indent, "");
        for (int c = 0; c < cw; c++) {
            unsigned sub[CELL_MAX_SUB];
            cell_sub(&sc, art, r, c, sub);
            cell_glyph g = cell_fit(art, sub);
            fprintf(out, "\033[38;2;%u;%u;%um\033[48;2;%u;%u;%um%s", g.fg >> 16, g.fg >> 8 & 255, g.fg & 255,
                    g.bg >> 16, g.bg >> 8 & 255, g.bg & 255, g.utf8);
        }
        fputs("\033[0m\n", out);
    }
    seer_image_free(&sc);
    return ch;
}

/* Reads terminal replies until the DA1 answer ("ESC [ ? … c") or a timeout. */
bool preview_detect_sixel(int *cell_w, int *cell_h) {
    *cell_w = *cell_h = 0;
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_xpixel && ws.ws_col && ws.ws_row) {
        *cell_w = ws.ws_xpixel / ws.ws_col;
        *cell_h = ws.ws_ypixel / ws.ws_row;
    }
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) return false;
    struct termios old, raw;
    if (tcgetattr(STDIN_FILENO, &old) != 0) return false;
    raw = old;
    raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
    raw.c_cc[VMIN] = 0;
    raw.c_cc[VTIME] = 0;
    tcsetattr(STDIN_FILENO, TCSANOW, &raw);
    /* Cell size in pixels (CSI 16 t), then DA1, which every terminal answers. */
    const char q[] = "\033[16t\033[c";
    ssize_t wr = write(STDOUT_FILENO, q, sizeof q - 1);
    (void)wr;
    char buf[256];
    size_t n = 0;
    bool done = false;
    while (!done && n < sizeof buf - 1) {
        struct pollfd pfd = {STDIN_FILENO, POLLIN, 0};
        if (poll(&pfd, 1, 400) <= 0) break;
        ssize_t r = read(STDIN_FILENO, buf + n, sizeof buf - 1 - n);
        if (r <= 0) break;
        n += (size_t)r;
        buf[n] = 0;
        char *da = strstr(buf, "\033[?");
        if (da && strchr(da, 'c')) done = true;
    }
    tcsetattr(STDIN_FILENO, TCSANOW, &old);
    buf[n] = 0;
    int ch, cw;
    char *cs = strstr(buf, "\033[6;");
    if (cs && sscanf(cs, "\033[6;%d;%dt", &ch, &cw) == 2 && ch > 0 && cw > 0) {
        *cell_w = cw;
        *cell_h = ch;
    }
    char *da = strstr(buf, "\033[?");
    if (!da) return false;
    /* Parameters are ';'-separated numbers; 4 means sixel graphics. */
    for (char *p = da + 3; *p && *p != 'c';) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p) break;
        if (v == 4) return true;
        p = *end == ';' ? end + 1 : end;
    }
    return false;
}
