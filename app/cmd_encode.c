/* seer encode --mmproj P.gguf --image a.jpg [--image b.png …] -o out.f32 [-t N]:
 * runs the vision encoder + projector on the images as the model family
 * preprocesses them (all tiles / overview chunks, in prompt order) and writes
 * every embedding row concatenated, float32 little-endian, row-major
 * [n_tokens][n_embd]. Prints "n_tokens x n_embd" and the timings.
 * --dump-pixels FILE also writes every encoder input, in encode order, as
 * three float32 planes (R, G, B) of h×w normalised values, one after another.
 * Exit status: 0 ok, 1 file or model problems, 2 usage. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_errors.h"
#include "commands.h"
#include "options.h"
#include "seer/safe_write.h"
#include "seer/sanitize.h"
#include "seer/threadpool.h"
#include "seer/vision.h"

#define MAX_IMAGES 64

static void usage(FILE *out) {
    fprintf(out, "usage: seer encode --mmproj P.gguf --image IMAGE [--image IMAGE …] -o OUT.f32 [-t N]\n"
                 "  Encodes the images with the vision model and writes the embeddings as raw\n"
                 "  float32 rows [n_tokens][n_embd], all chunks of all images concatenated.\n"
                 "  -o FILE          the output (- for standard output)\n"
                 "  -t, --threads N  worker threads (default: all cores)\n"
                 "  --image-preproc original|llamacpp  as the model's own processor (default) or llama.cpp\n"
                 "  --vision-precision exact|bf16  the encoder's products exact (default) or in BF16\n"
                 "  --dump-pixels FILE  also write each encoder input as float32 planes R, G, B (h x w)\n");
    fprintf(out, "example: seer encode --mmproj mmproj-f16.gguf --image photo.jpg -o photo.f32\n");
}

static int usage_error(const char *msg, const char *arg) { return app_usage_error("encode", msg, arg); }

static int fail(const char *msg) { return app_fail("encode", msg); }

static int fail_errno(const char *what, const char *path) { return app_fail_path("encode", what, path, strerror(errno)); }

/* seer_safe_open: a failed run leaves no torn file, /dev/null stays a device. */
static int write_output(const char *path, const float *data, size_t n) {
    seer_safe_file out;
    seer_error err = {{0}};
    if (seer_safe_open(&out, path, &err) != 0) return fail(err.msg);
    if (fwrite(data, sizeof(float), n, out.f) != n) {
        int rc = fail_errno("cannot write", path);
        seer_safe_abandon(&out);
        return rc;
    }
    return seer_safe_commit(&out, &err) == 0 ? 0 : fail(err.msg);
}

typedef struct encode_args {
    const char *mmproj, *out, *dump_pixels;
    const char *images[MAX_IMAGES];
    int n_images, threads;
    seer_preproc_mode preproc;
    seer_vision_precision precision;
} encode_args;

/* The encoder inputs written so far (--dump-pixels), planes one after another. */
typedef struct pixel_dump {
    float *values;
    size_t n;
} pixel_dump;

static int dump_append(pixel_dump *d, const seer_pixels *px) {
    float *planes = seer_pixels_planes(px);
    size_t add = (size_t)3 * px->w * px->h;
    float *grown = planes ? realloc(d->values, (d->n + add) * sizeof(float)) : NULL;
    if (!grown) {
        free(planes);
        return fail("out of memory for --dump-pixels");
    }
    memcpy(grown + d->n, planes, add * sizeof(float));
    d->values = grown;
    d->n += add;
    free(planes);
    return 0;
}

static int parse_args(int argc, char **argv, encode_args *a) {
    memset(a, 0, sizeof *a);
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
            usage(stdout);
            return 1;
        }
        bool takes = !strcmp(s, "--mmproj") || !strcmp(s, "--image") || !strcmp(s, "-o") || !strcmp(s, "--output") ||
                     !strcmp(s, "-t") || !strcmp(s, "--threads") || !strcmp(s, "--dump-pixels") ||
                     !strcmp(s, "--image-preproc") || !strcmp(s, "--vision-precision");
        if (!takes) return usage_error("unknown argument", s);
        if (i + 1 >= argc) return usage_error("missing value after", s);
        const char *val = argv[++i];
        if (!strcmp(s, "--mmproj")) a->mmproj = val;
        else if (!strcmp(s, "--image")) {
            if (a->n_images == MAX_IMAGES) return usage_error("too many images", NULL);
            a->images[a->n_images++] = val;
        } else if (!strcmp(s, "-o") || !strcmp(s, "--output")) a->out = val;
        else if (!strcmp(s, "--dump-pixels")) a->dump_pixels = val;
        else if (!strcmp(s, "--image-preproc")) {
            if (!seer_preproc_mode_parse(val, &a->preproc))
                return usage_error("--image-preproc takes original or llamacpp, not", val);
        } else if (!strcmp(s, "--vision-precision")) {
            if (!seer_vision_precision_parse(val, &a->precision))
                return usage_error("--vision-precision takes exact or bf16, not", val);
        } else {
            char *end;
            long t = strtol(val, &end, 10);
            if (*val == 0 || *end != 0 || t < 1 || t > 1024) return usage_error("invalid thread count", val);
            a->threads = (int)t;
        }
    }
    if (!a->mmproj) return usage_error("--mmproj is required", NULL);
    if (a->n_images == 0) return usage_error("--image is required", NULL);
    if (!a->out) return usage_error("-o is required", NULL);
    return 0;
}

/* Appends the embeddings of every chunk of one image to *rows (the chunks
 * a few per vision pass where the tower takes them). */
static int encode_image(seer_vision *v, seer_pool *pool, const char *path, float **rows, size_t *n_rows,
                        int *n_chunks, double *encode_ms, double *flops, pixel_dump *dump) {
    const seer_vision_hparams *hp = seer_vision_get_hparams(v);
    seer_error err = {{0}};
    seer_image img;
    if (seer_image_load(path, 0, &img, &err) != 0) return fail(err.msg);
    seer_image_inputs in;
    int rc = seer_image_preprocess(hp, &img, &in, &err);
    seer_image_free(&img);
    if (rc != 0) return fail(err.msg);
    size_t add = 0, *first = calloc((size_t)in.n, sizeof *first);
    float **out = calloc((size_t)in.n, sizeof *out);
    if (!first || !out) rc = fail("out of memory for the embeddings");
    for (int c = 0; c < in.n && rc == 0; c++) {
        if (dump && (rc = dump_append(dump, &in.inputs[c])) != 0) break;
        int nx, ny;
        seer_vision_out_grid(v, in.inputs[c].w, in.inputs[c].h, &nx, &ny);
        first[c] = *n_rows + add;
        add += (size_t)seer_projector_tokens(hp->projector, nx, ny);
    }
    float *grown = rc == 0 ? realloc(*rows, (*n_rows + add) * (size_t)hp->n_embd_out * sizeof(float)) : NULL;
    if (rc == 0 && !grown) rc = fail("out of memory for the embeddings");
    if (rc == 0) {
        *rows = grown;
        for (int c = 0; c < in.n; c++) out[c] = grown + first[c] * (size_t)hp->n_embd_out;
        double t0 = seer_time_ms();
        if (seer_vision_encode_passes(v, pool, in.inputs, in.n, out, SEER_VISION_PASS_PATCHES, NULL, NULL, NULL, flops,
                                      &err) != 0) {
            char msg[SEER_ERR_MAX + 600];
            snprintf(msg, sizeof msg, "%s: %s", path, err.msg);
            rc = fail(msg);
        }
        *encode_ms += seer_time_ms() - t0;
    }
    if (rc == 0) {
        *n_rows += add;
        *n_chunks += in.n;
    }
    free(first);
    free(out);
    seer_image_inputs_free(&in);
    return rc;
}

int cmd_encode(int argc, char **argv) {
    encode_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc != 0) return rc == 1 ? 0 : rc;

    double t_start = seer_time_ms();
    seer_error err = {{0}};
    seer_vision *v = seer_vision_load(a.mmproj, &err);
    if (!v) return fail(err.msg);
    seer_vision_set_preproc(v, a.preproc);
    app_vision_precision(v, a.precision);
    double load_ms = seer_time_ms() - t_start;
    seer_pool *pool = seer_pool_create(a.threads);
    if (!pool) {
        seer_vision_free(v);
        return fail("cannot start the worker threads");
    }
    const seer_vision_hparams *hp = seer_vision_get_hparams(v);
    float *rows = NULL;
    size_t n_rows = 0;
    int n_chunks = 0;
    double encode_ms = 0, flops = 0;
    pixel_dump dump = {0};
    rc = 0;
    for (int i = 0; i < a.n_images && rc == 0; i++)
        rc = encode_image(v, pool, a.images[i], &rows, &n_rows, &n_chunks, &encode_ms, &flops,
                          a.dump_pixels ? &dump : NULL);
    if (rc == 0) rc = write_output(a.out, rows, n_rows * (size_t)hp->n_embd_out);
    if (rc == 0 && a.dump_pixels) rc = write_output(a.dump_pixels, dump.values, dump.n);
    free(dump.values);
    if (rc == 0) {
        /* with -o - the rows are standard output: the shape goes with the timings */
        fprintf(strcmp(a.out, "-") ? stdout : stderr, "%zu x %d\n", n_rows, hp->n_embd_out);
        fprintf(stderr, "seer encode: %d image(s), %d chunk(s), %zu tokens of %d; load %.1f ms, encode %.1f ms "
                        "(%.1f GFLOP, %.1f GFLOP/s), %d threads\n",
                a.n_images, n_chunks, n_rows, hp->n_embd_out, load_ms, encode_ms, flops * 1e-9,
                encode_ms > 0 ? flops * 1e-6 / encode_ms : 0.0, seer_pool_size(pool));
    }
    free(rows);
    seer_pool_destroy(pool);
    seer_vision_free(v);
    return rc;
}
