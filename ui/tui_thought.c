/* A thinking model's reasoning in the transcript: streamed live, dimmed, in
 * its own entry before the answer; folded to one line once the answer starts
 * (Ctrl-T shows finished thoughts whole again); timed apart from the answer.
 * /think on|off switches the template's thinking mode for the next turn. */
#include <stdlib.h>
#include <string.h>

#include "seer/chat.h"
#include "tui_internal.h"

static const seer_chat_thinking *markers(const tui *t) { return seer_chat_thinking_of(seer_chat_from_name(t->model.chat)); }

static void fold_label(const tui *t, double ms, int tokens, char *out, size_t cap) {
    snprintf(out, cap, "thought for %.1f s · %d tokens · Ctrl-T %s", ms / 1000.0, tokens,
             t->thoughts_open ? "folds" : "unfolds");
}

void tui_thought_turn_start(tui *t) {
    t->cur_thought = -1;
    t->answer_started = false;
    t->think_tokens = 0;
    t->think_ms = t->answer_ms = 0;
}

/* The thought entry goes where the (still empty) reply entry was, the answer after it. */
static void open_thought(tui *t) {
    if (t->cur_reply >= 0 && t->cur_reply == t->tr.n - 1 && t->tr.e[t->cur_reply].raw_len == 0) {
        t->tr.e[t->cur_reply].kind = TR_THOUGHT;
        t->cur_thought = t->cur_reply;
    } else {
        t->cur_thought = tr_add(&t->tr, TR_THOUGHT, "", 0);
    }
    t->cur_reply = tr_add(&t->tr, TR_ASSISTANT, "", 0);
}

void tui_thought_token(tui *t, const seer_event *ev) {
    const char *text = ev->text ? ev->text : "";
    int len = ev->text_len, thought = ev->thought_len < 0 ? 0 : ev->thought_len > len ? len : ev->thought_len;
    if (t->cur_reply < 0) t->cur_reply = tr_add(&t->tr, TR_ASSISTANT, "", 0);
    if (ev->index >= 0) {
        if (thought > 0) t->think_tokens++, t->think_ms += ev->ms;
        else t->answer_ms += ev->ms;
    }
    if (thought > 0) {
        if (t->cur_thought < 0) open_thought(t);
        tr_entry *e = &t->tr.e[t->cur_thought];
        /* raw keeps the markers; the screen shows the thought without them */
        tr_append(&t->tr, t->cur_thought, text, (size_t)thought);
        char *shown = malloc(e->raw_len + 1);
        if (shown) {
            int n = seer_think_visible(markers(t), e->raw, (int)e->raw_len, shown, (int)e->raw_len + 1);
            tr_set_shown(&t->tr, t->cur_thought, shown, (size_t)n);
            free(shown);
        }
    }
    const char *a = text + thought;
    size_t n = (size_t)(len - thought);
    /* the blank lines between a thought and its answer are not shown */
    if (t->cur_thought >= 0 && !t->answer_started)
        while (n > 0 && (*a == '\n' || *a == ' ' || *a == '\r')) a++, n--;
    if (n == 0) return;
    if (t->cur_thought >= 0 && !t->answer_started) {
        char label[160];
        fold_label(t, t->think_ms, t->think_tokens, label, sizeof label);
        tr_fold(&t->tr, t->cur_thought, !t->thoughts_open, label);
    }
    t->answer_started = true;
    tr_append(&t->tr, t->cur_reply, a, n);
}

void tui_thought_turn_end(tui *t, const seer_turn_stats *st) {
    if (t->cur_thought >= 0) {
        /* the engine's count and time (a held-back token is in them too) */
        if (st->thought_tokens) t->think_tokens = st->thought_tokens;
        if (st->thought_ms > 0) t->think_ms = st->thought_ms;
        char label[160];
        fold_label(t, t->think_ms, t->think_tokens, label, sizeof label);
        /* folded (or not) when the answer started; a thought with no answer stays open */
        tr_fold(&t->tr, t->cur_thought, t->tr.e[t->cur_thought].folded, label);
    }
    t->cur_thought = -1;
}

void tui_thought_toggle(tui *t) {
    t->thoughts_open = !t->thoughts_open;
    int n = 0;
    for (int i = 0; i < t->tr.n; i++) {
        tr_entry *e = &t->tr.e[i];
        if (e->kind != TR_THOUGHT || i == t->cur_thought || !e->fold_label[0]) continue;
        char *ctl = strstr(e->fold_label, "Ctrl-T ");
        if (ctl) snprintf(ctl, sizeof e->fold_label - (size_t)(ctl - e->fold_label), "Ctrl-T %s",
                          t->thoughts_open ? "folds" : "unfolds");
        tr_fold(&t->tr, i, !t->thoughts_open, NULL);
        n++;
    }
    if (n == 0) tui_notice(t, "no finished thought to %s", t->thoughts_open ? "unfold" : "fold");
}

void tui_think_command(tui *t, int on) {
    if (!t->model.thinks) {
        tui_note(t, TR_ERROR, "this model's chat template (%s) has no thinking mode", t->model.chat);
        return;
    }
    if (on < 0) {
        tui_note(t, TR_SYSTEM, "thinking is %s (/think on|off)", t->model.thinking ? "on" : "off");
        return;
    }
    if (!on && !t->model.think_switch) {
        tui_note(t, TR_ERROR, "this model's template (%s) always thinks: it has no thinking-off form", t->model.chat);
        return;
    }
    seer_worker_set_thinking(t->worker, on != 0);
    t->model.thinking = on != 0;
    tui_note(t, TR_SYSTEM, "thinking %s from the next turn", on ? "on" : "off");
}
