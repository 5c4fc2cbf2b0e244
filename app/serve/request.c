/* OpenAI chat and embeddings request bodies → serve_chat_req / serve_embed_req. */
#include "request.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seer/json.h"

static int bad(char *why, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int bad(char *why, size_t cap, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, cap, fmt, ap);
    va_end(ap);
    return -1;
}

static json_t *parse_object(const char *body, size_t len, char *why, size_t cap) {
    char err[160];
    json_t *root = json_parse(body, len, err, sizeof err);
    if (!root) {
        bad(why, cap, "the body is not valid JSON (%s)", err);
        return NULL;
    }
    if (!json_is_object(root)) {
        json_decref(root);
        bad(why, cap, "the body must be a JSON object");
        return NULL;
    }
    return root;
}

/* An optional string field: 0 (absent or a copy in *out), -1 when mistyped. */
static int opt_string(const json_t *o, const char *key, char **out, char *why, size_t cap) {
    const json_t *v = json_object_get(o, key);
    if (!v || json_is_null(v)) return 0;
    if (!json_is_string(v)) return bad(why, cap, "'%s' must be a string", key);
    if (!(*out = strdup(json_string_value(v)))) return bad(why, cap, "out of memory");
    return 0;
}

/* An optional number in [lo, hi]: 1 when given, 0 when absent, -1 otherwise. */
static int opt_number(const json_t *o, const char *key, double lo, double hi, double *out, char *why, size_t cap) {
    const json_t *v = json_object_get(o, key);
    if (!v || json_is_null(v)) return 0;
    if (!json_is_number(v) || !isfinite(json_number_value(v)) || json_number_value(v) < lo ||
        json_number_value(v) > hi)
        return bad(why, cap, "'%s' must be a number from %g to %g", key, lo, hi);
    *out = json_number_value(v);
    return 1;
}

static int opt_bool(const json_t *o, const char *key, bool *out, char *why, size_t cap) {
    const json_t *v = json_object_get(o, key);
    if (!v || json_is_null(v)) return 0;
    if (!json_is_boolean(v)) return bad(why, cap, "'%s' must be true or false", key);
    *out = json_is_true(v);
    return 0;
}

static int append_text(char **dst, const char *add) {
    size_t a = *dst ? strlen(*dst) : 0, b = strlen(add);
    char *p = realloc(*dst, a + b + 1);
    if (!p) return -1;
    memcpy(p + a, add, b + 1);
    *dst = p;
    return 0;
}

/* image_url: {"url": "..."} or the URL itself. */
static const char *image_url_of(const json_t *v) {
    if (json_is_string(v)) return json_string_value(v);
    return json_str(json_object_get(v, "url"));
}

static int parse_content_part(const json_t *part, serve_msg *m, int *n_images_total, char *why, size_t cap) {
    const char *type = json_str(json_object_get(part, "type"));
    if (!type) return bad(why, cap, "each content part needs a 'type'");
    if (strcmp(type, "text") == 0) {
        const char *t = json_str(json_object_get(part, "text"));
        if (!t) return bad(why, cap, "a text part needs 'text' as a string");
        return append_text(&m->text, t) == 0 ? 0 : bad(why, cap, "out of memory");
    }
    if (strcmp(type, "image_url") != 0) return bad(why, cap, "content part type '%.40s' is not supported", type);
    const char *url = image_url_of(json_object_get(part, "image_url"));
    if (!url || !*url) return bad(why, cap, "an image_url part needs 'image_url': {\"url\": ...}");
    if (++*n_images_total > SERVE_MAX_IMAGES) return bad(why, cap, "at most %d images per request", SERVE_MAX_IMAGES);
    char **urls = realloc(m->image_urls, sizeof *urls * (size_t)(m->n_images + 1));
    if (!urls) return bad(why, cap, "out of memory");
    m->image_urls = urls;
    if (!(urls[m->n_images] = strdup(url))) return bad(why, cap, "out of memory");
    m->n_images++;
    return 0;
}

static int parse_message(const json_t *jm, int index, serve_msg *m, int *n_images, char *why, size_t cap) {
    const char *role = json_str(json_object_get(jm, "role"));
    if (!role) return bad(why, cap, "messages[%d] needs a 'role'", index);
    if (strcmp(role, "developer") == 0) role = "system"; /* OpenAI's newer name for it */
    if (strcmp(role, "system") && strcmp(role, "user") && strcmp(role, "assistant"))
        return bad(why, cap, "messages[%d]: role '%.40s' is not supported (system, user, assistant)", index, role);
    if (!(m->role = strdup(role))) return bad(why, cap, "out of memory");
    const json_t *content = json_object_get(jm, "content");
    if (json_is_string(content)) {
        if (append_text(&m->text, json_string_value(content)) != 0) return bad(why, cap, "out of memory");
    } else if (json_is_array(content)) {
        size_t i;
        const json_t *part;
        json_array_foreach(content, i, part) if (parse_content_part(part, m, n_images, why, cap) != 0) return -1;
    } else if (!(json_is_null(content) && strcmp(role, "assistant") == 0)) {
        return bad(why, cap, "messages[%d] needs 'content' as a string or a list of parts", index);
    }
    if (!m->text && append_text(&m->text, "") != 0) return bad(why, cap, "out of memory");
    if (m->n_images && strcmp(role, "user") != 0) return bad(why, cap, "messages[%d]: only user messages carry images", index);
    return 0;
}

static int parse_stops(const json_t *root, serve_chat_req *r, char *why, size_t cap) {
    const json_t *stop = json_object_get(root, "stop");
    if (!stop || json_is_null(stop)) return 0;
    if (json_is_string(stop)) {
        if (!*json_string_value(stop)) return 0;
        return (r->stops[r->n_stops++] = strdup(json_string_value(stop))) ? 0 : bad(why, cap, "out of memory");
    }
    if (!json_is_array(stop) || json_array_size(stop) > SERVE_MAX_STOPS)
        return bad(why, cap, "'stop' must be a string or a list of at most %d strings", SERVE_MAX_STOPS);
    size_t i;
    const json_t *s;
    json_array_foreach(stop, i, s) {
        if (!json_is_string(s)) return bad(why, cap, "'stop' must be a string or a list of strings");
        if (!*json_string_value(s)) continue;
        if (!(r->stops[r->n_stops++] = strdup(json_string_value(s)))) return bad(why, cap, "out of memory");
    }
    return 0;
}

static int parse_chat_fields(const json_t *root, serve_chat_req *r, char *why, size_t cap) {
    if (opt_string(root, "model", &r->model, why, cap) != 0) return -1;
    const json_t *msgs = json_object_get(root, "messages");
    if (!json_is_array(msgs) || json_array_size(msgs) == 0) return bad(why, cap, "'messages' must be a non-empty list");
    if (json_array_size(msgs) > SERVE_MAX_MESSAGES) return bad(why, cap, "at most %d messages", SERVE_MAX_MESSAGES);
    if (!(r->msgs = calloc(json_array_size(msgs), sizeof *r->msgs))) return bad(why, cap, "out of memory");
    int n_images = 0;
    for (size_t i = 0; i < json_array_size(msgs); i++) {
        r->n_msgs++;
        if (parse_message(json_array_get(msgs, i), (int)i, &r->msgs[i], &n_images, why, cap) != 0) return -1;
        if (i > 0 && strcmp(r->msgs[i].role, "system") == 0)
            return bad(why, cap, "messages[%zu]: a system message can only come first", i);
    }
    if (strcmp(r->msgs[r->n_msgs - 1].role, "user") != 0) return bad(why, cap, "the last message must be the user's");
    if (opt_bool(root, "stream", &r->stream, why, cap) != 0) return -1;
    if (opt_bool(json_object_get(root, "stream_options"), "include_usage", &r->include_usage, why, cap) != 0) return -1;
    double v;
    int rc;
    if ((rc = opt_number(root, "max_completion_tokens", 1, 1e6, &v, why, cap)) < 0) return -1;
    if (rc == 0 && (rc = opt_number(root, "max_tokens", 1, 1e6, &v, why, cap)) < 0) return -1;
    r->max_tokens = rc ? (int)v : -1;
    if ((rc = opt_number(root, "temperature", 0, 2, &r->temperature, why, cap)) < 0) return -1;
    r->has_temperature = rc;
    if ((rc = opt_number(root, "top_p", 0, 1, &r->top_p, why, cap)) < 0) return -1;
    r->has_top_p = rc;
    if ((rc = opt_number(root, "seed", 0, 9007199254740991.0, &v, why, cap)) < 0) return -1;
    r->has_seed = rc;
    r->seed = rc ? (uint64_t)v : 0;
    const json_t *n = json_object_get(root, "n");
    if (n && !json_is_null(n) && json_number_value(n) != 1) return bad(why, cap, "only n = 1 is supported");
    return parse_stops(root, r, why, cap);
}

int serve_chat_req_parse(const char *body, size_t len, serve_chat_req *out, char *why, size_t cap) {
    memset(out, 0, sizeof *out);
    out->max_tokens = -1;
    json_t *root = parse_object(body, len, why, cap);
    if (!root) return -1;
    int rc = parse_chat_fields(root, out, why, cap);
    json_decref(root);
    if (rc != 0) serve_chat_req_free(out);
    return rc;
}

void serve_chat_req_free(serve_chat_req *r) {
    for (int i = 0; i < r->n_msgs; i++) {
        free(r->msgs[i].role);
        free(r->msgs[i].text);
        for (int k = 0; k < r->msgs[i].n_images; k++) free(r->msgs[i].image_urls[k]);
        free(r->msgs[i].image_urls);
    }
    free(r->msgs);
    for (int i = 0; i < r->n_stops; i++) free(r->stops[i]);
    free(r->model);
    memset(r, 0, sizeof *r);
}

/* One input: a string, or {"text": ...} / {"image": URL} / {"image_url": {"url": URL}}. */
static int parse_embed_input(const json_t *v, int index, serve_embed_input *in, char *why, size_t cap) {
    const char *text = json_is_string(v) ? json_string_value(v) : json_str(json_object_get(v, "text"));
    const char *url = NULL;
    if (!text && json_is_object(v)) {
        url = json_str(json_object_get(v, "image"));
        if (!url) url = image_url_of(json_object_get(v, "image_url"));
    }
    if (!text && !url) return bad(why, cap, "input[%d] must be a string, {\"text\": ...} or {\"image\": URL}", index);
    in->image = url != NULL;
    if (!(in->value = strdup(url ? url : text))) return bad(why, cap, "out of memory");
    return 0;
}

static int parse_embed_fields(const json_t *root, serve_embed_req *r, char *why, size_t cap) {
    if (opt_string(root, "model", &r->model, why, cap) != 0) return -1;
    const json_t *input = json_object_get(root, "input");
    const size_t n = json_is_array(input) ? json_array_size(input) : 1;
    if (!input || (json_is_array(input) && n == 0)) return bad(why, cap, "'input' must be a string, an object or a non-empty list");
    if (n > SERVE_MAX_INPUTS) return bad(why, cap, "at most %d inputs per request", SERVE_MAX_INPUTS);
    if (!(r->inputs = calloc(n, sizeof *r->inputs))) return bad(why, cap, "out of memory");
    for (size_t i = 0; i < n; i++) {
        r->n_inputs++;
        if (parse_embed_input(json_is_array(input) ? json_array_get(input, i) : input, (int)i, &r->inputs[i], why, cap))
            return -1;
    }
    const char *task = json_str(json_object_get(root, "task"));
    if (!task) task = json_str(json_object_get(root, "role"));
    if (task) {
        if (!strcmp(task, "retrieval.query") || !strcmp(task, "query")) r->role = SERVE_ROLE_QUERY;
        else if (!strcmp(task, "retrieval.passage") || !strcmp(task, "passage")) r->role = SERVE_ROLE_PASSAGE;
        else if (strcmp(task, "none") != 0)
            return bad(why, cap, "task '%.40s' is not one of retrieval.query, retrieval.passage, none", task);
    }
    double d;
    int rc = opt_number(root, "dimensions", 1, 65536, &d, why, cap);
    if (rc < 0) return -1;
    r->dimensions = rc ? (int)d : 0;
    const char *fmt = json_str(json_object_get(root, "encoding_format"));
    if (fmt && strcmp(fmt, "float") && strcmp(fmt, "base64"))
        return bad(why, cap, "encoding_format must be float or base64");
    r->base64 = fmt && !strcmp(fmt, "base64");
    return opt_bool(root, "multi_vector", &r->multi_vector, why, cap);
}

int serve_embed_req_parse(const char *body, size_t len, serve_embed_req *out, char *why, size_t cap) {
    memset(out, 0, sizeof *out);
    json_t *root = parse_object(body, len, why, cap);
    if (!root) return -1;
    int rc = parse_embed_fields(root, out, why, cap);
    json_decref(root);
    if (rc != 0) serve_embed_req_free(out);
    return rc;
}

void serve_embed_req_free(serve_embed_req *r) {
    for (int i = 0; i < r->n_inputs; i++) free(r->inputs[i].value);
    free(r->inputs);
    free(r->model);
    memset(r, 0, sizeof *r);
}
