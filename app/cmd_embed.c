/* seer embed -m MODEL.gguf [--mmproj P.gguf] [--mv-proj PROJ.gguf] inputs…:
 * embeddings the jina-embeddings-v4 way (see seer/embed.h): one vector per
 * input (mean of the final hidden states, L2-normalised, --dim cut), or with
 * --multi one L2-normalised row per token through the multi-vector
 * projector. Inputs, in command-line order: -p TEXT, --file FILE (one text a
 * line), --image IMAGE or DIR (its images, by name). Output on stdout or -o.
 * --dump DIR writes each input's token ids, hidden states and pixels for
 * checks against other implementations.
 * Exit status: 0 ok, 1 file or model problems, 2 usage. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_args.h"
#include "cli_errors.h"
#include "commands.h"
#include "hub_fetch.h"
#include "image_files.h"
#include "options.h"
#include "progress_bar.h"
#include "seer/embed.h"
#include "seer/safe_write.h"
#include "seer/sanitize.h"
#include "seer/threadpool.h"

/* The model's own cap on merged tokens per image (jina-embeddings-v4's
 * processor: max_pixels = 768·28²). */
#define EMBED_DEFAULT_IMAGE_TOKENS 768
#define EMBED_MAX_INPUTS 1000000
/* Images encoded per vision pass: up to --batch of them (default 8) while
 * the pass holds at most SEER_VISION_PASS_PATCHES patches (1024 merged
 * tokens); a larger image goes alone, its products already long. */
#define EMBED_DEFAULT_BATCH 8

typedef struct embed_input {
    bool image;
    char *value; /* text, or image path */
} embed_input;

typedef struct embed_args {
    const char *model, *mmproj, *mv_proj, *out, *dump;
    app_hub_args hub; /* -hf USER/REPO[:TAG]: the model (and its mmproj) from the hub */
    seer_embed_role role;
    seer_embed_format format;
    int dim, threads, n_ctx, image_max_tokens, batch;
    seer_vision_precision precision;
    bool multi;
    embed_input *inputs;
    int n_inputs, cap_inputs;
} embed_args;

static void usage(FILE *out) {
    fprintf(out,
            "usage: seer embed -m MODEL.gguf [--mmproj MMPROJ.gguf] [--mv-proj PROJ.gguf] [options] INPUTS\n"
            "       seer embed -hf USER/REPO[:QUANT] [options] INPUTS (the model from the Hugging Face hub)\n"
            "  Embeds texts and images (jina-embeddings-v4 recipe): one L2-normalised vector per input,\n"
            "  the mean of the final hidden states, or with --multi one vector per token.\n"
            "inputs (in the order given):\n"
            "  -p, --prompt TEXT    a text (repeatable)\n"
            "  --file FILE          one text per line (empty lines skipped)\n"
            "  --image PATH         an image, or a directory: its images by name (repeatable)\n"
            "options:\n"
            "  --role query|passage|none  prefix texts with 'Query: ' / 'Passage: ' (default: none)\n"
            "  --dim N              Matryoshka: keep the first N values, normalise again\n"
            "  --multi              multi-vectors (needs --mv-proj)\n"
            "  --format json|jsonl|f32|npy  output format (default: json)\n"
            "  -o, --output FILE    write there instead of stdout (- is stdout too)\n"
            "  --image-max-tokens N merged tokens per image at most (default: %d)\n"
            "  --batch N            images per vision pass at most (default: %d; small images share a pass)\n"
            "  -c, --ctx-size N     tokens per input at most (default: min(training context, 4096))\n"
            "  -t, --threads N      worker threads (default: all cores)\n"
            "  --vision-precision exact|bf16  the image encoder's products exact (default) or in BF16\n"
            "  --dump DIR           also write ids_I.txt, hidden_I.f32 (and pixels_I.f32: planes R, G, B)\n",
            EMBED_DEFAULT_IMAGE_TOKENS, EMBED_DEFAULT_BATCH);
    app_hub_usage(out);
    fprintf(out, "example: seer embed -m emb-llm.gguf --mmproj emb-mmproj.gguf --role query -p \"a red car\" --image photos/\n");
}

static int usage_error(const char *msg, const char *arg) { return app_usage_error("embed", msg, arg); }

static int fail(const char *msg) { return app_fail("embed", msg); }

static int fail_path(const char *what, const char *path, const char *why) {
    return app_fail_path("embed", what, path, why);
}

static int add_input(embed_args *a, bool image, const char *value, size_t len) {
    if (a->n_inputs == EMBED_MAX_INPUTS) return usage_error("too many inputs", NULL);
    if (a->n_inputs == a->cap_inputs) {
        int cap = a->cap_inputs ? 2 * a->cap_inputs : 16;
        embed_input *grown = realloc(a->inputs, sizeof *grown * (size_t)cap);
        if (!grown) return fail("out of memory");
        a->inputs = grown;
        a->cap_inputs = cap;
    }
    char *copy = strndup(value, len);
    if (!copy) return fail("out of memory");
    a->inputs[a->n_inputs++] = (embed_input){.image = image, .value = copy};
    return 0;
}

static void free_inputs(embed_args *a) {
    for (int i = 0; i < a->n_inputs; i++) free(a->inputs[i].value);
    free(a->inputs);
}

static int add_text_file(embed_args *a, const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return fail_path("cannot open", path, strerror(errno));
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int rc = 0;
    while (rc == 0 && (len = getline(&line, &cap, f)) >= 0) {
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) len--;
        if (len > 0) rc = add_input(a, false, line, (size_t)len);
    }
    if (rc == 0 && ferror(f)) rc = fail_path("cannot read", path, strerror(errno));
    free(line);
    fclose(f);
    return rc;
}

/* An image, or every image of a directory in name order. */
static int add_image_path(embed_args *a, const char *path) {
    struct stat st;
    if (stat(path, &st) != 0) return fail_path("cannot open", path, strerror(errno));
    if (!S_ISDIR(st.st_mode)) return add_input(a, true, path, strlen(path));
    char **names;
    int n, rc = 0;
    if (app_list_images(path, false, &names, &n) != 0) return fail_path("cannot open", path, strerror(errno));
    if (n == 0) rc = fail_path("no images in", path, "expected .png, .jpg, .jpeg, .bmp, .gif, ...");
    for (int i = 0; rc == 0 && i < n; i++) {
        size_t len = strlen(path) + strlen(names[i]) + 2;
        char *full = malloc(len);
        if (!full) rc = fail("out of memory");
        else {
            snprintf(full, len, "%s/%s", path, names[i]);
            rc = add_input(a, true, full, strlen(full));
            free(full);
        }
    }
    app_free_names(names, n);
    return rc;
}

/* 0, or the exit status (2 usage, 1 unreadable input file), or -1 after --help. */
static int parse_args(int argc, char **argv, embed_args *a) {
    memset(a, 0, sizeof *a);
    a->format = SEER_EMBED_JSON;
    a->image_max_tokens = EMBED_DEFAULT_IMAGE_TOKENS;
    a->batch = EMBED_DEFAULT_BATCH;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
            usage(stdout);
            return -1;
        }
        if (!strcmp(s, "--multi")) {
            a->multi = true;
            continue;
        }
        const int hub = app_hub_arg(argc, argv, &i, &a->hub);
        if (hub < 0) return usage_error("missing value after", s);
        if (hub > 0) continue;
        static const char *const takes[] = {"-m", "--model", "--mmproj", "--mv-proj", "-p", "--prompt", "--file",
                                            "--image", "--role", "--dim", "--format", "-o", "--output",
                                            "--image-max-tokens", "--batch", "-c", "--ctx-size", "-t", "--threads", "--dump",
                                            "--vision-precision"};
        bool known = false;
        for (size_t k = 0; k < sizeof takes / sizeof takes[0]; k++) known = known || !strcmp(s, takes[k]);
        if (!known) return usage_error("unknown argument", s);
        if (i + 1 >= argc) return usage_error("missing value after", s);
        const char *val = argv[++i];
        int rc = 0;
        if (!strcmp(s, "-m") || !strcmp(s, "--model")) a->model = val;
        else if (!strcmp(s, "--mmproj")) a->mmproj = val;
        else if (!strcmp(s, "--mv-proj")) a->mv_proj = val;
        else if (!strcmp(s, "-o") || !strcmp(s, "--output")) a->out = val;
        else if (!strcmp(s, "--dump")) a->dump = val;
        else if (!strcmp(s, "-p") || !strcmp(s, "--prompt")) rc = add_input(a, false, val, strlen(val));
        else if (!strcmp(s, "--file")) rc = add_text_file(a, val);
        else if (!strcmp(s, "--image")) rc = add_image_path(a, val);
        else if (!strcmp(s, "--role")) {
            if (!seer_embed_role_parse(val, &a->role)) return usage_error("--role takes query, passage or none, not", val);
        } else if (!strcmp(s, "--format")) {
            if (!seer_embed_format_parse(val, &a->format))
                return usage_error("--format takes json, jsonl, f32 or npy, not", val);
        } else if (!strcmp(s, "--dim")) {
            if (app_parse_int(val, 1, 1 << 20, &a->dim)) return usage_error("invalid --dim", val);
        } else if (!strcmp(s, "--image-max-tokens")) {
            if (app_parse_int(val, 8, 16384, &a->image_max_tokens))
                return usage_error("--image-max-tokens takes 8…16384, not", val);
        } else if (!strcmp(s, "--batch")) {
            if (app_parse_int(val, 1, SEER_VISION_MAX_BATCH, &a->batch))
                return usage_error("--batch takes 1…16 images, not", val);
        } else if (!strcmp(s, "-c") || !strcmp(s, "--ctx-size")) {
            if (app_parse_int(val, 16, 1 << 20, &a->n_ctx)) return usage_error("invalid context size", val);
        } else if (!strcmp(s, "--vision-precision")) {
            if (!seer_vision_precision_parse(val, &a->precision))
                return usage_error("--vision-precision takes exact or bf16, not", val);
        } else if (app_parse_int(val, 1, 1024, &a->threads)) {
            return usage_error("invalid thread count", val);
        }
        if (rc != 0) return rc;
    }
    const char *hub_problem = app_hub_args_problem(&a->hub);
    if (hub_problem) return usage_error(hub_problem, NULL);
    if (a->model && a->hub.repo) return usage_error("give either -m or -hf, not both", NULL);
    if (!a->model && !a->hub.repo) return usage_error("-m MODEL.gguf (or -hf USER/REPO) is required", NULL);
    if (a->n_inputs == 0) return usage_error("nothing to embed: give -p TEXT, --file FILE or --image PATH", NULL);
    if (a->multi && !a->mv_proj) return usage_error("--multi needs --mv-proj PROJ.gguf", NULL);
    if (a->multi && a->dim) return usage_error("--dim applies to single vectors, not to --multi", NULL);
    for (int i = 0; i < a->n_inputs; i++)
        if (a->inputs[i].image && !a->mmproj && !a->hub.repo)
            return usage_error("images need --mmproj MMPROJ.gguf", NULL);
    return 0;
}

/* What the run holds. */
typedef struct embed_run {
    seer_pool *pool;
    seer_llm *llm;
    seer_vision *vision;
    seer_mv_proj *mv;
    seer_ctx *ctx;
} embed_run;

static void run_free(embed_run *r) {
    seer_ctx_free(r->ctx);
    seer_mv_proj_free(r->mv);
    seer_vision_free(r->vision);
    seer_llm_free(r->llm);
    seer_pool_destroy(r->pool);
}

static int run_load(const embed_args *a, embed_run *r) {
    seer_error err = {{0}};
    if (!(r->pool = seer_pool_create(a->threads))) return fail("cannot start the worker threads");
    if (!(r->llm = seer_llm_load(a->model, NULL, NULL, &err))) return fail(err.msg);
    const seer_llm_info *info = seer_llm_get_info(r->llm);
    if (a->dim > info->n_embd) {
        char msg[128];
        snprintf(msg, sizeof msg, "--dim %d is wider than the model's %d", a->dim, info->n_embd);
        return fail(msg);
    }
    bool images = false;
    for (int i = 0; i < a->n_inputs; i++) images = images || a->inputs[i].image;
    if (images) {
        if (!(r->vision = seer_vision_load(a->mmproj, &err))) return fail(err.msg);
        seer_vision_set_preproc(r->vision, SEER_PREPROC_ORIGINAL);
        seer_vision_set_max_image_tokens(r->vision, a->image_max_tokens);
        app_vision_precision(r->vision, a->precision);
        if (seer_mtmd_check_pair(r->llm, r->vision, &err) != 0) return fail(err.msg);
    }
    if (a->multi) {
        if (!(r->mv = seer_mv_proj_load(a->mv_proj, &err))) return fail(err.msg);
        if (seer_mv_proj_n_in(r->mv) != info->n_embd) {
            char msg[SEER_ERR_MAX];
            snprintf(msg, sizeof msg, "the multi-vector projector takes rows of %d, the model's are %d",
                     seer_mv_proj_n_in(r->mv), info->n_embd);
            return fail(msg);
        }
    }
    if (!(r->ctx = seer_ctx_new(r->llm, a->n_ctx, SEER_KV_F32, r->pool, &err))) return fail(err.msg);
    return 0;
}

/* --dump DIR/<what>_<index>.<ext>: bytes as they are, or ids one a line. */
static int write_dump(const char *dir, const char *what, int index, const char *ext, const void *data, size_t bytes,
                      bool ids) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s_%d.%s", dir, what, index, ext);
    seer_safe_file out;
    seer_error err = {{0}};
    if (seer_safe_open(&out, path, &err) != 0) return fail(err.msg);
    if (ids)
        for (size_t i = 0; i < bytes / sizeof(int32_t); i++) fprintf(out.f, "%d\n", ((const int32_t *)data)[i]);
    else if (fwrite(data, 1, bytes, out.f) != bytes) {
        seer_safe_abandon(&out);
        return fail_path("cannot write", path, strerror(errno));
    }
    return seer_safe_commit(&out, &err) == 0 ? 0 : fail(err.msg);
}

/* --dump: the encoder input of an image prompt, before it is encoded. */
static int dump_pixels(const char *dir, int index, const seer_mm_prompt *p) {
    for (int c = 0; c < p->n_chunks; c++) {
        const seer_pixels *px = &p->chunks[c].pixels;
        if (p->chunks[c].type != SEER_CHUNK_IMAGE || !seer_pixels_present(px)) continue;
        float *planes = seer_pixels_planes(px);
        if (!planes) return fail("out of memory for --dump");
        int rc = write_dump(dir, "pixels", index, "f32", planes, sizeof(float) * 3 * (size_t)px->w * (size_t)px->h,
                            false);
        free(planes);
        return rc;
    }
    return 0;
}

/* The prompt of input i (--dump: its pixels, before they are encoded). */
static int make_prompt(const embed_args *a, embed_run *r, int i, seer_mm_prompt *prompt) {
    const embed_input *in = &a->inputs[i];
    const seer_vocab *vocab = seer_llm_vocab(r->llm);
    seer_error err = {{0}};
    if (in->image) {
        seer_image img;
        if (seer_image_load(in->value, 0, &img, &err) != 0) return fail(err.msg);
        int rc = seer_embed_image_prompt(vocab, r->vision, &img, prompt, &err);
        seer_image_free(&img);
        if (rc != 0) return fail_path("image", in->value, err.msg);
    } else if (seer_embed_text_prompt(vocab, a->role, in->value, prompt, &err) != 0) {
        char msg[SEER_ERR_MAX + 32];
        snprintf(msg, sizeof msg, "text %d: %s", i + 1, err.msg);
        return fail(msg);
    }
    int rc = a->dump ? dump_pixels(a->dump, i, prompt) : 0;
    if (rc != 0) seer_mm_prompt_free(prompt);
    return rc;
}

/* Input i's hidden states from its prompt (images encoded already), and
 * its rows for the output. */
static int embed_prompt(const embed_args *a, embed_run *r, int i, seer_mm_prompt *prompt, seer_embed_writer *w) {
    seer_error err = {{0}};
    seer_embed_states st = {0};
    int rc = 0;
    if (seer_embed_states_compute(r->ctx, r->vision, r->pool, prompt, &st, NULL, &err) != 0) {
        char msg[SEER_ERR_MAX + 32];
        snprintf(msg, sizeof msg, "input %d: %s", i + 1, err.msg);
        return fail(msg);
    }
    if (a->dump) {
        rc = write_dump(a->dump, "ids", i, "txt", st.ids, sizeof(int32_t) * (size_t)st.n_tokens, true);
        if (rc == 0)
            rc = write_dump(a->dump, "hidden", i, "f32", st.hidden,
                            sizeof(float) * (size_t)st.n_tokens * (size_t)st.n_embd, false);
    }
    const int rows = a->multi ? st.n_tokens : 1;
    const int width = a->multi ? seer_mv_proj_dim(r->mv) : st.n_embd;
    float *out = rc == 0 ? malloc(sizeof(float) * (size_t)rows * (size_t)width) : NULL;
    if (rc == 0 && !out) rc = fail("out of memory for the embeddings");
    if (rc == 0) {
        int dim = width;
        if (a->multi) seer_mv_proj_apply(r->mv, st.hidden, st.n_tokens, out);
        else dim = seer_embed_single(&st, a->dim, out);
        if (dim < 0) rc = fail("out of memory for the single vector");
        else if (seer_embed_writer_add(w, out, rows, dim) != 0) rc = fail("cannot write the output");
    }
    free(out);
    seer_embed_states_free(&st);
    return rc;
}

/* Inputs first..first+n-1: their prompts, their images encoded together
 * (several per vision pass where the tower allows), then each decoded. */
static int embed_group(const embed_args *a, embed_run *r, int first, int n, seer_embed_writer *w) {
    seer_mm_prompt prompts[SEER_VISION_MAX_BATCH];
    int made = 0, rc = 0;
    for (; rc == 0 && made < n; made++)
        if ((rc = make_prompt(a, r, first + made, &prompts[made])) != 0) break;
    seer_error err = {{0}};
    if (rc == 0 && r->vision &&
        seer_embed_encode_images(r->vision, r->pool, prompts, n, SEER_VISION_PASS_PATCHES, NULL, NULL, &err) != 0) {
        char msg[SEER_ERR_MAX + 64];
        snprintf(msg, sizeof msg, "inputs %d-%d: %s", first + 1, first + n, err.msg);
        rc = fail(msg);
    }
    for (int k = 0; k < made; k++) {
        if (rc == 0) rc = embed_prompt(a, r, first + k, &prompts[k], w);
        seer_mm_prompt_free(&prompts[k]);
    }
    return rc;
}

int cmd_embed(int argc, char **argv) {
    embed_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc != 0) { /* -1: --help */
        free_inputs(&a);
        return rc < 0 ? 0 : rc;
    }
    seer_hub_files hub = {0};
    if (a.hub.repo) { /* the model, and the repository's projector when images need one and none is given */
        bool images = false;
        for (int i = 0; i < a.n_inputs; i++) images = images || a.inputs[i].image;
        seer_error hub_err = {{0}};
        if ((rc = app_hub_fetch(&a.hub, images && !a.mmproj, &hub, &hub_err)) != 0) {
            fail(hub_err.msg);
            free_inputs(&a);
            return rc;
        }
        a.model = hub.model;
        if (!a.mmproj) a.mmproj = hub.mmproj;
        if (images && !a.mmproj) {
            rc = usage_error("the repository has no mmproj file: images need --mmproj MMPROJ.gguf", NULL);
            seer_hub_files_free(&hub);
            free_inputs(&a);
            return rc;
        }
    }
    embed_run r = {0};
    seer_safe_file out = {0};
    seer_embed_writer *w = NULL;
    seer_error err = {{0}};
    /* seer_safe_open: a failed or interrupted run leaves no torn file. */
    rc = run_load(&a, &r);
    if (rc == 0 && a.dump && seer_mkdirs(a.dump, 0777, &err) != 0) rc = fail(err.msg);
    if (rc == 0 && seer_safe_open(&out, a.out ? a.out : "-", &err) != 0) rc = fail(err.msg);
    if (rc == 0 && !(w = seer_embed_writer_new(out.f, a.format, a.multi, seer_llm_get_info(r.llm)->name)))
        rc = fail("out of memory");
    const double t0 = seer_time_ms();
    for (int i = 0; rc == 0 && i < a.n_inputs;) {
        int n = 1; /* consecutive images go together, --batch at most */
        while (a.inputs[i].image && n < a.batch && i + n < a.n_inputs && a.inputs[i + n].image) n++;
        rc = embed_group(&a, &r, i, n, w);
        i += n;
        if (a.n_inputs > 1) progress_bar(i, a.n_inputs, t0, "inputs"); /* one input: no bar */
    }
    if (rc != 0) seer_embed_writer_abandon(w);
    else if (w && seer_embed_writer_finish(w) != 0) rc = fail("cannot write the output");
    if (out.f && rc == 0 && seer_safe_commit(&out, &err) != 0) rc = fail(err.msg);
    if (out.f) seer_safe_abandon(&out);
    run_free(&r);
    free_inputs(&a);
    seer_hub_files_free(&hub);
    return rc;
}
