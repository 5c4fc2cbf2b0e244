/* seer index DIR -o INDEX [-m MODEL --mmproj MMPROJ [--mv-proj PROJ]]:
 * embeds every image under DIR into INDEX (single vectors; multi-vectors
 * too with a projector) for seer search and the TUI's /find. Incremental:
 * images with the same path, size and modification time as in INDEX are
 * not embedded again, removed ones are dropped. Safe to interrupt: each
 * batch's records are appended whole and fsync'd (engine/search/index_file.c),
 * so a run stopped at any moment keeps every batch before it, and the next
 * run continues. Exit status: 0 ok, 1 file or model problems, 2 usage,
 * 130 interrupted. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_args.h"
#include "cli_errors.h"
#include "commands.h"
#include "image_files.h"
#include "progress_bar.h"
#include "seer/search.h"

#define INDEX_DEFAULT_BATCH 8

typedef struct index_args {
    const char *dir, *out, *model, *mmproj, *mv_proj;
    int threads, batch, image_max_tokens;
} index_args;

static volatile sig_atomic_t interrupted;
static volatile int cancel_flag;

static void on_signal(int sig) {
    (void)sig;
    interrupted = 1;
    cancel_flag = 1;
}

static void usage(FILE *out) {
    fprintf(out,
            "usage: seer index DIR -o INDEX [-m MODEL.gguf --mmproj MMPROJ.gguf [--mv-proj PROJ.gguf]] [options]\n"
            "  Embeds every image under DIR (subdirectories included) into INDEX for seer search and /find.\n"
            "  Run it again to bring INDEX up to date: unchanged images (same path, size, modification\n"
            "  time) are not embedded again, removed ones are dropped. Ctrl-C at any moment keeps\n"
            "  what is done; the next run continues. An existing INDEX keeps its model (-m may be left out).\n"
            "options:\n"
            "  --mv-proj PROJ.gguf  also store multi-vectors (search re-ranks by MaxSim)\n"
            "  --batch N            images per vision pass at most (default: %d)\n"
            "  --image-max-tokens N merged tokens per image at most (default: 768)\n"
            "  -t, --threads N      worker threads (default: all cores)\n",
            INDEX_DEFAULT_BATCH);
    fprintf(out, "example: seer index ~/Pictures -o pictures.idx -m emb-llm.gguf --mmproj emb-mmproj.gguf\n");
}

static int usage_error(const char *msg, const char *arg) { return app_usage_error("index", msg, arg); }
static int fail(const char *msg) { return app_fail("index", msg); }

static int parse_args(int argc, char **argv, index_args *a) {
    memset(a, 0, sizeof *a);
    a->batch = INDEX_DEFAULT_BATCH;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
            usage(stdout);
            return -1;
        }
        if (s[0] != '-') {
            if (a->dir) return usage_error("one directory only; unexpected", s);
            a->dir = s;
            continue;
        }
        static const char *const takes[] = {"-o", "--output", "-m", "--model", "--mmproj", "--mv-proj",
                                            "--batch", "--image-max-tokens", "-t", "--threads"};
        bool known = false;
        for (size_t k = 0; k < sizeof takes / sizeof takes[0]; k++) known = known || !strcmp(s, takes[k]);
        if (!known) return usage_error("unknown argument", s);
        if (i + 1 >= argc) return usage_error("missing value after", s);
        const char *val = argv[++i];
        if (!strcmp(s, "-o") || !strcmp(s, "--output")) a->out = val;
        else if (!strcmp(s, "-m") || !strcmp(s, "--model")) a->model = val;
        else if (!strcmp(s, "--mmproj")) a->mmproj = val;
        else if (!strcmp(s, "--mv-proj")) a->mv_proj = val;
        else if (!strcmp(s, "--batch")) {
            if (app_parse_int(val, 1, SEER_VISION_MAX_BATCH, &a->batch)) return usage_error("--batch takes 1…16, not", val);
        } else if (!strcmp(s, "--image-max-tokens")) {
            if (app_parse_int(val, 8, 16384, &a->image_max_tokens))
                return usage_error("--image-max-tokens takes 8…16384, not", val);
        } else if (app_parse_int(val, 1, 1024, &a->threads)) {
            return usage_error("invalid thread count", val);
        }
    }
    if (!a->dir) return usage_error("which directory? seer index DIR -o INDEX", NULL);
    if (!a->out) return usage_error("-o INDEX is required", NULL);
    if (!strcmp(a->out, "-")) return usage_error("-o takes a file (the index is read back and updated), not", "-");
    return 0;
}

/* The header of a new index: absolute paths and fingerprints of the files. */
static int new_header(const index_args *a, const char *root, seer_embedder *emb, seer_index_header *h) {
    memset(h, 0, sizeof *h);
    seer_error err = {{0}};
    snprintf(h->model_name, sizeof h->model_name, "%s", seer_embedder_model_name(emb));
    if (strlen(root) >= sizeof h->root) return app_fail_path("index", "cannot index", root, "path too long");
    memcpy(h->root, root, strlen(root) + 1);
    const char *src[3] = {a->model, a->mmproj, a->mv_proj};
    char *dst[3] = {h->model, h->mmproj, h->mv_proj};
    uint64_t *fp[3] = {&h->model_fp, &h->mmproj_fp, &h->mv_proj_fp};
    for (int i = 0; i < 3; i++) {
        if (!src[i]) continue;
        char abs[PATH_MAX];
        if (!realpath(src[i], abs) || strlen(abs) >= sizeof h->model) return app_fail_path("index", "cannot open", src[i], strerror(errno));
        strcpy(dst[i], abs);
        if (!(*fp[i] = seer_file_fingerprint(abs, &err))) return fail(err.msg);
    }
    h->dim = seer_embedder_dim(emb);
    h->mv_dim = seer_embedder_mv_dim(emb);
    return 0;
}

/* The model of an existing index: its own files, or the ones given, which must be the same. */
static int use_index_model(index_args *a, const seer_index_header *h) {
    seer_error err = {{0}};
    if (seer_index_check_model(h, a->out, a->model ? a->model : h->model, &err) != 0) return fail(err.msg);
    if (a->mv_proj && (!h->mv_proj[0] || seer_file_fingerprint(a->mv_proj, NULL) != h->mv_proj_fp))
        return fail("the index was made with another multi-vector projector (or none): use another -o");
    a->model = h->model;
    a->mmproj = h->mmproj[0] ? h->mmproj : NULL;
    a->mv_proj = h->mv_proj[0] ? h->mv_proj : NULL;
    if (!a->mmproj) return fail("the index names no mmproj");
    return 0;
}

typedef struct todo {
    char *rel;
    int64_t size, mtime_ns;
} todo;

/* Embeds items[0..n) (one group) and appends their records; an image that
 * cannot be read is skipped with a warning. Returns the images added, or -1. */
static int embed_group(seer_embedder *emb, seer_index_writer *w, const seer_index_header *h, const char *root,
                       todo *items, int n, int *skipped) {
    char *paths[SEER_VISION_MAX_BATCH] = {0};
    seer_embedding out[SEER_VISION_MAX_BATCH];
    seer_error err = {{0}};
    for (int i = 0; i < n; i++) {
        size_t len = strlen(root) + strlen(items[i].rel) + 2;
        if ((paths[i] = malloc(len))) snprintf(paths[i], len, "%s/%s", root, items[i].rel);
    }
    int bad = -1, rc = seer_embedder_images(emb, (const char *const *)paths, n, out, &bad, &cancel_flag, &err);
    int added = 0;
    if (rc != 0 && bad >= 0 && n > 1) { /* one image at fault: the others one by one */
        for (int i = 0; i < n && added >= 0; i++) {
            int r = embed_group(emb, w, h, root, &items[i], 1, skipped);
            added = r < 0 ? -1 : added + r;
        }
    } else if (rc != 0 && bad == 0) {
        app_fail_path("index", "skipping", items[0].rel, err.msg);
        (*skipped)++;
    } else if (rc != 0) {
        if (!interrupted) fail(err.msg);
        added = -1;
    } else {
        for (int i = 0; i < n && added >= 0; i++) {
            seer_index_entry e = {.path = items[i].rel, .size = items[i].size, .mtime_ns = items[i].mtime_ns,
                                  .single = out[i].single, .multi = out[i].multi, .n_multi = out[i].n_multi};
            if (seer_index_append_add(w, &e, h->dim, h->mv_dim, &err) != 0) added = fail(err.msg);
            else added++;
        }
        for (int i = 0; i < n; i++) seer_embedding_free(&out[i]);
        if (added >= 0 && seer_index_sync(w, &err) != 0) added = fail(err.msg);
    }
    for (int i = 0; i < n; i++) free(paths[i]);
    return added;
}

int cmd_index(int argc, char **argv) {
    index_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc != 0) return rc < 0 ? 0 : rc;
    char root[PATH_MAX];
    struct stat st;
    if (!realpath(a.dir, root) || stat(root, &st) != 0) return app_fail_path("index", "cannot open", a.dir, strerror(errno));
    if (!S_ISDIR(st.st_mode)) return app_fail_path("index", "cannot index", a.dir, "not a directory");

    seer_error err = {{0}};
    seer_index ix = {0};
    bool exists = access(a.out, F_OK) == 0;
    if (exists) {
        if (seer_index_read(a.out, &ix, &err) != 0) return fail(err.msg);
        if (strcmp(ix.hdr.root, root) != 0) {
            char msg[3 * PATH_MAX];
            snprintf(msg, sizeof msg, "%s indexes %s, not %s: use another -o", a.out, ix.hdr.root, root);
            seer_index_free(&ix);
            return fail(msg);
        }
        if ((rc = use_index_model(&a, &ix.hdr)) != 0) {
            seer_index_free(&ix);
            return rc;
        }
    } else if (!a.model || !a.mmproj) {
        return usage_error("a new index needs -m MODEL.gguf and --mmproj MMPROJ.gguf", NULL);
    }

    seer_embedder_opts o = {.model = a.model, .mmproj = a.mmproj, .mv_proj = a.mv_proj, .threads = a.threads,
                            .image_max_tokens = a.image_max_tokens};
    seer_embedder *emb = seer_embedder_open(&o, &err);
    if (!emb) {
        seer_index_free(&ix);
        return fail(err.msg);
    }
    if (!exists && (rc = new_header(&a, root, emb, &ix.hdr)) != 0) {
        seer_embedder_free(emb);
        return rc;
    }

    char **names = NULL;
    int n_names = 0;
    if (app_list_images(root, true, &names, &n_names) != 0) {
        seer_embedder_free(emb);
        seer_index_free(&ix);
        return app_fail_path("index", "cannot read", root, strerror(errno));
    }
    /* What changed: new or modified images to embed, entries whose file is gone. */
    todo *items = calloc((size_t)n_names + 1, sizeof *items);
    char **gone = calloc((size_t)ix.n_entries + 1, sizeof *gone);
    int n_todo = 0, n_same = 0, n_updated = 0, n_gone = 0;
    for (int i = 0; items && i < n_names; i++) {
        char full[2 * PATH_MAX];
        snprintf(full, sizeof full, "%s/%s", root, names[i]);
        if (stat(full, &st) != 0) continue;
        int64_t mtime = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
        seer_index_entry *e = seer_index_find(&ix, names[i]);
        if (e && e->size == (int64_t)st.st_size && e->mtime_ns == mtime) {
            n_same++;
            continue;
        }
        n_updated += e != NULL;
        items[n_todo++] = (todo){names[i], (int64_t)st.st_size, mtime};
    }
    for (int i = 0; gone && i < ix.n_entries; i++) {
        char **hit = bsearch(&ix.entries[i].path, names, (size_t)n_names, sizeof *names, app_compare_names);
        if (!hit) gone[n_gone++] = ix.entries[i].path;
    }

    struct sigaction sa = {0}, old_int, old_term;
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    seer_index_writer *w = items && gone ? seer_index_append_open(a.out, &ix.hdr, exists ? ix.valid_bytes : 0, &err)
                                         : NULL;
    if (!w) rc = fail(items && gone ? err.msg : "out of memory");
    for (int i = 0; rc == 0 && i < n_gone; i++)
        if (seer_index_append_remove(w, gone[i], &err) != 0) rc = fail(err.msg);
    if (rc == 0 && n_gone && seer_index_sync(w, &err) != 0) rc = fail(err.msg);
    int added = 0, skipped = 0;
    const double t0 = seer_time_ms();
    for (int i = 0; rc == 0 && i < n_todo && !interrupted;) {
        int n = n_todo - i < a.batch ? n_todo - i : a.batch;
        int r = embed_group(emb, w, &ix.hdr, root, &items[i], n, &skipped);
        if (r < 0) {
            rc = interrupted ? 130 : 1;
            break;
        }
        added += r;
        i += n;
        progress_bar(i, n_todo, t0, "images");
    }
    if (interrupted) rc = 130;
    if (seer_index_close(w, &err) != 0 && rc == 0) rc = fail(err.msg);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    double secs = (seer_time_ms() - t0) / 1000.0;
    if (rc == 130) {
        fprintf(stderr, "\nseer index: interrupted: %d of %d images embedded and kept; run it again to continue\n",
                added, n_todo);
    } else if (rc == 0) {
        /* Many dead records (updated or removed images): rewrite with the live ones. */
        seer_index now;
        if (seer_index_read(a.out, &now, &err) == 0) {
            if (now.n_records > 2 * now.n_entries + 64 && seer_index_compact(a.out, &now, &err) != 0) rc = fail(err.msg);
            seer_index_free(&now);
        }
        printf("%s: %d images (%d embedded, of which %d changed; %d removed; %d unchanged; %d unreadable) in %.1f s\n",
               a.out, n_same + added, added, n_updated, n_gone, n_same, skipped, secs);
        if (added > 0 && secs > 0) printf("%.2f images/s\n", added / secs);
    }
    free(items);
    free(gone);
    app_free_names(names, n_names);
    seer_embedder_free(emb);
    seer_index_free(&ix);
    return rc;
}
