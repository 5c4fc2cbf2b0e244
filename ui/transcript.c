/* Transcript storage, wrapping and drawing. */
#include "transcript.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "seer/safe_write.h"
#include "seer/sanitize.h"
#include "theme.h"

static void grow_append(char **buf, size_t *len, size_t *cap, const char *s, size_t n) {
    if (*len + n + 1 > *cap) {
        size_t c = *cap ? *cap : 64;
        while (c < *len + n + 1) c *= 2;
        char *p = realloc(*buf, c);
        if (!p) return;
        *buf = p;
        *cap = c;
    }
    memcpy(*buf + *len, s, n);
    *len += n;
    (*buf)[*len] = 0;
}

int tr_add(transcript *t, tr_kind kind, const char *text, size_t len) {
    if (t->n == t->cap) {
        int c = t->cap ? t->cap * 2 : 32;
        tr_entry *p = realloc(t->e, sizeof *p * (size_t)c);
        if (!p) return -1;
        t->e = p;
        t->cap = c;
    }
    tr_entry *e = &t->e[t->n];
    memset(e, 0, sizeof *e);
    e->kind = kind;
    grow_append(&e->raw, &e->raw_len, &e->raw_cap, "", 0);
    grow_append(&e->shown, &e->shown_len, &e->shown_cap, "", 0);
    t->n++;
    tr_append(t, t->n - 1, text, len);
    return t->n - 1;
}

void tr_append(transcript *t, int idx, const char *text, size_t len) {
    if (idx < 0 || idx >= t->n || !len) return;
    tr_entry *e = &t->e[idx];
    grow_append(&e->raw, &e->raw_len, &e->raw_cap, text, len);
    /* Everything from outside is neutralised before it can reach the terminal. */
    size_t need = seer_text_sanitize(text, len, NULL, 0, SEER_SANITIZE_KEEP_NEWLINES);
    char *tmp = malloc(need + 1);
    if (!tmp) return;
    seer_text_sanitize(text, len, tmp, need + 1, SEER_SANITIZE_KEEP_NEWLINES);
    grow_append(&e->shown, &e->shown_len, &e->shown_cap, tmp, need);
    free(tmp);
    e->wrap_width = 0;
}

void tr_set_shown(transcript *t, int idx, const char *text, size_t len) {
    if (idx < 0 || idx >= t->n) return;
    tr_entry *e = &t->e[idx];
    e->shown_len = 0;
    grow_append(&e->shown, &e->shown_len, &e->shown_cap, "", 0);
    char *safe = seer_text_sanitize_dup(text, len, SEER_SANITIZE_KEEP_NEWLINES);
    if (safe) grow_append(&e->shown, &e->shown_len, &e->shown_cap, safe, strlen(safe));
    free(safe);
    e->wrap_width = 0;
}

void tr_fold(transcript *t, int idx, bool folded, const char *label) {
    if (idx < 0 || idx >= t->n) return;
    tr_entry *e = &t->e[idx];
    e->folded = folded;
    if (label) snprintf(e->fold_label, sizeof e->fold_label, "%s", label);
    e->wrap_width = 0;
}

int tr_add_labelled(transcript *t, tr_kind kind, const char *raw, const char *label) {
    int i = tr_add(t, kind, label, strlen(label));
    if (i < 0) return i;
    tr_entry *e = &t->e[i];
    e->raw_len = 0;
    grow_append(&e->raw, &e->raw_len, &e->raw_cap, raw, strlen(raw));
    return i;
}

void tr_clear(transcript *t) {
    for (int i = 0; i < t->n; i++) {
        free(t->e[i].raw);
        free(t->e[i].shown);
        free(t->e[i].lines);
    }
    t->n = 0;
    t->scroll = 0;
}

void tr_free(transcript *t) {
    tr_clear(t);
    free(t->e);
    memset(t, 0, sizeof *t);
}

void tr_scroll(transcript *t, int delta) {
    t->scroll += delta;
    int max = t->last_total - t->last_height;
    if (t->scroll > max) t->scroll = max;
    if (t->scroll < 0) t->scroll = 0;
}

/* Gutter of each kind: 2 columns, the first line marked. */
static const char *gutter(tr_kind k, bool first) {
    switch (k) {
    case TR_USER: return first ? "› " : "  ";
    case TR_ASSISTANT: return "  ";
    case TR_IMAGE: return first ? "▣ " : "  ";
    case TR_SYSTEM: return first ? "· " : "  ";
    case TR_ERROR: return first ? "! " : "  ";
    case TR_THOUGHT: return first ? "▾ " : "┊ ";
    }
    return "  ";
}

static ui_role role_of(tr_kind k) {
    switch (k) {
    case TR_USER: return ROLE_USER;
    case TR_ASSISTANT: return ROLE_ASSISTANT;
    case TR_IMAGE: return ROLE_IMAGE;
    case TR_SYSTEM: return ROLE_SYSTEM;
    case TR_ERROR: return ROLE_ERROR;
    case TR_THOUGHT: return ROLE_THOUGHT;
    }
    return ROLE_ASSISTANT;
}

/* Blank line before a user turn (except the first entry). */
static int gap_before(const transcript *t, int i) { return i > 0 && t->e[i].kind == TR_USER; }

void tr_draw(transcript *t, WINDOW *win) {
    int h, w;
    getmaxyx(win, h, w);
    werase(win);
    int text_w = w - 2;
    if (text_w < 1) return;
    int total = 0;
    for (int i = 0; i < t->n; i++) {
        tr_entry *e = &t->e[i];
        if (e->wrap_width != text_w) {
            free(e->lines);
            e->n_lines = e->folded ? ui_wrap(e->fold_label, ui_text_fit(e->fold_label, strlen(e->fold_label), text_w),
                                             text_w, &e->lines)
                                   : ui_wrap(e->shown, e->shown_len, text_w, &e->lines);
            e->wrap_width = text_w;
        }
        total += e->n_lines + gap_before(t, i);
    }
    /* Scrolled up: new lines below must not move what the user is reading. */
    if (t->scroll > 0 && t->last_height == h && t->last_width == w && total > t->last_total)
        t->scroll += total - t->last_total;
    t->last_width = w;
    t->last_total = total;
    t->last_height = h;
    if (t->scroll > total - h) t->scroll = total - h > 0 ? total - h : 0;
    int first = total - h - t->scroll; /* index of the line at the top of the window */
    if (first < 0) first = 0;
    int line = 0;
    for (int i = 0; i < t->n && line - first < h; i++) {
        tr_entry *e = &t->e[i];
        int gap = gap_before(t, i);
        if (line + gap + e->n_lines <= first) {
            line += gap + e->n_lines;
            continue;
        }
        line += gap;
        for (int k = 0; k < e->n_lines; k++, line++) {
            int y = line - first;
            if (y < 0) continue;
            if (y >= h) break;
            wattrset(win, ui_attr(role_of(e->kind)));
            mvwaddstr(win, y, 0, e->folded ? "▸ " : gutter(e->kind, k == 0));
            waddnstr(win, (e->folded ? e->fold_label : e->shown) + e->lines[k].start, e->lines[k].len);
        }
    }
    wattrset(win, 0);
    if (t->scroll > 0 && h > 0) {
        char more[48];
        snprintf(more, sizeof more, " ↓ %d more ", t->scroll);
        wattrset(win, ui_attr(ROLE_SELECTION));
        mvwaddstr(win, h - 1, w - ui_text_width(more, strlen(more)) - 1 > 0 ? w - ui_text_width(more, strlen(more)) - 1 : 0, more);
        wattrset(win, 0);
    }
}

int tr_save_markdown(const transcript *t, const char *path, const char *model_name, char *err, size_t errlen) {
    /* standard output is the screen the interface is drawn on */
    if (!strcmp(path, "-")) {
        snprintf(err, errlen, "cannot write -: the transcript goes to a file");
        return -1;
    }
    seer_safe_file out;
    seer_error e = {{0}};
    if (seer_safe_open(&out, path, &e) != 0) {
        snprintf(err, errlen, "%s", e.msg);
        return -1;
    }
    FILE *f = out.f;
    fprintf(f, "# seer conversation\n\nModel: %s\n", model_name ? model_name : "?");
    for (int i = 0; i < t->n; i++) {
        const tr_entry *en = &t->e[i];
        switch (en->kind) {
        case TR_USER: fprintf(f, "\n## You\n\n%s\n", en->raw); break;
        case TR_ASSISTANT: fprintf(f, "\n## Assistant\n\n%s\n", en->raw); break;
        case TR_IMAGE: fprintf(f, "\n![image](%s)\n", en->raw); break;
        case TR_SYSTEM: fprintf(f, "\n> %s\n", en->raw); break;
        case TR_ERROR: fprintf(f, "\n> **error:** %s\n", en->raw); break;
        case TR_THOUGHT: fprintf(f, "\n<details><summary>Thought</summary>\n\n%s\n\n</details>\n", en->shown); break;
        }
    }
    if (seer_safe_commit(&out, &e) != 0) {
        snprintf(err, errlen, "%s", e.msg);
        return -1;
    }
    return 0;
}
