/* seer search INDEX "text" [-k N]: the images of INDEX (seer index) that
 * best match a text, best first: score and path a line. The text is
 * embedded with the index's own model (role query); the order is cosine
 * over single vectors, re-ranked by MaxSim when the index has
 * multi-vectors. On a terminal each hit gets a thumbnail: sixel when the
 * terminal answers that it has it, block-glyph art otherwise.
 * Exit status: 0 ok, 1 file or model problems, 2 usage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../ui/preview.h"
#include "cli_args.h"
#include "cli_errors.h"
#include "commands.h"
#include "seer/sanitize.h"
#include "seer/search.h"

#define SEARCH_DEFAULT_K 5
#define SEARCH_MAX_K 1000
#define THUMB_COLS 24 /* cells */
#define THUMB_ROWS 8

typedef enum thumbs_mode { THUMBS_AUTO, THUMBS_SIXEL, THUMBS_BLOCKS, THUMBS_OFF } thumbs_mode;

typedef struct search_args {
    const char *index, *query, *model;
    int k, threads;
    thumbs_mode thumbs;
} search_args;

static void usage(FILE *out) {
    fprintf(out,
            "usage: seer search INDEX \"text\" [-k N] [options]\n"
            "  The images of INDEX (made by seer index) that best match the text, best first: score and path.\n"
            "  Scores: cosine of the single vectors, or, when INDEX has multi-vectors, MaxSim per query token\n"
            "  over the best 32 by cosine.\n"
            "options:\n"
            "  -k N                 how many (default: %d)\n"
            "  -m MODEL.gguf        the index's model at another path (must be the same file)\n"
            "  --thumbs auto|sixel|blocks|off  thumbnails on a terminal (default: auto)\n"
            "  -t, --threads N      worker threads (default: all cores)\n",
            SEARCH_DEFAULT_K);
    fprintf(out, "example: seer search pictures.idx \"a dog on a beach\" -k 10\n");
}

static int usage_error(const char *msg, const char *arg) { return app_usage_error("search", msg, arg); }

static int parse_args(int argc, char **argv, search_args *a) {
    memset(a, 0, sizeof *a);
    a->k = SEARCH_DEFAULT_K;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
            usage(stdout);
            return -1;
        }
        if (s[0] != '-' || !s[1]) {
            if (!a->index) a->index = s;
            else if (!a->query) a->query = s;
            else return usage_error("one query only (quote it); unexpected", s);
            continue;
        }
        if (strcmp(s, "-k") && strcmp(s, "-m") && strcmp(s, "--model") && strcmp(s, "--thumbs") && strcmp(s, "-t") &&
            strcmp(s, "--threads"))
            return usage_error("unknown argument", s);
        if (i + 1 >= argc) return usage_error("missing value after", s);
        const char *val = argv[++i];
        if (!strcmp(s, "-k")) {
            if (app_parse_int(val, 1, SEARCH_MAX_K, &a->k)) return usage_error("-k takes 1…1000, not", val);
        } else if (!strcmp(s, "-m") || !strcmp(s, "--model")) {
            a->model = val;
        } else if (!strcmp(s, "--thumbs")) {
            static const char *const names[] = {"auto", "sixel", "blocks", "off"};
            int m = -1;
            for (int k = 0; k < 4; k++)
                if (!strcmp(val, names[k])) m = k;
            if (m < 0) return usage_error("--thumbs takes auto, sixel, blocks or off, not", val);
            a->thumbs = (thumbs_mode)m;
        } else if (app_parse_int(val, 1, 1024, &a->threads)) {
            return usage_error("invalid thread count", val);
        }
    }
    if (!a->index) return usage_error("which index? seer search INDEX \"text\"", NULL);
    if (!a->query || !*a->query) return usage_error("what to look for? seer search INDEX \"text\"", NULL);
    return 0;
}

/* A thumbnail under the hit's line; quietly nothing when the image is gone. */
static void thumbnail(const char *path, bool sixel, int cell_w, int cell_h) {
    seer_image img;
    if (seer_image_load(path, 0, &img, NULL) != 0) return;
    char *bytes = NULL;
    size_t len = 0;
    if (sixel && cell_w > 0 && cell_h > 0 &&
        preview_sixel_encode(&img, THUMB_COLS * cell_w, THUMB_ROWS * cell_h, &bytes, &len, NULL, NULL) == 0) {
        fwrite(bytes, 1, len, stdout);
        fputc('\n', stdout);
        free(bytes);
    } else {
        preview_print_cells(stdout, &img, THUMB_COLS, THUMB_ROWS, CELL_QUADRANT, 2);
    }
    seer_image_free(&img);
}

int cmd_search(int argc, char **argv) {
    search_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc != 0) return rc < 0 ? 0 : rc;
    seer_error err = {{0}};
    seer_search *s = seer_search_open(a.index, a.model, a.threads, &err);
    if (!s) return app_fail("search", err.msg);
    seer_hit *hits = malloc(sizeof *hits * (size_t)a.k);
    int n = hits ? seer_search_query(s, a.query, a.k, hits, &err) : -1;
    if (n < 0) rc = app_fail("search", hits ? err.msg : "out of memory");
    bool tty = isatty(STDOUT_FILENO);
    bool thumbs = a.thumbs != THUMBS_OFF && (tty || a.thumbs != THUMBS_AUTO);
    int cell_w = 0, cell_h = 0;
    bool sixel = false;
    if (thumbs && a.thumbs != THUMBS_BLOCKS) {
        sixel = preview_detect_sixel(&cell_w, &cell_h) || a.thumbs == THUMBS_SIXEL;
        if (cell_w <= 0 || cell_h <= 0) cell_w = 10, cell_h = 20; /* a common cell when the terminal does not say */
    }
    if (n == 0 && rc == 0) fprintf(stderr, "seer search: %s holds no images\n", a.index);
    for (int i = 0; i < n; i++) {
        char path[8192], safe[8192 * 3];
        seer_search_entry_path(s, hits[i].entry, path, sizeof path);
        seer_text_sanitize(path, strlen(path), safe, sizeof safe, 0);
        printf("%.4f  %s\n", hits[i].score, tty ? safe : path);
        if (thumbs) thumbnail(path, sixel, cell_w, cell_h);
    }
    free(hits);
    seer_search_free(s);
    return rc;
}
