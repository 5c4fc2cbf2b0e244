/* Models from a Hugging Face hub: `-hf user/repo[:TAG]` as llama.cpp users
 * type it. The same protocol (MODEL_ENDPOINT or HF_ENDPOINT, HF_TOKEN) and the
 * same cache (models--user--repo/{blobs,snapshots,refs} under the hub cache
 * folder that llama.cpp and huggingface_hub share), so a file any of them
 * downloaded is used as it is. Downloads resume (HTTP Range) and are checked
 * against the hub's SHA-256 before they enter the cache. */
#ifndef SEER_HUB_H
#define SEER_HUB_H

#include "seer/common.h"

/* One file's transfer, reported a few times a second and once when it ends. */
typedef struct seer_hub_progress {
    const char *file;      /* its path in the repository */
    uint64_t done;         /* bytes on disk so far */
    uint64_t total;        /* its size (0: unknown) */
    uint64_t resumed_from; /* bytes already on disk when this run began it */
    double elapsed_ms;     /* since this run began it */
    bool starting;         /* first call for this file */
    bool finished;         /* last call for this file (complete, failed or cancelled) */
} seer_hub_progress;

typedef void (*seer_hub_progress_fn)(const seer_hub_progress *p, void *user);

typedef struct seer_hub_request {
    const char *repo;       /* "user/repo" or "user/repo:TAG" (TAG: a quant such as Q4_K_M, any case) */
    const char *file;       /* a path in the repository (--hf-file); NULL: chosen by TAG */
    bool want_mmproj;       /* also the repository's vision projector, when it has one */
    bool offline;           /* use the cache alone */
    seer_hub_progress_fn progress; /* may be NULL */
    void *progress_user;
    volatile int *cancel;   /* set (e.g. by SIGINT) to stop: the partial file stays for the next run */
} seer_hub_request;

typedef struct seer_hub_files {
    char *model;            /* local path of the model (its first part when split) */
    char *mmproj;           /* local path of the projector, NULL when none */
    int n_parts;            /* the model's parts (1 unless it is a split GGUF) */
    char notice[SEER_ERR_MAX]; /* a warning worth showing (e.g. the hub was unreachable: the cache was used) */
} seer_hub_files;

#define SEER_HUB_CANCELLED (-2)

/* Resolves the request to local files, downloading what the cache lacks.
 * Returns 0, SEER_HUB_CANCELLED when req->cancel was set (err says what stays
 * for resuming), or -1 with a one-line reason in err. */
int seer_hub_fetch(const seer_hub_request *req, seer_hub_files *out, seer_error *err);
void seer_hub_files_free(seer_hub_files *f);

/* The hub cache folder: $HF_HUB_CACHE, else $HUGGINGFACE_HUB_CACHE, else
 * $HF_HOME/hub, else $XDG_CACHE_HOME/huggingface/hub, else
 * ~/.cache/huggingface/hub (LLAMA_CACHE first, as llama.cpp reads it).
 * False when none can be determined or it does not fit. */
bool seer_hub_cache_dir(char *out, size_t cap);

#endif
