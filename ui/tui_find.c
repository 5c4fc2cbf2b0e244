/* /find TEXT: searches an image index (seer index DIR -o INDEX; --index or
 * /index FILE says which) with its own embedding model, lists the best
 * images, and a number typed next attaches that image. The index and its
 * model are opened at the first /find and kept. */
#include <stdlib.h>
#include <string.h>

#include "seer/search.h"
#include "tui_internal.h"

#define FIND_HITS 5

typedef struct tui_find {
    char *index_path;
    seer_search *search;
    char *found[FIND_HITS]; /* the last results' paths, until a line that is not a pick */
    int n_found;
} find_state;

static find_state *state(tui *t) {
    if (!t->find) t->find = calloc(1, sizeof *t->find);
    return t->find;
}

static void forget_results(find_state *f) {
    for (int i = 0; i < f->n_found; i++) free(f->found[i]);
    f->n_found = 0;
}

void tui_find_free(tui *t) {
    find_state *f = t->find;
    if (!f) return;
    forget_results(f);
    seer_search_free(f->search);
    free(f->index_path);
    free(f);
    t->find = NULL;
}

void tui_find_set_index(tui *t, const char *path) {
    find_state *f = state(t);
    if (!f) return;
    const char *cur = f->index_path ? f->index_path : t->cfg.index_path;
    if (!*path) {
        if (cur) tui_note(t, TR_SYSTEM, "/find searches %s", cur);
        else tui_note(t, TR_SYSTEM, "no image index: /index FILE (made by seer index DIR -o FILE)");
        return;
    }
    seer_search_free(f->search);
    f->search = NULL;
    forget_results(f);
    free(f->index_path);
    f->index_path = strdup(path);
    tui_note(t, TR_SYSTEM, "/find searches %s", path);
}

void tui_find(tui *t, const char *text) {
    find_state *f = state(t);
    if (!f) return;
    forget_results(f);
    const char *path = f->index_path ? f->index_path : t->cfg.index_path;
    if (!path) {
        tui_note(t, TR_ERROR, "no image index: start with --index FILE or type /index FILE "
                              "(made by seer index DIR -o FILE)");
        return;
    }
    seer_error err = {{0}};
    if (!f->search && !(f->search = seer_search_open(path, NULL, t->cfg.n_threads, &err))) {
        tui_note(t, TR_ERROR, "%s", err.msg);
        return;
    }
    seer_hit hits[FIND_HITS];
    int n = seer_search_query(f->search, text, FIND_HITS, hits, &err);
    if (n < 0) {
        tui_note(t, TR_ERROR, "%s", err.msg);
        return;
    }
    if (n == 0) {
        tui_note(t, TR_SYSTEM, "%s holds no images", path);
        return;
    }
    for (int i = 0; i < n; i++) {
        char p[8192];
        seer_search_entry_path(f->search, hits[i].entry, p, sizeof p);
        if (!(f->found[f->n_found] = strdup(p))) break;
        f->n_found++;
        tui_note(t, TR_SYSTEM, "%d. %.3f  %s", i + 1, hits[i].score, p);
    }
    tui_note(t, TR_SYSTEM, "type a number (1-%d) to attach that image", f->n_found);
}

bool tui_find_pick(tui *t, const char *line) {
    find_state *f = t->find;
    if (!f || f->n_found == 0) return false;
    char *end;
    long k = strtol(line, &end, 10);
    if (*line && *end == 0 && k >= 1 && k <= f->n_found) {
        tui_add_image(t, f->found[k - 1]);
        forget_results(f);
        return true;
    }
    forget_results(f); /* anything else: the results are done with */
    return false;
}
