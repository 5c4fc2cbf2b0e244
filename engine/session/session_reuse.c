/* Keeping what a KV cache and a new prompt share: a server's conversation
 * slot sent an edited, regenerated or forked conversation (or another one
 * with the same system prompt) keeps the rows the two begin with and
 * prefills only the rest. Rows are compared by what they hold: token ids,
 * and an image's rows by the hash of its pixels, never by position alone. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "session/session_internal.h"

int session_common_rows(const seer_session *s, const char *text, const uint64_t *hashes, int n_hashes, bool bos,
                        int *text_rows) {
    const size_t mlen = strlen(SEER_MTMD_MARKER);
    int row = 0, img = 0;
    bool same = true; /* the cache still begins as the text does */
    if (text_rows) *text_rows = 0;
    if (bos && seer_vocab_bos(s->vocab) < 0) bos = false;
    for (const char *p = text;;) {
        const char *m = strstr(p, SEER_MTMD_MARKER);
        int n = 0;
        int32_t *ids = session_tokenize(s, p, m ? (size_t)(m - p) : strlen(p), bos, &n, NULL);
        if (!ids) return row;
        bos = false;
        if (text_rows) *text_rows += n;
        int i = 0;
        while (same && i < n && row < s->n_kv && !s->kv_rows[row].image && s->kv_ids[row] == ids[i]) i++, row++;
        free(ids);
        if (i < n || !m || img >= n_hashes) same = false;
        if (same) { /* an image: all of its rows, or none */
            const uint64_t h = hashes[img++];
            if (row >= s->n_kv || s->kv_rows[row].image != h || s->kv_rows[row].part != 0) same = false;
            else {
                do row++;
                while (row < s->n_kv && s->kv_rows[row].image == h && s->kv_rows[row].part > 0);
            }
        }
        /* past where they part, only counting goes on, and only when some rows are shared */
        if (!m || (!same && (!text_rows || row == 0))) return row;
        p = m + mlen;
    }
}

int session_keepable_rows(const seer_session *s, int rows, int max) {
    if (rows > max) rows = max;
    if (rows > s->n_kv) rows = s->n_kv;
    while (rows > 0 && rows < s->n_kv && s->kv_rows[rows].image && s->kv_rows[rows].part > 0) rows--;
    /* a recurrent state is known only where it was marked: never past the divergence */
    return seer_ctx_mark_floor(s->ctx, rows);
}

void session_kv_truncate(seer_session *s, int rows) {
    seer_ctx_truncate(s->ctx, rows, rows > 0 ? s->kv_rows[rows - 1].next_pos : 0);
    s->n_kv = seer_ctx_used(s->ctx);
    if (s->n_kv == 0) seer_ctx_truncate(s->ctx, 0, 0);
    /* which text the kept rows render is not known: later turns match rows */
    s->reply_mark.text_len = 0;
    session_text_set(&s->cached, "");
}

int seer_session_reusable_rows(const seer_session *s, const char *system, const seer_chat_msg *msgs, int n,
                               const uint64_t *image_hashes, int n_hashes, int *n_text) {
    *n_text = 0;
    seer_chat_msg *all = malloc(sizeof *all * (size_t)(n + 1));
    if (!all) return 0;
    int k = 0;
    if (system && *system) all[k++] = (seer_chat_msg){"system", system};
    for (int i = 0; i < n; i++) all[k++] = msgs[i];
    seer_error err = {{0}};
    char *text = seer_chat_render_thinking(s->style, all, k, true, seer_session_thinking(s), &err);
    free(all);
    if (!text) return 0;
    const bool bos = seer_vocab_add_bos(s->vocab);
    /* Tokenized only where it can matter: a cache to compare with, a
     * conversation the context could hold whole (a longer one loses its
     * oldest turns, and its rows, whatever the slot), the text's rows only
     * when some are kept. Every free slot of a server asks this of every
     * request, which tokenized a 30 MB message eight times. */
    const bool whole = !seer_vocab_more_tokens_than(s->vocab, strlen(text), seer_ctx_size(s->ctx));
    int text_rows = 0;
    const int rows = s->n_kv && whole ? session_common_rows(s, text, image_hashes, n_hashes, bos, &text_rows) : 0;
    if (rows > 0) *n_text = text_rows;
    free(text);
    return session_keepable_rows(s, rows, INT_MAX);
}
