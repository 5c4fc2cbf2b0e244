/* Image preview rendering: scaled RGB → sixel bytes or half-block cells. */
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
    const uint8_t *p = im->rgb + ((size_t)y * (size_t)im->w + (size_t)x) * 3;
    return (unsigned)p[0] << 16 | (unsigned)p[1] << 8 | p[2];
}

void preview_draw_halfblock(WINDOW *win, const seer_image *img) {
    int h, w;
    getmaxyx(win, h, w);
    werase(win);
    if (!img || !img->rgb || w < 1 || h < 1) return;
    int tw, th;
    preview_fit(img->w, img->h, w, h * 2, &tw, &th);
    seer_image sc;
    if (seer_image_resize_bilinear(img, tw, th, &sc) != 0) return;
    int x0 = (w - tw) / 2, rows = (th + 1) / 2, y0 = (h - rows) / 2;
    bool colour = ui_color_depth() > 0;
    ui_rgb_pairs_reset();
    static const char *const SHADES[] = {" ", "░", "▒", "▓", "█"};
    for (int r = 0; r < rows; r++) {
        for (int x = 0; x < tw; x++) {
            unsigned top = rgb_at(&sc, x, 2 * r);
            bool has_bottom = 2 * r + 1 < th;
            unsigned bot = has_bottom ? rgb_at(&sc, x, 2 * r + 1) : 0;
            if (colour) {
                int pair = ui_rgb_pair(top, has_bottom ? bot : top);
                wattr_set(win, A_NORMAL, 0, &pair);
                mvwaddstr(win, y0 + r, x0 + x, has_bottom ? "▀" : "▀");
            } else {
                unsigned a = top, b = has_bottom ? bot : top;
                int lum = (int)((((a >> 16) & 255) + ((a >> 8) & 255) + (a & 255) + ((b >> 16) & 255) +
                                 ((b >> 8) & 255) + (b & 255)) / 6);
                wattrset(win, A_NORMAL);
                mvwaddstr(win, y0 + r, x0 + x, SHADES[lum * 5 / 256]);
            }
        }
    }
    wattrset(win, A_NORMAL);
    seer_image_free(&sc);
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
