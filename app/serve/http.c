/* Routes, request bodies, API keys and replies over libmicrohttpd. */
#include "http.h"

#include <arpa/inet.h>
#include <microhttpd.h>
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "chat_reply.h"
#include "image_source.h"
#include "seer/json.h"

struct serve_http {
    struct MHD_Daemon *d;
    serve_state *st;
};

/* One request: its body as it arrives. */
typedef struct conn_ctx {
    serve_text body;
    bool too_big;
    double t0;
} conn_ctx;

static enum MHD_Result send_bytes(struct MHD_Connection *c, int status, const char *type, const char *body, size_t n) {
    struct MHD_Response *r = MHD_create_response_from_buffer(n, (void *)body, MHD_RESPMEM_MUST_COPY);
    if (!r) return MHD_NO;
    MHD_add_response_header(r, "Content-Type", type);
    enum MHD_Result rc = MHD_queue_response(c, (unsigned)status, r);
    MHD_destroy_response(r);
    return rc;
}

static enum MHD_Result send_json(struct MHD_Connection *c, int status, const char *body) {
    return send_bytes(c, status, "application/json", body, strlen(body));
}

static enum MHD_Result send_error(serve_state *st, serve_endpoint ep, conn_ctx *cc, struct MHD_Connection *c,
                                  int status, const char *msg) {
    char *body = serve_error_body(status, msg);
    enum MHD_Result rc = send_json(c, status, body ? body : "{\"error\":{\"message\":\"out of memory\"}}");
    free(body);
    serve_metrics_request(&st->metrics, ep, status, (seer_time_ms() - cc->t0) / 1000.0);
    return rc;
}

static enum MHD_Result send_models(serve_state *st, struct MHD_Connection *c) {
    json_t *m = json_object();
    json_object_set_new(m, "id", json_string(st->cfg->model_name));
    json_object_set_new(m, "object", json_string("model"));
    json_object_set_new(m, "created", json_integer((json_int_t)time(NULL)));
    json_object_set_new(m, "owned_by", json_string("seer"));
    json_t *data = json_array();
    json_array_append_new(data, m);
    json_t *root = json_object();
    json_object_set_new(root, "object", json_string("list"));
    json_object_set_new(root, "data", data);
    char *s = json_dumps(root, JSON_COMPACT);
    json_decref(root);
    enum MHD_Result rc = send_json(c, 200, s ? s : "{}");
    free(s);
    return rc;
}

/* The streaming reply's reader: waits for the worker's next bytes. */
static ssize_t sse_read(void *cls, uint64_t pos, char *buf, size_t max) {
    serve_job *j = cls;
    pthread_mutex_lock(&j->mu);
    while (j->out_read == j->out.len && !j->done) pthread_cond_wait(&j->cv, &j->mu);
    ssize_t n = MHD_CONTENT_READER_END_OF_STREAM;
    if (j->out_read < j->out.len) {
        size_t k = j->out.len - j->out_read < max ? j->out.len - j->out_read : max;
        memcpy(buf, j->out.s + j->out_read, k);
        j->out_read += k;
        n = (ssize_t)k;
    }
    pthread_mutex_unlock(&j->mu);
    return n;
}

/* The connection is over (reply sent, or the client left): stop the job. */
static void sse_free(void *cls) {
    serve_job *j = cls;
    j->cancel = 1;
    serve_job_release(j);
}

/* How often a request waiting for its reply looks at its client. */
#define SERVE_CLIENT_POLL_MS 100

/* Whether the client has closed its end (or reset it). While the handler
 * waits for the worker, libmicrohttpd reads nothing from this connection,
 * so it cannot tell: the socket is peeked at directly. Bytes waiting (a
 * pipelined request) are not a departure. */
static bool client_gone(struct MHD_Connection *c) {
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    if (!ci) return false;
    struct pollfd p = {.fd = ci->connect_fd, .events = POLLIN | POLLRDHUP};
    if (poll(&p, 1, 0) <= 0) return false;
    if (p.revents & (POLLHUP | POLLERR)) return true;
    char byte;
    const ssize_t n = recv(ci->connect_fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
}

/* Waits until j is done (or, streaming, has its first bytes); a client
 * that leaves meanwhile cancels j at once, so the worker frees its slot at
 * its next step instead of running the reply to its end for nobody. */
static void wait_reply(serve_job *j, struct MHD_Connection *c, bool stream) {
    pthread_mutex_lock(&j->mu);
    while (!j->done && !(stream && j->started)) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += SERVE_CLIENT_POLL_MS * 1000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&j->cv, &j->mu, &until);
        if (!j->done && !j->cancel && client_gone(c)) j->cancel = 1;
    }
    pthread_mutex_unlock(&j->mu);
}

/* Submits j and answers with its reply (streamed as it comes when stream). */
static enum MHD_Result run_job(serve_state *st, serve_endpoint ep, conn_ctx *cc, struct MHD_Connection *c,
                               serve_job *j, bool stream) {
    if (!serve_submit(st, j)) {
        serve_job_release(j);
        return send_error(st, ep, cc, c, 503, "the server is shutting down");
    }
    wait_reply(j, c, stream);
    pthread_mutex_lock(&j->mu);
    const bool whole = j->done && !(stream && j->started);
    pthread_mutex_unlock(&j->mu);
    if (whole) { /* a whole body: the reply, or an error before any streamed byte */
        enum MHD_Result rc = send_json(c, j->status, j->out.s ? j->out.s : "{}");
        serve_job_release(j);
        return rc;
    }
    struct MHD_Response *r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 16384, sse_read, j, sse_free);
    if (!r) {
        sse_free(j);
        return MHD_NO;
    }
    MHD_add_response_header(r, "Content-Type", "text/event-stream");
    MHD_add_response_header(r, "Cache-Control", "no-cache");
    enum MHD_Result rc = MHD_queue_response(c, 200, r);
    MHD_destroy_response(r);
    return rc;
}

/* Decodes the image URLs into j->images[i]; the HTTP status on failure. */
static int load_images(serve_state *st, serve_job *j, const char *const *urls, int n, char *why, size_t cap) {
    if (n && !st->has_vision) {
        snprintf(why, cap, "this server has no vision model (start it with --mmproj MMPROJ.gguf) for images");
        return 400;
    }
    if (!(j->images = calloc((size_t)n + 1, sizeof *j->images))) return 500;
    j->n_images = n;
    for (int i = 0; i < n; i++) {
        if (!urls[i]) continue; /* a text input of an embeddings request */
        int status;
        if (serve_image_from_url(urls[i], st->cfg->allow_local_files, &j->images[i], &status, why, cap) != 0)
            return status;
    }
    return 0;
}

static int check_model(serve_state *st, const char *model, char *why, size_t cap) {
    if (!model || !*model || strcmp(model, st->cfg->model_name) == 0) return 0;
    snprintf(why, cap, "the model '%.200s' does not exist here (this server has '%s')", model, st->cfg->model_name);
    return 404;
}

static enum MHD_Result chat(serve_state *st, conn_ctx *cc, struct MHD_Connection *c) {
    char why[512];
    if (st->cfg->embeddings)
        return send_error(st, SERVE_EP_CHAT, cc, c, 400, "this server computes embeddings (--embeddings): no chat");
    serve_job *j = serve_job_new(SERVE_JOB_CHAT);
    if (!j) return send_error(st, SERVE_EP_CHAT, cc, c, 500, "out of memory");
    j->t_queued = cc->t0;
    int status = serve_chat_req_parse(cc->body.s, cc->body.len, &j->chat, why, sizeof why) ? 400 : 0;
    if (!status) status = check_model(st, j->chat.model, why, sizeof why);
    if (!status) {
        const char *urls[SERVE_MAX_IMAGES];
        int n = 0;
        for (int m = 0; m < j->chat.n_msgs; m++)
            for (int k = 0; k < j->chat.msgs[m].n_images; k++) urls[n++] = j->chat.msgs[m].image_urls[k];
        status = load_images(st, j, urls, n, why, sizeof why);
    }
    if (status) {
        serve_job_release(j);
        return send_error(st, SERVE_EP_CHAT, cc, c, status, why);
    }
    return run_job(st, SERVE_EP_CHAT, cc, c, j, j->chat.stream);
}

static enum MHD_Result embeddings(serve_state *st, conn_ctx *cc, struct MHD_Connection *c) {
    char why[512];
    if (!st->cfg->embeddings)
        return send_error(st, SERVE_EP_EMBED, cc, c, 400,
                          "this server runs a chat model: start seer serve with --embeddings for embeddings");
    serve_job *j = serve_job_new(SERVE_JOB_EMBED);
    if (!j) return send_error(st, SERVE_EP_EMBED, cc, c, 500, "out of memory");
    j->t_queued = cc->t0;
    serve_embed_req *r = &j->embed;
    int status = serve_embed_req_parse(cc->body.s, cc->body.len, r, why, sizeof why) ? 400 : 0;
    if (!status) status = check_model(st, r->model, why, sizeof why);
    const int width = st->n_embd;
    if (!status && r->dimensions > width) {
        snprintf(why, sizeof why, "dimensions %d is wider than the model's %d", r->dimensions, width);
        status = 400;
    }
    if (!status && r->multi_vector && !st->has_mv) {
        snprintf(why, sizeof why, "multi_vector needs a projector: start seer serve with --mv-proj PROJ.gguf");
        status = 400;
    }
    if (!status) {
        const char **urls = calloc((size_t)r->n_inputs + 1, sizeof *urls);
        for (int i = 0; urls && i < r->n_inputs; i++) urls[i] = r->inputs[i].image ? r->inputs[i].value : NULL;
        status = urls ? load_images(st, j, urls, r->n_inputs, why, sizeof why) : 500;
        free(urls);
    }
    if (status) {
        serve_job_release(j);
        return send_error(st, SERVE_EP_EMBED, cc, c, status, why);
    }
    return run_job(st, SERVE_EP_EMBED, cc, c, j, false);
}

static bool authorized(serve_state *st, struct MHD_Connection *c) {
    if (!st->cfg->api_key) return true;
    const char *h = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Authorization");
    return h && strncmp(h, "Bearer ", 7) == 0 && strcmp(h + 7, st->cfg->api_key) == 0;
}

static serve_endpoint endpoint_of(const char *url) {
    if (strncmp(url, "/v1/", 4) == 0) url += 3;
    if (strcmp(url, "/chat/completions") == 0) return SERVE_EP_CHAT;
    if (strcmp(url, "/embeddings") == 0) return SERVE_EP_EMBED;
    if (strcmp(url, "/models") == 0) return SERVE_EP_MODELS;
    return SERVE_EP_OTHER;
}

static enum MHD_Result route(serve_state *st, conn_ctx *cc, struct MHD_Connection *c, const char *url,
                             const char *method) {
    const bool get = strcmp(method, "GET") == 0, post = strcmp(method, "POST") == 0;
    const serve_endpoint ep = endpoint_of(url);
    if (strcmp(url, "/health") == 0 && get) {
        serve_metrics_request(&st->metrics, SERVE_EP_OTHER, 200, 0);
        return send_json(c, 200, "{\"status\":\"ok\"}");
    }
    if (strcmp(url, "/metrics") == 0 && get) {
        char *text = serve_metrics_text(&st->metrics);
        enum MHD_Result rc = send_bytes(c, text ? 200 : 500, "text/plain; version=0.0.4", text ? text : "", text ? strlen(text) : 0);
        free(text);
        return rc;
    }
    if (ep == SERVE_EP_OTHER) return send_error(st, ep, cc, c, 404, "no such endpoint");
    if (st->draining) return send_error(st, ep, cc, c, 503, "the server is shutting down");
    if (!authorized(st, c)) return send_error(st, ep, cc, c, 401, "a valid API key is needed (Authorization: Bearer KEY)");
    if (ep == SERVE_EP_MODELS && get) {
        serve_metrics_request(&st->metrics, ep, 200, 0);
        return send_models(st, c);
    }
    if (!post || ep == SERVE_EP_MODELS) return send_error(st, ep, cc, c, 405, "method not allowed here");
    if (cc->too_big) {
        char msg[96];
        snprintf(msg, sizeof msg, "the request body is larger than %zu MB", st->cfg->max_body >> 20);
        return send_error(st, ep, cc, c, 413, msg);
    }
    return ep == SERVE_EP_CHAT ? chat(st, cc, c) : embeddings(st, cc, c);
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                              const char *version, const char *upload_data, size_t *upload_size, void **con_cls) {
    serve_state *st = cls;
    conn_ctx *cc = *con_cls;
    if (!cc) { /* headers only so far */
        if (!(cc = calloc(1, sizeof *cc))) return MHD_NO;
        cc->t0 = seer_time_ms();
        *con_cls = cc;
        const char *cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Length");
        if (cl && strtoull(cl, NULL, 10) > st->cfg->max_body) cc->too_big = true;
        return MHD_YES;
    }
    if (*upload_size) {
        if (!cc->too_big && cc->body.len + *upload_size > st->cfg->max_body) cc->too_big = true;
        if (!cc->too_big && serve_text_append(&cc->body, upload_data, *upload_size) != 0) cc->too_big = true;
        *upload_size = 0;
        return MHD_YES;
    }
    if (!cc->body.s) serve_text_append(&cc->body, "", 0);
    return route(st, cc, c, url, method);
}

static void completed(void *cls, struct MHD_Connection *c, void **con_cls, enum MHD_RequestTerminationCode toe) {
    conn_ctx *cc = *con_cls;
    if (!cc) return;
    free(cc->body.s);
    free(cc);
    *con_cls = NULL;
}

serve_http *serve_http_start(serve_state *st, int *port, char *why, size_t why_cap) {
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICSERV};
    struct addrinfo *ai = NULL;
    char service[16];
    snprintf(service, sizeof service, "%d", st->cfg->port);
    int gai = getaddrinfo(st->cfg->host, service, &hints, &ai);
    if (gai != 0) {
        snprintf(why, why_cap, "cannot use host %.200s: %s", st->cfg->host, gai_strerror(gai));
        return NULL;
    }
    serve_http *h = calloc(1, sizeof *h);
    if (!h) {
        freeaddrinfo(ai);
        snprintf(why, why_cap, "out of memory");
        return NULL;
    }
    h->st = st;
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_ITC;
    if (ai->ai_family == AF_INET6) flags |= MHD_USE_IPv6;
    h->d = MHD_start_daemon(flags, (uint16_t)st->cfg->port, NULL, NULL, handle, st, MHD_OPTION_SOCK_ADDR, ai->ai_addr,
                            MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)st->cfg->idle_seconds, MHD_OPTION_CONNECTION_LIMIT, (unsigned)128,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, st, MHD_OPTION_END);
    freeaddrinfo(ai);
    if (!h->d) {
        snprintf(why, why_cap, "cannot listen on %.200s port %d (in use, or not an address of this machine?)",
                 st->cfg->host, st->cfg->port);
        free(h);
        return NULL;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(h->d, MHD_DAEMON_INFO_BIND_PORT);
    *port = info ? info->port : st->cfg->port;
    return h;
}

void serve_http_quiesce(serve_http *h) {
    MHD_socket s = MHD_quiesce_daemon(h->d);
    if (s != MHD_INVALID_SOCKET) close(s);
}

/* How long serve_http_stop lets open connections finish sending. */
#define SERVE_DRAIN_MS 2000

void serve_http_stop(serve_http *h) {
    if (!h) return;
    /* The worker has ended every job, but a stream's last chunk and
     * [DONE] may still be on their way out of its connection's thread:
     * MHD_stop_daemon shuts the sockets at once, and under load the client
     * then got the stream without its end (serve_lifecycle.sh, about one
     * run in six on a busy two-core host). Wait until the connections
     * close (the clients leave once their reply is whole), at most
     * SERVE_DRAIN_MS: idle keep-alive clients must not hold the exit. */
    for (int waited = 0; waited < SERVE_DRAIN_MS; waited += 10) {
        const union MHD_DaemonInfo *info = MHD_get_daemon_info(h->d, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
        if (!info || info->num_connections == 0) break;
        nanosleep(&(struct timespec){.tv_nsec = 10 * 1000 * 1000}, NULL);
    }
    MHD_stop_daemon(h->d);
    free(h);
}
