/* A repository's files at one commit, as the hub's API lists them:
 *   GET {endpoint}api/models/{repo}/refs                       branches and their commits
 *   GET {endpoint}api/models/{repo}/tree/{commit}?recursive=true  type, path, oid, size, lfs.{oid,size}
 * Whatever the answers hold is checked before it names a file on disk. */
#include "hub_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int hub_listing_add(hub_listing *l, const char *path, const char *oid, uint64_t size) {
    if ((l->n & 63) == 0) {
        hub_file *grown = realloc(l->files, (size_t)(l->n + 64) * sizeof *grown);
        if (!grown) return -1;
        l->files = grown;
    }
    hub_file *f = &l->files[l->n];
    memset(f, 0, sizeof *f);
    if (!(f->path = strdup(path))) return -1;
    snprintf(f->oid, sizeof f->oid, "%s", oid);
    f->size = size;
    l->n++;
    return 0;
}

void hub_listing_free(hub_listing *l) {
    for (int i = 0; i < l->n; i++) free(l->files[i].path);
    free(l->files);
    memset(l, 0, sizeof *l);
}

bool hub_is_hex(const char *s, size_t len) {
    if (strlen(s) != len) return false;
    for (size_t i = 0; i < len; i++)
        if (!isxdigit((unsigned char)s[i])) return false;
    return true;
}

bool hub_path_safe(const char *path) {
    if (!*path || *path == '/' || strlen(path) > 1024) return false;
    for (const char *seg = path; seg;) {
        const char *end = strchr(seg, '/');
        const size_t n = end ? (size_t)(end - seg) : strlen(seg);
        if (n == 0 || (n == 1 && seg[0] == '.') || (n == 2 && seg[0] == '.' && seg[1] == '.')) return false;
        seg = end ? end + 1 : NULL;
    }
    for (const unsigned char *c = (const unsigned char *)path; *c; c++)
        if (*c < 0x20 || *c == 0x7f || *c == '\\') return false;
    return true;
}

/* A branch name usable as a file name under refs/. */
static bool branch_safe(const char *name) {
    if (!*name || *name == '.' || strlen(name) >= 64) return false;
    for (const char *c = name; *c; c++)
        if (!isalnum((unsigned char)*c) && !strchr("._-", *c)) return false;
    return true;
}

static int get_json(hub_http *h, const char *url, const char *what, json_value **out, bool *unreachable,
                    seer_error *err) {
    long status = 0;
    if (hub_http_get_json(h, url, out, &status, unreachable, err) == 0) return 0;
    if (status && status != 200) hub_http_status_error(err, status, what);
    return -1;
}

static int find_commit(hub_http *h, const char *repo, const char *what, char commit[41], char branch[64],
                       bool *unreachable, seer_error *err) {
    char url[2048];
    snprintf(url, sizeof url, "%sapi/models/%s/refs", h->endpoint, repo);
    json_value *refs = NULL;
    if (get_json(h, url, what, &refs, unreachable, err)) return -1;
    const json_value *branches = json_get(refs, "branches");
    commit[0] = 0;
    for (size_t i = 0; i < json_len(branches); i++) {
        const char *name = json_str(json_get(json_at(branches, i), "name"));
        const char *target = json_str(json_get(json_at(branches, i), "targetCommit"));
        if (!name || !target || !branch_safe(name) || !hub_is_hex(target, 40)) continue;
        if (!commit[0] || strcmp(name, "main") == 0) {
            memcpy(commit, target, 41);
            snprintf(branch, 64, "%s", name);
        }
        if (strcmp(name, "main") == 0) break;
    }
    json_free(refs);
    if (!commit[0]) {
        seer_error_set(err, "%s: the hub lists no branch", what);
        return -1;
    }
    return 0;
}

int hub_listing_from_tree(const json_value *tree, hub_listing *out, seer_error *err) {
    if (!json_is_array(tree)) {
        seer_error_set(err, "the file list is not a list");
        return -1;
    }
    for (size_t i = 0; i < json_len(tree); i++) {
        const json_value *item = json_at(tree, i);
        const char *type = json_str(json_get(item, "type")), *path = json_str(json_get(item, "path"));
        if (!type || strcmp(type, "file") != 0 || !path || !hub_path_safe(path)) continue;
        const json_value *lfs = json_get(item, "lfs");
        const json_value *src = json_is_object(lfs) ? lfs : item;
        const char *oid = json_str(json_get(src, "oid"));
        if (!oid || !(hub_is_hex(oid, 64) || hub_is_hex(oid, 40))) oid = "";
        const double size = json_num(json_get(src, "size"), 0);
        if (hub_listing_add(out, path, oid, size > 0 && size < 1e18 ? (uint64_t)size : 0)) {
            seer_error_set(err, "out of memory");
            return -1;
        }
    }
    return 0;
}

int hub_list_remote(hub_http *h, const char *repo, hub_listing *out, char branch[64], bool *unreachable,
                    seer_error *err) {
    memset(out, 0, sizeof *out);
    char what[1400];
    snprintf(what, sizeof what, "repository %s on %s", repo, h->endpoint);
    if (find_commit(h, repo, what, out->commit, branch, unreachable, err)) return -1;
    char url[2048];
    snprintf(url, sizeof url, "%sapi/models/%s/tree/%s?recursive=true", h->endpoint, repo, out->commit);
    json_value *tree = NULL;
    if (get_json(h, url, what, &tree, unreachable, err)) return -1;
    seer_error why;
    const int rc = hub_listing_from_tree(tree, out, &why);
    json_free(tree);
    if (rc) {
        seer_error_set(err, "%s: %s", what, why.msg);
        hub_listing_free(out);
    }
    return rc;
}
