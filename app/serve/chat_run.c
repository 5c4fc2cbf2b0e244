/* A chat completion on a conversation slot: the slot's session is brought to
 * the request's history (kept when the request repeats it, so only the new
 * turn is prefilled), the last user turn is sent, and the reply goes out as
 * SSE chunks or one JSON body. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "chat_reply.h"
#include "seer/json.h"
#include "serve.h"

static void conv_free(serve_slot *slot) {
    for (int i = 0; i < slot->n_conv; i++) {
        free(slot->conv[i].role);
        free(slot->conv[i].text);
        free(slot->conv[i].image_hashes);
    }
    free(slot->conv);
    slot->conv = NULL;
    slot->n_conv = 0;
}

void serve_slot_reset(serve_slot *slot) {
    conv_free(slot);
    if (slot->session) seer_session_clear(slot->session);
}

static const char *system_of(const serve_slot *slot, const serve_chat_req *r) {
    return strcmp(r->msgs[0].role, "system") == 0 ? r->msgs[0].text : slot->default_system;
}

static bool same_text(const char *a, const char *b) { return (!a || !*a) ? (!b || !*b) : (b && strcmp(a, b) == 0); }

/* Whether the slot holds exactly the request's history (all but its last
 * message, system prompt apart). hashes: the request's images in order. */
static bool slot_matches(const serve_slot *slot, const serve_chat_req *r, const uint64_t *hashes) {
    if (!same_text(slot->system, system_of(slot, r))) return false;
    const int first = strcmp(r->msgs[0].role, "system") == 0;
    if (slot->n_conv != r->n_msgs - 1 - first) return false;
    int img = 0;
    for (int i = 0; i < slot->n_conv; i++) {
        const serve_msg *m = &r->msgs[first + i];
        const serve_conv_msg *c = &slot->conv[i];
        if (strcmp(c->role, m->role) || strcmp(c->text, m->text) || c->n_images != m->n_images) return false;
        for (int k = 0; k < c->n_images; k++)
            if (c->image_hashes[k] != hashes[img++]) return false;
    }
    return true;
}

static uint64_t *hash_images(const serve_job *j) {
    uint64_t *h = malloc(sizeof *h * (size_t)(j->n_images + 1));
    for (int i = 0; h && i < j->n_images; i++) h[i] = seer_image_hash(&j->images[i]);
    return h;
}

int serve_chat_idle_slots(const serve_state *st) {
    int n = 0;
    for (int i = 0; i < st->cfg->parallel; i++) n += !st->slots[i].busy;
    return n;
}

/* How many of the slot's cache rows the request keeps (its messages as the
 * session renders them, images by hash); 0 when that is under a tenth of
 * its text (a chat template's header alone does not take another
 * conversation's slot), as llama-server's slot similarity. */
static int reusable_rows(const serve_slot *slot, const serve_chat_req *r, const uint64_t *hashes, int n_hashes) {
    const int first = strcmp(r->msgs[0].role, "system") == 0;
    seer_chat_msg *msgs = calloc((size_t)r->n_msgs, sizeof *msgs);
    serve_text *content = calloc((size_t)r->n_msgs, sizeof *content);
    int n = 0, rows = 0, n_text = 0;
    for (int i = first; msgs && content && i < r->n_msgs; i++, n++) {
        for (int k = 0; k < r->msgs[i].n_images; k++)
            serve_text_append(&content[n], SEER_MTMD_MARKER, strlen(SEER_MTMD_MARKER));
        serve_text_append(&content[n], r->msgs[i].text, strlen(r->msgs[i].text));
        msgs[n] = (seer_chat_msg){r->msgs[i].role, content[n].s ? content[n].s : ""};
    }
    if (msgs && content && n == r->n_msgs - first)
        rows = seer_session_reusable_rows(slot->session, system_of(slot, r), msgs, n, hashes, n_hashes, &n_text);
    for (int i = 0; content && i < n; i++) free(content[i].s);
    free(content);
    free(msgs);
    return rows * 10 >= n_text ? rows : 0;
}

serve_slot *serve_chat_pick_slot(serve_state *st, const serve_job *j) {
    uint64_t *hashes = hash_images(j);
    serve_slot *best = NULL;
    int best_rows = 0;
    for (int i = 0; i < st->cfg->parallel; i++) {
        serve_slot *s = &st->slots[i];
        if (s->busy) continue;
        if (hashes && s->n_conv > 0 && slot_matches(s, &j->chat, hashes)) {
            best = s;
            break;
        }
        /* else the one whose cache shares the longest prefix with the
         * request, the least recently used one among equals */
        const int rows = hashes ? reusable_rows(s, &j->chat, hashes, j->n_images) : 0;
        if (!best || rows > best_rows || (rows == best_rows && s->last_used < best->last_used)) {
            best = s;
            best_rows = rows;
        }
    }
    free(hashes);
    return best;
}

static int conv_push(serve_slot *slot, const char *role, const char *text, const uint64_t *hashes, int n) {
    serve_conv_msg *p = realloc(slot->conv, sizeof *p * (size_t)(slot->n_conv + 1));
    if (!p) return -1;
    slot->conv = p;
    serve_conv_msg *c = &p[slot->n_conv];
    c->role = strdup(role);
    c->text = strdup(text);
    c->n_images = n;
    c->image_hashes = malloc(sizeof *hashes * (size_t)(n + 1));
    if (c->image_hashes && n) memcpy(c->image_hashes, hashes, sizeof *hashes * (size_t)n);
    slot->n_conv++;
    return c->role && c->text && c->image_hashes ? 0 : -1;
}

/* Attaches message m's images (images[*next...]), to be encoded with the
 * other admitted chats' (serve_chats_begin); their indexes into idx.
 * Returns how many need encoding (the others kept theirs), or -1. */
static int attach_images(serve_slot *slot, serve_job *j, const serve_msg *m, int *next, int *idx, seer_error *err) {
    int todo = 0;
    for (int k = 0; k < m->n_images; k++) {
        const int i = seer_session_attach_rgb_unencoded(slot->session, &j->images[*next], "request image", err);
        if (i < 0) return -1;
        (*next)++;
        if (idx) idx[k] = i;
        todo += !seer_session_get_image(slot->session, i).reused;
    }
    return todo;
}

/* Brings the slot to the request's history; the last message's images are
 * attached for the turn, the request's images from *first_image on.
 * Returns the images to encode, or -1. */
static int prepare_slot(serve_slot *slot, serve_job *j, const uint64_t *hashes, int *first_image, seer_error *err) {
    const serve_chat_req *r = &j->chat;
    const int first = strcmp(r->msgs[0].role, "system") == 0;
    int next = 0, todo = 0;
    if (slot->n_conv == 0 || !slot_matches(slot, r, hashes)) {
        /* a new conversation: the session keeps the cache rows it begins
         * with (seer_session_restart) and prefills the rest */
        conv_free(slot);
        const char *sys = system_of(slot, r);
        if (!same_text(slot->system, sys)) {
            free(slot->system);
            slot->system = sys && *sys ? strdup(sys) : NULL;
        }
        seer_session_restart(slot->session, slot->system);
        *first_image = 0;
        for (int i = first; i < r->n_msgs - 1; i++) {
            const serve_msg *m = &r->msgs[i];
            int idx[SERVE_MAX_IMAGES];
            const int n = attach_images(slot, j, m, &next, idx, err);
            if (n < 0) return -1;
            todo += n;
            /* markers first, then the text, as seer_session_send builds a turn */
            serve_text content = {0};
            for (int k = 0; k < m->n_images; k++) serve_text_append(&content, SEER_MTMD_MARKER, strlen(SEER_MTMD_MARKER));
            serve_text_append(&content, m->text, strlen(m->text));
            int rc = content.s ? seer_session_push_message(slot->session, m->role, content.s, idx, m->n_images, err) : -1;
            free(content.s);
            if (rc != 0 || conv_push(slot, m->role, m->text, hashes + next - m->n_images, m->n_images) != 0) return -1;
        }
    } else {
        for (int i = 0; i < r->n_msgs - 1; i++) next += r->msgs[i].n_images;
        *first_image = seer_session_n_images(slot->session);
    }
    const int n = attach_images(slot, j, &r->msgs[r->n_msgs - 1], &next, NULL, err);
    return n < 0 ? -1 : todo + n;
}

/* A chat running on its slot (serve_chat in serve.h). */
typedef struct chat_turn {
    serve_state *st;
    serve_slot *slot;
    serve_job *j;
    seer_session_turn *turn;
    seer_session_hooks hooks;
    seer_turn_stats stats;
    uint64_t *hashes;
    int images, first_image;
    double encode_ms;
    chat_reply reply;
    char id[48];
    long long created;
    bool role_sent, failed;
    int n_tokens;
} chat_turn;

struct serve_chat {
    chat_turn t;
};

static json_t *chunk_json(const chat_turn *t, json_t *delta, const char *finish) {
    json_t *choice = json_object();
    json_object_set_new(choice, "index", json_integer(0));
    json_object_set_new(choice, "delta", delta);
    json_object_set_new(choice, "finish_reason", finish ? json_string(finish) : json_null());
    json_t *root = json_object();
    json_object_set_new(root, "id", json_string(t->id));
    json_object_set_new(root, "object", json_string("chat.completion.chunk"));
    json_object_set_new(root, "created", json_integer(t->created));
    json_object_set_new(root, "model", json_string(t->st->cfg->model_name));
    json_t *choices = json_array();
    if (delta) json_array_append_new(choices, choice);
    else json_decref(choice);
    json_object_set_new(root, "choices", choices);
    return root;
}

static int send_event(chat_turn *t, json_t *root) {
    char *s = json_dumps(root, JSON_COMPACT);
    json_decref(root);
    if (!s) return -1;
    int rc = serve_job_write(t->j, "data: ", 6);
    if (rc == 0) rc = serve_job_write(t->j, s, strlen(s));
    if (rc == 0) rc = serve_job_write(t->j, "\n\n", 2);
    free(s);
    return rc;
}

/* Streams what the reply has ready (final: everything, with finish). */
static int stream_ready(chat_turn *t, bool final, const char *finish) {
    const char *rs, *cs;
    size_t nr, nc;
    chat_reply_take(&t->reply, final, &rs, &nr, &cs, &nc);
    if (!nr && !nc && !finish) return 0;
    json_t *delta = json_object();
    if (!t->role_sent) json_object_set_new(delta, "role", json_string("assistant"));
    t->role_sent = true;
    if (nr) json_object_set_new(delta, "reasoning_content", json_string_repaired(rs, nr));
    if (nc || (!nr && !finish)) json_object_set_new(delta, "content", json_string_repaired(cs, nc));
    return send_event(t, chunk_json(t, delta, finish));
}

static int on_token(void *ud, const seer_gen_token *tok) {
    chat_turn *t = ud;
    if (t->n_tokens++ == 0)
        serve_metrics_ttft(&t->st->metrics, (seer_time_ms() - t->j->t_queued) / 1000.0);
    const bool stop = chat_reply_add(&t->reply, tok->text, (size_t)tok->text_len, (size_t)tok->thought_len);
    if (t->j->chat.stream && stream_ready(t, false, NULL) != 0) return 1;
    if (t->st->draining && seer_time_ms() > t->st->drain_deadline) return 1;
    return stop || t->j->cancel;
}

static const char *finish_reason(const chat_turn *t, const seer_turn_stats *s) {
    if (t->reply.stopped || s->stop == SEER_STOP_EOG) return "stop";
    return s->stop == SEER_STOP_LIMIT || s->stop == SEER_STOP_CONTEXT_FULL ? "length" : "stop";
}

static json_t *usage_json(const seer_turn_stats *s) {
    const int prompt = s->n_used - s->gen_tokens > 0 ? s->n_used - s->gen_tokens : s->prefill_tokens;
    json_t *u = json_object();
    json_object_set_new(u, "prompt_tokens", json_integer(prompt));
    json_object_set_new(u, "completion_tokens", json_integer(s->gen_tokens));
    json_object_set_new(u, "total_tokens", json_integer(prompt + s->gen_tokens));
    json_t *details = json_object();
    json_object_set_new(details, "cached_tokens", json_integer(prompt - s->prefill_tokens));
    json_object_set_new(u, "prompt_tokens_details", details);
    return u;
}

static double per_second(int n, double ms) { return ms > 0 ? 1000.0 * n / ms : 0; }

/* llama-server's timings object, with the image encoding beside it. */
static json_t *timings_json(const seer_turn_stats *s, int images, double encode_ms) {
    json_t *t = json_object();
    const int prompt = s->n_used - s->gen_tokens > 0 ? s->n_used - s->gen_tokens : s->prefill_tokens;
    json_object_set_new(t, "cache_n", json_integer(prompt - s->prefill_tokens));
    json_object_set_new(t, "prompt_n", json_integer(s->prefill_tokens));
    json_object_set_new(t, "prompt_ms", json_real(s->prefill_ms));
    json_object_set_new(t, "prompt_per_second", json_real(per_second(s->prefill_tokens, s->prefill_ms)));
    json_object_set_new(t, "predicted_n", json_integer(s->gen_tokens));
    json_object_set_new(t, "predicted_ms", json_real(s->gen_ms));
    json_object_set_new(t, "predicted_per_second", json_real(per_second(s->gen_tokens, s->gen_ms)));
    json_object_set_new(t, "images_n", json_integer(images));
    json_object_set_new(t, "image_encode_ms", json_real(encode_ms));
    json_object_set_new(t, "ttft_ms", json_real(s->ttft_ms));
    return t;
}

static void finish_stream(chat_turn *t, const seer_turn_stats *s, int images, double encode_ms) {
    stream_ready(t, true, NULL);
    json_t *last = chunk_json(t, json_object(), finish_reason(t, s));
    json_object_set_new(last, "timings", timings_json(s, images, encode_ms));
    send_event(t, last);
    if (t->j->chat.include_usage) {
        json_t *u = chunk_json(t, NULL, NULL);
        json_object_set_new(u, "usage", usage_json(s));
        send_event(t, u);
    }
    serve_job_write(t->j, "data: [DONE]\n\n", 14);
    serve_job_finish(t->j, 200, NULL);
}

static void finish_whole(chat_turn *t, const seer_turn_stats *s, int images, double encode_ms) {
    json_t *msg = json_object();
    json_object_set_new(msg, "role", json_string("assistant"));
    const serve_text *c = &t->reply.content, *r = &t->reply.reasoning;
    json_object_set_new(msg, "content", json_string_repaired(c->s ? c->s : "", c->len));
    if (r->len) json_object_set_new(msg, "reasoning_content", json_string_repaired(r->s, r->len));
    json_t *choice = json_object();
    json_object_set_new(choice, "index", json_integer(0));
    json_object_set_new(choice, "message", msg);
    json_object_set_new(choice, "finish_reason", json_string(finish_reason(t, s)));
    json_t *root = json_object();
    json_object_set_new(root, "id", json_string(t->id));
    json_object_set_new(root, "object", json_string("chat.completion"));
    json_object_set_new(root, "created", json_integer(t->created));
    json_object_set_new(root, "model", json_string(t->st->cfg->model_name));
    json_t *choices = json_array();
    json_array_append_new(choices, choice);
    json_object_set_new(root, "choices", choices);
    json_object_set_new(root, "usage", usage_json(s));
    json_object_set_new(root, "timings", timings_json(s, images, encode_ms));
    char *body = json_dumps(root, JSON_COMPACT);
    json_decref(root);
    if (body) serve_job_finish(t->j, 200, body);
    else serve_job_fail(t->j, 500, "out of memory");
    free(body);
}

/* An error: a whole JSON error, or inside a stream already under way. */
static void fail_turn(serve_job *j, int status, const char *message) {
    if (!j->started) {
        serve_job_fail(j, status, message);
        return;
    }
    char *body = serve_error_body(status, message);
    serve_job_write(j, "data: ", 6);
    if (body) serve_job_write(j, body, strlen(body));
    serve_job_write(j, "\n\ndata: [DONE]\n\n", 16);
    free(body);
    serve_job_finish(j, 200, NULL);
}

static void set_sampling(serve_state *st, serve_slot *slot, const serve_chat_req *r) {
    seer_sampling sp = seer_sampling_default();
    if (r->has_temperature) sp.temp = (float)r->temperature;
    if (r->has_top_p) sp.top_p = (float)r->top_p;
    sp.seed = r->has_seed ? r->seed : (unsigned long long)time(NULL) ^ (unsigned long long)(seer_time_ms() * 1000);
    seer_session_set_sampling(slot->session, &sp, r->max_tokens > 0 ? r->max_tokens : st->cfg->max_tokens);
}

static void count_turn(serve_state *st, const seer_turn_stats *s) {
    serve_metrics_add(&st->metrics, &st->metrics.generated_tokens, (unsigned long long)s->gen_tokens);
    serve_metrics_add(&st->metrics, &st->metrics.prefilled_tokens, (unsigned long long)s->prefill_tokens);
    serve_metrics_add(&st->metrics, &st->metrics.prompt_tokens,
                      (unsigned long long)(s->n_used > s->gen_tokens ? s->n_used - s->gen_tokens : 0));
}

/* The reply's end: the job answered, the slot kept for a follow-up (or
 * emptied), everything freed. rc: what the session turn ended with. */
static void close_chat(serve_chat *c, int rc, const seer_error *err) {
    chat_turn *t = &c->t;
    serve_state *st = t->st;
    serve_job *j = t->j;
    const serve_chat_req *r = &j->chat;
    const seer_turn_stats *stats = &t->stats;
    count_turn(st, stats);
    if (rc != 0) {
        serve_slot_reset(t->slot);
        fail_turn(j, strstr(err->msg, "context") ? 400 : 500, err->msg);
    } else {
        const serve_msg *last = &r->msgs[r->n_msgs - 1];
        const int next_img = j->n_images - last->n_images;
        /* the slot now holds the request and the reply as the client saw it;
         * a reply cut by a stop string or a cancel is not what the cache holds */
        bool keep = !t->reply.stopped && stats->stop != SEER_STOP_CANCELLED && stats->shifted_turns == 0 &&
                    conv_push(t->slot, "user", last->text, t->hashes + next_img, last->n_images) == 0 &&
                    conv_push(t->slot, "assistant", t->reply.content.s ? t->reply.content.s : "", NULL, 0) == 0;
        if (!keep) conv_free(t->slot); /* the next request matches the cache rows alone */
        if (r->stream) finish_stream(t, stats, t->images, t->encode_ms);
        else finish_whole(t, stats, t->images, t->encode_ms);
    }
    t->slot->busy = false;
    free(t->hashes);
    chat_reply_free(&t->reply);
    serve_metrics_request(&st->metrics, SERVE_EP_CHAT, j->status, (seer_time_ms() - j->t_queued) / 1000.0);
    serve_job_release(j);
    free(c);
}

/* A chat that could not start: answered with the error, its slot emptied. */
static void refuse(serve_chat *c, int status, const char *why) {
    chat_turn *t = &c->t;
    serve_slot_reset(t->slot);
    fail_turn(t->j, status, why);
    serve_metrics_request(&t->st->metrics, SERVE_EP_CHAT, t->j->status, (seer_time_ms() - t->j->t_queued) / 1000.0);
    t->slot->busy = false;
    free(t->hashes);
    serve_job_release(t->j);
    free(c);
}

serve_chat *serve_chat_admit(serve_state *st, serve_slot *slot, serve_job *j) {
    serve_chat *c = calloc(1, sizeof *c);
    if (!c) {
        serve_job_fail(j, 500, "out of memory");
        serve_job_release(j);
        return NULL;
    }
    chat_turn *t = &c->t;
    const serve_chat_req *r = &j->chat;
    *t = (chat_turn){.st = st, .slot = slot, .j = j, .created = (long long)time(NULL)};
    static unsigned long long serial;
    snprintf(t->id, sizeof t->id, "chatcmpl-seer-%llx-%llu", (unsigned long long)t->created, ++serial);
    t->reply.think = seer_session_thinking_markers(slot->session);
    t->reply.stops = r->stops;
    t->reply.n_stops = r->n_stops;
    slot->last_used = seer_time_ms();
    slot->busy = true;
    seer_error err = {{0}};
    t->hashes = hash_images(j);
    t->images = t->hashes ? prepare_slot(slot, j, t->hashes, &t->first_image, &err) : -1;
    if (t->images < 0) {
        refuse(c, j->cancel ? 499 : 400, t->hashes ? err.msg : "out of memory");
        return NULL;
    }
    return c;
}

int serve_chat_unencoded(serve_chat *c, seer_mm_prompt **out, int cap) {
    return seer_session_unencoded_images(c->t.slot->session, out, cap);
}

bool serve_chat_start(serve_chat *c, const char *encode_error) {
    chat_turn *t = &c->t;
    serve_job *j = t->j;
    if (encode_error) {
        refuse(c, j->cancel ? 499 : 400, encode_error);
        return false;
    }
    for (int i = t->first_image; i < seer_session_n_images(t->slot->session); i++)
        t->encode_ms += seer_session_get_image(t->slot->session, i).encode_ms;
    set_sampling(t->st, t->slot, &j->chat);
    t->hooks = (seer_session_hooks){.ud = t, .on_token = on_token};
    const serve_msg *last = &j->chat.msgs[j->chat.n_msgs - 1];
    seer_error err = {{0}};
    const int rc =
        seer_session_turn_begin(t->slot->session, last->text, &t->hooks, &j->cancel, &t->stats, &t->turn, &err);
    if (rc != 0 || !t->turn) { /* failed, or cancelled before any reply */
        close_chat(c, rc, &err);
        return false;
    }
    return true;
}

seer_session_turn *serve_chat_turn(serve_chat *c) { return c->t.turn; }
seer_ctx *serve_chat_ctx(serve_chat *c) { return seer_session_ctx(c->t.slot->session); }

void serve_chat_end(serve_chat *c) {
    seer_error err = {{0}};
    const int rc = seer_session_turn_end(c->t.turn, &err);
    close_chat(c, rc, &err);
}
