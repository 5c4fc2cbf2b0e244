/* Reply text bookkeeping for the chat endpoint (see chat_reply.h). */
#include "chat_reply.h"

#include <stdlib.h>
#include <string.h>

/* The reasoning without its markers. */
static void clean_reasoning(chat_reply *r) {
    r->reasoning.len = 0;
    serve_text_append(&r->reasoning, "", 0);
    const char *p = r->reasoning_raw.s ? r->reasoning_raw.s : "", *end = p + r->reasoning_raw.len;
    while (p < end) {
        size_t skip = 0;
        for (int m = 0; r->think && m < 2 && !skip; m++) {
            const char *mark = m ? r->think->close : r->think->open;
            size_t n = mark ? strlen(mark) : 0;
            if (n && (size_t)(end - p) >= n && memcmp(p, mark, n) == 0) skip = n;
        }
        if (skip) p += skip;
        else if (r->reasoning.len == 0 && *p && strchr(" \t\r\n", *p)) p++; /* the thought's leading blank */
        else serve_text_append(&r->reasoning, p++, 1);
    }
}

bool chat_reply_add(chat_reply *r, const char *text, size_t len, size_t thought_len) {
    if (thought_len > len) thought_len = len;
    if (thought_len) {
        serve_text_append(&r->reasoning_raw, text, thought_len);
        clean_reasoning(r);
    }
    if (r->stopped) return true;
    const size_t from = r->content.len;
    size_t skip = thought_len;
    if (r->content.len == 0 && r->reasoning_raw.len > 0) /* the blank between a thought and the answer */
        while (skip < len && text[skip] && strchr(" \t\r\n", text[skip])) skip++;
    serve_text_append(&r->content, text + skip, len - skip);
    /* a stop string may have begun before this piece */
    for (int i = 0; i < r->n_stops; i++) {
        const size_t n = strlen(r->stops[i]);
        const size_t start = from >= n ? from - n + 1 : 0;
        const char *hit = r->content.len >= n ? memmem(r->content.s + start, r->content.len - start, r->stops[i], n) : NULL;
        if (hit) {
            r->content.len = (size_t)(hit - r->content.s);
            r->content.s[r->content.len] = 0;
            r->stopped = true;
        }
    }
    return r->stopped;
}

/* How many bytes at the end of the answer could begin a stop string. */
static size_t held_back(const chat_reply *r) {
    size_t hold = 0;
    for (int i = 0; i < r->n_stops; i++) {
        const size_t n = strlen(r->stops[i]);
        for (size_t k = n - 1; k > hold; k--)
            if (k <= r->content.len && memcmp(r->content.s + r->content.len - k, r->stops[i], k) == 0) {
                hold = k;
                break;
            }
    }
    return hold;
}

void chat_reply_take(chat_reply *r, bool final, const char **reasoning, size_t *n_reasoning, const char **content,
                     size_t *n_content) {
    *reasoning = r->reasoning.s ? r->reasoning.s + r->reasoning_sent : "";
    *n_reasoning = r->reasoning.len > r->reasoning_sent ? r->reasoning.len - r->reasoning_sent : 0;
    r->reasoning_sent += *n_reasoning;
    const size_t ready = final || r->stopped ? r->content.len : r->content.len - held_back(r);
    *content = r->content.s ? r->content.s + r->content_sent : "";
    *n_content = ready > r->content_sent ? ready - r->content_sent : 0;
    r->content_sent += *n_content;
}

void chat_reply_free(chat_reply *r) {
    free(r->content.s);
    free(r->reasoning_raw.s);
    free(r->reasoning.s);
    memset(r, 0, sizeof *r);
}
