/* Layout and drawing of the panes: transcript, image preview, timings,
 * status line, token inspector; sixel output after curses has drawn. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input.h"
#include "seer/safe_write.h"
#include "seer/sanitize.h"
#include "text.h"
#include "tui_internal.h"

static void drop(WINDOW **w) {
    if (*w) delwin(*w);
    *w = NULL;
}

void tui_layout(tui *t) {
    drop(&t->w_transcript);
    drop(&t->w_side_border);
    drop(&t->w_preview);
    drop(&t->w_timings);
    drop(&t->w_status);
    input_set_window(NULL);
    drop(&t->w_input);
    drop(&t->w_overlay);
    getmaxyx(stdscr, t->rows, t->cols);
    t->too_small = t->cols < TUI_MIN_COLS || t->rows < TUI_MIN_ROWS;
    t->preview_h = t->preview_w = 0;
    t->sixel_dirty = true;
    if (t->too_small) return;
    int want = input_rows_wanted(t->cols);
    int max_in = t->rows / 4 > 1 ? t->rows / 4 : 1;
    t->input_rows = want < 1 ? 1 : want > max_in ? max_in : want;
    int main_h = t->rows - t->input_rows - 1;
    int main_w = t->cols;
    if (t->cols >= 80 && main_h >= 10) {
        int side_w = t->cols / 3 < 44 ? t->cols / 3 : 44;
        main_w = t->cols - side_w - 1;
        t->w_side_border = newwin(main_h, 1, 0, main_w);
        int timings_h = 11;
        const bool pictures = t->n_images > 0 || tui_find_sheet(t); /* attachments, or /find's thumbnails */
        int preview_h = pictures ? main_h - timings_h : 0;
        if (pictures && preview_h < 4) {
            preview_h = main_h / 2;
            timings_h = main_h - preview_h;
        }
        if (preview_h > 0) {
            /* Row 0 of the preview area is its title. */
            t->preview_y = 1;
            t->preview_x = main_w + 1;
            t->preview_h = preview_h - 1;
            t->preview_w = side_w;
            t->w_preview = newwin(preview_h, side_w, 0, main_w + 1);
            if (t->event_log) {
                fprintf(t->event_log, "preview pane %dx%d cells at %d,%d\n", t->preview_w, t->preview_h,
                        t->preview_x, t->preview_y);
                fflush(t->event_log);
            }
        }
        t->w_timings = newwin(main_h - preview_h, side_w, preview_h, main_w + 1);
    }
    t->w_transcript = newwin(main_h, main_w, 0, 0);
    /* No insert/delete-line scrolling: it would move sixel pixels curses
     * does not know about. */
    idlok(t->w_transcript, FALSE);
    scrollok(t->w_transcript, FALSE);
    t->w_status = newwin(1, t->cols, main_h, 0);
    t->w_input = newwin(t->input_rows, t->cols, main_h + 1, 0);
    input_set_window(t->w_input);
    keypad(t->w_input, TRUE);
    nodelay(t->w_input, TRUE);
    if (t->inspector) t->w_overlay = newwin(main_h, main_w, 0, 0);
}

void tui_notice(tui *t, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->notice, sizeof t->notice, fmt, ap);
    va_end(ap);
    t->notice_until = seer_time_ms() + 3000;
}

static const char *state_name(tui_state s) {
    switch (s) {
    case ST_LOADING: return "loading";
    case ST_IDLE: return "idle";
    case ST_ENCODING: return "encoding";
    case ST_PREFILL: return "prefill";
    case ST_GENERATING: return "generating";
    case ST_FAILED: return "failed";
    }
    return "?";
}

void tui_draw_status(tui *t) {
    WINDOW *w = t->w_status;
    if (!w) return;
    bool busy = t->state != ST_IDLE;
    attr_t a = ui_attr(busy ? ROLE_STATUS_BUSY : ROLE_STATUS);
    wbkgdset(w, ' ' | a);
    werase(w);
    wattrset(w, a);
    char left[512], right[300] = "";
    const seer_sampling *s = &t->sampling;
    char *name = seer_text_sanitize_dup(t->model.name, strlen(t->model.name), 0);
    char quant[48]; /* the LLM's weight type, and the mmproj's beside it */
    snprintf(quant, sizeof quant, "%s%s%s", t->model.quant[0] ? t->model.quant : "-",
             t->model.vision_quant[0] ? " · mmproj " : "", t->model.vision_quant);
    char state[32]; /* "encoding 42%" while a long encode reports its progress */
    if (t->state == ST_ENCODING && t->encode_fraction > 0)
        snprintf(state, sizeof state, "%s %d%%", state_name(t->state), (int)(t->encode_fraction * 100.0f));
    else snprintf(state, sizeof state, "%s", state_name(t->state));
    snprintf(left, sizeof left, " %s │ %s │ %s │ %d thr │ temp %.2g k %d p %.2g min-p %.2g │ %s", name ? name : "",
             quant, t->model.arch[0] ? t->model.arch : "-", t->model.n_threads,
             (double)s->temp, s->top_k, (double)s->top_p, (double)s->min_p, state);
    free(name);
    if (t->notice[0] && seer_time_ms() < t->notice_until) snprintf(right, sizeof right, "%s ", t->notice);
    else if (!t->w_timings && t->ctx_size)
        snprintf(right, sizeof right, "%.1f ms │ %d/%d ", t->last_ms, t->ctx_used, t->ctx_size);
    int rw = ui_text_width(right, strlen(right));
    size_t fit = ui_text_fit(left, strlen(left), t->cols - rw - 1 > 0 ? t->cols - rw - 1 : 0);
    mvwaddnstr(w, 0, 0, left, (int)fit);
    if (rw < t->cols) mvwaddstr(w, 0, t->cols - rw, right);
    wattrset(w, 0);
    wnoutrefresh(w);
}

static double median_ms(const tui *t) {
    if (t->n_spark == 0) return 0;
    int n = t->n_spark < TUI_SPARK ? t->n_spark : TUI_SPARK;
    double v[TUI_SPARK];
    memcpy(v, t->spark, sizeof(double) * (size_t)n);
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
            double x = v[j];
            v[j] = v[j - 1];
            v[j - 1] = x;
        }
    return v[n / 2];
}

static ui_role speed_role(double ms, double med) {
    if (med <= 0 || ms <= med * 1.25) return ROLE_TIMING_FAST;
    return ms <= med * 2 ? ROLE_TIMING_MID : ROLE_TIMING_SLOW;
}

static void row(WINDOW *w, int *y, ui_role role, const char *label, const char *fmt, ...) {
    int h = getmaxy(w), wd = getmaxx(w);
    if (*y >= h) return;
    char val[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(val, sizeof val, fmt, ap);
    va_end(ap);
    wattrset(w, ui_attr(ROLE_MUTED));
    mvwaddnstr(w, *y, 1, label, wd - 1);
    wattrset(w, ui_attr(role));
    if (wd > 12) mvwaddnstr(w, *y, 11, val, wd - 12);
    (*y)++;
}

void tui_draw_timings(tui *t) {
    WINDOW *w = t->w_timings;
    if (!w) return;
    werase(w);
    int y = 0, wd = getmaxx(w);
    wattrset(w, ui_attr(ROLE_TITLE));
    mvwaddstr(w, y++, 1, "Timings");
    double med = median_ms(t);
    row(w, &y, speed_role(t->last_ms, med), "last tok", "%.1f ms", t->last_ms);
    /* Sparkline of recent per-token latencies, newest on the right. */
    static const char *const BARS[] = {"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
    int n = t->n_spark < TUI_SPARK ? t->n_spark : TUI_SPARK;
    int show = n < wd - 2 ? n : wd - 2;
    double mx = 0, mn = 1e300;
    for (int i = n - show; i < n; i++) {
        mx = t->spark[i] > mx ? t->spark[i] : mx;
        mn = t->spark[i] < mn ? t->spark[i] : mn;
    }
    /* The fastest token sits at half height, the slowest at the top: jitter
     * and spikes stand out, a steady stream is a flat line. */
    double lo = mn - (mx - mn) > 0 ? mn - (mx - mn) : 0;
    for (int i = 0; i < show; i++) {
        double v = t->spark[n - show + i];
        int b = mx > mn ? (int)((v - lo) / (mx - lo) * 7.999) : 3;
        wattrset(w, ui_attr(speed_role(v, med)));
        mvwaddstr(w, y, 1 + i, BARS[b < 0 ? 0 : b > 7 ? 7 : b]);
    }
    y++;
    double cur = t->last_ms > 0 ? 1000.0 / t->last_ms : 0;
    double avg = t->gen_total_ms > 0 ? t->gen_tokens * 1000.0 / t->gen_total_ms : 0;
    row(w, &y, ROLE_ASSISTANT, "tok/s", "%.1f (avg %.1f)", cur, avg);
    row(w, &y, ROLE_ASSISTANT, "first tok", "%.0f ms", t->ttft_ms);
    row(w, &y, ROLE_ASSISTANT, "image", "%.0f ms · %d tok", t->image_ms, t->image_tokens);
    row(w, &y, ROLE_ASSISTANT, "prefill", "%d tok · %.0f tok/s", t->prefill_tokens,
        t->prefill_ms > 0 ? t->prefill_tokens * 1000.0 / t->prefill_ms : 0);
    row(w, &y, ROLE_ASSISTANT, "context", "%d / %d", t->ctx_used, t->ctx_size);
    row(w, &y, ROLE_ASSISTANT, "memory", "%.0f MB", tui_rss_mb());
    if (t->model.thinks) {
        row(w, &y, ROLE_THOUGHT, "thinking", "%d tok · %.1f s", t->think_tokens, t->think_ms / 1000.0);
        row(w, &y, ROLE_ASSISTANT, "answer", "%d tok · %.1f s", t->gen_tokens - t->think_tokens, t->answer_ms / 1000.0);
    } else {
        row(w, &y, ROLE_ASSISTANT, "reply", "%d tok", t->gen_tokens);
    }
    /* OpenBLAS narrower than the CPU: its width here in the warning colour, the whole warning in /stats */
    row(w, &y, t->model.blas_warning[0] ? ROLE_TIMING_SLOW : ROLE_MUTED, "kernels", "%s", t->model.kernels_short);
    wattrset(w, 0);
    wnoutrefresh(w);
}

void tui_draw_preview(tui *t) {
    WINDOW *w = t->w_preview;
    if (!w) return;
    werase(w);
    const tui_image *im = t->selected_image >= 0 && t->selected_image < t->n_images ? &t->images[t->selected_image] : NULL;
    const seer_image *shown = im && im->img.rgb ? &im->img : NULL;
    wattrset(w, ui_attr(ROLE_TITLE));
    char title[256] = "Image";
    if (tui_find_sheet(t)) {
        shown = tui_find_sheet(t);
        snprintf(title, sizeof title, "Found: type 1-%d to attach", tui_find_count(t));
    } else if (im) {
        char *p = seer_text_sanitize_dup(im->path, strlen(im->path), 0);
        const char *base = p ? strrchr(p, '/') : NULL;
        snprintf(title, sizeof title, "Image %d/%d %s", t->selected_image + 1, t->n_images,
                 base ? base + 1 : p ? p : "");
        free(p);
    }
    mvwaddnstr(w, 0, 1, title, (int)ui_text_fit(title, strlen(title), getmaxx(w) - 1));
    wattrset(w, 0);
    if (shown && !t->sixel) {
        WINDOW *sub = derwin(w, t->preview_h, t->preview_w, 1, 0);
        if (sub) {
            preview_draw_cells(sub, shown, t->cfg.preview);
            delwin(sub);
        }
    }
    wnoutrefresh(w);
}

/* Writes the sixel image over the preview pane, after curses has drawn. */
void tui_emit_sixel(tui *t) {
    if (!t->sixel || !t->sixel_dirty || !t->w_preview || t->inspector || t->too_small) return;
    t->sixel_dirty = false;
    /* /find's thumbnails while they wait for a pick (key SIXEL_KEY_SHEET), else the selected image */
    const seer_image *img = tui_find_sheet(t);
    int key = SIXEL_KEY_SHEET;
    if (!img) {
        if (t->selected_image < 0 || t->selected_image >= t->n_images) return;
        img = &t->images[t->selected_image].img;
        key = t->selected_image;
    }
    if (!img->rgb) return;
    int cw = t->cell_w > 0 ? t->cell_w : 10, ch = t->cell_h > 0 ? t->cell_h : 20;
    int pw = t->preview_w * cw, ph = t->preview_h * ch;
    if (!t->sixel_bytes || t->sixel_key_image != key || t->sixel_key_w != pw || t->sixel_key_h != ph) {
        free(t->sixel_bytes);
        t->sixel_bytes = NULL;
        if (preview_sixel_encode(img, pw, ph, &t->sixel_bytes, &t->sixel_len, NULL, NULL) != 0) return;
        t->sixel_key_image = key;
        t->sixel_key_w = pw;
        t->sixel_key_h = ph;
        if (t->event_log) {
            fprintf(t->event_log, "sixel pane %dx%d px, %zu bytes\n", pw, ph, t->sixel_len);
            fflush(t->event_log);
        }
        const char *dump = getenv("SEER_SIXEL_DUMP");
        if (dump && *dump) {
            seer_safe_file f;
            if (seer_safe_open(&f, dump, NULL) == 0) {
                if (fwrite(t->sixel_bytes, 1, t->sixel_len, f.f) == t->sixel_len) (void)seer_safe_commit(&f, NULL);
                else seer_safe_abandon(&f);
            }
        }
    }
    char pos[64];
    int n = snprintf(pos, sizeof pos, "\0337\033[%d;%dH", t->preview_y + 1, t->preview_x + 1);
    fflush(stdout);
    ssize_t r = write(STDOUT_FILENO, pos, (size_t)n);
    for (size_t off = 0; r >= 0 && off < t->sixel_len; off += (size_t)r) r = write(STDOUT_FILENO, t->sixel_bytes + off, t->sixel_len - off);
    r = write(STDOUT_FILENO, "\0338", 2);
    (void)r;
}

void tui_draw_inspector(tui *t) {
    WINDOW *w = t->w_overlay;
    if (!w) return;
    int h, wd;
    getmaxyx(w, h, wd);
    werase(w);
    wattrset(w, ui_attr(ROLE_TITLE));
    char head[160];
    snprintf(head, sizeof head, "Token inspector: %d tokens of the last reply (↑/↓ PgUp/PgDn, Esc closes)", t->n_tokens);
    mvwaddnstr(w, 0, 0, head, (int)ui_text_fit(head, strlen(head), wd));
    wattrset(w, ui_attr(ROLE_MUTED));
    mvwaddnstr(w, 1, 0, "    #      id       ms    prob  text", wd);
    double med = 0;
    if (t->n_tokens) {
        double *v = malloc(sizeof *v * (size_t)t->n_tokens);
        if (v) {
            for (int i = 0; i < t->n_tokens; i++) v[i] = t->tokens[i].ms;
            for (int i = 1; i < t->n_tokens; i++)
                for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
                    double x = v[j];
                    v[j] = v[j - 1];
                    v[j - 1] = x;
                }
            med = v[t->n_tokens / 2];
            free(v);
        }
    }
    int rows = h - 2;
    if (t->insp_top > t->n_tokens - rows) t->insp_top = t->n_tokens - rows;
    if (t->insp_top < 0) t->insp_top = 0;
    for (int r = 0; r < rows && t->insp_top + r < t->n_tokens; r++) {
        const tui_token *k = &t->tokens[t->insp_top + r];
        /* The first token's time includes the prefill: judge it separately. */
        ui_role role = t->insp_top + r == 0 ? ROLE_ASSISTANT : speed_role(k->ms, med);
        if (role == ROLE_TIMING_FAST) role = ROLE_ASSISTANT;
        wattrset(w, ui_attr(role));
        char line[512];
        snprintf(line, sizeof line, "%5d %7d %8.2f %7.3f  \"%s\"", t->insp_top + r, k->id, k->ms, (double)k->prob,
                 k->text ? k->text : "");
        mvwaddnstr(w, 2 + r, 0, line, (int)ui_text_fit(line, strlen(line), wd));
    }
    wattrset(w, 0);
    wnoutrefresh(w);
}

static void draw_loading(tui *t) {
    WINDOW *w = t->w_transcript;
    werase(w);
    int h, wd;
    getmaxyx(w, h, wd);
    int y = h / 2 - 1;
    if (t->state == ST_FAILED) {
        wattrset(w, ui_attr(ROLE_ERROR));
        char *msg = seer_text_sanitize_dup(t->load_error, strlen(t->load_error), 0);
        char line[700];
        snprintf(line, sizeof line, "Cannot load the model: %s", msg ? msg : "");
        free(msg);
        ui_span *sp;
        int n = ui_wrap(line, strlen(line), wd - 4, &sp);
        for (int i = 0; i < n && y + i < h; i++) mvwaddnstr(w, y + i, 2, line + sp[i].start, sp[i].len);
        free(sp);
        wattrset(w, ui_attr(ROLE_MUTED));
        mvwaddstr(w, y + n + 1 < h ? y + n + 1 : h - 1, 2, "Press any key to exit.");
    } else {
        wattrset(w, ui_attr(ROLE_TITLE));
        mvwaddstr(w, y, 2, "Loading model…");
        int bar = wd - 30 > 10 ? wd - 30 : 10;
        if (bar > 50) bar = 50;
        int fill = (int)(t->load_fraction * (float)bar + 0.5f);
        wattrset(w, ui_attr(ROLE_TIMING_FAST));
        wmove(w, y + 1, 2);
        waddch(w, '[');
        for (int i = 0; i < bar; i++) waddstr(w, i < fill ? "█" : " ");
        char pct[96];
        snprintf(pct, sizeof pct, "] %3d%%  %.1f / %.1f MB", (int)(t->load_fraction * 100 + 0.5f), t->load_mb,
                 t->load_mb_total);
        waddstr(w, pct);
    }
    wattrset(w, 0);
    wnoutrefresh(w);
}

void tui_draw_all(tui *t) {
    if (t->too_small) {
        erase();
        char msg[96];
        snprintf(msg, sizeof msg, "terminal too small (%dx%d): need %dx%d", t->cols, t->rows, TUI_MIN_COLS, TUI_MIN_ROWS);
        mvaddnstr(t->rows / 2, 0, msg, t->cols);
        wnoutrefresh(stdscr);
        doupdate();
        return;
    }
    if (t->state == ST_LOADING || t->state == ST_FAILED) draw_loading(t);
    else {
        tr_draw(&t->tr, t->w_transcript);
        wnoutrefresh(t->w_transcript);
    }
    if (t->w_side_border) {
        werase(t->w_side_border);
        wattrset(t->w_side_border, ui_attr(ROLE_BORDER));
        for (int y = 0; y < getmaxy(t->w_side_border); y++) mvwaddstr(t->w_side_border, y, 0, "│");
        wnoutrefresh(t->w_side_border);
    }
    tui_draw_preview(t);
    tui_draw_timings(t);
    if (t->inspector) tui_draw_inspector(t);
    tui_draw_status(t);
    input_draw(t->w_input);
    doupdate();
    tui_emit_sixel(t);
}
