/* Conversation lifecycle: creation, messages, system prompt, sampling, clear. */
#include <stdlib.h>
#include <string.h>

#include "session/session_internal.h"

seer_session_params seer_session_params_default(void) {
    seer_session_params p = {0};
    p.n_ctx = 0;
    p.n_predict = 256;
    p.sampling = seer_sampling_default();
    return p;
}

const char *seer_stop_reason_name(seer_stop_reason r) {
    switch (r) {
    case SEER_STOP_EOG: return "end";
    case SEER_STOP_LIMIT: return "limit";
    case SEER_STOP_CANCELLED: return "cancelled";
    case SEER_STOP_CONTEXT_FULL: return "context full";
    case SEER_STOP_ERROR: return "error";
    }
    return "?";
}

int session_text_append(session_text *t, const char *s, size_t n) {
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 256;
        while (cap < t->len + n + 1) cap *= 2;
        char *p = realloc(t->s, cap);
        if (!p) return -1;
        t->s = p;
        t->cap = cap;
    }
    memcpy(t->s + t->len, s, n);
    t->len += n;
    t->s[t->len] = 0;
    return 0;
}

void session_text_set(session_text *t, const char *s) {
    t->len = 0;
    if (t->s) t->s[0] = 0;
    if (s) session_text_append(t, s, strlen(s));
}

int session_kv_push(seer_session *s, const int32_t *ids, int n, uint64_t image, int part0, const int32_t *next_pos) {
    if (s->n_kv + n > s->cap_kv) {
        int cap = s->cap_kv ? s->cap_kv : 1024;
        while (cap < s->n_kv + n) cap *= 2;
        int32_t *p = realloc(s->kv_ids, sizeof *p * (size_t)cap);
        if (!p) return -1;
        s->kv_ids = p;
        session_row *r = realloc(s->kv_rows, sizeof *r * (size_t)cap);
        if (!r) return -1;
        s->kv_rows = r;
        s->cap_kv = cap;
    }
    const int32_t now = seer_ctx_next_pos(s->ctx);
    for (int i = 0; i < n; i++) {
        s->kv_ids[s->n_kv + i] = ids ? ids[i] : -1;
        s->kv_rows[s->n_kv + i] = (session_row){image, image ? part0 + i : 0, next_pos ? next_pos[i] : now};
    }
    s->n_kv += n;
    return 0;
}

const int32_t *seer_session_cached_tokens(const seer_session *s, int *n) {
    *n = s->n_kv;
    return s->kv_ids;
}

void session_reset_cache(seer_session *s) {
    s->n_kv = 0;
    s->reply_mark.text_len = 0;
    seer_ctx_truncate(s->ctx, 0, 0);
    session_text_set(&s->cached, "");
}

static char *dup_or_null(const char *s) { return s && *s ? strdup(s) : NULL; }

seer_session *seer_session_new(const seer_llm *llm, seer_vision *vision, seer_pool *pool,
                               const seer_session_params *params, seer_error *err) {
    if (!llm) {
        seer_error_set(err, "no model");
        return NULL;
    }
    if (vision && seer_mtmd_check_pair(llm, vision, err) != 0) return NULL;
    seer_session_params def = seer_session_params_default();
    if (!params) params = &def;
    seer_session *s = calloc(1, sizeof *s);
    if (!s) {
        seer_error_set(err, "out of memory");
        return NULL;
    }
    s->llm = llm;
    s->vocab = seer_llm_vocab(llm);
    s->vision = vision;
    seer_vision_set_preproc(vision, params->image_preproc);
    s->pool = pool;
    s->sampling = params->sampling;
    s->n_predict = params->n_predict;
    s->thinking = !params->thinking_off;
    const seer_llm_info *info = seer_llm_get_info(llm);
    s->mrope = info && info->mrope;
    if (vision) {
        if (seer_projector_multi_pos(seer_vision_get_hparams(vision)->projector)) s->mrope = true;
    }
    if (params->chat_template) {
        s->style = seer_chat_from_name(params->chat_template);
        if (s->style == SEER_CHAT_UNKNOWN) {
            seer_error_set(err, "unknown chat template '%s'", params->chat_template);
            free(s);
            return NULL;
        }
    } else {
        const char *projector = vision ? seer_vision_get_hparams(vision)->projector_name : NULL;
        s->style = seer_chat_for_model(seer_vocab_chat_template(s->vocab), projector, &s->style_fallback);
    }
    s->system = params->system_prompt ? dup_or_null(params->system_prompt)
                                       : dup_or_null(seer_chat_default_system(s->style));
    s->ctx = seer_ctx_new(llm, params->n_ctx, params->kv_type, pool, err);
    if (!s->ctx) {
        free(s->system);
        free(s);
        return NULL;
    }
    s->sampler = seer_sampler_new(&s->sampling, info ? info->n_vocab : seer_vocab_size(s->vocab));
    if (!s->sampler) {
        seer_error_set(err, "cannot create the sampler");
        seer_session_free(s);
        return NULL;
    }
    session_text_set(&s->cached, "");
    return s;
}

void session_msg_free(session_msg *m) {
    free(m->role);
    free(m->content);
    free(m->images);
    memset(m, 0, sizeof *m);
}

static void free_image_list(session_image *images, int n) {
    for (int i = 0; i < n; i++) {
        free(images[i].path);
        seer_mm_prompt_free(&images[i].mm);
    }
}

static void free_images(seer_session *s) {
    free_image_list(s->images, s->n_images);
    s->n_images = 0;
    free_image_list(s->kept, s->n_kept);
    free(s->kept);
    s->kept = NULL;
    s->n_kept = 0;
}

void seer_session_free(seer_session *s) {
    if (!s) return;
    for (int i = 0; i < s->n_msgs; i++) session_msg_free(&s->msgs[i]);
    free(s->msgs);
    free_images(s);
    free(s->images);
    seer_sampler_free(s->sampler);
    seer_ctx_free(s->ctx);
    free(s->system);
    free(s->cached.s);
    free(s->kv_ids);
    free(s->kv_rows);
    free(s);
}

int seer_session_push_message(seer_session *s, const char *role, const char *content, const int *images, int n_images,
                              seer_error *err) {
    int markers = 0;
    for (const char *q = content; (q = strstr(q, SEER_MTMD_MARKER)); q += strlen(SEER_MTMD_MARKER)) markers++;
    if (markers != n_images) {
        seer_error_set(err, "the message has %d image markers for %d images", markers, n_images);
        return -1;
    }
    for (int i = 0; i < n_images; i++)
        if (images[i] < 0 || images[i] >= s->n_images) {
            seer_error_set(err, "no attached image %d", images[i]);
            return -1;
        }
    session_msg m = {.role = strdup(role), .content = strdup(content), .n_images = n_images,
                     .images = malloc(sizeof *m.images * (size_t)(n_images + 1))};
    if (!m.role || !m.content || !m.images || session_push_msg(s, &m) != 0) {
        session_msg_free(&m);
        seer_error_set(err, "out of memory");
        return -1;
    }
    if (n_images > 0) memcpy(m.images, images, sizeof *images * (size_t)n_images); /* images may be NULL for none */
    for (int i = 0; i < n_images; i++) s->images[images[i]].sent = true;
    return 0;
}

void seer_session_clear(seer_session *s) {
    for (int i = 0; i < s->n_msgs; i++) session_msg_free(&s->msgs[i]);
    s->n_msgs = 0;
    free_images(s);
    seer_sampler_reset(s->sampler);
    session_reset_cache(s);
}

void seer_session_restart(seer_session *s, const char *system) {
    for (int i = 0; i < s->n_msgs; i++) session_msg_free(&s->msgs[i]);
    s->n_msgs = 0;
    free_image_list(s->kept, s->n_kept);
    free(s->kept);
    s->kept = s->images;
    s->n_kept = s->n_images;
    s->images = NULL;
    s->n_images = s->cap_images = 0;
    seer_sampler_reset(s->sampler);
    free(s->system);
    s->system = dup_or_null(system);
    /* the rows stay; which text they render is for the next turn to find */
    s->reply_mark.text_len = 0;
    session_text_set(&s->cached, "");
}

void seer_session_set_system(seer_session *s, const char *text) {
    free(s->system);
    s->system = dup_or_null(text);
    /* The system prompt heads the cache: everything after it must be redone. */
    session_reset_cache(s);
}

const char *seer_session_system(const seer_session *s) { return s->system ? s->system : ""; }

void seer_session_set_sampling(seer_session *s, const seer_sampling *sp, int n_predict) {
    s->sampling = *sp;
    s->n_predict = n_predict;
    seer_sampler_set(s->sampler, sp);
}

seer_sampling seer_session_sampling(const seer_session *s) { return s->sampling; }
int seer_session_n_predict(const seer_session *s) { return s->n_predict; }
int seer_session_n_messages(const seer_session *s) { return s->n_msgs + (s->system ? 1 : 0); }

seer_chat_msg seer_session_message(const seer_session *s, int i) {
    if (s->system) {
        if (i == 0) return (seer_chat_msg){"system", s->system};
        i--;
    }
    if (i < 0 || i >= s->n_msgs) return (seer_chat_msg){NULL, NULL};
    return (seer_chat_msg){s->msgs[i].role, s->msgs[i].content};
}

seer_chat_style seer_session_chat_style(const seer_session *s) { return s->style; }

/* The rendering changes where the generation prompt is: the cache keeps
 * what comes before it and the next turn redoes the rest. */
void seer_session_set_thinking(seer_session *s, bool on) { s->thinking = on; }

bool seer_session_thinking(const seer_session *s) {
    const seer_chat_thinking *m = seer_chat_thinking_of(s->style);
    return m && (s->thinking || !m->can_switch_off);
}

const seer_chat_thinking *seer_session_thinking_markers(const seer_session *s) {
    return seer_chat_thinking_of(s->style);
}

bool seer_session_chat_fallback(const seer_session *s) { return s->style_fallback; }
seer_ctx *seer_session_ctx(seer_session *s) { return s->ctx; }
const char *seer_session_cached_text(const seer_session *s) { return s->cached.s ? s->cached.s : ""; }

char *session_render(const seer_session *s, const session_msg *extra, bool add_generation_prompt, seer_error *err) {
    int n = s->n_msgs + 2;
    seer_chat_msg *msgs = malloc(sizeof *msgs * (size_t)n);
    if (!msgs) {
        seer_error_set(err, "out of memory");
        return NULL;
    }
    int k = 0;
    if (s->system) msgs[k++] = (seer_chat_msg){"system", s->system};
    for (int i = 0; i < s->n_msgs; i++) msgs[k++] = (seer_chat_msg){s->msgs[i].role, s->msgs[i].content};
    if (extra) msgs[k++] = (seer_chat_msg){extra->role, extra->content};
    char *out = seer_chat_render_thinking(s->style, msgs, k, add_generation_prompt, seer_session_thinking(s), err);
    free(msgs);
    return out;
}

int session_collect_images(const seer_session *s, const session_msg *extra, int **out) {
    int n = extra ? extra->n_images : 0;
    for (int i = 0; i < s->n_msgs; i++) n += s->msgs[i].n_images;
    *out = malloc(sizeof **out * (size_t)(n + 1));
    if (!*out) return -1;
    int k = 0;
    for (int i = 0; i < s->n_msgs; i++)
        for (int j = 0; j < s->msgs[i].n_images; j++) (*out)[k++] = s->msgs[i].images[j];
    if (extra)
        for (int j = 0; j < extra->n_images; j++) (*out)[k++] = extra->images[j];
    return k;
}

bool session_drop_oldest_turn(seer_session *s) {
    if (s->n_msgs == 0) return false;
    int end = 1; /* the first message and everything up to the next user message */
    while (end < s->n_msgs && strcmp(s->msgs[end].role, "user") != 0) end++;
    for (int i = 0; i < end; i++) session_msg_free(&s->msgs[i]);
    memmove(s->msgs, s->msgs + end, sizeof *s->msgs * (size_t)(s->n_msgs - end));
    s->n_msgs -= end;
    return true;
}
