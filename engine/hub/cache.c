/* The Hugging Face hub cache, as huggingface_hub lays it out and llama.cpp
 * reads and writes it:
 *   <cache>/models--user--repo/blobs/<sha256>            the bytes
 *   <cache>/models--user--repo/snapshots/<commit>/<path> -> ../../blobs/<sha256>
 *   <cache>/models--user--repo/refs/main                 the commit of the branch */
#include "hub_internal.h"
#include "seer/safe_write.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool seer_hub_cache_dir(char *out, size_t cap) {
    static const struct {
        const char *var, *sub;
    } places[] = {
        {"LLAMA_CACHE", ""}, {"HF_HUB_CACHE", ""}, {"HUGGINGFACE_HUB_CACHE", ""},
        {"HF_HOME", "/hub"}, {"XDG_CACHE_HOME", "/huggingface/hub"}, {"HOME", "/.cache/huggingface/hub"},
    };
    for (size_t i = 0; i < sizeof places / sizeof places[0]; i++) {
        const char *v = getenv(places[i].var);
        if (v && *v) {
            int n = snprintf(out, cap, "%s%s", v, places[i].sub);
            return n > 0 && (size_t)n < cap;
        }
    }
    const struct passwd *pw = getpwuid(getuid());
    if (!pw || !pw->pw_dir || !*pw->pw_dir) return false;
    int n = snprintf(out, cap, "%s/.cache/huggingface/hub", pw->pw_dir);
    return n > 0 && (size_t)n < cap;
}

bool hub_repo_dir(const char *repo, char *out, size_t cap, seer_error *err) {
    char cache[PATH_MAX];
    if (!seer_hub_cache_dir(cache, sizeof cache)) {
        seer_error_set(err, "cannot tell where the model cache is: set HF_HUB_CACHE or HOME");
        return false;
    }
    int n = snprintf(out, cap, "%s/models--", cache);
    if (n < 0 || (size_t)n + 2 * strlen(repo) >= cap) {
        seer_error_set(err, "the model cache path is too long");
        return false;
    }
    for (const char *c = repo; *c; c++) {
        if (*c == '/') out[n++] = '-', out[n++] = '-';
        else out[n++] = *c;
    }
    out[n] = 0;
    return true;
}

int hub_write_ref(const char *repo_dir, const char *branch, const char *commit, seer_error *err) {
    char dir[PATH_MAX], path[PATH_MAX];
    if (snprintf(dir, sizeof dir, "%s/refs", repo_dir) >= (int)sizeof dir ||
        snprintf(path, sizeof path, "%s/%s", dir, branch) >= (int)sizeof path) {
        seer_error_set(err, "path too long: %.200s", repo_dir);
        return -1;
    }
    if (seer_mkdirs(dir, 0755, err)) return -1;
    seer_safe_file out;
    if (seer_safe_open(&out, path, err) != 0) return -1;
    /* no newline: huggingface_hub writes the bare commit */
    if (fputs(commit, out.f) < 0) {
        seer_error_set(err, "cannot write %.300s: %s", path, strerror(errno));
        seer_safe_abandon(&out);
        return -1;
    }
    return seer_safe_commit(&out, err);
}

static bool read_commit(const char *path, char commit[41]) {
    FILE *f = fopen(path, "r");
    if (!f) return false;
    char line[64] = "";
    const bool got = fgets(line, sizeof line, f) != NULL;
    fclose(f);
    line[strcspn(line, "\r\n")] = 0;
    if (!got || !hub_is_hex(line, 40)) return false;
    memcpy(commit, line, 41);
    return true;
}

bool hub_read_ref(const char *repo_dir, char commit[41]) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/refs/main", repo_dir);
    if (read_commit(path, commit)) return true;
    snprintf(path, sizeof path, "%s/refs", repo_dir);
    DIR *d = opendir(path);
    if (!d) return false;
    bool found = false;
    for (struct dirent *e; !found && (e = readdir(d));) {
        char ref[PATH_MAX];
        if (e->d_name[0] == '.' || snprintf(ref, sizeof ref, "%s/%s", path, e->d_name) >= (int)sizeof ref) continue;
        found = seer_safe_is_regular(ref) && read_commit(ref, commit);
    }
    closedir(d);
    return found;
}

#define MAX_CACHED_FILES 4096

/* Every file under dir (a snapshot), with paths relative to the snapshot. */
static int walk(const char *root, const char *rel, int depth, hub_listing *out) {
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s%s%s", root, *rel ? "/" : "", rel);
    DIR *d = opendir(dir);
    if (!d) return 0;
    int rc = 0;
    for (struct dirent *e; rc == 0 && out->n < MAX_CACHED_FILES && (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        char sub[PATH_MAX], full[PATH_MAX];
        if (snprintf(sub, sizeof sub, "%s%s%s", rel, *rel ? "/" : "", e->d_name) >= (int)sizeof sub) continue;
        struct stat st;
        if (snprintf(full, sizeof full, "%s/%s", root, sub) >= (int)sizeof full || stat(full, &st) != 0) continue; /* a link whose blob is gone */
        if (S_ISDIR(st.st_mode)) {
            if (depth < 16) rc = walk(root, sub, depth + 1, out);
        } else if (S_ISREG(st.st_mode) && hub_path_safe(sub)) {
            rc = hub_listing_add(out, sub, "", (uint64_t)st.st_size);
        }
    }
    closedir(d);
    return rc;
}

static int by_path(const void *a, const void *b) {
    return strcmp(((const hub_file *)a)->path, ((const hub_file *)b)->path);
}

int hub_cached_listing(const char *repo_dir, hub_listing *out, seer_error *err) {
    memset(out, 0, sizeof *out);
    if (!hub_read_ref(repo_dir, out->commit)) {
        seer_error_set(err, "not in the cache (%.300s)", repo_dir);
        return -1;
    }
    char snap[PATH_MAX];
    snprintf(snap, sizeof snap, "%s/snapshots/%s", repo_dir, out->commit);
    if (walk(snap, "", 0, out) != 0) {
        seer_error_set(err, "out of memory");
        hub_listing_free(out);
        return -1;
    }
    if (out->n == 0) {
        seer_error_set(err, "no files in the cache (%.300s)", snap);
        return -1;
    }
    qsort(out->files, (size_t)out->n, sizeof *out->files, by_path);
    return 0;
}

int hub_link_snapshot(const char *snapshot_path, const char *blob_path, seer_error *err) {
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", snapshot_path);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = 0;
    if (seer_mkdirs(dir, 0755, err)) return -1;
    /* snapshots/<commit>/a/b.gguf -> ../../../blobs/<oid>: one "../" per folder
     * below the repository's own (the snapshot path and blob share repo_dir) */
    const char *blobs = strstr(blob_path, "/blobs/");
    const char *snaps = strstr(snapshot_path, "/snapshots/");
    if (!blobs || !snaps) {
        seer_error_set(err, "unexpected cache paths");
        return -1;
    }
    char target[PATH_MAX] = "";
    size_t o = 0;
    for (const char *c = snaps + 1; *c; c++)
        if (*c == '/' && o + 3 < sizeof target) memcpy(target + o, "../", 3), o += 3;
    snprintf(target + o, sizeof target - o, "%s", blobs + 1);
    unlink(snapshot_path); /* a dangling link from an earlier cache */
    if (symlink(target, snapshot_path) == 0) return 0;
    /* file systems without symbolic links: a hard link, as the bytes are the same */
    if (link(blob_path, snapshot_path) == 0) return 0;
    seer_error_set(err, "cannot link %.200s to its blob: %s", snapshot_path, strerror(errno));
    return -1;
}
