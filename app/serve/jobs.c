/* Jobs: a request shared by its HTTP connection and the worker. */
#include <stdlib.h>
#include <string.h>

#include "seer/json.h"
#include "serve.h"

/* A reader this far behind is a client that does not read: the reply stops. */
#define SERVE_MAX_UNREAD (4u << 20)

serve_job *serve_job_new(serve_job_kind kind) {
    serve_job *j = calloc(1, sizeof *j);
    if (!j) return NULL;
    j->kind = kind;
    j->refs = 1;
    j->status = 200;
    j->t_queued = seer_time_ms();
    pthread_mutex_init(&j->mu, NULL);
    pthread_cond_init(&j->cv, NULL);
    return j;
}

void serve_job_release(serve_job *j) {
    if (!j) return;
    pthread_mutex_lock(&j->mu);
    const int left = --j->refs;
    pthread_mutex_unlock(&j->mu);
    if (left > 0) return;
    serve_chat_req_free(&j->chat);
    serve_embed_req_free(&j->embed);
    for (int i = 0; i < j->n_images; i++) seer_image_free(&j->images[i]);
    free(j->images);
    free(j->out.s);
    pthread_mutex_destroy(&j->mu);
    pthread_cond_destroy(&j->cv);
    free(j);
}

/* Under j->mu. */
static int append(serve_job *j, const char *s, size_t n) {
    if (j->out.len - j->out_read + n > SERVE_MAX_UNREAD) return -1;
    if (j->out_read == j->out.len) j->out_read = j->out.len = 0; /* all read: start over */
    return serve_text_append(&j->out, s, n);
}

int serve_job_write(serve_job *j, const char *s, size_t n) {
    pthread_mutex_lock(&j->mu);
    int rc = append(j, s, n);
    if (rc != 0) j->cancel = 1;
    j->started = true;
    pthread_cond_broadcast(&j->cv);
    pthread_mutex_unlock(&j->mu);
    return rc;
}

void serve_job_finish(serve_job *j, int status, const char *body) {
    pthread_mutex_lock(&j->mu);
    if (body && append(j, body, strlen(body)) != 0) status = 500;
    j->status = status;
    j->done = true;
    pthread_cond_broadcast(&j->cv);
    pthread_mutex_unlock(&j->mu);
}

static const char *error_type(int status) {
    switch (status) {
    case 401: return "authentication_error";
    case 403: return "permission_error";
    case 404: return "not_found_error";
    case 413: return "request_too_large";
    case 429: case 503: return "unavailable_error";
    default: return status >= 500 ? "server_error" : "invalid_request_error";
    }
}

char *serve_error_body(int status, const char *message) {
    json_t *err = json_object();
    json_object_set_new(err, "message", json_string_repaired(message, strlen(message)));
    json_object_set_new(err, "type", json_string(error_type(status)));
    json_object_set_new(err, "code", json_integer(status));
    json_t *root = json_object();
    json_object_set_new(root, "error", err);
    char *s = json_dumps(root, JSON_COMPACT);
    json_decref(root);
    return s;
}

void serve_job_fail(serve_job *j, int status, const char *message) {
    char *body = serve_error_body(status, message);
    serve_job_finish(j, body ? status : 500, body ? body : "{\"error\":{\"message\":\"out of memory\"}}");
    free(body);
}
