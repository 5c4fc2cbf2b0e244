/* Carries out what a typed line asks for (cmd_parse decides: a command, an image path, or a turn). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "command_parse.h"
#include "input.h"
#include "seer/chat.h"
#include "seer/safe_write.h"
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
    t->think_tokens = 0;
    t->think_ms = t->answer_ms = 0;
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

static void cmd_help(tui *t) {
    tui_note(t, TR_SYSTEM,
             "Commands: /image PATH… (or paste a path) · /images [N] (list, or show image N) · /clear · /system TEXT · "
             "/set temp|top_k|top_p|min_p|seed|n_predict|repeat_penalty VALUE · /theme NAME · /stats · /tokens · "
             "/save FILE · /find TEXT (search the image index, then type a number to attach) · /index [FILE] · "
             "/think on|off (thinking models) · /ocr [TEXT] (read the attached image's text) · /help · /quit");
    tui_note(t, TR_SYSTEM,
             "Keys: Enter sends · Alt-Enter or a trailing \\ adds a line · Esc or Ctrl-C stops a reply · "
             "Ctrl-C twice or Ctrl-D quits · PgUp/PgDn or the wheel scroll · Tab completes paths after /image · "
             "Ctrl-R searches history · F2 opens the token inspector · Ctrl-T folds or unfolds a thinking model's "
             "thoughts");
}

static void cmd_images(tui *t, const cmd *c) {
    if (*c->text) {
        if (c->image < 1 || c->image > t->n_images) {
            tui_note(t, TR_ERROR, "no image %s (%d attached)", c->text, t->n_images);
            return;
        }
        t->selected_image = c->image - 1;
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

static void cmd_set(tui *t, const cmd *c) {
    seer_sampling s = t->sampling;
    int n_predict = t->n_predict;
    const double v = c->value; /* finite and in range: cmd_parse checked it */
    switch (c->setting) {
    case SET_TEMP: s.temp = (float)v; break;
    case SET_TOP_K: s.top_k = (int)v; break;
    case SET_TOP_P: s.top_p = (float)v; break;
    case SET_MIN_P: s.min_p = (float)v; break;
    case SET_SEED: s.seed = (uint64_t)v; break;
    case SET_REPEAT_PENALTY: s.repeat_penalty = (float)v; break;
    case SET_N_PREDICT: n_predict = (int)v; break;
    }
    t->sampling = s;
    t->n_predict = n_predict;
    seer_worker_set_sampling(t->worker, &s, n_predict);
    tui_note(t, TR_SYSTEM, "%s = %g", c->setting_name, v);
}

static void cmd_stats(tui *t) {
    tui_note(t, TR_SYSTEM,
             "model %s (%s, %s, %d layers, %d embd, vocab %d, %.2fB params)%s%s · chat %s · %d threads",
             t->model.name, t->model.arch, t->model.quant, t->model.n_layer, t->model.n_embd, t->model.n_vocab,
             (double)t->model.n_params / 1e9, t->model.vision ? " + vision " : "", t->model.projector, t->model.chat,
             t->model.n_threads);
    tui_note(t, TR_SYSTEM, "kernels %s · %s", t->model.kernels, t->model.blas);
    if (t->model.blas_warning[0]) tui_note(t, TR_SYSTEM, "%s", t->model.blas_warning); /* stderr is hidden */
    tui_note(t, TR_SYSTEM,
             "last turn: prefill %d tok in %.0f ms · %d tok generated in %.0f ms (%.1f tok/s) · first token %.0f ms · "
             "context %d/%d · memory %.0f MB",
             t->prefill_tokens, t->prefill_ms, t->gen_tokens, t->gen_total_ms,
             t->gen_total_ms > 0 ? t->gen_tokens * 1000.0 / t->gen_total_ms : 0, t->ttft_ms, t->ctx_used, t->ctx_size,
             tui_rss_mb());
    if (t->model.thinks)
        tui_note(t, TR_SYSTEM, "last turn: thinking %d tok in %.0f ms · answer %d tok in %.0f ms · thinking %s",
                 t->think_tokens, t->think_ms, t->gen_tokens - t->think_tokens, t->answer_ms,
                 t->model.thinking ? "on" : "off");
    tui_note(t, TR_SYSTEM, "session: %d tokens generated in %.0f ms (%.1f tok/s)", t->gen_tokens_total,
             t->gen_ms_total, t->gen_ms_total > 0 ? t->gen_tokens_total * 1000.0 / t->gen_ms_total : 0);
}

static void send_turn(tui *t, const char *text) {
    if (t->state == ST_FAILED) return;
    tr_add(&t->tr, TR_USER, text, strlen(text));
    t->tr.scroll = 0;
    t->cur_reply = -1;
    seer_worker_send(t->worker, text);
    for (int i = 0; i < t->n_images; i++) t->images[i].sent = true; /* the session puts them in this turn */
    t->pending_requests++;
    if (t->state == ST_IDLE) t->state = ST_PREFILL;
    t->turn_start_ms = seer_time_ms();
}

/* /ocr [TEXT]: the model's own OCR prompt (or TEXT) on the attached image,
 * greedy for that turn as `seer ocr` reads pages. An image that went into an
 * earlier turn (the one shown) is attached again, so the model reads it
 * beside the instruction as it was trained to. */
static void cmd_ocr(tui *t, const char *text) {
    const char *prompt = *text ? text : seer_ocr_prompt(t->model.projector, t->model.arch, t->model.n_nextn);
    if (!t->model.vision) {
        tui_note(t, TR_ERROR, "/ocr needs a vision model (start seer with --mmproj)");
        return;
    }
    if (!prompt) {
        tui_note(t, TR_ERROR, "this model (%s, %s projector) has no documented OCR prompt: /ocr TEXT gives one",
                 t->model.arch, t->model.projector);
        return;
    }
    bool pending = false;
    for (int i = 0; i < t->n_images; i++) pending = pending || !t->images[i].sent;
    if (!pending) {
        if (t->selected_image < 0) {
            tui_note(t, TR_ERROR, "/ocr reads the attached image: /image PATH first");
            return;
        }
        char *path = strdup(t->images[t->selected_image].path);
        const int rc = path ? tui_add_image(t, path) : -1;
        free(path);
        if (rc != 0) return;
    }
    const seer_sampling kept = t->sampling, greedy = {.temp = 0, .top_k = 0, .top_p = 1, .min_p = 0,
                                                      .repeat_penalty = 1, .repeat_last_n = kept.repeat_last_n,
                                                      .seed = kept.seed};
    seer_worker_set_sampling(t->worker, &greedy, t->n_predict);
    send_turn(t, prompt);
    seer_worker_set_sampling(t->worker, &kept, t->n_predict); /* requests run in order: after this turn */
}

static void cmd_clear(tui *t) {
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
}

static void cmd_theme(tui *t, const char *name) {
    char err[256], list[512];
    if (!*name) {
        ui_theme_list(t->theme_dirs, list, sizeof list);
        tui_note(t, TR_SYSTEM, "theme %s; available: %s", ui_theme_name(), list[0] ? list : "(none found)");
    } else if (ui_theme_load(name, t->theme_dirs, err, sizeof err)) {
        clearok(curscr, TRUE);
        t->sixel_dirty = true;
        tui_note(t, TR_SYSTEM, "theme %s", name);
    } else {
        tui_note(t, TR_ERROR, "%s", err);
    }
}

static void cmd_save(tui *t, const char *file) {
    char err[512];
    if (tr_save_markdown(&t->tr, file, t->model.name, err, sizeof err) == 0)
        tui_note(t, TR_SYSTEM, "saved the transcript to %s", file);
    else tui_note(t, TR_ERROR, "%s", err); /* "cannot write PATH: reason" */
}

void tui_handle_line(tui *t, char *raw) {
    char *line = cmd_trim(raw);
    if (!*line) return;
    input_remember(line);
    if (tui_find_pick(t, line)) return;
    cmd c;
    switch (cmd_parse(line, seer_safe_is_regular, &c)) {
    case CMD_NONE: break;
    case CMD_TURN: send_turn(t, c.text); break;
    case CMD_ATTACH: {
        const char *p = c.paths;
        for (int i = 0; i < c.n_paths; i++, p += strlen(p) + 1) tui_add_image(t, p);
        break;
    }
    case CMD_QUIT: t->quit = true; break;
    case CMD_HELP: cmd_help(t); break;
    case CMD_IMAGES: cmd_images(t, &c); break;
    case CMD_CLEAR: cmd_clear(t); break;
    case CMD_SYSTEM:
        seer_worker_set_system(t->worker, c.text);
        tui_note(t, TR_SYSTEM, *c.text ? "system prompt set (the conversation is re-read at the next turn)"
                                       : "system prompt removed");
        break;
    case CMD_SET: cmd_set(t, &c); break;
    case CMD_THEME: cmd_theme(t, c.text); break;
    case CMD_STATS: cmd_stats(t); break;
    case CMD_TOKENS:
        t->inspector = true;
        t->insp_top = 0;
        tui_layout(t);
        clearok(curscr, TRUE);
        break;
    case CMD_SAVE: cmd_save(t, c.text); break;
    case CMD_FIND: tui_find(t, c.text); break;
    case CMD_INDEX: tui_find_set_index(t, c.text); break;
    case CMD_THINK: tui_think_command(t, c.think); break;
    case CMD_OCR: cmd_ocr(t, c.text); break;
    case CMD_ERROR: tui_note(t, TR_ERROR, "%s", c.error); break;
    }
}
