/* Inside the hub client: the repository listing, the choice of files, the
 * cache layout, HTTP and downloads (one file each). */
#ifndef SEER_HUB_INTERNAL_H
#define SEER_HUB_INTERNAL_H

#include <stdint.h>

#include "seer/hub.h"
#include "seer/json.h"

/* ---- sha256.c ---- */
typedef struct hub_sha256 {
    uint32_t h[8];
    uint64_t bytes;
    uint8_t block[64];
    size_t used;
} hub_sha256;
void hub_sha256_init(hub_sha256 *s);
void hub_sha256_update(hub_sha256 *s, const void *data, size_t len);
void hub_sha256_hex(hub_sha256 *s, char out[65]); /* lowercase; ends the stream */

/* ---- a repository's files at one commit ---- */
typedef struct hub_file {
    char *path;    /* in the repository, '/'-separated, checked safe */
    char oid[65];  /* lfs.oid (SHA-256 of the bytes) or the git blob id (40 hex); "" when unknown */
    uint64_t size; /* 0 when unknown */
} hub_file;

typedef struct hub_listing {
    char commit[41];
    hub_file *files;
    int n;
} hub_listing;

/* ---- listing.c ---- */
int hub_listing_add(hub_listing *l, const char *path, const char *oid, uint64_t size); /* 0, or -1 out of memory */
void hub_listing_free(hub_listing *l);
bool hub_is_hex(const char *s, size_t len);
bool hub_path_safe(const char *path); /* relative, no empty, '.' or '..' component, no control bytes */
/* The files of a tree answer (entries of type "file" with a safe path). */
int hub_listing_from_tree(const json_value *tree, hub_listing *out, seer_error *err);
struct hub_http;
/* The files of the repository's main branch (else its first) from the hub's
 * API; branch gets the branch's name. 0; or -1 with err, *unreachable when
 * the hub did not answer at all. */
int hub_list_remote(struct hub_http *h, const char *repo, hub_listing *out, char branch[64], bool *unreachable,
                    seer_error *err);

/* ---- choose.c: which files a request means (llama.cpp's rules) ---- */
/* "user/repo[:TAG]" -> repo and tag (tag "" when absent). */
bool hub_split_repo_tag(const char *arg, char *repo, size_t repo_cap, char *tag, size_t tag_cap, seer_error *err);
bool hub_repo_id_valid(const char *repo);

typedef struct hub_split_info {
    size_t prefix_len; /* the name without "-0000k-of-0000n.gguf" */
    char tag[32];      /* upper-case quant tag ("Q4_K_M"), "" when none */
    int index, count;  /* 1, 1 when not split; 0, 0 when not a .gguf */
} hub_split_info;
hub_split_info hub_split_info_of(const char *path);

/* Index of the model file for TAG (case-insensitive; "" = Q4_K_M, else Q8_0,
 * else the first model GGUF), the first part when split; -1 when none. */
int hub_choose_model(const hub_listing *l, const char *tag);
/* The parts of the model at index primary, in order: their count (0 when one is missing). */
int hub_model_parts(const hub_listing *l, int primary, int *parts, int cap);
/* The mmproj beside the model (same folder or above, the nearest), F16 before
 * BF16 before F32 before the rest; -1 when none. */
int hub_choose_mmproj(const hub_listing *l, const char *model_path);
/* The model GGUFs' tags, or their names when they have none ("Q4_K_M, Q8_0"). */
void hub_describe_models(const hub_listing *l, char *out, size_t cap);

/* ---- cache.c: the hub cache layout ---- */
/* <cache>/models--user--repo */
bool hub_repo_dir(const char *repo, char *out, size_t cap, seer_error *err);
int hub_write_ref(const char *repo_dir, const char *branch, const char *commit, seer_error *err);
bool hub_read_ref(const char *repo_dir, char commit[41]); /* refs/main, else the first valid ref */
/* The files of the cached snapshot of refs (sorted by path); -1 with err when there is none. */
int hub_cached_listing(const char *repo_dir, hub_listing *out, seer_error *err);
/* snapshots/<commit>/<path> -> ../../blobs/<oid> (relative, as huggingface_hub makes it). */
int hub_link_snapshot(const char *snapshot_path, const char *blob_path, seer_error *err);

/* ---- http.c: libcurl ---- */
typedef struct hub_http {
    void *curl;          /* CURL * */
    char endpoint[1024]; /* ends with '/' */
    const char *token;   /* HF_TOKEN, or NULL */
} hub_http;

int hub_http_open(hub_http *h, seer_error *err);
void hub_http_close(hub_http *h);
/* Readies the handle for a GET of url (user agent, token, redirects, timeouts). */
void hub_http_prepare(hub_http *h, const char *url);
/* One line for an HTTP status that is not a success. */
void hub_http_status_error(seer_error *err, long status, const char *what);
/* GET url as JSON. 0; or -1 with err and *unreachable when no answer came
 * (connection refused, DNS, timeout), or *status the HTTP status otherwise. */
int hub_http_get_json(hub_http *h, const char *url, json_value **out, long *status, bool *unreachable,
                      seer_error *err);
/* endpoint + repo + "/resolve/" + commit + "/" + path, each path part escaped. */
char *hub_resolve_url(hub_http *h, const char *repo, const char *commit, const char *path);

/* ---- download.c ---- */
/* Downloads f to dest through dest.downloadInProgress (resumed when present),
 * checks size and SHA-256 (when f->oid is one), then renames it into place.
 * Returns 0, SEER_HUB_CANCELLED (the partial file stays) or -1 (err). */
int hub_download(hub_http *h, const char *url, const hub_file *f, const char *dest, const seer_hub_request *req,
                 seer_error *err);

#endif
