/* One file from the hub into the cache: bytes go to <dest>.downloadInProgress
 * (llama.cpp's name for it, so either tool resumes the other's partial
 * file), a later run or a retry asks for the rest with an HTTP Range, the
 * SHA-256 the hub names the file by is computed as the bytes arrive, and
 * only a complete file with the right size and hash is renamed into place. */
#include "hub_internal.h"

#include <curl/curl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define MAX_ATTEMPTS 5
#define PROGRESS_EVERY_MS 100.0

typedef struct transfer {
    FILE *out;
    hub_sha256 sha;
    uint64_t on_disk;       /* bytes in the partial file */
    uint64_t resumed_from;
    bool checked_status;    /* the first bytes of this request were looked at */
    int write_errno;        /* the file could not be written */
    hub_http *h;
    const seer_hub_request *req;
    seer_hub_progress progress;
    double t0, last_report;
} transfer;

static void report(transfer *t, bool finished) {
    if (!t->req->progress) return;
    const double now = seer_time_ms();
    if (!finished && now - t->last_report < PROGRESS_EVERY_MS) return;
    t->last_report = now;
    t->progress.done = t->on_disk;
    t->progress.resumed_from = t->resumed_from;
    t->progress.elapsed_ms = now - t->t0;
    t->progress.finished = finished;
    t->req->progress(&t->progress, t->req->progress_user);
    t->progress.starting = false;
}

/* Starts the partial file over (the server sent the whole file again). */
static bool restart(transfer *t) {
    if (fflush(t->out) != 0 || ftruncate(fileno(t->out), 0) != 0 || fseeko(t->out, 0, SEEK_SET) != 0) {
        t->write_errno = errno;
        return false;
    }
    hub_sha256_init(&t->sha);
    t->on_disk = t->resumed_from = 0;
    return true;
}

static size_t on_data(char *data, size_t size, size_t n, void *user) {
    transfer *t = user;
    const size_t len = size * n;
    if (!t->checked_status) {
        t->checked_status = true;
        long status = 0;
        curl_easy_getinfo(t->h->curl, CURLINFO_RESPONSE_CODE, &status);
        if (status == 200 && t->on_disk > 0 && !restart(t)) return 0; /* a server without Range support */
    }
    if (fwrite(data, 1, len, t->out) != len) {
        t->write_errno = errno ? errno : EIO;
        return 0;
    }
    hub_sha256_update(&t->sha, data, len);
    t->on_disk += len;
    report(t, false);
    return len;
}

static int on_progress(void *user, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow) {
    transfer *t = user;
    (void)dltotal, (void)dlnow, (void)ultotal, (void)ulnow;
    report(t, false); /* also while no bytes come: the rate falls, the bar stays current */
    return t->req->cancel && *t->req->cancel;
}

/* Hashes the partial file's bytes already on disk (a resumed download). */
static bool hash_existing(transfer *t) {
    static char buf[1 << 16];
    if (fseeko(t->out, 0, SEEK_SET) != 0) return false;
    uint64_t left = t->on_disk;
    while (left > 0) {
        const size_t want = left < sizeof buf ? (size_t)left : sizeof buf;
        if (fread(buf, 1, want, t->out) != want) return false;
        hub_sha256_update(&t->sha, buf, want);
        left -= want;
    }
    return fseeko(t->out, 0, SEEK_END) == 0;
}

static bool enough_space(const char *dest, uint64_t need, const char *name, seer_error *err) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", dest);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = 0;
    struct statvfs vfs;
    if (need == 0 || statvfs(dir, &vfs) != 0) return true;
    const uint64_t free_bytes = (uint64_t)vfs.f_bavail * vfs.f_frsize;
    if (free_bytes >= need) return true;
    seer_error_set(err, "not enough disk space for %.200s: %.1f MB needed, %.1f MB free in %.200s", name,
                   need / 1048576.0, free_bytes / 1048576.0, dir);
    return false;
}

/* One request for the rest of the file. CURLE_OK, or why it stopped. */
static CURLcode request(transfer *t, const char *url, long *status) {
    hub_http_prepare(t->h, url);
    CURL *c = t->h->curl;
    curl_easy_setopt(c, CURLOPT_FAILONERROR, 1L);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, t);
    curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_progress);
    curl_easy_setopt(c, CURLOPT_XFERINFODATA, t);
    if (t->on_disk > 0) curl_easy_setopt(c, CURLOPT_RESUME_FROM_LARGE, (curl_off_t)t->on_disk);
    t->checked_status = false;
    const CURLcode rc = curl_easy_perform(c);
    *status = 0;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, status);
    return rc;
}

static bool cancelled(const seer_hub_request *req) { return req->cancel && *req->cancel; }

/* Waits between attempts, as long as no cancel comes. */
static void pause_before_retry(const seer_hub_request *req, int attempt) {
    for (int i = 0; i < 10 * attempt && !cancelled(req); i++) usleep(100000);
}

/* Runs the requests until the file is whole. 0, SEER_HUB_CANCELLED or -1. */
static int fetch(transfer *t, const char *url, const hub_file *f, const char *part, seer_error *err) {
    for (int attempt = 1;; attempt++) {
        if (f->size && t->on_disk == f->size) return 0; /* nothing left to ask for */
        long status = 0;
        const CURLcode rc = request(t, url, &status);
        if (fflush(t->out) != 0 && !t->write_errno) t->write_errno = errno;
        if (t->write_errno) {
            seer_error_set(err, "cannot write %.300s: %s", part, strerror(t->write_errno));
            return -1;
        }
        if (rc == CURLE_ABORTED_BY_CALLBACK && cancelled(t->req)) return SEER_HUB_CANCELLED;
        if (rc == CURLE_OK) return 0;
        const bool server_error = rc == CURLE_HTTP_RETURNED_ERROR && status >= 500;
        if (rc == CURLE_HTTP_RETURNED_ERROR && status == 416 && t->on_disk > 0) return 0; /* nothing after it */
        if (rc == CURLE_HTTP_RETURNED_ERROR && !server_error) {
            hub_http_status_error(err, status, f->path);
            return -1;
        }
        if (attempt == MAX_ATTEMPTS) {
            if (server_error) hub_http_status_error(err, status, f->path);
            else seer_error_set(err, "downloading %.200s: %s", f->path, curl_easy_strerror(rc));
            return -1;
        }
        pause_before_retry(t->req, attempt);
        if (cancelled(t->req)) return SEER_HUB_CANCELLED;
    }
}

/* The complete file: its size and hash, then its place in the cache. */
static int finish(transfer *t, const hub_file *f, const char *part, const char *dest, seer_error *err) {
    if (f->size && t->on_disk != f->size) {
        seer_error_set(err, "%.200s: got %llu bytes, the hub lists %llu; the download was removed", f->path,
                       (unsigned long long)t->on_disk, (unsigned long long)f->size);
        unlink(part);
        return -1;
    }
    if (hub_is_hex(f->oid, 64)) {
        char got[65];
        hub_sha256_hex(&t->sha, got);
        if (strcasecmp(got, f->oid) != 0) {
            seer_error_set(err, "%.200s: checksum mismatch (SHA-256 %.16s…, the hub lists %.16s…); the download was "
                                "removed", f->path, got, f->oid);
            unlink(part);
            return -1;
        }
    }
    if (rename(part, dest) != 0) {
        seer_error_set(err, "cannot move %.300s into place: %s", part, strerror(errno));
        return -1;
    }
    return 0;
}

int hub_download(hub_http *h, const char *url, const hub_file *f, const char *dest, const seer_hub_request *req,
                 seer_error *err) {
    char part[4200];
    if (snprintf(part, sizeof part, "%s.downloadInProgress", dest) >= (int)sizeof part) {
        seer_error_set(err, "path too long: %.200s", dest);
        return -1;
    }
    transfer t = {.h = h, .req = req, .progress = {.file = f->path, .total = f->size}};
    hub_sha256_init(&t.sha);
    t.out = fopen(part, "a+b");
    if (!t.out) {
        seer_error_set(err, "cannot write %.300s: %s", part, strerror(errno));
        return -1;
    }
    int rc = -1;
    if (fseeko(t.out, 0, SEEK_END) == 0) t.on_disk = (uint64_t)ftello(t.out);
    /* two seers appending to one partial file would spoil it */
    if (flock(fileno(t.out), LOCK_EX | LOCK_NB) != 0) {
        seer_error_set(err, "%.200s is being downloaded by another process (%.200s)", f->path, part);
    } else if (f->size && t.on_disk > f->size && !restart(&t)) {
        seer_error_set(err, "cannot write %.300s: %s", part, strerror(t.write_errno));
    } else if (!hash_existing(&t)) {
        seer_error_set(err, "cannot read %.300s", part);
    } else if (enough_space(dest, f->size > t.on_disk ? f->size - t.on_disk : 0, f->path, err)) {
        t.resumed_from = t.on_disk;
        t.t0 = seer_time_ms();
        t.last_report = -PROGRESS_EVERY_MS;
        t.progress.starting = true;
        report(&t, false);
        rc = fetch(&t, url, f, part, err);
        report(&t, true);
    }
    if (fclose(t.out) != 0 && rc == 0) {
        seer_error_set(err, "cannot write %.300s: %s", part, strerror(errno));
        rc = -1;
    }
    if (rc == SEER_HUB_CANCELLED)
        seer_error_set(err, "download of %.200s stopped at %.1f of %.1f MB: the same command resumes it", f->path,
                       t.on_disk / 1048576.0, f->size / 1048576.0);
    if (rc == 0) rc = finish(&t, f, part, dest, err);
    return rc;
}
