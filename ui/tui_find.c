/* /find TEXT: searches an image index (seer index DIR -o INDEX; --index or
 * /index FILE says which) with its own embedding model, lists the best
 * images with their thumbnails numbered in the preview pane, and a number
 * typed next attaches that image. The search runs on the engine thread
 * (seer_worker_find: the index and its model are opened there at the first
 * /find and kept), so the UI never waits for the embedding model. */
#include <stdlib.h>
#include <string.h>

#include "tui_internal.h"

#define FIND_HITS 5

typedef struct tui_find {
    char *index_path;
    uint64_t request;          /* the search in flight, 0 when none */
    char *found[FIND_HITS];    /* the last results' paths, until a line that is not a pick */
    int n_found;
    seer_image sheet;          /* their numbered thumbnails, shown in the preview pane meanwhile */
} find_state;

static find_state *state(tui *t) {
    if (!t->find) t->find = calloc(1, sizeof *t->find);
    return t->find;
}

static void forget_results(tui *t, find_state *f) {
    for (int i = 0; i < f->n_found; i++) free(f->found[i]);
    f->n_found = 0;
    if (f->sheet.rgb) {
        seer_image_free(&f->sheet);
        t->sixel_key_image = SIXEL_KEY_NONE;
        tui_layout(t); /* the pane goes back to the attached images, or away */
    }
}

void tui_find_free(tui *t) {
    find_state *f = t->find;
    if (!f) return;
    for (int i = 0; i < f->n_found; i++) free(f->found[i]);
    seer_image_free(&f->sheet);
    free(f->index_path);
    free(f);
    t->find = NULL;
}

const seer_image *tui_find_sheet(const tui *t) { return t->find && t->find->sheet.rgb ? &t->find->sheet : NULL; }
int tui_find_count(const tui *t) { return t->find ? t->find->n_found : 0; }

void tui_find_set_index(tui *t, const char *path) {
    find_state *f = state(t);
    if (!f) return;
    const char *cur = f->index_path ? f->index_path : t->cfg.index_path;
    if (!*path) {
        if (cur) tui_note(t, TR_SYSTEM, "/find searches %s", cur);
        else tui_note(t, TR_SYSTEM, "no image index: /index FILE (made by seer index DIR -o FILE)");
        return;
    }
    forget_results(t, f);
    free(f->index_path);
    f->index_path = strdup(path);
    tui_note(t, TR_SYSTEM, "/find searches %s", path);
}

void tui_find(tui *t, const char *text) {
    find_state *f = state(t);
    if (!f) return;
    forget_results(t, f);
    const char *path = f->index_path ? f->index_path : t->cfg.index_path;
    if (!path) {
        tui_note(t, TR_ERROR, "no image index: start with --index FILE or type /index FILE "
                              "(made by seer index DIR -o FILE)");
        return;
    }
    f->request = seer_worker_find(t->worker, path, text, FIND_HITS);
    if (!f->request) tui_note(t, TR_ERROR, "out of memory");
    else tui_notice(t, "searching %s", path);
}

bool tui_find_answer(tui *t, seer_event *ev) {
    find_state *f = t->find;
    if (!f || !f->request || ev->request != f->request) return false;
    f->request = 0;
    if (ev->type != SEER_EV_FOUND) {
        tui_note(t, TR_ERROR, "%s", ev->text ? ev->text : "the search failed");
        return true;
    }
    forget_results(t, f);
    if (ev->n_found == 0) {
        tui_note(t, TR_SYSTEM, "%s holds no images", ev->text ? ev->text : "the index");
        return true;
    }
    for (int i = 0; i < ev->n_found && i < FIND_HITS; i++) {
        f->found[f->n_found++] = ev->found_paths[i];
        ev->found_paths[i] = NULL;
        tui_note(t, TR_SYSTEM, "%d. %.3f  %s", i + 1, (double)ev->found_scores[i], f->found[i]);
    }
    tui_note(t, TR_SYSTEM, "type a number (1-%d) to attach that image", f->n_found);
    f->sheet = ev->sheet; /* the event gives it up */
    memset(&ev->sheet, 0, sizeof ev->sheet);
    t->sixel_key_image = SIXEL_KEY_NONE; /* a new sheet under the same key */
    tui_layout(t);
    return true;
}

bool tui_find_pick(tui *t, const char *line) {
    find_state *f = t->find;
    if (!f || f->n_found == 0) return false;
    char *end;
    long k = strtol(line, &end, 10);
    char *pick = NULL;
    if (*line && *end == 0 && k >= 1 && k <= f->n_found) {
        pick = f->found[k - 1];
        f->found[k - 1] = NULL;
    }
    forget_results(t, f); /* picked or not: the results are done with */
    if (!pick) return false;
    tui_add_image(t, pick);
    free(pick);
    return true;
}
