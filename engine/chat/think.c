/* Thinking: each template's markers, and the streaming split of a reply
 * into thought and answer. One mechanism for every family; only the data
 * differs. */
#include <string.h>

#include "seer/chat.h"
#include "seer/tokenizer.h"

/* Qwen3.5's prompt ends in "<think>\n" (or closes an empty one when
 * thinking is off); Qwen3-VL-Thinking's always opens it; Gemma 4 opens its
 * thought channel itself ("<|channel>thought\n…<channel|>"), and its prompt
 * closes an empty one when thinking is off; GLM-4.xV's the same with
 * <think>. */
static const seer_chat_thinking QWEN35 = {"<think>", "</think>", true, true};
static const seer_chat_thinking QWEN3VL_THINKING = {"<think>", "</think>", true, false};
static const seer_chat_thinking GEMMA4 = {"<|channel>thought", "<channel|>", false, true};
/* GLM-4.xV writes "<think>" itself after "<|assistant|>"; thinking off, the
 * prompt closes an empty one and each user turn ends "/nothink". */
static const seer_chat_thinking GLM4 = {"<think>", "</think>", false, true};
/* Ministral 3 Reasoning writes "[THINK]…[/THINK]" itself (its control
 * tokens); the template has no thinking-off form. */
static const seer_chat_thinking MINISTRAL3 = {"[THINK]", "[/THINK]", false, false};

const seer_chat_thinking *seer_chat_thinking_of(seer_chat_style s) {
    switch (s) {
    case SEER_CHAT_QWEN35: return &QWEN35;
    case SEER_CHAT_QWEN3VL_THINKING: return &QWEN3VL_THINKING;
    case SEER_CHAT_GEMMA4: return &GEMMA4;
    case SEER_CHAT_GLM4: return &GLM4;
    case SEER_CHAT_MINISTRAL3_REASONING: return &MINISTRAL3;
    default: return NULL;
    }
}

void seer_think_begin(seer_think_stream *t, const seer_chat_thinking *m, bool in_thought) {
    memset(t, 0, sizeof *t);
    t->m = m;
    t->in_thought = m && in_thought;
}

static int emit_first_held(seer_think_stream *t, int thought_len, seer_think_emit emit, void *ud) {
    int len = t->held_len[0], tag = t->held_tag[0];
    int rc = emit(ud, tag, t->held, len, thought_len < len ? thought_len : len);
    memmove(t->held, t->held + len, (size_t)(t->n_held_bytes - len));
    memmove(t->held_len, t->held_len + 1, sizeof t->held_len[0] * (size_t)(t->n_held - 1));
    memmove(t->held_tag, t->held_tag + 1, sizeof t->held_tag[0] * (size_t)(t->n_held - 1));
    t->n_held--;
    t->n_held_bytes -= len;
    return rc;
}

/* Inside a thought: where the close marker ends in text (counting the bytes
 * of the thought before it), or -1. The tail keeps the thought's last bytes. */
static int close_end(seer_think_stream *t, const char *text, int len) {
    const char *close = t->m->close;
    const int nc = (int)strlen(close);
    for (int i = 0; i < len; i++) {
        if (t->n_tail == (int)sizeof t->tail) {
            memmove(t->tail, t->tail + 1, sizeof t->tail - 1);
            t->n_tail--;
        }
        t->tail[t->n_tail++] = text[i];
        if (t->n_tail >= nc && memcmp(t->tail + t->n_tail - nc, close, (size_t)nc) == 0) {
            t->n_tail = 0;
            return i + 1;
        }
    }
    return -1;
}

/* Length of the longest end of s that is a proper beginning of marker. */
static int partial_marker(const char *s, int n, const char *marker) {
    int nm = (int)strlen(marker);
    for (int k = n < nm - 1 ? n : nm - 1; k > 0; k--)
        if (memcmp(s + n - k, marker, (size_t)k) == 0) return k;
    return 0;
}

/* In the answer with tokens held: decides them now that more text came. */
static int settle_answer(seer_think_stream *t, seer_think_emit emit, void *ud) {
    int rc = 0;
    const char *open = t->m->open;
    const char *at = memmem(t->held, (size_t)t->n_held_bytes, open, strlen(open));
    if (at) {
        /* a thought opens: the held tokens from the one it starts in are thought */
        int start = (int)(at - t->held), off = 0;
        while (t->n_held && off + t->held_len[0] <= start) {
            off += t->held_len[0];
            int r = emit_first_held(t, 0, emit, ud);
            if (!rc) rc = r;
        }
        t->in_thought = true;
        t->n_tail = 0;
        int after = start + (int)strlen(open) - off; /* bytes of the held text after the marker */
        char rest[SEER_THINK_BYTES];
        int n_rest = t->n_held_bytes - after;
        memcpy(rest, t->held + after, (size_t)n_rest);
        int closed = close_end(t, rest, n_rest);
        int thought_bytes = closed < 0 ? t->n_held_bytes : after + closed;
        while (t->n_held) {
            int len = t->held_len[0];
            int r = emit_first_held(t, thought_bytes > 0 ? thought_bytes : 0, emit, ud);
            thought_bytes -= len;
            if (!rc) rc = r;
        }
        if (closed >= 0) t->in_thought = false;
        return rc;
    }
    /* release the tokens wholly before what may begin an open marker */
    int keep = partial_marker(t->held, t->n_held_bytes, open);
    while (t->n_held && t->held_len[0] <= t->n_held_bytes - keep) {
        int r = emit_first_held(t, 0, emit, ud);
        if (!rc) rc = r;
    }
    return rc;
}

int seer_think_push(seer_think_stream *t, int tag, const char *text, int len, seer_think_emit emit, void *ud) {
    if (len < 0) len = 0;
    if (!t->m) return emit(ud, tag, text, len, 0);
    if (t->in_thought) {
        int closed = close_end(t, text, len);
        if (closed < 0) return emit(ud, tag, text, len, len);
        t->in_thought = false;
        if (closed == len) return emit(ud, tag, text, len, len);
        /* the answer starts inside this token: its rest could open a new thought, rarely; not looked at */
        return emit(ud, tag, text, len, closed);
    }
    int rc = 0;
    if (t->n_held == SEER_THINK_HOLD || t->n_held_bytes + len > SEER_THINK_BYTES) rc = seer_think_end(t, emit, ud);
    if (len > SEER_THINK_BYTES) {
        int r = emit(ud, tag, text, len, 0);
        return rc ? rc : r;
    }
    memcpy(t->held + t->n_held_bytes, text, (size_t)len);
    t->held_len[t->n_held] = len;
    t->held_tag[t->n_held] = tag;
    t->n_held++;
    t->n_held_bytes += len;
    int r = settle_answer(t, emit, ud);
    return rc ? rc : r;
}

int seer_think_end(seer_think_stream *t, seer_think_emit emit, void *ud) {
    int rc = 0;
    while (t->n_held) {
        int r = emit_first_held(t, 0, emit, ud);
        if (!rc) rc = r;
    }
    return rc;
}

int seer_think_marker_piece(const seer_chat_thinking *m, const seer_vocab *v, int32_t id, char *buf, int cap) {
    if (!m || cap <= 1 || seer_token_to_piece(v, id, false, buf, cap) != 0) return 0;
    int n = seer_token_to_piece(v, id, true, buf, cap - 1);
    if (n <= 0 || n >= cap) return 0;
    buf[n] = 0;
    return strstr(m->open, buf) || strstr(m->close, buf) ? n : 0;
}

int seer_think_visible(const seer_chat_thinking *m, const char *text, int len, char *out, int cap) {
    int n = 0;
    if (cap <= 0) return 0;
    for (int i = 0; i < len;) {
        size_t no = m ? strlen(m->open) : 0, nc = m ? strlen(m->close) : 0;
        if (m && (size_t)(len - i) >= no && memcmp(text + i, m->open, no) == 0) { i += (int)no; continue; }
        if (m && (size_t)(len - i) >= nc && memcmp(text + i, m->close, nc) == 0) { i += (int)nc; continue; }
        if (n < cap - 1) out[n++] = text[i];
        i++;
    }
    int a = 0;
    while (a < n && (out[a] == '\n' || out[a] == ' ' || out[a] == '\r' || out[a] == '\t')) a++;
    while (n > a && (out[n - 1] == '\n' || out[n - 1] == ' ' || out[n - 1] == '\r' || out[n - 1] == '\t')) n--;
    memmove(out, out + a, (size_t)(n - a));
    out[n - a] = 0;
    return n - a;
}
