/* The UI thread: owns the terminal, polls the keyboard and the engine's event
 * pipe, and never runs model math. */
#include <errno.h>
#include <stdarg.h>
#include <limits.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input.h"
#include "seer/sanitize.h"
#include "tui_internal.h"

tui *TUI;

static void on_line(char *line) {
    if (!line) {
        TUI->quit = true;
        return;
    }
    tui_handle_line(TUI, line);
    free(line);
}

static void on_matches(char **matches, int n) {
    char buf[1024] = "";
    size_t len = 0;
    for (int i = 0; i < n && len + 2 < sizeof buf; i++) {
        const char *m = strrchr(matches[i], '/');
        m = m && m[1] ? m + 1 : matches[i];
        int w = snprintf(buf + len, sizeof buf - len, "%s%s", i ? "  " : "", m);
        if (w < 0 || (size_t)w >= sizeof buf - len) break;
        len += (size_t)w;
    }
    tui_note(TUI, TR_SYSTEM, "%s", buf);
    tui_draw_all(TUI);
}

static void log_event(tui *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void log_event(tui *t, const char *fmt, ...) {
    if (!t->event_log) return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(t->event_log, fmt, ap);
    va_end(ap);
    fputc('\n', t->event_log);
    fflush(t->event_log);
}

static void request_done(tui *t) {
    if (t->pending_requests > 0) t->pending_requests--;
    if (t->pending_requests == 0 && t->state != ST_FAILED && t->state != ST_LOADING) t->state = ST_IDLE;
}

static void push_token(tui *t, const seer_event *ev) {
    if (t->n_tokens == t->cap_tokens) {
        int cap = t->cap_tokens ? t->cap_tokens * 2 : 256;
        tui_token *p = realloc(t->tokens, sizeof *p * (size_t)cap);
        if (!p) return;
        t->tokens = p;
        t->cap_tokens = cap;
    }
    /* Inspector text: every control byte visible (newlines as ␊ too). */
    char *txt = seer_text_sanitize_dup(ev->text ? ev->text : "", (size_t)ev->text_len, 0);
    t->tokens[t->n_tokens++] = (tui_token){ev->token, txt, ev->ms, ev->prob};
}

static void handle_event(tui *t, seer_event *ev) {
    if (tui_find_answer(t, ev)) return; /* /find's answer: not an image's or a turn's */
    switch (ev->type) {
    case SEER_EV_LOAD_PROGRESS:
        t->load_fraction = ev->fraction;
        t->load_mb = ev->mb_done;
        t->load_mb_total = ev->mb_total;
        break;
    case SEER_EV_LOADED:
        t->model = ev->model;
        t->sampling = ev->sampling;
        t->n_predict = ev->n_predict;
        t->ctx_size = ev->model.n_ctx;
        t->state = t->pending_requests ? ST_ENCODING : ST_IDLE;
        log_event(t, "loaded %s ctx %d", ev->model.name, ev->model.n_ctx);
        tui_note(t, TR_SYSTEM, "%s loaded (%s, %s%s%s%s%s) · /help for commands", t->model.name, t->model.arch,
                 t->model.quant, t->model.vision ? ", vision: " : ", text only", t->model.projector,
                 t->model.vision ? " " : "", t->model.vision_quant);
        if (t->model.chat_fallback) /* once, so a wrong-looking answer has its likely cause on screen */
            tui_note(t, TR_SYSTEM, "the model's chat template is %s: using %s (start with --chat-template NAME for "
                     "another)", t->model.chat_template_present ? "not one seer knows" : "missing", t->model.chat);
        if (t->model.thinks)
            tui_note(t, TR_SYSTEM, "a thinking model: thinking %s%s · Ctrl-T unfolds its thoughts",
                     t->model.thinking ? "on" : "off", t->model.think_switch ? " (/think on|off)" : "");
        break;
    case SEER_EV_LOAD_FAILED:
        t->state = ST_FAILED;
        snprintf(t->load_error, sizeof t->load_error, "%s", ev->text ? ev->text : "unknown error");
        t->exit_code = 1;
        log_event(t, "load_failed %s", t->load_error);
        break;
    case SEER_EV_ENCODE_PROGRESS:
        t->encode_fraction = ev->fraction;
        break;
    case SEER_EV_FOUND: break; /* a search's results no longer waited for */
    case SEER_EV_IMAGE_ENCODED: {
        t->encode_fraction = 0;
        for (int i = 0; i < t->n_images; i++)
            if (t->images[i].request == ev->request) {
                t->images[i].encoded = true;
                t->images[i].n_tokens = ev->n_tokens;
                t->images[i].encode_ms = ev->ms;
                break;
            }
        t->image_ms = ev->ms;
        t->image_tokens = ev->n_tokens;
        char label[4200];
        snprintf(label, sizeof label, "%s (%d×%d · %d tokens · encoded in %.0f ms)", ev->text ? ev->text : "",
                 ev->image_w, ev->image_h, ev->n_tokens, ev->ms);
        tr_add_labelled(&t->tr, TR_IMAGE, ev->text ? ev->text : "", label);
        t->sixel_dirty = true;
        t->tr.scroll = 0;
        log_event(t, "image %d tokens %.1f ms", ev->n_tokens, ev->ms);
        request_done(t);
        break;
    }
    case SEER_EV_PREFILL_DONE:
        t->prefill_tokens = ev->n_tokens;
        t->prefill_ms = ev->ms;
        t->state = ST_GENERATING;
        for (int i = 0; i < t->n_tokens; i++) free(t->tokens[i].text);
        t->n_tokens = 0;
        t->gen_tokens = 0;
        t->gen_total_ms = 0;
        t->ttft_ms = 0;
        if (ev->stats.shifted_turns)
            tui_note(t, TR_SYSTEM, "context full: the %d oldest turn(s) were shifted out (system prompt kept)",
                     ev->stats.shifted_turns);
        t->cur_reply = tr_add(&t->tr, TR_ASSISTANT, "", 0);
        tui_thought_turn_start(t);
        t->ctx_used = ev->stats.n_used;
        t->ctx_size = ev->stats.n_ctx;
        t->sixel_dirty = true;
        log_event(t, "prefill %d tokens %.1f ms shifted %d", ev->n_tokens, ev->ms, ev->stats.shifted_turns);
        break;
    case SEER_EV_TOKEN:
        tui_thought_token(t, ev);
        if (ev->index < 0) break; /* trailing bytes only */
        if (t->gen_tokens == 0) t->ttft_ms = seer_time_ms() - t->turn_start_ms;
        t->gen_tokens++;
        t->gen_total_ms += ev->ms;
        t->last_ms = ev->ms;
        if (t->n_spark == TUI_SPARK) {
            memmove(t->spark, t->spark + 1, sizeof(double) * (TUI_SPARK - 1));
            t->n_spark--;
        }
        t->spark[t->n_spark++] = ev->ms;
        t->ctx_used++;
        push_token(t, ev);
        log_event(t, "token %d %.2f ms p %.3f%s", ev->token, ev->ms, (double)ev->prob, ev->thought_len ? " thought" : "");
        break;
    case SEER_EV_TURN_DONE:
        t->last_stats = ev->stats;
        t->have_stats = true;
        if (ev->stats.n_ctx) {
            t->ctx_used = ev->stats.n_used;
            t->ctx_size = ev->stats.n_ctx;
        }
        if (ev->stats.ttft_ms > 0) t->ttft_ms = ev->stats.ttft_ms;
        t->gen_tokens_total += ev->stats.gen_tokens;
        t->gen_ms_total += ev->stats.gen_ms;
        if (ev->stats.stop == SEER_STOP_ERROR) tui_note(t, TR_ERROR, "%s", ev->text ? ev->text : "the turn failed");
        else if (ev->stats.stop == SEER_STOP_CANCELLED) tui_note(t, TR_SYSTEM, "(stopped)");
        else if (ev->stats.stop == SEER_STOP_CONTEXT_FULL)
            tui_note(t, TR_SYSTEM, "context full: the reply stopped; the oldest turns will be shifted out at the "
                                   "next turn (or /clear)");
        log_event(t, "done %s tokens %d used %d thought %d", seer_stop_reason_name(ev->stats.stop),
                  ev->stats.gen_tokens, ev->stats.n_used, ev->stats.thought_tokens);
        tui_thought_turn_end(t, &ev->stats);
        t->cur_reply = -1;
        t->sixel_dirty = true; /* repaint the picture once the stream has settled */
        request_done(t);
        break;
    case SEER_EV_CLEARED:
        t->ctx_used = 0;
        log_event(t, "cleared");
        break;
    case SEER_EV_SETTINGS:
        t->sampling = ev->sampling;
        t->n_predict = ev->n_predict;
        t->model.thinking = ev->thinking;
        break;
    case SEER_EV_ERROR:
        t->encode_fraction = 0;
        tui_note(t, TR_ERROR, "%s", ev->text ? ev->text : "error");
        log_event(t, "error %s", ev->text ? ev->text : "");
        /* An image that failed leaves the preview list. */
        for (int i = t->n_images - 1; i >= 0; i--)
            if (t->images[i].request == ev->request) {
                free(t->images[i].path);
                seer_image_free(&t->images[i].img);
                memmove(t->images + i, t->images + i + 1, sizeof *t->images * (size_t)(t->n_images - i - 1));
                t->n_images--;
                if (t->selected_image >= t->n_images) t->selected_image = t->n_images - 1;
                tui_layout(t);
                break;
            }
        request_done(t);
        break;
    }
}

/* Keys readline does not see as curses keycodes: sent as the byte sequences
 * readline binds by default. */
static const char *key_sequence(int key) {
    switch (key) {
    case KEY_UP: return "\033[A";
    case KEY_DOWN: return "\033[B";
    case KEY_RIGHT: return "\033[C";
    case KEY_LEFT: return "\033[D";
    case KEY_HOME: return "\033[H";
    case KEY_END: return "\033[F";
    case KEY_DC: return "\033[3~";
    case KEY_BACKSPACE: return "\177";
    case KEY_ENTER: return "\r";
    }
    return NULL;
}

static void cancel_or_hint(tui *t) {
    if (t->state != ST_IDLE && t->pending_requests > 0) {
        seer_worker_cancel(t->worker);
        tui_notice(t, "stopping…");
    }
}

/* After "ESC [": a bracketed paste ("200~" … "ESC [201~") is inserted as
 * text, newlines included, instead of sending a turn per line. Returns false
 * (having fed what it read to readline) when it was some other sequence. */
static bool read_paste(tui *t) {
    static const char START[] = "200~", END[] = "\033[201~";
    char head[8];
    int n = 0;
    wtimeout(t->w_input, 50);
    for (; n < 4; n++) {
        int c = wgetch(t->w_input);
        if (c == ERR || c != START[n]) {
            if (c != ERR) head[n++] = (char)c;
            break;
        }
        head[n] = (char)c;
    }
    if (n < 4 || memcmp(head, START, 4) != 0) {
        nodelay(t->w_input, TRUE);
        input_feed(27);
        input_feed('[');
        for (int i = 0; i < n; i++) input_feed((unsigned char)head[i]);
        return true;
    }
    size_t len = 0, cap = 4096;
    char *buf = malloc(cap);
    while (buf) {
        int c = wgetch(t->w_input);
        if (c == ERR) break; /* the end marker never came: keep what arrived */
        if (c < 0 || c > 255) continue;
        if (len + 2 >= cap) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb) break;
            buf = nb;
        }
        buf[len++] = c == '\r' ? '\n' : (char)c;
        if (len >= 6 && memcmp(buf + len - 6, END, 6) == 0) {
            len -= 6;
            break;
        }
    }
    nodelay(t->w_input, TRUE);
    if (buf) {
        buf[len] = 0;
        input_insert_text(buf);
        free(buf);
    }
    return true;
}

static void handle_inspector_key(tui *t, int key) {
    int page = t->w_overlay ? getmaxy(t->w_overlay) - 2 : 10;
    switch (key) {
    case KEY_UP: t->insp_top--; break;
    case KEY_DOWN: t->insp_top++; break;
    case KEY_PPAGE: t->insp_top -= page; break;
    case KEY_NPAGE: t->insp_top += page; break;
    case KEY_HOME: t->insp_top = 0; break;
    case KEY_END: t->insp_top = t->n_tokens; break;
    case 27: case 'q': case KEY_F(2):
        t->inspector = false;
        tui_layout(t);
        clearok(curscr, TRUE);
        break;
    }
}

static void handle_key(tui *t, int key) {
    if (key == KEY_RESIZE) {
        tui_layout(t);
        clearok(curscr, TRUE);
        return;
    }
    if (t->state == ST_FAILED) {
        t->quit = true;
        return;
    }
    if (t->inspector) {
        if (key == 27 && wgetch(t->w_input) != ERR) return; /* escape sequence: ignore */
        handle_inspector_key(t, key);
        return;
    }
    int page = t->w_transcript ? getmaxy(t->w_transcript) - 1 : 10;
    switch (key) {
    case KEY_PPAGE: tr_scroll(&t->tr, page); return;
    case KEY_NPAGE: tr_scroll(&t->tr, -page); return;
    case KEY_F(2):
        t->inspector = true;
        t->insp_top = 0;
        tui_layout(t);
        clearok(curscr, TRUE);
        return;
    case KEY_MOUSE: {
        MEVENT me;
        if (getmouse(&me) == OK) {
            if (me.bstate & BUTTON4_PRESSED) tr_scroll(&t->tr, 3);
#ifdef BUTTON5_PRESSED
            else if (me.bstate & BUTTON5_PRESSED) tr_scroll(&t->tr, -3);
#endif
        }
        return;
    }
    case 20: /* Ctrl-T: fold or unfold the thoughts */
        tui_thought_toggle(t);
        return;
    case 12: /* Ctrl-L */
        clearok(curscr, TRUE);
        t->sixel_dirty = true;
        return;
    case 3: { /* Ctrl-C */
        if (t->state != ST_IDLE && t->pending_requests > 0) {
            cancel_or_hint(t);
            return;
        }
        if (!input_line_empty()) {
            input_clear_line();
            return;
        }
        double now = seer_time_ms();
        if (now - t->last_ctrl_c < 2000) t->quit = true;
        else tui_notice(t, "press Ctrl-C again to quit");
        t->last_ctrl_c = now;
        return;
    }
    case 4: /* Ctrl-D */
        if (input_line_empty()) {
            t->quit = true;
            return;
        }
        input_feed(4);
        return;
    case 27: {
        /* Lone Esc stops a reply; Esc + key is Alt-key for readline. */
        int next = wgetch(t->w_input);
        if (next == ERR) {
            if (input_in_search()) input_feed(27); /* Esc ends a Ctrl-R search */
            else cancel_or_hint(t);
            return;
        }
        if (next == '[' && read_paste(t)) return;
        input_feed(27);
        const char *seq = key_sequence(next);
        if (seq) input_feed_str(seq);
        else if (next >= 0 && next < 256) input_feed(next);
        return;
    }
    }
    const char *seq = key_sequence(key);
    if (seq) input_feed_str(seq);
    else if (key >= 0 && key < 256) input_feed(key);
}

/* The input window grows with a multi-line entry (up to a quarter of the
 * screen) and shrinks back after it is sent. */
static void fit_input(tui *t) {
    if (!t->w_input) return;
    int want = input_rows_wanted(t->cols), max = t->rows / 4 > 1 ? t->rows / 4 : 1;
    if (want > max) want = max;
    if (want < 1) want = 1;
    if (want != t->input_rows) tui_layout(t);
}

static void setup_theme_dirs(tui *t) {
    int k = 0;
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        char *slash = strrchr(exe, '/');
        if (slash) *slash = 0;
        snprintf(t->theme_dir_buf[0], sizeof t->theme_dir_buf[0], "%s/themes", exe);
        snprintf(t->theme_dir_buf[1], sizeof t->theme_dir_buf[1], "%s/../share/seer/themes", exe);
        /* a binary built in a subfolder of the source tree (build-san/seer) */
        snprintf(t->theme_dir_buf[3], sizeof t->theme_dir_buf[3], "%s/../themes", exe);
        t->theme_dirs[k++] = t->theme_dir_buf[0];
        t->theme_dirs[k++] = t->theme_dir_buf[1];
        t->theme_dirs[k++] = t->theme_dir_buf[3];
    }
    const char *cfg = getenv("XDG_CONFIG_HOME");
    if (cfg && *cfg) snprintf(t->theme_dir_buf[2], sizeof t->theme_dir_buf[2], "%s/seer/themes", cfg);
    else snprintf(t->theme_dir_buf[2], sizeof t->theme_dir_buf[2], "%s/.config/seer/themes",
                  getenv("HOME") ? getenv("HOME") : ".");
    t->theme_dirs[k++] = t->theme_dir_buf[2];
    t->theme_dirs[k] = NULL;
}

int tui_run(const tui_config *cfg) {
    setlocale(LC_ALL, "");
    /* Panes are drawn with Unicode; terminals are UTF-8 even when LANG is unset. */
    if (strcmp(nl_langinfo(CODESET), "UTF-8") != 0) setlocale(LC_CTYPE, "C.UTF-8");
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
        fprintf(stderr, "seer: the interactive UI needs a terminal (use -p for headless mode)\n");
        return 2;
    }
    tui *t = calloc(1, sizeof *t);
    if (!t) return 1;
    TUI = t;
    t->cfg = *cfg;
    t->cur_reply = -1;
    t->cur_thought = -1;
    t->selected_image = -1;
    t->state = ST_LOADING;
    const char *log = getenv("SEER_EVENT_LOG");
    if (log && *log) t->event_log = fopen(log, "a");
    setup_theme_dirs(t);

    /* Terminal capabilities are asked before curses owns the input. */
    bool has_sixel = preview_detect_sixel(&t->cell_w, &t->cell_h);
    t->sixel = cfg->sixel == TUI_SIXEL_ON || (cfg->sixel == TUI_SIXEL_AUTO && has_sixel);

    log_event(t, "terminal cell %dx%d px, sixel %s (terminal %s), text art %s", t->cell_w, t->cell_h,
              t->sixel ? "on" : "off", has_sixel ? "has sixel" : "no sixel", cell_art_name(t->cfg.preview));
    seer_worker_config wc = {cfg->model_path, cfg->mmproj_path, cfg->n_threads, cfg->params};
    seer_error err = {{0}};
    t->worker = seer_worker_start(&wc, &err);
    if (!t->worker) {
        fprintf(stderr, "seer: %s\n", err.msg);
        free(t);
        return 1;
    }

    set_escdelay(25);
    SCREEN *scr = newterm(NULL, stdout, stdin);
    if (!scr) {
        seer_worker_stop(t->worker);
        const char *term = getenv("TERM");
        char *safe = seer_text_sanitize_dup(term ? term : "", term ? strlen(term) : 0, 0);
        fprintf(stderr, "seer: cannot use the terminal type '%s' (try TERM=xterm-256color, or -p for headless mode)\n",
                safe ? safe : "");
        free(safe);
        free(t);
        TUI = NULL;
        return 1;
    }
    raw();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    nodelay(stdscr, TRUE);
    start_color();
    ui_theme_builtin();
    char theme_err[256];
    const char *theme = cfg->theme ? cfg->theme : "dark";
    bool theme_ok = ui_theme_load(theme, t->theme_dirs, theme_err, sizeof theme_err);
    /* Bracketed paste: a pasted block arrives marked, so its newlines stay text. */
    printf("\033[?2004h");
    fflush(stdout);
    mousemask(BUTTON4_PRESSED
#ifdef BUTTON5_PRESSED
                  | BUTTON5_PRESSED
#endif
              , NULL);
    mouseinterval(0);
    char hist[4096];
    input_init(input_history_path(hist, sizeof hist) ? hist : NULL, on_line, on_matches);
    tui_layout(t);
    if (!theme_ok) tui_note(t, TR_ERROR, "%s (using the built-in theme)", theme_err);
    for (int i = 0; i < cfg->n_images; i++) tui_add_image(t, cfg->images[i]);
    if (t->state == ST_ENCODING) t->state = ST_LOADING;

    double last_draw = 0;
    while (!t->quit) {
        struct pollfd fds[2] = {{STDIN_FILENO, POLLIN, 0}, {seer_worker_event_fd(t->worker), POLLIN, 0}};
        int timeout = t->notice[0] ? 500 : (t->state == ST_IDLE ? 1000 : 100);
        int pr = poll(fds, 2, timeout);
        if (pr < 0 && errno != EINTR) break;
        seer_event ev;
        int n_ev = 0;
        while (seer_worker_poll(t->worker, &ev)) {
            handle_event(t, &ev);
            seer_event_clear(&ev);
            /* Keep the keyboard responsive during a fast stream. */
            if (++n_ev >= 256) break;
        }
        /* the keys waiting now, drawn and fitted once after the last */
        input_hold_draw(true);
        bool typed = false;
        while (!t->quit) {
            int key = wgetch(t->w_input ? t->w_input : stdscr);
            if (key == ERR) break;
            if (t->w_input) {
                handle_key(t, key);
                typed = true;
            }
            else if (key == KEY_RESIZE) tui_layout(t); /* too small: only resize and quit work */
            else if (key == 3 || key == 4) t->quit = true;
        }
        if (typed) fit_input(t);
        input_hold_draw(false);
        double now = seer_time_ms();
        if (t->notice[0] && now > t->notice_until) t->notice[0] = 0;
        /* Redraw at most ~60 times a second while tokens stream. */
        if (n_ev == 0 || now - last_draw > 16 || pr == 0) {
            tui_draw_all(t);
            last_draw = now;
        }
    }
    input_shutdown();
    printf("\033[?2004l");
    fflush(stdout);
    endwin();
    delscreen(scr);
    seer_worker_stop(t->worker);
    if (t->state == ST_FAILED) fprintf(stderr, "seer: cannot load the model: %s\n", t->load_error);
    int code = t->exit_code;
    tr_free(&t->tr);
    tui_find_free(t);
    for (int i = 0; i < t->n_images; i++) {
        free(t->images[i].path);
        seer_image_free(&t->images[i].img);
    }
    free(t->images);
    for (int i = 0; i < t->n_tokens; i++) free(t->tokens[i].text);
    free(t->tokens);
    free(t->sixel_bytes);
    if (t->event_log) fclose(t->event_log);
    free(t);
    TUI = NULL;
    return code;
}
