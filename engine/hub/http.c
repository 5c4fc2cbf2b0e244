/* HTTP for the hub client through libcurl: one handle per fetch (its
 * connection is reused), the token as a bearer (never sent on to another
 * host by a redirect), and one-line errors. */
#include "hub_internal.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int hub_http_open(hub_http *h, seer_error *err) {
    memset(h, 0, sizeof *h);
    const char *ep = getenv("MODEL_ENDPOINT");
    if (!ep || !*ep) ep = getenv("HF_ENDPOINT"); /* the older name, as llama.cpp reads it */
    if (!ep || !*ep) ep = "https://huggingface.co/";
    const size_t n = strlen(ep);
    if (n + 2 > sizeof h->endpoint) {
        seer_error_set(err, "MODEL_ENDPOINT is too long");
        return -1;
    }
    memcpy(h->endpoint, ep, n + 1);
    if (ep[n - 1] != '/') strcat(h->endpoint, "/");
    const char *token = getenv("HF_TOKEN");
    h->token = token && *token && !strpbrk(token, "\r\n") ? token : NULL;
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK || !(h->curl = curl_easy_init())) {
        seer_error_set(err, "cannot start libcurl");
        return -1;
    }
    return 0;
}

void hub_http_close(hub_http *h) {
    if (h->curl) curl_easy_cleanup(h->curl);
    h->curl = NULL;
}

void hub_http_prepare(hub_http *h, const char *url) {
    CURL *c = h->curl;
    curl_easy_reset(c);
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_USERAGENT, "seer/1 (llama.cpp-compatible hub client)");
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L); /* the hub sends large files from a CDN */
    curl_easy_setopt(c, CURLOPT_MAXREDIRS, 10L);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 30L);
    /* a stalled transfer (under 1 byte/s for 60 s) fails instead of hanging */
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, 60L);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    if (h->token) {
        curl_easy_setopt(c, CURLOPT_HTTPAUTH, (long)CURLAUTH_BEARER);
        curl_easy_setopt(c, CURLOPT_XOAUTH2_BEARER, h->token);
    }
}

void hub_http_status_error(seer_error *err, long status, const char *what) {
    if (status == 401 || status == 403)
        seer_error_set(err, "%s: HTTP %ld: not found, or private or gated (set HF_TOKEN to a token with access)", what,
                       status);
    else if (status == 404)
        seer_error_set(err, "%s: not found (HTTP 404)", what);
    else
        seer_error_set(err, "%s: HTTP %ld", what, status);
}

typedef struct mem_body {
    char *data;
    size_t len, cap;
} mem_body;

#define MAX_JSON_BYTES ((size_t)64 << 20)

static size_t to_memory(char *data, size_t size, size_t n, void *user) {
    mem_body *b = user;
    const size_t len = size * n;
    if (b->len + len > MAX_JSON_BYTES) return 0;
    if (b->len + len + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 65536;
        while (cap < b->len + len + 1) cap *= 2;
        char *grown = realloc(b->data, cap);
        if (!grown) return 0;
        b->data = grown;
        b->cap = cap;
    }
    memcpy(b->data + b->len, data, len);
    b->len += len;
    return len;
}

int hub_http_get_json(hub_http *h, const char *url, json_value **out, long *status, bool *unreachable,
                      seer_error *err) {
    *out = NULL;
    *status = 0;
    *unreachable = false;
    mem_body body = {0};
    hub_http_prepare(h, url);
    struct curl_slist *headers = curl_slist_append(NULL, "Accept: application/json");
    curl_easy_setopt(h->curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(h->curl, CURLOPT_WRITEFUNCTION, to_memory);
    curl_easy_setopt(h->curl, CURLOPT_WRITEDATA, &body);
    curl_easy_setopt(h->curl, CURLOPT_TIMEOUT, 120L);
    const CURLcode rc = curl_easy_perform(h->curl);
    curl_easy_getinfo(h->curl, CURLINFO_RESPONSE_CODE, status);
    curl_slist_free_all(headers);
    int result = -1;
    if (rc != CURLE_OK) {
        *unreachable = rc == CURLE_COULDNT_RESOLVE_HOST || rc == CURLE_COULDNT_CONNECT ||
                       rc == CURLE_OPERATION_TIMEDOUT || rc == CURLE_COULDNT_RESOLVE_PROXY;
        if (rc == CURLE_WRITE_ERROR)
            seer_error_set(err, "%.300s: the answer is larger than %zu MB", url, MAX_JSON_BYTES >> 20);
        else
            seer_error_set(err, "cannot reach %.300s: %s", h->endpoint, curl_easy_strerror(rc));
    } else if (*status == 200) {
        char why[128] = "";
        *out = json_parse(body.data ? body.data : "", body.len, why, sizeof why);
        if (*out) result = 0;
        else seer_error_set(err, "%.300s: the hub's answer is not JSON (%s)", url, why);
    }
    free(body.data);
    return result;
}

char *hub_resolve_url(hub_http *h, const char *repo, const char *commit, const char *path) {
    const size_t cap = strlen(h->endpoint) + strlen(repo) + strlen(commit) + 3 * strlen(path) + 32;
    char *url = malloc(cap);
    if (!url) return NULL;
    size_t o = (size_t)snprintf(url, cap, "%s%s/resolve/%s/", h->endpoint, repo, commit);
    static const char hex[] = "0123456789ABCDEF";
    for (const unsigned char *c = (const unsigned char *)path; *c; c++) {
        if ((*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || strchr("-._~/", *c)) {
            url[o++] = (char)*c;
        } else {
            url[o++] = '%';
            url[o++] = hex[*c >> 4];
            url[o++] = hex[*c & 15];
        }
    }
    url[o] = 0;
    return url;
}
