/* One user turn: render the conversation, prefill only what the KV cache does
 * not hold yet (shifting out old turns when the context is full), then
 * generate the reply token by token. Invariant: the cache always holds
 * exactly the tokens of s->cached. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session/session_internal.h"

/* Room kept free for the reply when deciding whether to shift old turns out. */
static int reply_reserve(const seer_session *s) {
    int n_ctx = seer_ctx_size(s->ctx);
    int want = s->n_predict > 0 ? s->n_predict : 256;
    return want < n_ctx / 4 ? want : n_ctx / 4;
}

static bool starts_with(const char *s, const char *prefix, size_t n) { return strncmp(s, prefix, n) == 0; }

/* The new user message: one marker per image not sent yet, then the text. */
static int make_user_msg(seer_session *s, const char *text, session_msg *m) {
    memset(m, 0, sizeof *m);
    int n_new = 0;
    for (int i = 0; i < s->n_images; i++) n_new += !s->images[i].sent;
    size_t len = strlen(text) + (size_t)n_new * strlen(SEER_MTMD_MARKER) + 1;
    m->role = strdup("user");
    m->content = malloc(len);
    m->images = malloc(sizeof *m->images * (size_t)(n_new + 1));
    if (!m->role || !m->content || !m->images) {
        session_msg_free(m);
        return -1;
    }
    m->content[0] = 0;
    for (int i = 0; i < s->n_images; i++)
        if (!s->images[i].sent) {
            strcat(m->content, SEER_MTMD_MARKER);
            m->images[m->n_images++] = i;
        }
    strcat(m->content, text);
    return 0;
}

/* Renders the first n messages (+ system) with the chat template. */
static char *render_first(seer_session *s, int n, bool add_generation_prompt, seer_error *err) {
    int keep = s->n_msgs;
    s->n_msgs = n;
    char *out = session_render(s, NULL, add_generation_prompt, err);
    s->n_msgs = keep;
    return out;
}

/* When the template re-renders the last reply differently from what the
 * model produced (e.g. "Assistant: " + content where the model wrote
 * " content", or Gemma's trimmed content where the model wrote " content"),
 * the cache is still a valid prefix of the conversation: the new
 * text is the end of the reply's turn (its end-of-turn marker, which was not
 * decoded) plus what the new message adds to the rendering. NULL when the
 * template does not allow this. */
static char *suffix_after_reply(seer_session *s, const char *full, seer_error *err) {
    if (s->n_msgs < 2 || strcmp(s->msgs[s->n_msgs - 1].role, "assistant") != 0) return NULL;
    char *past = render_first(s, s->n_msgs, false, err);
    char *before = render_first(s, s->n_msgs - 1, true, err);
    char *out = NULL;
    size_t np = past ? strlen(past) : 0, nb = before ? strlen(before) : 0;
    if (past && before && starts_with(full, past, np) && starts_with(past, before, nb)) {
        const char *reply = s->msgs[s->n_msgs - 1].content;
        const char *rest = past + nb; /* the rendered reply and its end of turn */
        /* the reply as the template wrote it: verbatim, or trimmed (Gemma's
         * template trims; the model may have opened with a space) */
        size_t r0 = 0, r1 = strlen(reply);
        const char *at = r1 ? strstr(rest, reply) : NULL;
        if (!at) {
            while (r0 < r1 && strchr(" \t\n\r\v\f", reply[r0])) r0++;
            while (r1 > r0 && strchr(" \t\n\r\v\f", reply[r1 - 1])) r1--;
            at = r1 > r0 ? memmem(rest, strlen(rest), reply + r0, r1 - r0) : NULL;
        }
        const char *closing = at ? at + (r1 - r0) : r1 > r0 ? NULL : rest;
        if (closing) {
            size_t nc = strlen(closing), nn = strlen(full + np);
            out = malloc(nc + nn + 1);
            if (out) {
                memcpy(out, closing, nc);
                memcpy(out + nc, full + np, nn + 1);
            }
        }
    }
    free(past);
    free(before);
    return out;
}

/* What a turn prefills: the rendered text after what the cache keeps, as
 * decoder input. With a thinking template the generation prompt is its own
 * part (gen), so the next turn can roll back to where it began. */
typedef struct turn_plan {
    seer_mm_prompt body, gen;
    char *suffix;        /* body text then gen text */
    size_t gen_at;       /* where gen's text starts in suffix */
    bool scratch;        /* the cache is emptied first */
    bool rollback;       /* the cache goes back to s->reply_mark first */
    int reuse;           /* from scratch, but the cache keeps its first rows (equal to the prompt's) */
    int n_tokens;        /* rows to prefill */
} turn_plan;

static void plan_free(turn_plan *p) {
    session_prompt_free(&p->body);
    session_prompt_free(&p->gen);
    free(p->suffix);
    memset(p, 0, sizeof *p);
}

/* Length of the generation prompt at the end of full (0: not split off). */
static size_t generation_prompt_len(seer_session *s, const session_msg *user, const char *full, seer_error *err) {
    if (!seer_chat_thinking_of(s->style)) return 0;
    char *bare = session_render(s, user, false, err);
    size_t nb = bare ? strlen(bare) : 0, nf = strlen(full);
    size_t n = bare && nb < nf && starts_with(full, bare, nb) ? nf - nb : 0;
    free(bare);
    return n;
}

/* From scratch, the cache may still begin as the body does (a server's
 * slot sent an edited or forked conversation): the rows they share are
 * kept and dropped from the body; at least one row is left to prefill
 * when the body is all there is (the reply needs its logits). */
static void plan_reuse(const seer_session *s, turn_plan *p, const int *imgs, int n_imgs, bool bos, bool has_gen) {
    uint64_t *hashes = malloc(sizeof *hashes * (size_t)(n_imgs + 1));
    if (!hashes) return;
    for (int i = 0; i < n_imgs; i++) hashes[i] = s->images[imgs[i]].hash;
    const int rows = session_common_rows(s, p->suffix, hashes, n_imgs, bos, NULL);
    free(hashes);
    p->reuse = session_keepable_rows(s, rows, p->body.n_tokens - (has_gen ? 0 : 1));
    if (p->reuse > 0) session_prompt_drop_rows(&p->body, p->reuse);
}

/* Fills p for this turn: the rendered suffix after s->cached, after what
 * the cache keeps up to the reply mark, or everything. */
static int plan_prefill(seer_session *s, const session_msg *user, turn_plan *p, seer_error *err) {
    memset(p, 0, sizeof *p);
    char *full = session_render(s, user, true, err);
    if (!full) return -1;
    int *imgs = NULL;
    int n_imgs = session_collect_images(s, user, &imgs);
    if (n_imgs < 0) {
        free(full);
        seer_error_set(err, "out of memory");
        return -1;
    }
    p->scratch = s->cached.len == 0 || !starts_with(full, s->cached.s, s->cached.len);
    const char *suffix = p->scratch ? full : full + s->cached.len;
    char *patched = p->scratch && s->cached.len ? suffix_after_reply(s, full, err) : NULL;
    if (patched) {
        p->scratch = false;
        suffix = patched;
    } else if (p->scratch && s->reply_mark.text_len && s->reply_mark.text_len <= s->cached.len &&
               starts_with(full, s->cached.s, s->reply_mark.text_len)) {
        p->scratch = false;
        p->rollback = true;
        suffix = full + s->reply_mark.text_len;
    }
    size_t gen_len = generation_prompt_len(s, user, full, err), n_suffix = strlen(suffix);
    p->gen_at = gen_len <= n_suffix ? n_suffix - gen_len : n_suffix;
    /* Images of the suffix are the last markers of the conversation. */
    int in_suffix = 0;
    for (const char *q = suffix; (q = strstr(q, SEER_MTMD_MARKER)); q += strlen(SEER_MTMD_MARKER)) in_suffix++;
    int rc = -1;
    p->suffix = strdup(suffix);
    if (!p->suffix) {
        seer_error_set(err, "out of memory");
    } else if (in_suffix > n_imgs) {
        seer_error_set(err, "the chat template produced more image markers than there are images");
    } else if (seer_vocab_more_tokens_than(s->vocab, n_suffix - (size_t)in_suffix * strlen(SEER_MTMD_MARKER),
                                           seer_ctx_size(s->ctx))) {
        s->over_cap = true; /* more tokens than the context holds, whatever the text turns into */
        seer_error_set(err, "the prompt needs more than %d tokens", seer_ctx_size(s->ctx));
    } else {
        bool bos = p->scratch && seer_vocab_add_bos(s->vocab);
        char saved = p->suffix[p->gen_at];
        p->suffix[p->gen_at] = 0;
        rc = session_build_prompt(s, p->suffix, imgs + (n_imgs - in_suffix), in_suffix, bos, &p->body, err);
        if (rc == 0 && p->scratch && s->n_kv > 0) plan_reuse(s, p, imgs, n_imgs, bos, p->gen_at < n_suffix);
        p->suffix[p->gen_at] = saved;
        if (rc == 0) rc = session_build_prompt(s, p->suffix + p->gen_at, NULL, 0, false, &p->gen, err);
        p->n_tokens = p->body.n_tokens + p->gen.n_tokens;
    }
    if (rc != 0) plan_free(p);
    free(imgs);
    free(full);
    free(patched);
    return rc;
}

/* The rows a plan over the context's cap stands for (plan_prefill's over_cap):
 * more than the context holds. */
static int over_context(seer_session *s) {
    s->over_cap = false;
    return seer_ctx_size(s->ctx) + 1;
}

/* Rows the turn would take with the conversation's messages before `first`
 * gone and nothing of the cache kept as text (as after shifting them out),
 * the session left as it was; -1 on error. */
static int rows_from(seer_session *s, const session_msg *user, int first, seer_error *err) {
    session_msg *msgs = s->msgs;
    const int n_msgs = s->n_msgs;
    session_text saved = s->cached;
    if (first > 0) s->msgs += first; /* (msgs is NULL before the first message) */
    s->n_msgs -= first;
    s->cached = (session_text){0};
    turn_plan p;
    s->over_cap = false;
    int rc = plan_prefill(s, user, &p, err);
    s->msgs = msgs;
    s->n_msgs = n_msgs;
    s->cached = saved;
    if (rc != 0) return s->over_cap ? over_context(s) : -1;
    int n = p.reuse + p.n_tokens;
    plan_free(&p);
    return n;
}

/* Rows the new message takes with nothing before it but the system prompt:
 * if even that does not fit, shifting old turns out would only lose them. */
static int rows_alone(seer_session *s, const session_msg *user, seer_error *err) {
    return rows_from(s, user, s->n_msgs, err);
}

/* How many of the oldest turns (session_drop_oldest_turn's: a message and
 * what follows it up to the next user message) have to go for the turn to
 * fit with room for the reply: the fewest that do, or all of them. A
 * binary search over the turns' first messages, each try one plan of what
 * would be left: dropping them one at a time planned (tokenized) the whole
 * rest of the conversation again per turn, so a long history a client sent
 * whole took time quadratic in its length (6.4 MB of 40 turns, the demo
 * model: 26 s of the server's one scheduler thread). */
static int turns_to_drop(seer_session *s, const session_msg *user, int room, seer_error *err) {
    int *first = malloc(sizeof *first * (size_t)(s->n_msgs + 1));
    if (!first) {
        seer_error_set(err, "out of memory");
        return -1;
    }
    int n = 0; /* first[k - 1]: the first message kept after dropping k turns */
    for (int i = 1; i < s->n_msgs; i++)
        if (strcmp(s->msgs[i].role, "user") == 0) first[n++] = i;
    first[n++] = s->n_msgs;
    int lo = 1, hi = n; /* dropping hi turns fits, or hi is all of them */
    while (lo < hi) {
        const int mid = lo + (hi - lo) / 2, rows = rows_from(s, user, first[mid - 1], err);
        if (rows < 0) {
            free(first);
            return -1;
        }
        if (rows <= room) hi = mid;
        else lo = mid + 1;
    }
    free(first);
    return hi;
}

/* Rows the cache keeps under plan p. */
static int rows_kept(seer_session *s, const turn_plan *p) {
    return p->scratch ? p->reuse : p->rollback ? s->reply_mark.rows : seer_ctx_used(s->ctx);
}

/* Records the rows of a part evaluated from position pos0: ids, the image
 * each chunk is of, the position after each row. */
static int record_part(seer_session *s, const seer_mm_prompt *part, int32_t pos0) {
    int32_t *start = malloc(sizeof *start * (size_t)(part->n_chunks + 1));
    int32_t *next = malloc(sizeof *next * (size_t)(part->n_tokens + 1));
    int rc = start && next ? 0 : -1;
    if (rc == 0) start[part->n_chunks] = seer_mtmd_positions(part, pos0, start);
    for (int i = 0, prev = -1, row_in_image = 0; rc == 0 && i < part->n_chunks; i++) {
        const seer_chunk *c = &part->chunks[i];
        const int img = session_chunk_image(c);
        row_in_image = img >= 0 && img == prev ? row_in_image : 0;
        for (int k = 0; k < c->n_tokens; k++) next[k] = c->type == SEER_CHUNK_TEXT ? start[i] + k + 1 : start[i + 1];
        rc = session_kv_push(s, c->type == SEER_CHUNK_TEXT ? c->tokens : NULL, c->n_tokens,
                             img >= 0 ? s->images[img].hash : 0, row_in_image, next);
        row_in_image += c->n_tokens;
        prev = img;
    }
    free(start);
    free(next);
    return rc;
}

/* Evaluates one part of the turn, recording its rows. */
static int eval_part(seer_session *s, seer_mm_prompt *part, const volatile int *cancel, seer_turn_stats *st,
                     seer_error *err) {
    if (part->n_tokens == 0) return 0;
    const int32_t pos0 = seer_ctx_next_pos(s->ctx);
    if (seer_mtmd_eval(s->ctx, part, cancel, err) != 0) return -1;
    st->prefill_tokens += part->n_tokens;
    for (int i = 0; i < part->n_chunks; i++) st->prefill_images += part->chunks[i].type == SEER_CHUNK_IMAGE;
    if (record_part(s, part, pos0) != 0) {
        seer_error_set(err, "out of memory");
        return -1;
    }
    return 0;
}

/* Prefills the user turn; on success the message joins the conversation. */
static int prefill(seer_session *s, session_msg *user, const seer_session_hooks *hooks, const volatile int *cancel,
                   seer_turn_stats *st, seer_error *err) {
    const int n_ctx = seer_ctx_size(s->ctx);
    turn_plan p;
    s->over_cap = false;
    const bool over = plan_prefill(s, user, &p, err) != 0; /* too long to tokenize, or failed */
    if (over && !s->over_cap) return -1;
    const int rows = over ? over_context(s) : rows_kept(s, &p) + p.n_tokens;
    if (rows + reply_reserve(s) > n_ctx) {
        int alone = rows_alone(s, user, err);
        if (alone < 0 || alone >= n_ctx) {
            if (alone >= 0) /* alone: with nothing of the conversation before it, so clearing the history
                               * would not make it fit; the system prompt is part of it */
                seer_error_set(err, "%s %s%d tokens but the context holds %d: shorten %s or attach fewer images",
                               s->system && *s->system ? "the message and the system prompt need" : "the message needs",
                               alone > n_ctx ? "more than " : "", alone > n_ctx ? n_ctx : alone, n_ctx,
                               s->system && *s->system ? "them" : "it");
            if (!over) plan_free(&p);
            return -1;
        }
    }
    int used = over ? 0 : rows_kept(s, &p);
    /* Context full: shift out the oldest turns (the system prompt stays) and
     * re-prefill what is left. */
    if (rows + reply_reserve(s) > n_ctx && s->n_msgs > 0) {
        const int drop = turns_to_drop(s, user, n_ctx - reply_reserve(s), err);
        if (!over) plan_free(&p);
        if (drop < 0) return -1;
        for (int k = 0; k < drop; k++) session_drop_oldest_turn(s);
        st->shifted_turns += drop;
        session_text_set(&s->cached, "");
        s->reply_mark.text_len = 0;
        if (plan_prefill(s, user, &p, err) != 0) return -1;
        used = rows_kept(s, &p);
    }
    if (used + p.n_tokens >= n_ctx) {
        seer_error_set(err, "the message needs %d tokens but the context holds %d: shorten it or /clear",
                       used + p.n_tokens, n_ctx);
        plan_free(&p);
        if (st->shifted_turns) session_reset_cache(s);
        return -1;
    }
    if (p.rollback) {
        /* back to where the last generation prompt began (a model with a
         * recurrent state may not have kept it: then from scratch) */
        seer_ctx_truncate(s->ctx, s->reply_mark.rows, s->reply_mark.pos);
        if (seer_ctx_used(s->ctx) != s->reply_mark.rows) {
            session_reset_cache(s);
            plan_free(&p);
            if (plan_prefill(s, user, &p, err) != 0) return -1;
        } else {
            s->n_kv = s->reply_mark.rows;
            s->cached.len = s->reply_mark.text_len;
            s->cached.s[s->cached.len] = 0;
        }
    }
    if (p.scratch && p.reuse) {
        session_kv_truncate(s, p.reuse);
        if (s->n_kv != p.reuse) { /* not kept after all: from scratch */
            session_reset_cache(s);
            plan_free(&p);
            if (plan_prefill(s, user, &p, err) != 0) return -1;
        }
    }
    if (p.scratch && !p.reuse) session_reset_cache(s);
    s->reply_mark.text_len = 0;
    const size_t text0 = s->cached.len;
    const int rows0 = s->n_kv;
    const int32_t pos0 = seer_ctx_next_pos(s->ctx);
    const double t0 = seer_time_ms();
    int rc = eval_part(s, &p.body, cancel, st, err);
    const int32_t gen_pos = seer_ctx_next_pos(s->ctx);
    const int gen_rows = s->n_kv;
    if (rc == 0) rc = eval_part(s, &p.gen, cancel, st, err);
    st->prefill_ms = seer_time_ms() - t0;
    if (rc != 0) {
        plan_free(&p);
        /* eval rolled its part back; the body goes too (the cache is as before
         * the turn, emptied when from scratch) */
        seer_ctx_truncate(s->ctx, rows0, pos0);
        s->n_kv = rows0;
        if (seer_ctx_used(s->ctx) != rows0) session_reset_cache(s);
        if (cancel && *cancel) {
            st->stop = SEER_STOP_CANCELLED;
            return 1;
        }
        return -1;
    }
    session_text_append(&s->cached, p.suffix, strlen(p.suffix));
    if (p.gen.n_tokens && seer_chat_thinking_of(s->style)) {
        s->reply_mark.text_len = text0 + p.gen_at;
        s->reply_mark.rows = gen_rows;
        s->reply_mark.pos = gen_pos;
    }
    plan_free(&p);
    if (hooks && hooks->on_prefill) hooks->on_prefill(hooks->ud, st->prefill_tokens, st->prefill_ms, st->shifted_turns);
    return 0;
}

int session_push_msg(seer_session *s, session_msg *m) {
    if (s->n_msgs == s->cap_msgs) {
        int cap = s->cap_msgs ? s->cap_msgs * 2 : 16;
        session_msg *p = realloc(s->msgs, sizeof *p * (size_t)cap);
        if (!p) return -1;
        s->msgs = p;
        s->cap_msgs = cap;
    }
    s->msgs[s->n_msgs++] = *m;
    return 0;
}

/* A NUL byte a model emits would end the C strings the conversation is kept
 * in (and every later turn of the cached text with it): it is not text, drop it. */
static int drop_nul_bytes(char *t, int n) {
    int o = 0;
    for (int i = 0; i < n; i++)
        if (t[i]) t[o++] = t[i];
    return o;
}

/* Appends reply text to the assistant message and to the cached text. */
static void add_reply_text(seer_session *s, session_text *reply, const char *t, int n) {
    if (n <= 0) return;
    session_text_append(reply, t, (size_t)n);
    session_text_append(&s->cached, t, (size_t)n);
}

/* Tokens on their way to on_token through the thought/answer split: the
 * split may hold a few back, so their details wait here (by tag). */
typedef struct token_out {
    const seer_session_hooks *hooks;
    seer_turn_stats *st;
    seer_gen_token ring[SEER_THINK_HOLD + 2]; /* the last slot: the trailing text (tag -1) */
} token_out;

static seer_gen_token *ring_slot(token_out *o, int tag) {
    return &o->ring[tag < 0 ? SEER_THINK_HOLD + 1 : tag % (SEER_THINK_HOLD + 1)];
}

static int emit_token(void *ud, int tag, const char *text, int len, int thought_len) {
    token_out *o = ud;
    seer_gen_token tok = *ring_slot(o, tag);
    tok.text = text;
    tok.text_len = len;
    tok.thought_len = thought_len;
    if (thought_len > 0 && tag >= 0) {
        o->st->thought_tokens++;
        o->st->thought_ms += tok.ms;
    }
    return o->hooks && o->hooks->on_token ? o->hooks->on_token(o->hooks->ud, &tok) : 0;
}

/* A reply in progress: what generate's loop carried from one token to the next. */
struct seer_session_turn {
    seer_session *s;
    const volatile int *cancel;
    seer_turn_stats *st;
    seer_error err;
    session_text reply;
    seer_detok detok;
    const seer_chat_thinking *markers;
    seer_think_stream split;
    token_out out;
    double t_turn, t_gen0, t_prev;
    int32_t pending;     /* sampled, being decoded */
    float pending_prob;
    bool ended;
};

bool seer_session_turn_next(seer_session_turn *t, int32_t *token) {
    seer_session *s = t->s;
    seer_turn_stats *st = t->st;
    if (t->ended) return false;
    t->ended = true;
    if (t->cancel && *t->cancel) {
        st->stop = SEER_STOP_CANCELLED;
        return false;
    }
    if (s->n_predict > 0 && st->gen_tokens >= s->n_predict) {
        st->stop = SEER_STOP_LIMIT;
        return false;
    }
    const float *logits = seer_ctx_logits(s->ctx, 0);
    if (!logits) {
        seer_error_set(&t->err, "the decoder produced no logits");
        st->stop = SEER_STOP_ERROR;
        return false;
    }
    float prob = 0;
    int32_t id = seer_sampler_sample(s->sampler, logits, &prob);
    seer_sampler_accept(s->sampler, id);
    if (seer_vocab_is_eog(s->vocab, id)) return false;
    if (seer_ctx_used(s->ctx) + 1 > seer_ctx_size(s->ctx)) {
        st->stop = SEER_STOP_CONTEXT_FULL;
        return false;
    }
    /* Decoded before it is shown: every token the user sees is in the
     * cache, so a cancel keeps transcript and cache identical. */
    t->ended = false;
    t->pending = *token = id;
    t->pending_prob = prob;
    return true;
}

void seer_session_turn_failed(seer_session_turn *t, const char *why) {
    seer_error_set(&t->err, "%s", why);
    t->st->stop = SEER_STOP_ERROR;
    t->ended = true;
}

void seer_session_turn_decoded(seer_session_turn *t) {
    seer_session *s = t->s;
    seer_turn_stats *st = t->st;
    const int32_t id = t->pending;
    char piece[256];
    session_kv_push(s, &id, 1, 0, 0, NULL);
    int n = seer_detok_push(&t->detok, s->vocab, id, piece, (int)sizeof piece - 1);
    if (n < 0 || n >= (int)sizeof piece) n = 0;
    if (n == 0) n = seer_think_marker_piece(t->markers, s->vocab, id, piece, (int)sizeof piece);
    n = drop_nul_bytes(piece, n);
    piece[n] = 0;
    add_reply_text(s, &t->reply, piece, n);
    const double now = seer_time_ms();
    if (st->gen_tokens == 0) st->ttft_ms = now - t->t_turn;
    *ring_slot(&t->out, st->gen_tokens) =
        (seer_gen_token){id, NULL, 0, now - t->t_prev, t->pending_prob, st->gen_tokens, 0};
    t->t_prev = now;
    st->gen_tokens++;
    if (seer_think_push(&t->split, st->gen_tokens - 1, piece, n, emit_token, &t->out) != 0) {
        st->stop = SEER_STOP_CANCELLED;
        t->ended = true;
    }
}

/* The reply's last text, then the reply joins the conversation. */
static void close_reply(seer_session_turn *t) {
    seer_session *s = t->s;
    char piece[256];
    int n = seer_detok_flush(&t->detok, piece, (int)sizeof piece - 1);
    if (n > 0 && n < (int)sizeof piece) n = drop_nul_bytes(piece, n);
    if (n > 0 && n < (int)sizeof piece) {
        piece[n] = 0;
        add_reply_text(s, &t->reply, piece, n);
        *ring_slot(&t->out, -1) = (seer_gen_token){-1, NULL, 0, 0, 0, -1, 0};
        seer_think_push(&t->split, -1, piece, n, emit_token, &t->out);
    }
    seer_think_end(&t->split, emit_token, &t->out);
    t->st->gen_ms = t->t_prev - t->t_gen0;
    session_msg m = {.role = strdup("assistant"), .content = t->reply.s ? t->reply.s : strdup("")};
    if (!m.role || !m.content || session_push_msg(s, &m) != 0) {
        session_msg_free(&m);
        /* The conversation lost the reply: keep cache and transcript in step. */
        session_reset_cache(s);
    }
}

int seer_session_turn_end(seer_session_turn *t, seer_error *err) {
    if (!t) return 0;
    close_reply(t);
    t->st->n_used = seer_ctx_used(t->s->ctx);
    const int rc = t->st->stop == SEER_STOP_ERROR ? -1 : 0;
    if (rc != 0) seer_error_set(err, "%s", t->err.msg);
    free(t);
    return rc;
}

int seer_session_turn_begin(seer_session *s, const char *text, const seer_session_hooks *hooks,
                            const volatile int *cancel, seer_turn_stats *st, seer_session_turn **turn,
                            seer_error *err) {
    *turn = NULL;
    memset(st, 0, sizeof *st);
    st->n_ctx = seer_ctx_size(s->ctx);
    const double t_turn = seer_time_ms();
    seer_session_turn *t = calloc(1, sizeof *t);
    session_msg user;
    if (!t || make_user_msg(s, text ? text : "", &user) != 0) {
        free(t);
        seer_error_set(err, "out of memory");
        return -1;
    }
    int rc = prefill(s, &user, hooks, cancel, st, err);
    if (rc != 0) {
        free(t);
        session_msg_free(&user);
        st->n_used = seer_ctx_used(s->ctx);
        if (rc > 0) return 0; /* cancelled before any reply: the turn is dropped */
        st->stop = SEER_STOP_ERROR;
        return -1;
    }
    for (int i = 0; i < user.n_images; i++) s->images[user.images[i]].sent = true;
    if (session_push_msg(s, &user) != 0) {
        free(t);
        session_msg_free(&user);
        session_reset_cache(s);
        seer_error_set(err, "out of memory");
        return -1;
    }
    t->s = s;
    t->cancel = cancel;
    t->st = st;
    t->t_turn = t_turn;
    t->t_gen0 = t->t_prev = seer_time_ms();
    session_text_set(&t->reply, "");
    /* the split: a thought is open from the start when the prompt opened it */
    t->markers = seer_chat_thinking_of(s->style);
    seer_think_begin(&t->split, t->markers, seer_session_thinking(s) && t->markers && t->markers->prompt_opens);
    t->out = (token_out){.hooks = hooks, .st = st};
    st->stop = SEER_STOP_EOG;
    *turn = t;
    return 0;
}

int seer_session_send(seer_session *s, const char *text, const seer_session_hooks *hooks,
                      const volatile int *cancel, seer_turn_stats *stats, seer_error *err) {
    seer_turn_stats st_local;
    seer_turn_stats *st = stats ? stats : &st_local;
    seer_session_turn *t = NULL;
    if (seer_session_turn_begin(s, text, hooks, cancel, st, &t, err) != 0) return -1;
    if (!t) return 0; /* cancelled before any reply */
    int32_t id;
    while (seer_session_turn_next(t, &id)) {
        seer_batch b = {.n = 1, .tokens = &id};
        seer_error derr = {{0}};
        if (seer_ctx_decode(s->ctx, &b, NULL, &derr) != 0) {
            seer_session_turn_failed(t, derr.msg);
            break;
        }
        seer_session_turn_decoded(t);
    }
    return seer_session_turn_end(t, err);
}
