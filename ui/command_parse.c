/* The TUI's command line, parsed without the UI (see command_parse.h). */
#include "command_parse.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

char *cmd_trim(char *s) {
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) s[--n] = 0;
    return s;
}

__attribute__((format(printf, 2, 3))) static cmd_kind fail(cmd *c, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->error, sizeof c->error, fmt, ap);
    va_end(ap);
    return c->kind = CMD_ERROR;
}

/* A line that is just the path of an existing image, as terminals paste or
 * drop it: maybe quoted, maybe file://, maybe with backslash-escaped spaces. */
static bool as_image_path(const char *line, char *out, size_t cap, cmd_is_file_fn is_file) {
    const char *s = line;
    size_t n = strlen(s);
    if (n >= 2 && (s[0] == '\'' || s[0] == '"') && s[n - 1] == s[0]) {
        s++;
        n -= 2;
    }
    if (n > 7 && strncmp(s, "file://", 7) == 0) {
        s += 7;
        n -= 7;
    }
    size_t k = 0;
    for (size_t i = 0; i < n && k + 1 < cap; i++) {
        if (s[i] == '\\' && i + 1 < n) i++;
        out[k++] = s[i];
    }
    out[k] = 0;
    const char *dot = strrchr(out, '.');
    static const char *const EXT[] = {".png", ".jpg", ".jpeg", ".bmp", ".gif", ".tga", ".ppm", ".pgm", ".pnm",
                                      ".psd", ".hdr", ".pic", NULL};
    bool ext_ok = false;
    for (int i = 0; dot && EXT[i]; i++) ext_ok |= strcasecmp(dot, EXT[i]) == 0;
    return ext_ok && is_file(out);
}

/* /image's arguments: paths separated by blanks, "\x" keeps x (a space in a
 * name). Unescaped in place into NUL-separated paths (never longer). */
static int split_paths(char *args) {
    char *r = args, *w = args;
    int n = 0;
    while (*r) {
        char *start = w;
        while (*r && !isspace((unsigned char)*r)) {
            if (*r == '\\' && r[1]) r++;
            *w++ = *r++;
        }
        if (*r) r++; /* past the blank before w may write over it */
        if (w > start) {
            *w++ = 0;
            n++;
        }
        while (isspace((unsigned char)*r)) r++;
    }
    return n;
}

static cmd_kind parse_set(char *args, cmd *c) {
    static const char *const NAMES[] = {"temp", "top_k", "top_p", "min_p", "seed", "n_predict", "repeat_penalty"};
    char key[32];
    double v;
    if (sscanf(args, "%31s %lf", key, &v) != 2)
        return fail(c, "usage: /set temp|top_k|top_p|min_p|seed|n_predict|repeat_penalty VALUE");
    /* (int)v / (uint64_t)v of a value out of range is undefined behaviour */
    const double max = !strcmp(key, "seed") ? 1.8e19 : 2147483647.0;
    if (!isfinite(v) || v > max || v < -max) return fail(c, "%s: %g is out of range", key, v);
    int k = 0;
    while (k < (int)(sizeof NAMES / sizeof NAMES[0]) && strcmp(key, NAMES[k])) k++;
    if (k == (int)(sizeof NAMES / sizeof NAMES[0]))
        return fail(c, "unknown setting '%s' (temp, top_k, top_p, min_p, seed, n_predict, repeat_penalty)", key);
    if (v < 0 && k != SET_N_PREDICT) return fail(c, "%s must not be negative", key);
    c->setting = (cmd_setting)k;
    c->setting_name = NAMES[k];
    c->value = v;
    return c->kind = CMD_SET;
}

cmd_kind cmd_parse(char *raw, cmd_is_file_fn is_file, cmd *c) {
    memset(c, 0, offsetof(cmd, pasted));
    c->pasted[0] = c->error[0] = 0;
    c->text = "";
    char *line = cmd_trim(raw);
    if (!*line) return c->kind = CMD_NONE;
    if (as_image_path(line, c->pasted, sizeof c->pasted, is_file)) {
        c->paths = c->pasted;
        c->n_paths = 1;
        return c->kind = CMD_ATTACH;
    }
    if (line[0] != '/') {
        c->text = line;
        return c->kind = CMD_TURN;
    }
    char *args = line + strcspn(line, " \t");
    if (*args) *args++ = 0;
    args = cmd_trim(args);
    c->text = args;
    if (!strcmp(line, "/quit") || !strcmp(line, "/exit") || !strcmp(line, "/q")) return c->kind = CMD_QUIT;
    if (!strcmp(line, "/help") || !strcmp(line, "/?")) return c->kind = CMD_HELP;
    if (!strcmp(line, "/image")) {
        if (!*args) return fail(c, "usage: /image PATH…");
        c->paths = args;
        c->n_paths = split_paths(args);
        return c->kind = CMD_ATTACH;
    }
    if (!strcmp(line, "/images")) {
        long k = strtol(args, NULL, 10);
        c->image = k > INT_MAX ? INT_MAX : k < INT_MIN ? INT_MIN : (int)k;
        return c->kind = CMD_IMAGES;
    }
    if (!strcmp(line, "/clear")) return c->kind = CMD_CLEAR;
    if (!strcmp(line, "/system")) return c->kind = CMD_SYSTEM;
    if (!strcmp(line, "/set")) return parse_set(args, c);
    if (!strcmp(line, "/theme")) return c->kind = CMD_THEME;
    if (!strcmp(line, "/stats")) return c->kind = CMD_STATS;
    if (!strcmp(line, "/tokens")) return c->kind = CMD_TOKENS;
    if (!strcmp(line, "/find")) {
        if (!*args) return fail(c, "usage: /find TEXT (searches the image index, see /index)");
        return c->kind = CMD_FIND;
    }
    if (!strcmp(line, "/index")) return c->kind = CMD_INDEX;
    if (!strcmp(line, "/ocr")) return c->kind = CMD_OCR;
    if (!strcmp(line, "/think")) {
        c->think = !*args ? -1 : !strcmp(args, "on") ? 1 : !strcmp(args, "off") ? 0 : -2;
        if (c->think == -2) return fail(c, "usage: /think on|off (thinking models: think before answering)");
        return c->kind = CMD_THINK;
    }
    if (!strcmp(line, "/save")) {
        if (!*args) return fail(c, "usage: /save FILE.md");
        return c->kind = CMD_SAVE;
    }
    return fail(c, "unknown command %s: /help lists the commands", line);
}
