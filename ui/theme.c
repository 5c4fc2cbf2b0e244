/* Theme files: "role = FG [BG] [attr…]" lines, colours as #rrggbb or
 * "default". Colours are mapped to what the terminal has. */
#include "theme.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const ROLE_NAMES[ROLE_COUNT] = {
    "background", "user",        "assistant",  "system",      "image", "border",    "title",
    "status",     "status_busy", "input",      "prompt",      "timing_fast", "timing_mid", "timing_slow",
    "error",      "selection",   "muted",       "thought",
};

typedef struct role_style {
    int fg, bg;       /* 0xRRGGBB, or -1 for the terminal default */
    attr_t attrs;
} role_style;

/* The UI's terminal state (one terminal per process). */
static struct {
    role_style roles[ROLE_COUNT];
    attr_t attr[ROLE_COUNT];
    char name[64];
    int depth;
    bool mono;
    /* RGB pair cache for image art. */
    int next_pair, first_art_pair;
    unsigned *pair_keys_fg, *pair_keys_bg;
    int *pair_vals;
    int pair_cap;
} T;

static int detect_depth(void) {
    const char *nc = getenv("NO_COLOR");
    if ((nc && *nc) || !has_colors()) return 0;
    if (COLORS >= 0x1000000) return 0x1000000;
    if (COLORS >= 256) return 256;
    return 8;
}

/* xterm-256: 6×6×6 cube from 16, grey ramp from 232. */
static int rgb_to_256(unsigned rgb) {
    int r = (rgb >> 16) & 255, g = (rgb >> 8) & 255, b = rgb & 255;
    static const int steps[6] = {0, 95, 135, 175, 215, 255};
    int ci[3], best_cube = 0;
    const int c[3] = {r, g, b};
    for (int k = 0; k < 3; k++) {
        int bi = 0;
        for (int i = 1; i < 6; i++)
            if (abs(steps[i] - c[k]) < abs(steps[bi] - c[k])) bi = i;
        ci[k] = bi;
    }
    int dr = steps[ci[0]] - r, dg = steps[ci[1]] - g, db = steps[ci[2]] - b;
    int cube_err = dr * dr + dg * dg + db * db;
    best_cube = 16 + 36 * ci[0] + 6 * ci[1] + ci[2];
    int avg = (r + g + b) / 3, gi = avg < 8 ? 0 : avg > 238 ? 23 : (avg - 8) / 10;
    int gv = 8 + 10 * gi;
    int grey_err = (gv - r) * (gv - r) + (gv - g) * (gv - g) + (gv - b) * (gv - b);
    return grey_err < cube_err ? 232 + gi : best_cube;
}

static int rgb_to_8(unsigned rgb) {
    int r = (rgb >> 16) & 255, g = (rgb >> 8) & 255, b = rgb & 255;
    int mx = r > g ? (r > b ? r : b) : (g > b ? g : b);
    int th = mx / 2 > 40 ? mx / 2 : 40;
    int idx = (r > th ? 1 : 0) | (g > th ? 2 : 0) | (b > th ? 4 : 0);
    return idx; /* COLOR_BLACK=0 RED=1 GREEN=2 YELLOW=3 BLUE=4 MAGENTA=5 CYAN=6 WHITE=7 */
}

static int term_color(int rgb) {
    if (rgb < 0) return -1;
    switch (T.depth) {
    case 0x1000000: return rgb;
    case 256: return rgb_to_256((unsigned)rgb);
    case 8: return rgb_to_8((unsigned)rgb);
    default: return -1;
    }
}

static void apply(void) {
    T.depth = detect_depth();
    if (T.depth) use_default_colors();
    for (int r = 0; r < ROLE_COUNT; r++) {
        const role_style *s = &T.roles[r];
        T.attr[r] = s->attrs;
        if (T.depth && !T.mono) {
            init_extended_pair(r + 1, term_color(s->fg), term_color(s->bg));
            T.attr[r] |= COLOR_PAIR(r + 1);
        }
    }
    T.first_art_pair = ROLE_COUNT + 1;
    T.next_pair = T.first_art_pair;
    T.pair_cap = 0;
    free(T.pair_keys_fg);
    free(T.pair_keys_bg);
    free(T.pair_vals);
    T.pair_keys_fg = T.pair_keys_bg = NULL;
    T.pair_vals = NULL;
}

static bool parse_color(const char *w, int *out) {
    if (strcasecmp(w, "default") == 0) {
        *out = -1;
        return true;
    }
    if (w[0] == '#' && strlen(w) == 7) {
        char *end;
        long v = strtol(w + 1, &end, 16);
        if (*end == 0) {
            *out = (int)v;
            return true;
        }
    }
    return false;
}

static bool parse_attr(const char *w, attr_t *a) {
    static const struct { const char *n; attr_t a; } A[] = {
        {"bold", A_BOLD}, {"dim", A_DIM}, {"underline", A_UNDERLINE}, {"reverse", A_REVERSE}, {"italic", A_ITALIC},
    };
    for (size_t i = 0; i < sizeof A / sizeof A[0]; i++)
        if (strcasecmp(w, A[i].n) == 0) {
            *a |= A[i].a;
            return true;
        }
    return false;
}

/* Parses a theme file into roles; false with a message naming the line. */
static bool parse_file(FILE *f, const char *path, role_style *roles, bool *mono, char *err, size_t errlen) {
    char line[256];
    int ln = 0;
    while (fgets(line, sizeof line, f)) {
        ln++;
        char *h = strchr(line, '#');
        /* '#' starts a comment only at line start or after blanks, not in "#rrggbb" after '='. */
        char *eq = strchr(line, '=');
        if (h && (!eq || h < eq)) *h = 0;
        if (!eq) {
            for (char *p = line; *p; p++)
                if (!isspace((unsigned char)*p)) {
                    snprintf(err, errlen, "%s:%d: expected 'role = colour'", path, ln);
                    return false;
                }
            continue;
        }
        *eq = 0;
        char key[64];
        if (sscanf(line, "%63s", key) != 1) continue;
        char *words[6];
        int nw = 0;
        for (char *tok = strtok(eq + 1, " \t\r\n"); tok && nw < 6; tok = strtok(NULL, " \t\r\n")) words[nw++] = tok;
        if (strcmp(key, "mono") == 0) {
            *mono = nw > 0 && strcasecmp(words[0], "true") == 0;
            continue;
        }
        int r = -1;
        for (int i = 0; i < ROLE_COUNT; i++)
            if (strcmp(ROLE_NAMES[i], key) == 0) r = i;
        if (r < 0) {
            snprintf(err, errlen, "%s:%d: unknown role '%s'", path, ln, key);
            return false;
        }
        role_style st = {-1, -1, 0};
        int ncol = 0;
        for (int i = 0; i < nw; i++) {
            int c;
            if (ncol < 2 && parse_color(words[i], &c)) {
                if (ncol++ == 0) st.fg = c;
                else st.bg = c;
            } else if (!parse_attr(words[i], &st.attrs)) {
                snprintf(err, errlen, "%s:%d: bad colour or attribute '%s'", path, ln, words[i]);
                return false;
            }
        }
        roles[r] = st;
    }
    return true;
}

static void default_roles(role_style *roles) {
    for (int r = 0; r < ROLE_COUNT; r++) roles[r] = (role_style){-1, -1, 0};
    /* Fallback attributes so roles stay distinct without colours. */
    roles[ROLE_USER].attrs = A_BOLD;
    roles[ROLE_SYSTEM].attrs = A_DIM;
    roles[ROLE_STATUS].attrs = A_REVERSE;
    roles[ROLE_STATUS_BUSY].attrs = A_REVERSE | A_BOLD;
    roles[ROLE_ERROR].attrs = A_BOLD;
    roles[ROLE_SELECTION].attrs = A_REVERSE;
    roles[ROLE_TIMING_SLOW].attrs = A_BOLD;
    roles[ROLE_MUTED].attrs = A_DIM;
    roles[ROLE_THOUGHT].attrs = A_DIM; /* a model's reasoning: apart from its answer */
    roles[ROLE_BORDER].attrs = A_DIM;
    roles[ROLE_TITLE].attrs = A_BOLD;
}

void ui_theme_builtin(void) {
    default_roles(T.roles);
    T.roles[ROLE_USER].fg = 0x87d7ff;
    T.roles[ROLE_IMAGE].fg = 0xd7af5f;
    T.roles[ROLE_TIMING_FAST].fg = 0x5fd75f;
    T.roles[ROLE_TIMING_MID].fg = 0xd7d75f;
    T.roles[ROLE_TIMING_SLOW].fg = 0xff5f5f;
    T.roles[ROLE_ERROR].fg = 0xff5f5f;
    T.roles[ROLE_TITLE].fg = 0x5fafff;
    T.mono = false;
    snprintf(T.name, sizeof T.name, "builtin");
    apply();
}

bool ui_theme_load(const char *name, const char *const *dirs, char *err, size_t errlen) {
    if (!name || !*name || strchr(name, '/')) {
        snprintf(err, errlen, "bad theme name");
        return false;
    }
    for (int i = 0; dirs[i]; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.theme", dirs[i], name);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        role_style roles[ROLE_COUNT];
        default_roles(roles);
        bool mono = false;
        bool ok = parse_file(f, path, roles, &mono, err, errlen);
        fclose(f);
        if (!ok) return false;
        memcpy(T.roles, roles, sizeof roles);
        T.mono = mono;
        snprintf(T.name, sizeof T.name, "%s", name);
        apply();
        return true;
    }
    snprintf(err, errlen, "no theme '%s'", name);
    return false;
}

const char *ui_theme_name(void) { return T.name; }
attr_t ui_attr(ui_role r) { return r >= 0 && r < ROLE_COUNT ? T.attr[r] : 0; }
int ui_color_depth(void) { return T.mono ? 0 : T.depth; }

void ui_rgb_pairs_reset(void) {
    T.next_pair = T.first_art_pair;
    if (T.pair_vals) memset(T.pair_vals, 0, sizeof(int) * (size_t)T.pair_cap);
}

int ui_rgb_pair(unsigned fg, unsigned bg) {
    if (!T.depth || T.mono) return 0;
    int cf = term_color((int)fg), cb = term_color((int)bg);
    if (!T.pair_cap) {
        T.pair_cap = 4096;
        T.pair_keys_fg = malloc(sizeof(unsigned) * (size_t)T.pair_cap);
        T.pair_keys_bg = malloc(sizeof(unsigned) * (size_t)T.pair_cap);
        T.pair_vals = calloc((size_t)T.pair_cap, sizeof(int));
        if (!T.pair_keys_fg || !T.pair_keys_bg || !T.pair_vals) {
            T.pair_cap = 0;
            return 0;
        }
    }
    unsigned h = ((unsigned)cf * 2654435761u) ^ ((unsigned)cb * 40503u);
    for (int probe = 0; probe < T.pair_cap; probe++) {
        int i = (int)((h + (unsigned)probe) % (unsigned)T.pair_cap);
        if (!T.pair_vals[i]) {
            int limit = COLOR_PAIRS - 1 < T.first_art_pair + T.pair_cap - 1 ? COLOR_PAIRS - 1 : T.first_art_pair + T.pair_cap - 1;
            if (T.next_pair > limit) return 0;
            init_extended_pair(T.next_pair, cf, cb);
            T.pair_keys_fg[i] = (unsigned)cf;
            T.pair_keys_bg[i] = (unsigned)cb;
            T.pair_vals[i] = T.next_pair++;
            return T.pair_vals[i];
        }
        if (T.pair_keys_fg[i] == (unsigned)cf && T.pair_keys_bg[i] == (unsigned)cb) return T.pair_vals[i];
    }
    return 0;
}

void ui_theme_list(const char *const *dirs, char *buf, size_t cap) {
    buf[0] = 0;
    size_t len = 0;
    for (int i = 0; dirs[i]; i++) {
        DIR *d = opendir(dirs[i]);
        if (!d) continue;
        struct dirent *e;
        while ((e = readdir(d))) {
            size_t n = strlen(e->d_name);
            if (n <= 6 || strcmp(e->d_name + n - 6, ".theme") != 0) continue;
            int w = snprintf(buf + len, cap - len, "%s%.*s", len ? ", " : "", (int)(n - 6), e->d_name);
            if (w < 0 || (size_t)w >= cap - len) break;
            len += (size_t)w;
        }
        closedir(d);
    }
}
