/* Local image search on embeddings (seer index / seer search / the TUI's
 * /find): an embedder that holds one model, the index file (an append-only
 * journal of image vectors, see engine/search/index_file.c for the format)
 * and the ranking (cosine over single vectors, MaxSim re-rank). */
#ifndef SEER_SEARCH_H
#define SEER_SEARCH_H

#include <stdint.h>

#include "seer/embed.h"
#include "seer/image.h"

/* ------------------------------------------------------------ embedder */

typedef struct seer_embedder_opts {
    const char *model, *mmproj, *mv_proj; /* mmproj: images; mv_proj: multi-vectors (both optional) */
    int threads, n_ctx, image_max_tokens; /* 0: all cores / the model's (4096 at most) / 768 */
} seer_embedder_opts;

typedef struct seer_embedder seer_embedder;

/* One input's vectors: the single vector ([dim]) and, with a projector, its
 * multi-vectors ([n_multi][mv_dim]). */
typedef struct seer_embedding {
    float *single;
    int dim;
    float *multi;
    int n_multi, mv_dim;
} seer_embedding;
void seer_embedding_free(seer_embedding *e);

seer_embedder *seer_embedder_open(const seer_embedder_opts *o, seer_error *err);
void seer_embedder_free(seer_embedder *e);
bool seer_embedder_has_vision(const seer_embedder *e);
bool seer_embedder_has_multi(const seer_embedder *e);
const char *seer_embedder_model_name(const seer_embedder *e);
int seer_embedder_dim(const seer_embedder *e);
int seer_embedder_mv_dim(const seer_embedder *e); /* 0 without a projector */

int seer_embedder_text(seer_embedder *e, seer_embed_role role, const char *text, seer_embedding *out,
                       seer_error *err);
/* n images (n <= SEER_VISION_MAX_BATCH), several per vision pass where the
 * tower allows it; out[i] for paths[i]. On failure *bad is the index of the
 * image at fault (-1: not one image's fault, e.g. cancelled). */
int seer_embedder_images(seer_embedder *e, const char *const *paths, int n, seer_embedding *out, int *bad,
                         const volatile int *cancel, seer_error *err);

/* A fingerprint of a model file (its size and bytes sampled along it):
 * equal files give equal fingerprints; a retrained or other model differs. */
uint64_t seer_file_fingerprint(const char *path, seer_error *err);
/* 64-bit FNV-1a of n bytes, continuing from h (start: SEER_FNV_INIT). */
#define SEER_FNV_INIT 1469598103934665603ull
uint64_t seer_fnv1a(uint64_t h, const void *data, size_t n);

/* ------------------------------------------------------------ index file */

typedef struct seer_index_header {
    char model_name[128];      /* general.name of the model */
    char model[1024], mmproj[1024], mv_proj[1024]; /* absolute paths ("" = none) */
    uint64_t model_fp, mmproj_fp, mv_proj_fp;     /* seer_file_fingerprint of each (0 = none) */
    char root[1024];           /* the indexed directory, absolute */
    int dim, mv_dim;           /* single vector width; multi-vector width (0 = none) */
} seer_index_header;

typedef struct seer_index_entry {
    char *path;                /* relative to the root */
    int64_t size, mtime_ns;
    float *single;             /* [dim] */
    float *multi;              /* [n_multi][mv_dim], NULL without */
    int n_multi;
} seer_index_entry;

typedef struct seer_index {
    seer_index_header hdr;
    seer_index_entry *entries; /* the live ones (latest record per path, not removed) */
    int n_entries, cap_entries;
    int n_records;             /* records in the file (dead ones included) */
    int64_t valid_bytes;       /* end of the last whole record */
    bool torn;                 /* bytes after it (a record cut by an interruption) */
} seer_index;

/* Reads INDEX: the header, then records until the end or the first one
 * that is cut short or fails its checksum. 0 ok; -1 with err. */
int seer_index_read(const char *path, seer_index *out, seer_error *err);
void seer_index_free(seer_index *ix);
/* The live entry for a relative path, or NULL. */
seer_index_entry *seer_index_find(seer_index *ix, const char *rel);

/* Appending: opens INDEX for appending (creating it with hdr when absent;
 * a torn tail is cut off first), then records, each written whole and
 * flushed to disk with fsync at seer_index_sync. */
typedef struct seer_index_writer seer_index_writer;
seer_index_writer *seer_index_append_open(const char *path, const seer_index_header *hdr, int64_t valid_bytes,
                                          seer_error *err);
int seer_index_append_add(seer_index_writer *w, const seer_index_entry *e, int dim, int mv_dim, seer_error *err);
int seer_index_append_remove(seer_index_writer *w, const char *rel, seer_error *err);
int seer_index_sync(seer_index_writer *w, seer_error *err);
int seer_index_close(seer_index_writer *w, seer_error *err);

/* Rewrites INDEX with only the live entries (write a temporary next to
 * it, fsync, rename). */
int seer_index_compact(const char *path, const seer_index *ix, seer_error *err);
/* Applies a record to the in-memory index (what reading does per record). */
int seer_index_apply_add(seer_index *ix, seer_index_entry *e); /* takes ownership of e's buffers */
void seer_index_apply_remove(seer_index *ix, const char *rel);

/* ------------------------------------------------------------ ranking */

typedef struct seer_hit {
    int entry;                 /* index into ix->entries */
    float cosine, maxsim;      /* maxsim: per query row (sum / rows); 0 when not re-ranked */
    float score;               /* what the order is by: maxsim when re-ranked, else cosine */
} seer_hit;

/* The k best entries for a query: cosine over the single vectors, then,
 * when the query has multi-vectors and the index has them, the best
 * `rerank` (>= k) by cosine re-ranked by MaxSim. Returns the hits written
 * (<= k) into hits, best first. */
int seer_search_rank(const seer_index *ix, const seer_embedding *query, int k, int rerank, seer_hit *hits);

/* ------------------------------------------------------------ a search */

/* An index and the model it was made with, ready for queries (seer search,
 * the TUI's /find). model: NULL for the index's own; another file must be
 * the same model (fingerprint), else a one-line error names both. */
typedef struct seer_search seer_search;
seer_search *seer_search_open(const char *index_path, const char *model, int threads, seer_error *err);
void seer_search_free(seer_search *s);
const seer_index *seer_search_index(const seer_search *s);
/* The k best images for a text (embedded with role query); returns the hits
 * (<= k) or -1 with err. */
int seer_search_query(seer_search *s, const char *text, int k, seer_hit *hits, seer_error *err);
/* The absolute path of an entry (the index's root + its relative path). */
void seer_search_entry_path(const seer_search *s, int entry, char *buf, size_t cap);

/* The images at paths as one picture for a preview: thumbnails cell×cell
 * (aspect kept) in rows of three, each numbered 1..n in its corner; a file
 * that does not decode keeps its place as a red square. n is 1-99. */
int seer_contact_sheet(const char *const *paths, int n, int cell, seer_image *out, seer_error *err);
/* Checks that the model files named (NULL = skip) are the ones the index
 * was made with; -1 with a one-line err naming both otherwise. */
int seer_index_check_model(const seer_index_header *h, const char *index_path, const char *model, seer_error *err);

#endif
