/* seer_hub_fetch: the repository's files (from the hub, or from the cache
 * when offline or when the hub cannot be reached), the choice of model and
 * projector, then each chosen file from the cache or downloaded into it. */
#include "hub_internal.h"
#include "seer/safe_write.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PARTS 256

typedef struct fetch_plan {
    char repo[260], tag[64];
    char repo_dir[PATH_MAX];
    hub_listing files;
    bool online;
    int parts[MAX_PARTS], n_parts;
    int mmproj; /* -1: none */
} fetch_plan;

/* The listing from the hub, or from the cache (offline, or no answer). */
static int list_files(const seer_hub_request *req, hub_http *h, fetch_plan *p, seer_hub_files *out,
                      seer_error *err) {
    seer_error unreached = {{0}};
    if (!req->offline) {
        bool unreachable = false;
        char branch[64] = "main";
        if (hub_list_remote(h, p->repo, &p->files, branch, &unreachable, err) == 0) {
            p->online = true;
            return hub_write_ref(p->repo_dir, branch, p->files.commit, err);
        }
        if (!unreachable) return -1;
        unreached = *err;
    }
    seer_error why;
    if (hub_cached_listing(p->repo_dir, &p->files, &why) == 0) {
        if (!req->offline) snprintf(out->notice, sizeof out->notice, "%.400s; using the cache", unreached.msg);
        return 0;
    }
    if (req->offline)
        seer_error_set(err, "%s: %s; run once without --offline to download it", p->repo, why.msg);
    else
        seer_error_set(err, "%.250s, and %s is %.200s", unreached.msg, p->repo, why.msg);
    return -1;
}

static int find_path(const hub_listing *l, const char *path) {
    for (int i = 0; i < l->n; i++)
        if (strcmp(l->files[i].path, path) == 0) return i;
    return -1;
}

/* Which files: --hf-file, or the tag's model with its parts, and the projector. */
static int choose(const seer_hub_request *req, fetch_plan *p, seer_error *err) {
    char models[400];
    hub_describe_models(&p->files, models, sizeof models);
    const char *where = p->online ? "" : " (cached)";
    int primary;
    if (req->file) {
        primary = find_path(&p->files, req->file);
        if (primary < 0) {
            seer_error_set(err, "%s%s has no file %.200s (models: %s)", p->repo, where, req->file,
                           *models ? models : "none");
            return -1;
        }
    } else {
        primary = hub_choose_model(&p->files, p->tag);
        if (primary < 0 && *p->tag) {
            seer_error_set(err, "%s%s has no GGUF model for tag %s (tags: %s)", p->repo, where, p->tag,
                           *models ? models : "none");
            return -1;
        }
        if (primary < 0) {
            seer_error_set(err, "%s%s has no GGUF model", p->repo, where);
            return -1;
        }
    }
    p->n_parts = hub_model_parts(&p->files, primary, p->parts, MAX_PARTS);
    if (p->n_parts == 0) {
        seer_error_set(err, "%s%s: %.200s is a split model with parts missing", p->repo, where,
                       p->files.files[primary].path);
        return -1;
    }
    p->mmproj = req->want_mmproj ? hub_choose_mmproj(&p->files, p->files.files[primary].path) : -1;
    return 0;
}

/* The file's path in the snapshot, downloaded first when the cache lacks it. */
static int obtain(const seer_hub_request *req, hub_http *h, fetch_plan *p, const hub_file *f, char **local,
                  seer_error *err) {
    char snap[PATH_MAX];
    if (snprintf(snap, sizeof snap, "%s/snapshots/%s/%s", p->repo_dir, p->files.commit, f->path) >=
        (int)sizeof snap) {
        seer_error_set(err, "path too long for %.200s", f->path);
        return -1;
    }
    if (!seer_safe_is_regular(snap)) {
        if (!p->online) {
            seer_error_set(err, "%.200s is not in the cache", f->path);
            return -1;
        }
        /* into blobs/<oid> (the same bytes under another commit or name are
         * then found again), else straight into the snapshot */
        char blob[PATH_MAX];
        const bool by_oid = f->oid[0] != 0;
        if (snprintf(blob, sizeof blob, "%s/blobs/%s", p->repo_dir, f->oid) >= (int)sizeof blob) {
            seer_error_set(err, "path too long for %.200s", f->path);
            return -1;
        }
        if (!by_oid) memcpy(blob, snap, sizeof snap);
        char dir[PATH_MAX];
        memcpy(dir, blob, sizeof dir);
        *strrchr(dir, '/') = 0;
        if (seer_mkdirs(dir, 0755, err)) return -1;
        if (!seer_safe_is_regular(blob)) {
            char *url = hub_resolve_url(h, p->repo, p->files.commit, f->path);
            if (!url) {
                seer_error_set(err, "out of memory");
                return -1;
            }
            const int rc = hub_download(h, url, f, blob, req, err);
            free(url);
            if (rc) return rc;
        }
        if (by_oid && hub_link_snapshot(snap, blob, err)) return -1;
    }
    if (!(*local = strdup(snap))) {
        seer_error_set(err, "out of memory");
        return -1;
    }
    return 0;
}

int seer_hub_fetch(const seer_hub_request *req, seer_hub_files *out, seer_error *err) {
    memset(out, 0, sizeof *out);
    fetch_plan *p = calloc(1, sizeof *p);
    hub_http h = {0};
    if (!p) {
        seer_error_set(err, "out of memory");
        return -1;
    }
    int rc = -1;
    if (!hub_split_repo_tag(req->repo, p->repo, sizeof p->repo, p->tag, sizeof p->tag, err) ||
        !hub_repo_dir(p->repo, p->repo_dir, sizeof p->repo_dir, err) || (!req->offline && hub_http_open(&h, err)) ||
        list_files(req, &h, p, out, err) || choose(req, p, err))
        goto done;
    out->n_parts = p->n_parts;
    for (int k = 0; k < p->n_parts; k++) {
        char *local = NULL;
        if ((rc = obtain(req, &h, p, &p->files.files[p->parts[k]], &local, err))) goto done;
        if (k == 0) out->model = local;
        else free(local);
    }
    if (p->mmproj >= 0 && (rc = obtain(req, &h, p, &p->files.files[p->mmproj], &out->mmproj, err))) goto done;
    rc = 0;
done:
    hub_http_close(&h);
    hub_listing_free(&p->files);
    free(p);
    if (rc) seer_hub_files_free(out);
    return rc;
}

void seer_hub_files_free(seer_hub_files *f) {
    free(f->model);
    free(f->mmproj);
    f->model = f->mmproj = NULL;
}
