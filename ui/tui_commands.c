/* What a line typed by the user does: a command, an image path, or a turn. */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "input.h"
#include "seer/sanitize.h"
#include "tui_internal.h"

void tui_note(tui *t, tr_kind kind, const char *fmt, ...) {
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    tr_add(&t->tr, kind, buf, strlen(buf));
    t->tr.scroll = 0;
}

void tui_reset_timings(tui *t) {
    t->n_spark = 0;
    t->last_ms = t->ttft_ms = t->gen_total_ms = 0;
    t->gen_tokens = 0;
    t->prefill_tokens = 0;
    t->prefill_ms = 0;
    t->image_ms = 0;
    t->image_tokens = 0;
}

double tui_rss_mb(void) {
    FILE *f = fopen("/proc/self/statm", "r");
    long pages = 0, rss = 0;
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &rss) != 2) rss = 0;
        fclose(f);
    }
    return (double)rss * 4096.0 / (1024.0 * 1024.0);
}

/* Queues an image for the engine and shows it in the preview right away. */
int tui_add_image(tui *t, const char *path) {
    if (t->n_images == t->cap_images) {
        int cap = t->cap_images ? t->cap_images * 2 : 8;
        tui_image *p = realloc(t->images, sizeof *p * (size_t)cap);
        if (!p) return -1;
        t->images = p;
        t->cap_images = cap;
    }
    seer_error err = {{0}};
    tui_image im = {0};
    if (seer_image_load(path, 0, &im.img, &err) != 0) {
        tui_note(t, TR_ERROR, "%s", err.msg);
        return -1;
    }
    im.path = strdup(path);
    im.request = seer_worker_attach_image(t->worker, path);
    t->images[t->n_images] = im;
    t->selected_image = t->n_images++;
    t->pending_requests++;
    if (t->state == ST_IDLE) t->state = ST_ENCODING;
    tui_layout(t); /* the preview pane appears with the first image */
    return 0;
}

static char *trim(char *s) {
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) s[--n] = 0;
    return s;
}

/* A line that is just the path of an existing image, as terminals paste or
 * drop it: maybe quoted, maybe file://, maybe with backslash-escaped spaces. */
static bool as_image_path(const char *line, char *out, size_t cap) {
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
    struct stat st;
    return ext_ok && stat(out, &st) == 0 && S_ISREG(st.st_mode);
}

static void cmd_help(tui *t) {
    tui_note(t, TR_SYSTEM,
             "Commands: /image PATH… (or paste a path) · /images [N] (list, or show image N) · /clear · /system TEXT · "
             "/set temp|top_k|top_p|min_p|seed|n_predict|repeat_penalty VALUE · /theme NAME · /stats · /tokens · "
             "/save FILE · /help · /quit");
    tui_note(t, TR_SYSTEM,
             "Keys: Enter sends · Alt-Enter or a trailing \\ adds a line · Esc or Ctrl-C stops a reply · "
             "Ctrl-C twice or Ctrl-D quits · PgUp/PgDn or the wheel scroll · Tab completes paths after /image · "
             "Ctrl-R searches history · F2 opens the token inspector");
}

static void cmd_images(tui *t, const char *args) {
    if (*args) {
        int k = atoi(args);
        if (k < 1 || k > t->n_images) {
            tui_note(t, TR_ERROR, "no image %s (%d attached)", args, t->n_images);
            return;
        }
        t->selected_image = k - 1;
        t->sixel_dirty = true;
        return;
    }
    if (!t->n_images) {
        tui_note(t, TR_SYSTEM, "no images attached: /image PATH");
        return;
    }
    for (int i = 0; i < t->n_images; i++)
        tui_note(t, TR_SYSTEM, "%d. %s (%d×%d%s%s)", i + 1, t->images[i].path, t->images[i].img.w,
                 t->images[i].img.h, t->images[i].encoded ? ", encoded" : ", encoding",
                 i == t->selected_image ? ", shown" : "");
}

static void cmd_set(tui *t, char *args) {
    char key[32];
    double v;
    if (sscanf(args, "%31s %lf", key, &v) != 2) {
        tui_note(t, TR_ERROR, "usage: /set temp|top_k|top_p|min_p|seed|n_predict|repeat_penalty VALUE");
        return;
    }
    /* (int)v / (uint64_t)v of a value out of range is undefined behaviour */
    const double max = !strcmp(key, "seed") ? 1.8e19 : 2147483647.0;
    if (!isfinite(v) || v > max || v < -max) {
        tui_note(t, TR_ERROR, "%s: %g is out of range", key, v);
        return;
    }
    seer_sampling s = t->sampling;
    int n_predict = t->n_predict;
    if (!strcmp(key, "temp")) s.temp = (float)v;
    else if (!strcmp(key, "top_k")) s.top_k = (int)v;
    else if (!strcmp(key, "top_p")) s.top_p = (float)v;
    else if (!strcmp(key, "min_p")) s.min_p = (float)v;
    else if (!strcmp(key, "seed")) s.seed = (uint64_t)v;
    else if (!strcmp(key, "repeat_penalty")) s.repeat_penalty = (float)v;
    else if (!strcmp(key, "n_predict")) n_predict = (int)v;
    else {
        tui_note(t, TR_ERROR, "unknown setting '%s' (temp, top_k, top_p, min_p, seed, n_predict, repeat_penalty)", key);
        return;
    }
    if (v < 0 && strcmp(key, "n_predict") != 0) {
        tui_note(t, TR_ERROR, "%s must not be negative", key);
        return;
    }
    t->sampling = s;
    t->n_predict = n_predict;
    seer_worker_set_sampling(t->worker, &s, n_predict);
    tui_note(t, TR_SYSTEM, "%s = %g", key, v);
}

static void cmd_stats(tui *t) {
    tui_note(t, TR_SYSTEM,
             "model %s (%s, %s, %d layers, %d embd, vocab %d, %.2fB params)%s%s · chat %s · %d threads",
             t->model.name, t->model.arch, t->model.quant, t->model.n_layer, t->model.n_embd, t->model.n_vocab,
             (double)t->model.n_params / 1e9, t->model.vision ? " + vision " : "", t->model.projector, t->model.chat,
             t->model.n_threads);
    tui_note(t, TR_SYSTEM,
             "last turn: prefill %d tok in %.0f ms · %d tok generated in %.0f ms (%.1f tok/s) · first token %.0f ms · "
             "context %d/%d · memory %.0f MB",
             t->prefill_tokens, t->prefill_ms, t->gen_tokens, t->gen_total_ms,
             t->gen_total_ms > 0 ? t->gen_tokens * 1000.0 / t->gen_total_ms : 0, t->ttft_ms, t->ctx_used, t->ctx_size,
             tui_rss_mb());
    tui_note(t, TR_SYSTEM, "session: %d tokens generated in %.0f ms (%.1f tok/s)", t->gen_tokens_total,
             t->gen_ms_total, t->gen_ms_total > 0 ? t->gen_tokens_total * 1000.0 / t->gen_ms_total : 0);
}

static void send_turn(tui *t, const char *text) {
    if (t->state == ST_FAILED) return;
    tr_add(&t->tr, TR_USER, text, strlen(text));
    t->tr.scroll = 0;
    t->cur_reply = -1;
    seer_worker_send(t->worker, text);
    t->pending_requests++;
    if (t->state == ST_IDLE) t->state = ST_PREFILL;
    t->turn_start_ms = seer_time_ms();
}

void tui_handle_line(tui *t, char *raw) {
    char *line = trim(raw);
    if (!*line) return;
    input_remember(line);
    char path[4096];
    if (line[0] != '/' || as_image_path(line, path, sizeof path)) {
        if (as_image_path(line, path, sizeof path)) {
            tui_add_image(t, path);
            return;
        }
        send_turn(t, line);
        return;
    }
    char *args = line + strcspn(line, " \t");
    if (*args) *args++ = 0;
    args = trim(args);
    if (!strcmp(line, "/quit") || !strcmp(line, "/exit") || !strcmp(line, "/q")) t->quit = true;
    else if (!strcmp(line, "/help") || !strcmp(line, "/?")) cmd_help(t);
    else if (!strcmp(line, "/image")) {
        if (!*args) {
            tui_note(t, TR_ERROR, "usage: /image PATH…");
            return;
        }
        /* Several paths, separated by spaces; "\ " keeps a space in a name. */
        char *p = args;
        while (*p) {
            char one[4096];
            size_t k = 0;
            while (*p && !isspace((unsigned char)*p) && k + 1 < sizeof one) {
                if (*p == '\\' && p[1]) p++;
                one[k++] = *p++;
            }
            one[k] = 0;
            while (isspace((unsigned char)*p)) p++;
            if (k) tui_add_image(t, one);
        }
    } else if (!strcmp(line, "/images")) cmd_images(t, args);
    else if (!strcmp(line, "/clear")) {
        seer_worker_clear(t->worker);
        tr_clear(&t->tr);
        for (int i = 0; i < t->n_images; i++) {
            free(t->images[i].path);
            seer_image_free(&t->images[i].img);
        }
        t->n_images = 0;
        t->selected_image = -1;
        for (int i = 0; i < t->n_tokens; i++) free(t->tokens[i].text);
        t->n_tokens = 0;
        tui_reset_timings(t);
        tui_layout(t);
        tui_note(t, TR_SYSTEM, "new conversation");
    } else if (!strcmp(line, "/system")) {
        seer_worker_set_system(t->worker, args);
        tui_note(t, TR_SYSTEM, *args ? "system prompt set (the conversation is re-read at the next turn)"
                                     : "system prompt removed");
    } else if (!strcmp(line, "/set")) cmd_set(t, args);
    else if (!strcmp(line, "/theme")) {
        char err[256], list[512];
        if (!*args) {
            ui_theme_list(t->theme_dirs, list, sizeof list);
            tui_note(t, TR_SYSTEM, "theme %s; available: %s", ui_theme_name(), list[0] ? list : "(none found)");
        } else if (ui_theme_load(args, t->theme_dirs, err, sizeof err)) {
            clearok(curscr, TRUE);
            t->sixel_dirty = true;
            tui_note(t, TR_SYSTEM, "theme %s", args);
        } else {
            tui_note(t, TR_ERROR, "%s", err);
        }
    } else if (!strcmp(line, "/stats")) cmd_stats(t);
    else if (!strcmp(line, "/tokens")) {
        t->inspector = true;
        t->insp_top = 0;
        tui_layout(t);
        clearok(curscr, TRUE);
    } else if (!strcmp(line, "/save")) {
        char err[512];
        if (!*args) tui_note(t, TR_ERROR, "usage: /save FILE.md");
        else if (tr_save_markdown(&t->tr, args, t->model.name, err, sizeof err) == 0)
            tui_note(t, TR_SYSTEM, "saved the transcript to %s", args);
        else tui_note(t, TR_ERROR, "cannot save: %s", err);
    } else {
        tui_note(t, TR_ERROR, "unknown command %s: /help lists the commands", line);
    }
}
