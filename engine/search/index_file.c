/* The search index file (version 1), an append-only journal so that an
 * interrupted `seer index` loses nothing already embedded:
 *
 *   "SEERIDX\n"                      8 bytes
 *   u32 version (1), u32 n           the header text's length
 *   n bytes of "key=value\n" lines   model_name, model, mmproj, mv_proj (absolute
 *                                    paths), model_fp, mmproj_fp, mv_proj_fp (hex),
 *                                    root (the indexed directory), dim, mv_dim
 *   u64 FNV-1a of those n bytes
 *   records, each:
 *     u32 "REC1" (0x31434552), u32 kind (1 add, 2 remove), u32 n, n bytes, u64 FNV-1a of them
 *     add:    u16 path length, path (relative to root), i64 size, i64 mtime (ns),
 *             u32 n_multi, f32 single[dim], f32 multi[n_multi][mv_dim]
 *     remove: u16 path length, path
 *
 * All integers and floats little-endian. A later record for a path replaces
 * the earlier; reading stops at the first record cut short or failing its
 * checksum (an interrupted write), and appending cuts the file there first.
 * Each batch's records are fsync'd before the next batch is embedded. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "seer/safe_write.h"
#include "seer/search.h"

#define INDEX_MAGIC "SEERIDX\n"
#define INDEX_VERSION 1
#define RECORD_MAGIC 0x31434552u
#define RECORD_ADD 1u
#define RECORD_REMOVE 2u
#define MAX_HEADER (64 * 1024)
#define MAX_RECORD (256u << 20)
#define MAX_ROWS 65536

uint64_t seer_fnv1a(uint64_t h, const void *data, size_t n) {
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

/* ------------------------------------------------------------ byte buffers */

typedef struct buf {
    unsigned char *p;
    size_t len, cap;
    bool oom;
} buf;

static void put(buf *b, const void *data, size_t n) {
    if (b->oom) return;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n) cap *= 2;
        unsigned char *p = realloc(b->p, cap);
        if (!p) {
            b->oom = true;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, data, n);
    b->len += n;
}
static void put_u16(buf *b, uint16_t v) { put(b, &v, 2); }
static void put_u32(buf *b, uint32_t v) { put(b, &v, 4); }
static void put_u64(buf *b, uint64_t v) { put(b, &v, 8); }

typedef struct reader {
    const unsigned char *p;
    size_t len, at;
} reader;

static bool get(reader *r, void *out, size_t n) {
    if (r->len - r->at < n) return false;
    memcpy(out, r->p + r->at, n);
    r->at += n;
    return true;
}

/* ------------------------------------------------------------ header */

static void header_text(const seer_index_header *h, buf *b) {
    char line[1200];
    const char *keys[] = {"model_name", "model", "mmproj", "mv_proj", "root"};
    const char *vals[] = {h->model_name, h->model, h->mmproj, h->mv_proj, h->root};
    for (int i = 0; i < 5; i++) put(b, line, (size_t)snprintf(line, sizeof line, "%s=%s\n", keys[i], vals[i]));
    put(b, line, (size_t)snprintf(line, sizeof line, "model_fp=%016" PRIx64 "\nmmproj_fp=%016" PRIx64
                                  "\nmv_proj_fp=%016" PRIx64 "\ndim=%d\nmv_dim=%d\n",
                                  h->model_fp, h->mmproj_fp, h->mv_proj_fp, h->dim, h->mv_dim));
}

static void copy_field(char *dst, size_t cap, const char *v, size_t n) {
    if (n >= cap) n = cap - 1;
    memcpy(dst, v, n);
    dst[n] = 0;
}

static int parse_header(const char *text, size_t len, seer_index_header *h) {
    memset(h, 0, sizeof *h);
    for (size_t at = 0; at < len;) {
        const char *line = text + at, *nl = memchr(line, '\n', len - at), *eq = memchr(line, '=', len - at);
        if (!nl || !eq || eq > nl) return -1;
        size_t kn = (size_t)(eq - line), vn = (size_t)(nl - eq - 1);
        const char *v = eq + 1;
        char num[32] = "";
        copy_field(num, sizeof num, v, vn);
#define KEY(k) (kn == strlen(k) && !memcmp(line, k, kn))
        if (KEY("model_name")) copy_field(h->model_name, sizeof h->model_name, v, vn);
        else if (KEY("model")) copy_field(h->model, sizeof h->model, v, vn);
        else if (KEY("mmproj")) copy_field(h->mmproj, sizeof h->mmproj, v, vn);
        else if (KEY("mv_proj")) copy_field(h->mv_proj, sizeof h->mv_proj, v, vn);
        else if (KEY("root")) copy_field(h->root, sizeof h->root, v, vn);
        else if (KEY("model_fp")) h->model_fp = strtoull(num, NULL, 16);
        else if (KEY("mmproj_fp")) h->mmproj_fp = strtoull(num, NULL, 16);
        else if (KEY("mv_proj_fp")) h->mv_proj_fp = strtoull(num, NULL, 16);
        else if (KEY("dim")) h->dim = atoi(num);
        else if (KEY("mv_dim")) h->mv_dim = atoi(num);
#undef KEY
        at += (size_t)(nl - line) + 1;
    }
    return h->dim >= 1 && h->dim <= (1 << 20) && h->mv_dim >= 0 && h->mv_dim <= (1 << 16) && h->model[0] ? 0 : -1;
}

/* ------------------------------------------------------------ entries */

static void entry_free(seer_index_entry *e) {
    free(e->path);
    free(e->single);
    free(e->multi);
    memset(e, 0, sizeof *e);
}

void seer_index_free(seer_index *ix) {
    if (!ix) return;
    for (int i = 0; i < ix->n_entries; i++) entry_free(&ix->entries[i]);
    free(ix->entries);
    memset(ix, 0, sizeof *ix);
}

seer_index_entry *seer_index_find(seer_index *ix, const char *rel) {
    for (int i = 0; i < ix->n_entries; i++)
        if (!strcmp(ix->entries[i].path, rel)) return &ix->entries[i];
    return NULL;
}

int seer_index_apply_add(seer_index *ix, seer_index_entry *e) {
    seer_index_entry *old = seer_index_find(ix, e->path);
    if (old) {
        entry_free(old);
        *old = *e;
        return 0;
    }
    if (ix->n_entries == ix->cap_entries) {
        int cap = ix->cap_entries ? 2 * ix->cap_entries : 64;
        seer_index_entry *grown = realloc(ix->entries, sizeof *grown * (size_t)cap);
        if (!grown) return -1;
        ix->entries = grown;
        ix->cap_entries = cap;
    }
    ix->entries[ix->n_entries++] = *e;
    return 0;
}

void seer_index_apply_remove(seer_index *ix, const char *rel) {
    seer_index_entry *e = seer_index_find(ix, rel);
    if (!e) return;
    entry_free(e);
    *e = ix->entries[--ix->n_entries];
}

/* One record's payload into ix; -1 when it does not parse (a damaged record). */
static int apply_record(seer_index *ix, uint32_t kind, const unsigned char *p, size_t n) {
    reader r = {p, n, 0};
    uint16_t plen;
    if (!get(&r, &plen, 2) || plen == 0 || r.len - r.at < plen || memchr(p + r.at, 0, plen)) return -1;
    seer_index_entry e = {0};
    if (!(e.path = strndup((const char *)p + r.at, plen))) return -1;
    r.at += plen;
    if (kind == RECORD_REMOVE) {
        seer_index_apply_remove(ix, e.path);
        free(e.path);
        return r.at == r.len ? 0 : -1;
    }
    uint32_t n_multi;
    const int dim = ix->hdr.dim, mv = ix->hdr.mv_dim;
    if (!get(&r, &e.size, 8) || !get(&r, &e.mtime_ns, 8) || !get(&r, &n_multi, 4) || n_multi > MAX_ROWS ||
        (n_multi && !mv) || r.len - r.at != sizeof(float) * ((size_t)dim + (size_t)n_multi * (size_t)mv)) {
        free(e.path);
        return -1;
    }
    e.n_multi = (int)n_multi;
    e.single = malloc(sizeof(float) * (size_t)dim);
    e.multi = n_multi ? malloc(sizeof(float) * (size_t)n_multi * (size_t)mv) : NULL;
    if (!e.single || (n_multi && !e.multi) || !get(&r, e.single, sizeof(float) * (size_t)dim) ||
        (n_multi && !get(&r, e.multi, sizeof(float) * (size_t)n_multi * (size_t)mv)) ||
        seer_index_apply_add(ix, &e) != 0) {
        entry_free(&e);
        return -1;
    }
    return 0;
}

int seer_index_read(const char *path, seer_index *out, seer_error *err) {
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "rb");
    if (!f) {
        seer_error_set(err, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    char magic[8];
    uint32_t version = 0, hlen = 0;
    uint64_t sum = 0;
    char *text = NULL;
    int rc = -1;
    if (fread(magic, 1, 8, f) != 8 || memcmp(magic, INDEX_MAGIC, 8) != 0) {
        seer_error_set(err, "%s: not a seer search index (made by seer index)", path);
        goto done;
    }
    if (fread(&version, 4, 1, f) != 1 || version != INDEX_VERSION) {
        seer_error_set(err, "%s: index format version %u, this seer reads version %d (run seer index again)", path,
                       version, INDEX_VERSION);
        goto done;
    }
    if (fread(&hlen, 4, 1, f) != 1 || hlen == 0 || hlen > MAX_HEADER || !(text = malloc(hlen)) ||
        fread(text, 1, hlen, f) != hlen || fread(&sum, 8, 1, f) != 1 || sum != seer_fnv1a(SEER_FNV_INIT, text, hlen) ||
        parse_header(text, hlen, &out->hdr) != 0) {
        seer_error_set(err, "%s: the index header is damaged", path);
        goto done;
    }
    out->valid_bytes = 8 + 4 + 4 + (int64_t)hlen + 8;
    rc = 0;
    unsigned char *payload = NULL;
    for (;;) {
        uint32_t head[3];
        size_t got = fread(head, 1, sizeof head, f); /* bytes: 1 to 11 of them are a torn record */
        if (got == 0 && feof(f)) break;
        bool whole = got == sizeof head && head[0] == RECORD_MAGIC && (head[1] == RECORD_ADD || head[1] == RECORD_REMOVE) &&
                     head[2] <= MAX_RECORD;
        unsigned char *p = whole ? realloc(payload, head[2] ? head[2] : 1) : NULL;
        if (p) payload = p;
        whole = p && fread(payload, 1, head[2], f) == head[2] && fread(&sum, 8, 1, f) == 1 &&
                sum == seer_fnv1a(SEER_FNV_INIT, payload, head[2]) &&
                apply_record(out, head[1], payload, head[2]) == 0;
        if (!whole) {
            out->torn = true;
            break;
        }
        out->n_records++;
        out->valid_bytes += 12 + (int64_t)head[2] + 8;
    }
    free(payload);
done:
    free(text);
    fclose(f);
    if (rc != 0) seer_index_free(out);
    return rc;
}

/* ------------------------------------------------------------ writing */

struct seer_index_writer {
    int fd;
    char *path;
};

static int write_all(int fd, const void *p, size_t n) {
    const char *c = p;
    while (n > 0) {
        ssize_t w = write(fd, c, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        c += w;
        n -= (size_t)w;
    }
    return 0;
}

static int write_header(int fd, const seer_index_header *h) {
    buf text = {0}, b = {0};
    header_text(h, &text);
    put(&b, INDEX_MAGIC, 8);
    put_u32(&b, INDEX_VERSION);
    put_u32(&b, (uint32_t)text.len);
    put(&b, text.p, text.len);
    put_u64(&b, seer_fnv1a(SEER_FNV_INIT, text.p, text.len));
    int rc = text.oom || b.oom ? -1 : write_all(fd, b.p, b.len);
    free(text.p);
    free(b.p);
    return rc;
}

/* A whole record in one write: magic, kind, length, payload, checksum. */
static int write_record(int fd, uint32_t kind, const buf *payload) {
    buf b = {0};
    put_u32(&b, RECORD_MAGIC);
    put_u32(&b, kind);
    put_u32(&b, (uint32_t)payload->len);
    put(&b, payload->p, payload->len);
    put_u64(&b, seer_fnv1a(SEER_FNV_INIT, payload->p, payload->len));
    int rc = b.oom || payload->oom ? -1 : write_all(fd, b.p, b.len);
    free(b.p);
    return rc;
}

static void put_path(buf *b, const char *rel) {
    size_t n = strlen(rel);
    put_u16(b, (uint16_t)n);
    put(b, rel, n);
}

seer_index_writer *seer_index_append_open(const char *path, const seer_index_header *hdr, int64_t valid_bytes,
                                          seer_error *err) {
    seer_index_writer *w = calloc(1, sizeof *w);
    if (!w || !(w->path = strdup(path))) {
        free(w);
        seer_error_set(err, "out of memory");
        return NULL;
    }
    w->fd = open(path, O_WRONLY | O_CREAT, 0644);
    bool ok = w->fd >= 0;
    if (ok && valid_bytes > 0) /* cut a torn tail, then append after the last whole record */
        ok = ftruncate(w->fd, valid_bytes) == 0 && lseek(w->fd, valid_bytes, SEEK_SET) == valid_bytes;
    else if (ok)
        ok = ftruncate(w->fd, 0) == 0 && write_header(w->fd, hdr) == 0 && fsync(w->fd) == 0;
    if (!ok) {
        seer_error_set(err, "cannot write %s: %s", path, strerror(errno));
        if (w->fd >= 0) close(w->fd);
        free(w->path);
        free(w);
        return NULL;
    }
    return w;
}

int seer_index_append_add(seer_index_writer *w, const seer_index_entry *e, int dim, int mv_dim, seer_error *err) {
    buf b = {0};
    put_path(&b, e->path);
    put(&b, &e->size, 8);
    put(&b, &e->mtime_ns, 8);
    put_u32(&b, e->multi ? (uint32_t)e->n_multi : 0u);
    put(&b, e->single, sizeof(float) * (size_t)dim);
    if (e->multi) put(&b, e->multi, sizeof(float) * (size_t)e->n_multi * (size_t)mv_dim);
    int rc = write_record(w->fd, RECORD_ADD, &b);
    free(b.p);
    if (rc != 0) seer_error_set(err, "cannot write %s: %s", w->path, strerror(errno));
    return rc;
}

int seer_index_append_remove(seer_index_writer *w, const char *rel, seer_error *err) {
    buf b = {0};
    put_path(&b, rel);
    int rc = write_record(w->fd, RECORD_REMOVE, &b);
    free(b.p);
    if (rc != 0) seer_error_set(err, "cannot write %s: %s", w->path, strerror(errno));
    return rc;
}

int seer_index_sync(seer_index_writer *w, seer_error *err) {
    if (fsync(w->fd) == 0) return 0;
    seer_error_set(err, "cannot write %s: %s", w->path, strerror(errno));
    return -1;
}

int seer_index_close(seer_index_writer *w, seer_error *err) {
    if (!w) return 0;
    int rc = seer_index_sync(w, err);
    if (close(w->fd) != 0 && rc == 0) {
        seer_error_set(err, "cannot write %s: %s", w->path, strerror(errno));
        rc = -1;
    }
    free(w->path);
    free(w);
    return rc;
}

int seer_index_compact(const char *path, const seer_index *ix, seer_error *err) {
    seer_safe_file out;
    if (seer_safe_open(&out, path, err) != 0) return -1;
    seer_index_writer w = {.fd = fileno(out.f), .path = (char *)path}; /* the fd stays out's */
    int rc = write_header(w.fd, &ix->hdr);
    if (rc != 0) seer_error_set(err, "cannot write %s: %s", path, strerror(errno));
    for (int i = 0; rc == 0 && i < ix->n_entries; i++)
        rc = seer_index_append_add(&w, &ix->entries[i], ix->hdr.dim, ix->hdr.mv_dim, err);
    if (rc == 0) return seer_safe_commit(&out, err);
    seer_safe_abandon(&out);
    return -1;
}
