/* seer ocr: the text of each image (or of each image in a folder), one block
 * per file headed by its name, read with the model's own OCR prompt
 * (seer_ocr_prompt) or -p, greedy unless asked otherwise. Every page is a
 * fresh conversation: its image is encoded at the size the model's
 * preprocessing gives it (PaddleOCR-VL: up to its 2.8 M pixel budget, as
 * llama.cpp does), never shrunk further. Progress and per-image timings go
 * to stderr; with -o the text goes to a file written atomically.
 * Exit codes: 0 ok, 1 some file failed, 2 usage error, 130 interrupted. */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_args.h"
#include "commands.h"
#include "hub_fetch.h"
#include "image_files.h"
#include "options.h"
#include "seer/chat.h"
#include "seer/llm.h"
#include "seer/mtmd.h"
#include "seer/safe_write.h"
#include "seer/sanitize.h"
#include "seer/session.h"

#define OCR_DEFAULT_CTX 8192 /* a full page's image tokens (PaddleOCR-VL: up to 3600) and its text */
#define OCR_MAX_FILES 100000

static volatile int interrupted;
static void on_sigint(int sig) {
    (void)sig;
    interrupted = 1;
}

typedef struct ocr_args {
    const char *model, *mmproj, *prompt, *out;
    app_hub_args hub;
    int n_predict, n_ctx, threads;
    float temp, repeat_penalty;
    seer_preproc_mode preproc;
    seer_vision_precision precision;
    bool recursive, quiet;
    char **files; /* the pages, folders expanded */
    int n_files, cap_files;
} ocr_args;

static void usage(FILE *out) {
    fprintf(out,
            "usage: seer ocr -m MODEL.gguf --mmproj MMPROJ.gguf [options] IMAGE|FOLDER...\n"
            "       seer ocr -hf USER/REPO[:QUANT] [options] IMAGE|FOLDER...\n"
            "\n"
            "Reads the text of each image with an OCR model (PaddleOCR-VL) and prints it, plain or\n"
            "Markdown as the model writes it, one block per file headed \"==> FILE <==\". The model's\n"
            "own OCR prompt is used; a model without one needs -p. Greedy by default, so the same page\n"
            "always gives the same text. Progress and per-image timings go to stderr.\n"
            "\n"
            "  -m, --model FILE        language model (GGUF)\n"
            "      --mmproj FILE       vision projector (GGUF)\n");
    app_hub_usage(out);
    fprintf(out,
            "  -p, --prompt TEXT       the instruction sent after each image (default: the model's OCR prompt)\n"
            "  -o, --output FILE       write the text to FILE (replaced atomically) instead of stdout\n"
            "  -r, --recursive         images in the subfolders of a FOLDER too\n"
            "  -n, --n-predict N       tokens per image at most (default: until the model stops)\n"
            "  -c, --ctx-size N        context size in tokens (default %d)\n"
            "  -t, --threads N         threads (default: all cores)\n"
            "      --temp T            temperature (default 0: greedy)\n"
            "      --repeat-penalty F  (default 1.0 = off)\n"
            "      --image-preproc original|llamacpp  how images are prepared (default original)\n"
            "      --vision-precision exact|bf16  the encoder's products exact (default) or in BF16\n"
            "                          (faster where the CPU has BF16 dot products; see seer(1))\n"
            "  -q, --quiet             no progress lines\n"
            "  -h, --help              this help\n"
            "example: seer ocr -m PaddleOCR-VL.gguf --mmproj mmproj-PaddleOCR-VL.gguf scan1.png receipts/\n",
            OCR_DEFAULT_CTX);
}

static int usage_error(const char *what, const char *arg) {
    char safe[256] = "";
    if (arg) seer_text_sanitize(arg, strlen(arg), safe, sizeof safe, 0);
    fprintf(stderr, "seer ocr: %s%s%s (try 'seer ocr --help')\n", what, arg ? " " : "", safe);
    return 2;
}

static int add_file(ocr_args *a, char *path) {
    if (!path) return usage_error("out of memory", NULL);
    if (a->n_files == OCR_MAX_FILES) {
        free(path);
        return usage_error("too many images (100000 at most)", NULL);
    }
    if (a->n_files == a->cap_files) {
        int cap = a->cap_files ? 2 * a->cap_files : 16;
        char **g = realloc(a->files, (size_t)cap * sizeof *g);
        if (!g) {
            free(path);
            return usage_error("out of memory", NULL);
        }
        a->files = g;
        a->cap_files = cap;
    }
    a->files[a->n_files++] = path;
    return 0;
}

/* A file as it is; a folder as the images in it, sorted by name. */
static int add_input(ocr_args *a, const char *path) {
    struct stat st;
    if (stat(path, &st) != 0) return usage_error("no such file:", path);
    if (!S_ISDIR(st.st_mode)) return add_file(a, strdup(path));
    char **names;
    int n;
    if (app_list_images(path, a->recursive, &names, &n) != 0) return usage_error("cannot read the folder", path);
    if (n == 0) fprintf(stderr, "seer ocr: warning: no images in %s\n", path);
    int rc = 0;
    const size_t dl = strlen(path);
    const bool slash = dl > 0 && path[dl - 1] == '/';
    for (int i = 0; i < n && rc == 0; i++) {
        char *full = malloc(dl + strlen(names[i]) + 2);
        if (full) sprintf(full, "%s%s%s", path, slash ? "" : "/", names[i]);
        rc = add_file(a, full);
    }
    app_free_names(names, n);
    return rc;
}

static int parse_args(int argc, char **argv, ocr_args *a) {
    memset(a, 0, sizeof *a);
    a->n_ctx = OCR_DEFAULT_CTX;
    a->repeat_penalty = 1.0f;
    const char **inputs = calloc((size_t)argc, sizeof *inputs);
    int n_inputs = 0;
    if (!inputs) return usage_error("out of memory", NULL);
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
            usage(stdout);
            free(inputs);
            return -1;
        }
        if (!strcmp(s, "-r") || !strcmp(s, "--recursive")) {
            a->recursive = true;
            continue;
        }
        if (!strcmp(s, "-q") || !strcmp(s, "--quiet")) {
            a->quiet = true;
            continue;
        }
        if (s[0] != '-' || !strcmp(s, "-")) {
            inputs[n_inputs++] = s;
            continue;
        }
        const int hub = app_hub_arg(argc, argv, &i, &a->hub);
        if (hub < 0) return free(inputs), usage_error("missing value after", s);
        if (hub > 0) continue;
        static const char *const takes[] = {"-m", "--model", "--mmproj", "-p", "--prompt", "-o", "--output",
                                            "-n", "--n-predict", "-c", "--ctx-size", "-t", "--threads", "--temp",
                                            "--repeat-penalty", "--image-preproc", "--vision-precision"};
        bool known = false;
        for (size_t k = 0; k < sizeof takes / sizeof takes[0]; k++) known = known || !strcmp(s, takes[k]);
        if (!known) return free(inputs), usage_error("unknown argument", s);
        if (i + 1 >= argc) return free(inputs), usage_error("missing value after", s);
        const char *val = argv[++i];
        char *end = NULL;
        if (!strcmp(s, "-m") || !strcmp(s, "--model")) a->model = val;
        else if (!strcmp(s, "--mmproj")) a->mmproj = val;
        else if (!strcmp(s, "-p") || !strcmp(s, "--prompt")) a->prompt = val;
        else if (!strcmp(s, "-o") || !strcmp(s, "--output")) a->out = val;
        else if (!strcmp(s, "-n") || !strcmp(s, "--n-predict")) {
            if (app_parse_int(val, 1, 1 << 20, &a->n_predict)) return free(inputs), usage_error("invalid -n", val);
        } else if (!strcmp(s, "-c") || !strcmp(s, "--ctx-size")) {
            if (app_parse_int(val, 64, 1 << 20, &a->n_ctx)) return free(inputs), usage_error("invalid context size", val);
        } else if (!strcmp(s, "-t") || !strcmp(s, "--threads")) {
            if (app_parse_int(val, 1, 1024, &a->threads)) return free(inputs), usage_error("invalid thread count", val);
        } else if (!strcmp(s, "--temp")) {
            a->temp = strtof(val, &end);
            if (end == val || *end || !(a->temp >= 0 && a->temp <= 10)) return free(inputs), usage_error("invalid --temp", val);
        } else if (!strcmp(s, "--repeat-penalty")) {
            a->repeat_penalty = strtof(val, &end);
            if (end == val || *end || !(a->repeat_penalty >= 0.5f && a->repeat_penalty <= 10))
                return free(inputs), usage_error("invalid --repeat-penalty", val);
        } else if (!strcmp(s, "--image-preproc")) {
            if (!seer_preproc_mode_parse(val, &a->preproc))
                return free(inputs), usage_error("--image-preproc takes original or llamacpp, not", val);
        } else if (!seer_vision_precision_parse(val, &a->precision)) {
            return free(inputs), usage_error("--vision-precision takes exact or bf16, not", val);
        }
    }
    const char *hub_problem = app_hub_args_problem(&a->hub);
    int rc = 0;
    if (hub_problem) rc = usage_error(hub_problem, NULL);
    else if (a->model && a->hub.repo) rc = usage_error("give either -m or -hf, not both", NULL);
    else if (!a->model && !a->hub.repo) rc = usage_error("-m MODEL.gguf (or -hf USER/REPO) is required", NULL);
    else if (!a->mmproj && (!a->hub.repo || a->hub.no_mmproj)) rc = usage_error("--mmproj MMPROJ.gguf is required", NULL);
    else if (n_inputs == 0) rc = usage_error("no images: give image files or folders", NULL);
    for (int i = 0; i < n_inputs && rc == 0; i++) rc = add_input(a, inputs[i]);
    free(inputs);
    if (rc == 0 && a->n_files == 0) rc = usage_error("no images found", NULL);
    return rc;
}

static void free_args(ocr_args *a) {
    for (int i = 0; i < a->n_files; i++) free(a->files[i]);
    free(a->files);
}

/* ---- one page ---- */

typedef struct page_out {
    FILE *f;
    bool started; /* leading newlines of the reply are dropped */
    bool ends_in_newline;
} page_out;

static int on_token(void *ud, const seer_gen_token *t) {
    page_out *o = ud;
    const char *s = t->text;
    int n = t->text_len;
    if (!o->started)
        while (n > 0 && (*s == '\n' || *s == ' ')) s++, n--;
    if (n <= 0) return 0;
    o->started = true;
    char *safe = seer_text_sanitize_dup(s, (size_t)n, SEER_SANITIZE_KEEP_NEWLINES | SEER_SANITIZE_KEEP_TABS);
    if (safe && *safe) {
        fputs(safe, o->f);
        o->ends_in_newline = safe[strlen(safe) - 1] == '\n';
        fflush(o->f);
    }
    free(safe);
    return interrupted;
}

/* Reads one page into its block. 0, or 1 when this file failed (the error
 * said), 130 when interrupted. */
static int read_page(seer_session *s, const char *path, const char *prompt, FILE *f, bool quiet, int index,
                     int total) {
    char name[512];
    seer_text_sanitize(path, strlen(path), name, sizeof name, 0);
    seer_session_clear(s);
    seer_error err = {{0}};
    const double t0 = seer_time_ms();
    if (seer_session_attach_image(s, path, &interrupted, &err) < 0) {
        if (interrupted) return 130;
        fprintf(stderr, "seer ocr: %s: %s\n", name, err.msg);
        return 1;
    }
    const seer_session_image im = seer_session_get_image(s, 0);
    fprintf(f, "==> %s <==\n", name);
    page_out out = {.f = f};
    seer_session_hooks hooks = {.ud = &out, .on_token = on_token};
    seer_turn_stats st;
    memset(&st, 0, sizeof st);
    const int rc = seer_session_send(s, prompt, &hooks, &interrupted, &st, &err);
    fputs(out.ends_in_newline || !out.started ? "\n" : "\n\n", f);
    fflush(f);
    if (rc != 0) {
        fprintf(stderr, "seer ocr: %s: %s\n", name, err.msg);
        return 1;
    }
    if (st.stop == SEER_STOP_CANCELLED || interrupted) return 130;
    if (!quiet)
        fprintf(stderr,
                "seer ocr: [%d/%d] %s: %dx%d, %d image tokens encoded in %.0f ms, prompt %d tokens in %.0f ms, "
                "%d tokens in %.0f ms (%.1f tok/s), stop: %s, total %.1f s\n",
                index, total, name, im.w, im.h, im.n_tokens, im.encode_ms, st.prefill_tokens, st.prefill_ms,
                st.gen_tokens, st.gen_ms, st.gen_ms > 0 ? st.gen_tokens * 1000.0 / st.gen_ms : 0.0,
                seer_stop_reason_name(st.stop), (seer_time_ms() - t0) / 1000.0);
    if (st.stop == SEER_STOP_CONTEXT_FULL)
        fprintf(stderr, "seer ocr: warning: %s: the context filled up before the text ended (raise -c)\n", name);
    return 0;
}

/* ---- the run ---- */

static int run(const ocr_args *a, const char *model, const char *mmproj) {
    seer_error err = {{0}};
    seer_pool *pool = seer_pool_create(a->threads);
    seer_llm *llm = seer_llm_load(model, NULL, NULL, &err);
    seer_vision *vision = llm ? seer_vision_load(mmproj, &err) : NULL;
    seer_session *s = NULL;
    seer_safe_file out = {0};
    int rc = 0;
    if (!vision || seer_mtmd_check_pair(llm, vision, &err) != 0) {
        fprintf(stderr, "seer ocr: %s\n", err.msg);
        rc = 1;
        goto done;
    }
    app_vision_precision(vision, a->precision);
    const char *arch = seer_llm_get_info(llm)->arch, *proj = seer_vision_get_hparams(vision)->projector_name;
    const char *prompt = a->prompt ? a->prompt : seer_ocr_prompt(proj, arch, seer_llm_get_info(llm)->n_nextn);
    if (!prompt) {
        char sa[64], sp[64];
        seer_text_sanitize(arch ? arch : "?", strlen(arch ? arch : "?"), sa, sizeof sa, 0);
        seer_text_sanitize(proj, strlen(proj), sp, sizeof sp, 0);
        fprintf(stderr, "seer ocr: this model (%s with a %s projector) has no documented OCR prompt: give one with -p\n",
                sa, sp);
        rc = 2;
        goto done;
    }
    seer_session_params p = seer_session_params_default();
    p.n_ctx = a->n_ctx;
    p.n_predict = a->n_predict;
    p.sampling = seer_sampling_default();
    p.sampling.temp = a->temp;
    p.sampling.repeat_penalty = a->repeat_penalty;
    p.image_preproc = a->preproc;
    s = seer_session_new(llm, vision, pool, &p, &err);
    if (!s || seer_safe_open(&out, a->out ? a->out : "-", &err) != 0) {
        fprintf(stderr, "seer ocr: %s\n", err.msg);
        rc = 1;
        goto done;
    }
    const double t0 = seer_time_ms();
    int failed = 0;
    for (int i = 0; i < a->n_files && rc == 0; i++) {
        const int r = read_page(s, a->files[i], prompt, out.f, a->quiet, i + 1, a->n_files);
        if (r == 130) rc = 130;
        else failed += r != 0;
    }
    if (rc == 0 && !a->quiet && a->n_files > 1)
        fprintf(stderr, "seer ocr: %d image%s in %.1f s%s\n", a->n_files, a->n_files == 1 ? "" : "s",
                (seer_time_ms() - t0) / 1000.0, failed ? "" : ", all read");
    if (rc == 0 && failed) {
        fprintf(stderr, "seer ocr: %d of %d images failed\n", failed, a->n_files);
        rc = 1;
    }
    if (rc != 130 && seer_safe_commit(&out, &err) != 0) {
        fprintf(stderr, "seer ocr: %s\n", err.msg);
        rc = 1;
    }
done:
    if (out.f) seer_safe_abandon(&out);
    seer_session_free(s);
    seer_vision_free(vision);
    seer_llm_free(llm);
    seer_pool_destroy(pool);
    return rc;
}

int cmd_ocr(int argc, char **argv) {
    ocr_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc != 0) {
        free_args(&a);
        return rc < 0 ? 0 : rc;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigaction(SIGINT, &sa, NULL);
    if (!a.hub.repo) {
        rc = run(&a, a.model, a.mmproj);
    } else {
        seer_hub_files hub;
        seer_error err;
        rc = app_hub_fetch(&a.hub, !a.mmproj, &hub, &err);
        if (rc) {
            fprintf(stderr, "seer ocr: %s\n", err.msg);
        } else {
            if (!a.mmproj && !hub.mmproj) {
                fprintf(stderr, "seer ocr: the repository has no mmproj file: give --mmproj MMPROJ.gguf\n");
                rc = 2;
            } else {
                rc = run(&a, hub.model, a.mmproj ? a.mmproj : hub.mmproj);
            }
            seer_hub_files_free(&hub);
        }
    }
    free_args(&a);
    return rc;
}
