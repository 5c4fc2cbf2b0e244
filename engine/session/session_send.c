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

/* The prompt this turn must prefill: the rendered suffix after s->cached (or
 * everything, when the template does not extend it). *from_scratch tells
 * whether the cache has to be emptied first. */
static int plan_prefill(seer_session *s, const session_msg *user, seer_mm_prompt *prompt, char **suffix_out,
                        bool *from_scratch, seer_error *err) {
    char *full = session_render(s, user, true, err);
    if (!full) return -1;
    int *imgs = NULL;
    int n_imgs = session_collect_images(s, user, &imgs);
    if (n_imgs < 0) {
        free(full);
        seer_error_set(err, "out of memory");
        return -1;
    }
    *from_scratch = s->cached.len == 0 || !starts_with(full, s->cached.s, s->cached.len);
    const char *suffix = *from_scratch ? full : full + s->cached.len;
    char *patched = *from_scratch && s->cached.len ? suffix_after_reply(s, full, err) : NULL;
    if (patched) {
        *from_scratch = false;
        suffix = patched;
    }
    /* Images of the suffix are the last markers of the conversation. */
    int in_suffix = 0;
    for (const char *p = suffix; (p = strstr(p, SEER_MTMD_MARKER)); p += strlen(SEER_MTMD_MARKER)) in_suffix++;
    int rc = -1;
    if (in_suffix > n_imgs) {
        seer_error_set(err, "the chat template produced more image markers than there are images");
    } else {
        bool bos = *from_scratch && seer_vocab_add_bos(s->vocab);
        rc = session_build_prompt(s, suffix, imgs + (n_imgs - in_suffix), in_suffix, bos, prompt, err);
    }
    if (rc == 0) {
        *suffix_out = strdup(suffix);
        if (!*suffix_out) {
            session_prompt_free(prompt);
            seer_error_set(err, "out of memory");
            rc = -1;
        }
    }
    free(imgs);
    free(full);
    free(patched);
    return rc;
}

/* Rows the new message takes with nothing before it but the system prompt:
 * if even that does not fit, shifting old turns out would only lose them. */
static int rows_alone(seer_session *s, const session_msg *user, seer_error *err) {
    int keep = s->n_msgs;
    session_text saved = s->cached;
    s->n_msgs = 0;
    s->cached = (session_text){0};
    seer_mm_prompt p;
    char *suffix = NULL;
    bool scratch;
    int rc = plan_prefill(s, user, &p, &suffix, &scratch, err);
    s->n_msgs = keep;
    s->cached = saved;
    if (rc != 0) return -1;
    int n = p.n_tokens;
    session_prompt_free(&p);
    free(suffix);
    return n;
}

/* Prefills the user turn; on success the message joins the conversation. */
static int prefill(seer_session *s, session_msg *user, const seer_session_hooks *hooks, const volatile int *cancel,
                   seer_turn_stats *st, seer_error *err) {
    const int n_ctx = seer_ctx_size(s->ctx);
    seer_mm_prompt prompt;
    char *suffix = NULL;
    bool scratch;
    if (plan_prefill(s, user, &prompt, &suffix, &scratch, err) != 0) return -1;
    int used = scratch ? 0 : seer_ctx_used(s->ctx);
    if (used + prompt.n_tokens + reply_reserve(s) > n_ctx) {
        int alone = rows_alone(s, user, err);
        if (alone < 0 || alone >= n_ctx) {
            if (alone >= 0)
                seer_error_set(err, "the message needs %d tokens but the context holds %d: shorten it (or /clear "
                               "and attach fewer images)", alone, n_ctx);
            session_prompt_free(&prompt);
            free(suffix);
            return -1;
        }
    }
    /* Context full: shift out the oldest turns (the system prompt stays) and
     * re-prefill what is left. */
    while (used + prompt.n_tokens + reply_reserve(s) > n_ctx && s->n_msgs > 0) {
        session_drop_oldest_turn(s);
        st->shifted_turns++;
        session_prompt_free(&prompt);
        free(suffix);
        session_text_set(&s->cached, "");
        if (plan_prefill(s, user, &prompt, &suffix, &scratch, err) != 0) return -1;
        used = 0;
    }
    if (used + prompt.n_tokens >= n_ctx) {
        seer_error_set(err, "the message needs %d tokens but the context holds %d: shorten it or /clear",
                       used + prompt.n_tokens, n_ctx);
        session_prompt_free(&prompt);
        free(suffix);
        if (st->shifted_turns) session_reset_cache(s);
        return -1;
    }
    if (scratch) session_reset_cache(s);
    const double t0 = seer_time_ms();
    int rc = seer_mtmd_eval(s->ctx, &prompt, cancel, err);
    st->prefill_ms = seer_time_ms() - t0;
    st->prefill_tokens = prompt.n_tokens;
    for (int i = 0; i < prompt.n_chunks; i++) st->prefill_images += prompt.chunks[i].type == SEER_CHUNK_IMAGE;
    if (rc == 0)
        for (int i = 0; i < prompt.n_chunks; i++) {
            const seer_chunk *c = &prompt.chunks[i];
            session_kv_push(s, c->type == SEER_CHUNK_TEXT ? c->tokens : NULL, c->n_tokens);
        }
    session_prompt_free(&prompt);
    if (rc != 0) {
        free(suffix);
        /* eval rolled the cache back to s->cached (emptied, when from scratch). */
        if (cancel && *cancel) {
            st->stop = SEER_STOP_CANCELLED;
            return 1;
        }
        return -1;
    }
    session_text_append(&s->cached, suffix, strlen(suffix));
    free(suffix);
    if (hooks && hooks->on_prefill) hooks->on_prefill(hooks->ud, st->prefill_tokens, st->prefill_ms, st->shifted_turns);
    return 0;
}

static int push_msg(seer_session *s, session_msg *m) {
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

static void generate(seer_session *s, const seer_session_hooks *hooks, const volatile int *cancel, double t_turn,
                     seer_turn_stats *st, seer_error *err) {
    const int n_ctx = seer_ctx_size(s->ctx);
    session_text reply = {0};
    session_text_set(&reply, "");
    seer_detok detok = {0};
    char piece[256];
    const double t_gen0 = seer_time_ms();
    double t_prev = t_gen0;
    const float *logits = seer_ctx_logits(s->ctx, 0);
    st->stop = SEER_STOP_EOG;
    for (;;) {
        if (cancel && *cancel) {
            st->stop = SEER_STOP_CANCELLED;
            break;
        }
        if (s->n_predict > 0 && st->gen_tokens >= s->n_predict) {
            st->stop = SEER_STOP_LIMIT;
            break;
        }
        if (!logits) {
            seer_error_set(err, "the decoder produced no logits");
            st->stop = SEER_STOP_ERROR;
            break;
        }
        float prob = 0;
        int32_t id = seer_sampler_sample(s->sampler, logits, &prob);
        seer_sampler_accept(s->sampler, id);
        if (seer_vocab_is_eog(s->vocab, id)) break;
        if (seer_ctx_used(s->ctx) + 1 > n_ctx) {
            st->stop = SEER_STOP_CONTEXT_FULL;
            break;
        }
        /* Decoded before it is shown: every token the user sees is in the
         * cache, so a cancel keeps transcript and cache identical. */
        seer_batch b = {.n = 1, .tokens = &id};
        if (seer_ctx_decode(s->ctx, &b, NULL, err) != 0) {
            st->stop = SEER_STOP_ERROR;
            break;
        }
        session_kv_push(s, &id, 1);
        int n = seer_detok_push(&detok, s->vocab, id, piece, (int)sizeof piece - 1);
        if (n < 0 || n >= (int)sizeof piece) n = 0;
        n = drop_nul_bytes(piece, n);
        piece[n] = 0;
        add_reply_text(s, &reply, piece, n);
        const double now = seer_time_ms();
        if (st->gen_tokens == 0) st->ttft_ms = now - t_turn;
        seer_gen_token tok = {id, piece, n, now - t_prev, prob, st->gen_tokens};
        t_prev = now;
        st->gen_tokens++;
        if (hooks && hooks->on_token && hooks->on_token(hooks->ud, &tok) != 0) {
            st->stop = SEER_STOP_CANCELLED;
            break;
        }
        logits = seer_ctx_logits(s->ctx, 0);
    }
    int n = seer_detok_flush(&detok, piece, (int)sizeof piece - 1);
    if (n > 0 && n < (int)sizeof piece) n = drop_nul_bytes(piece, n);
    if (n > 0 && n < (int)sizeof piece) {
        piece[n] = 0;
        add_reply_text(s, &reply, piece, n);
        seer_gen_token tok = {-1, piece, n, 0, 0, -1};
        if (hooks && hooks->on_token) hooks->on_token(hooks->ud, &tok);
    }
    st->gen_ms = t_prev - t_gen0;
    session_msg m = {.role = strdup("assistant"), .content = reply.s ? reply.s : strdup("")};
    if (!m.role || !m.content || push_msg(s, &m) != 0) {
        session_msg_free(&m);
        /* The conversation lost the reply: keep cache and transcript in step. */
        session_reset_cache(s);
    }
}

int seer_session_send(seer_session *s, const char *text, const seer_session_hooks *hooks,
                      const volatile int *cancel, seer_turn_stats *stats, seer_error *err) {
    seer_turn_stats st_local;
    seer_turn_stats *st = stats ? stats : &st_local;
    memset(st, 0, sizeof *st);
    st->n_ctx = seer_ctx_size(s->ctx);
    const double t_turn = seer_time_ms();
    session_msg user;
    if (make_user_msg(s, text ? text : "", &user) != 0) {
        seer_error_set(err, "out of memory");
        return -1;
    }
    int rc = prefill(s, &user, hooks, cancel, st, err);
    if (rc != 0) {
        session_msg_free(&user);
        st->n_used = seer_ctx_used(s->ctx);
        if (rc > 0) return 0; /* cancelled before any reply: the turn is dropped */
        st->stop = SEER_STOP_ERROR;
        return -1;
    }
    for (int i = 0; i < user.n_images; i++) s->images[user.images[i]].sent = true;
    if (push_msg(s, &user) != 0) {
        session_msg_free(&user);
        session_reset_cache(s);
        seer_error_set(err, "out of memory");
        return -1;
    }
    generate(s, hooks, cancel, t_turn, st, err);
    st->n_used = seer_ctx_used(s->ctx);
    return st->stop == SEER_STOP_ERROR ? -1 : 0;
}
