/* Which files of a repository `-hf user/repo[:TAG]` means. The rules are
 * llama.cpp's, so both tools take the same files from the same cache: a
 * model GGUF is one whose name mentions none of mmproj, imatrix and the
 * draft-model sidecars; TAG matches a name containing TAG followed by '.' or
 * '-' (any case); no TAG means Q4_K_M, else Q8_0, else the first model GGUF;
 * a split model is taken from its first part with all its parts. */
#include "hub_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

bool hub_repo_id_valid(const char *repo) {
    /* [A-Za-z0-9_] runs joined by single '/', '.' or '-'; exactly one '/' */
    size_t len = strlen(repo);
    if (len == 0 || len > 256) return false;
    int slashes = 0;
    bool after_special = true;
    for (const char *c = repo; *c; c++) {
        if (isalnum((unsigned char)*c) || *c == '_') {
            after_special = false;
        } else if (*c == '/' || *c == '.' || *c == '-') {
            if (after_special) return false;
            slashes += *c == '/';
            after_special = true;
        } else {
            return false;
        }
    }
    return !after_special && slashes == 1;
}

bool hub_split_repo_tag(const char *arg, char *repo, size_t repo_cap, char *tag, size_t tag_cap, seer_error *err) {
    const char *colon = strrchr(arg, ':');
    const size_t repo_len = colon ? (size_t)(colon - arg) : strlen(arg);
    const char *t = colon ? colon + 1 : "";
    if (repo_len >= repo_cap || strlen(t) >= tag_cap) {
        seer_error_set(err, "-hf: '%.64s…' is too long", arg);
        return false;
    }
    memcpy(repo, arg, repo_len);
    repo[repo_len] = 0;
    strcpy(tag, t);
    for (const char *c = tag; *c; c++)
        if (!isalnum((unsigned char)*c) && *c != '_' && *c != '-' && *c != '.') {
            seer_error_set(err, "-hf: bad tag '%.64s' (a quant such as Q4_K_M)", tag);
            return false;
        }
    if (!hub_repo_id_valid(repo)) {
        seer_error_set(err, "-hf: '%.200s' is not a repository: expected user/repo[:TAG]", repo);
        return false;
    }
    return true;
}

static const char *base_name(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static bool has_suffix(const char *s, const char *suffix) {
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && memcmp(s + a - b, suffix, b) == 0;
}

hub_split_info hub_split_info_of(const char *path) {
    hub_split_info si = {0};
    if (!has_suffix(path, ".gguf")) return si;
    size_t len = strlen(path) - 5;
    si.index = si.count = 1;
    /* "<prefix>-00001-of-00003" */
    static const char pattern[] = "-#####-of-#####";
    const size_t plen = sizeof pattern - 1;
    if (len > plen) {
        const char *s = path + len - plen;
        bool match = true;
        for (size_t i = 0; i < plen && match; i++)
            match = pattern[i] == '#' ? isdigit((unsigned char)s[i]) != 0 : tolower((unsigned char)s[i]) == pattern[i];
        if (match) {
            int index = 0, count = 0;
            for (int i = 1; i <= 5; i++) index = index * 10 + (s[i] - '0');
            for (int i = 10; i <= 14; i++) count = count * 10 + (s[i] - '0');
            si.index = index;
            si.count = count;
            len -= plen;
        }
    }
    si.prefix_len = len;
    /* the tag: the last [A-Za-z0-9_] run of the prefix, after '-' or '.' */
    size_t start = len;
    while (start > 0 && (isalnum((unsigned char)path[start - 1]) || path[start - 1] == '_')) start--;
    if (start > 0 && start < len && (path[start - 1] == '-' || path[start - 1] == '.') &&
        len - start < sizeof si.tag) {
        for (size_t i = start; i < len; i++) si.tag[i - start] = (char)toupper((unsigned char)path[i]);
        si.tag[len - start] = 0;
    }
    return si;
}

static bool is_model_gguf(const char *path) {
    if (!has_suffix(path, ".gguf")) return false;
    static const char *not_models[] = {"mmproj", "imatrix", "mtp-", "eagle3-", "dflash-", "dspark-"};
    const char *name = base_name(path);
    for (size_t i = 0; i < sizeof not_models / sizeof not_models[0]; i++)
        if (strstr(name, not_models[i])) return false;
    return true;
}

static bool first_part(const char *path) {
    const hub_split_info si = hub_split_info_of(path);
    return si.count <= 1 || si.index == 1;
}

/* TAG followed by '.' or '-', anywhere in the path, any case. */
static bool mentions_tag(const char *path, const char *tag) {
    const size_t n = strlen(tag);
    for (const char *p = path; *p; p++)
        if (strncasecmp(p, tag, n) == 0 && (p[n] == '.' || p[n] == '-')) return true;
    return false;
}

int hub_choose_model(const hub_listing *l, const char *tag) {
    static const char *defaults[] = {"Q4_K_M", "Q8_0"};
    const char *const *tags = *tag ? &tag : defaults;
    const int n_tags = *tag ? 1 : 2;
    for (int t = 0; t < n_tags; t++)
        for (int i = 0; i < l->n; i++)
            if (is_model_gguf(l->files[i].path) && mentions_tag(l->files[i].path, tags[t]) &&
                first_part(l->files[i].path))
                return i;
    if (*tag) return -1;
    for (int i = 0; i < l->n; i++)
        if (is_model_gguf(l->files[i].path) && first_part(l->files[i].path)) return i;
    return -1;
}

int hub_model_parts(const hub_listing *l, int primary, int *parts, int cap) {
    const char *model = l->files[primary].path;
    const hub_split_info si = hub_split_info_of(model);
    if (si.count <= 1) {
        parts[0] = primary;
        return 1;
    }
    if (si.count > cap) return 0;
    for (int k = 0; k < si.count; k++) parts[k] = -1;
    for (int i = 0; i < l->n; i++) {
        const hub_split_info other = hub_split_info_of(l->files[i].path);
        if (other.count == si.count && other.index >= 1 && other.index <= si.count &&
            other.prefix_len == si.prefix_len && strncmp(l->files[i].path, model, si.prefix_len) == 0)
            parts[other.index - 1] = i;
    }
    for (int k = 0; k < si.count; k++)
        if (parts[k] < 0) return 0;
    return si.count;
}

/* Length of the folder part of a path ("a/b/c.gguf" -> 3, "c.gguf" -> 0). */
static size_t dir_len(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? (size_t)(slash - path) : 0;
}

static int mmproj_rank(const char *path) {
    static const char *order[] = {"F16", "BF16", "F32"};
    const hub_split_info si = hub_split_info_of(path);
    for (int r = 0; r < 3; r++)
        if (strcmp(si.tag, order[r]) == 0) return r;
    return 3;
}

int hub_choose_mmproj(const hub_listing *l, const char *model_path) {
    const size_t model_dir = dir_len(model_path);
    int best = -1;
    size_t best_depth = 0;
    int best_rank = 0;
    for (int i = 0; i < l->n; i++) {
        const char *p = l->files[i].path;
        if (!has_suffix(p, ".gguf") || !strstr(base_name(p), "mmproj")) continue;
        /* its folder must be the model's or one above it */
        const size_t d = dir_len(p);
        if (d > model_dir || strncmp(p, model_path, d) != 0 || (d > 0 && model_path[d] != '/')) continue;
        const int rank = mmproj_rank(p);
        if (best < 0 || d > best_depth || (d == best_depth && rank < best_rank)) {
            best = i;
            best_depth = d;
            best_rank = rank;
        }
    }
    return best;
}

void hub_describe_models(const hub_listing *l, char *out, size_t cap) {
    size_t o = 0;
    out[0] = 0;
    for (int i = 0; i < l->n && o + 1 < cap; i++) {
        const char *p = l->files[i].path;
        if (!is_model_gguf(p) || !first_part(p)) continue;
        const hub_split_info si = hub_split_info_of(p);
        const char *name = si.tag[0] ? si.tag : base_name(p);
        /* each tag once */
        bool seen = false;
        for (int j = 0; j < i && !seen; j++) {
            const char *q = l->files[j].path;
            if (!is_model_gguf(q) || !first_part(q)) continue;
            const hub_split_info sj = hub_split_info_of(q);
            seen = strcmp(sj.tag[0] ? sj.tag : base_name(q), name) == 0;
        }
        if (seen) continue;
        int w = snprintf(out + o, cap - o, "%s%s", o ? ", " : "", name);
        if (w < 0) break;
        o += (size_t)w < cap - o ? (size_t)w : cap - o - 1;
    }
}
