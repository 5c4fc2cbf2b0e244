/* Images from data: URLs, http(s) URLs (libcurl, bounded) and local files. */
#include "image_source.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "data_url.h"

typedef struct fetch_buf {
    unsigned char *data;
    size_t len, cap;
} fetch_buf;

/* Stops the transfer (a write error) once the image passes the limit. */
static size_t collect(char *ptr, size_t size, size_t n, void *ud) {
    fetch_buf *b = ud;
    const size_t add = size * n;
    if (b->len + add > SERVE_IMAGE_MAX_BYTES) return 0;
    if (b->len + add > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 1 << 16;
        while (cap < b->len + add) cap *= 2;
        unsigned char *p = realloc(b->data, cap);
        if (!p) return 0;
        b->data = p;
        b->cap = cap;
    }
    memcpy(b->data + b->len, ptr, add);
    b->len += add;
    return add;
}

static int fetch(const char *url, fetch_buf *b, int *status, char *why, size_t cap) {
    CURL *c = curl_easy_init();
    if (!c) {
        *status = 500;
        snprintf(why, cap, "cannot start libcurl");
        return -1;
    }
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(c, CURLOPT_MAXREDIRS, 5L);
    curl_easy_setopt(c, CURLOPT_TIMEOUT, SERVE_IMAGE_FETCH_SECONDS);
    curl_easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)SERVE_IMAGE_MAX_BYTES);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_USERAGENT, "seer-serve/1");
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, collect);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, b);
    const CURLcode rc = curl_easy_perform(c);
    long code = 0;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
    curl_easy_cleanup(c);
    if (rc == CURLE_OK && code == 200) return 0;
    *status = 502;
    if (rc == CURLE_WRITE_ERROR || rc == CURLE_FILESIZE_EXCEEDED)
        snprintf(why, cap, "the image at %.200s is larger than %u MB", url, SERVE_IMAGE_MAX_BYTES >> 20);
    else if (rc != CURLE_OK)
        snprintf(why, cap, "cannot fetch the image %.200s: %s", url, curl_easy_strerror(rc));
    else
        snprintf(why, cap, "cannot fetch the image %.200s: HTTP %ld", url, code);
    return -1;
}

int serve_image_from_url(const char *url, bool allow_local_files, seer_image *out, int *status, char *why,
                         size_t why_cap) {
    memset(out, 0, sizeof *out);
    *status = 400;
    seer_error err = {{0}};
    if (serve_is_data_url(url)) {
        uint8_t *bytes = NULL;
        size_t n = 0;
        if (serve_data_url_decode(url, strlen(url), SERVE_IMAGE_MAX_BYTES, &bytes, &n, why, why_cap) != 0) return -1;
        int rc = seer_image_load_memory(bytes, n, "the data: URL image", 0, out, &err);
        free(bytes);
        if (rc != 0) snprintf(why, why_cap, "%s", err.msg);
        return rc;
    }
    if (strncasecmp(url, "http://", 7) == 0 || strncasecmp(url, "https://", 8) == 0) {
        fetch_buf b = {0};
        int rc = fetch(url, &b, status, why, why_cap);
        if (rc == 0 && (rc = seer_image_load_memory(b.data, b.len, url, 0, out, &err)) != 0) {
            *status = 400;
            snprintf(why, why_cap, "%s", err.msg);
        }
        free(b.data);
        return rc;
    }
    const char *path = strncasecmp(url, "file://", 7) == 0 ? url + 7 : url;
    if (!allow_local_files) {
        *status = 403;
        snprintf(why, why_cap, "local image paths are refused (start seer serve with --allow-local-files)");
        return -1;
    }
    if (seer_image_load(path, 0, out, &err) != 0) {
        snprintf(why, why_cap, "%s", err.msg);
        return -1;
    }
    return 0;
}
