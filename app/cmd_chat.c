/* seer (default command): the interactive TUI on a terminal, otherwise the
 * headless one-shot chat: load the model (and projector), apply the chat
 * template with the images in the user turn, prefill, then stream the reply
 * to stdout (made terminal-safe) with timings on stderr, or one JSON object
 * per event with --json. Exit codes: 0 ok, 1 runtime error, 2 usage error,
 * 130 interrupted. */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "options.h"
#include "seer/chat.h"
#include "seer/json.h"
#include "seer/llm.h"
#include "seer/mtmd.h"
#include "seer/sampler.h"
#include "seer/sanitize.h"
#include "seer/tensor.h"

/* Provided by ui/ when the TUI is built in (weak: the app links without it). */
int tui_main(const app_options *opts) __attribute__((weak));

static volatile int interrupted;
static void on_sigint(int sig) {
    (void)sig;
    interrupted = 1;
}

/* ---- output ---- */

typedef struct chat_out {
    bool json;
} chat_out;

static void report_error(const chat_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void report_error(const chat_out *o, const char *fmt, ...) {
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    char safe[1024];
    seer_text_sanitize(msg, strlen(msg), safe, sizeof safe, 0);
    fprintf(stderr, "seer: %s\n", safe);
    if (o->json) {
        printf("{\"event\":\"error\",\"message\":");
        json_put_string(stdout, safe, strlen(safe));
        printf("}\n");
        fflush(stdout);
    }
}

/* Model text to stdout: exact bytes inside JSON, terminal-safe otherwise. */
static void emit_text(const char *text, int len) {
    if (len <= 0) return;
    char stack[1024];
    size_t need = seer_text_sanitize(text, (size_t)len, stack, sizeof stack,
                                     SEER_SANITIZE_KEEP_NEWLINES | SEER_SANITIZE_KEEP_TABS);
    if (need < sizeof stack) {
        fwrite(stack, 1, need, stdout);
    } else {
        char *s = seer_text_sanitize_dup(text, (size_t)len, SEER_SANITIZE_KEEP_NEWLINES | SEER_SANITIZE_KEEP_TABS);
        if (s) fputs(s, stdout);
        free(s);
    }
    fflush(stdout);
}

/* ---- input ---- */

static char *read_prompt_file(const char *path, size_t max) {
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        if (n == cap) {
            char *g = cap >= max ? NULL : realloc(buf, cap * 2 + 1);
            if (!g) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = g;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
    }
    if (f != stdin) fclose(f);
    if (buf) buf[n] = 0;
    return buf;
}

/* What keeps path from being read as a file (NULL: nothing): the system's
 * word when it cannot be looked at, else what it is instead of a file. */
static const char *file_problem(const char *path) {
    struct stat st;
    if (stat(path, &st) != 0) return strerror(errno);
    if (S_ISDIR(st.st_mode)) return "is a directory, not a file";
    return S_ISREG(st.st_mode) ? NULL : "not a regular file";
}

/* The text the tokenizer sees: the prompt as is (--raw) or rendered by the
 * chat template with one image marker per image before the user text (unless
 * the user placed markers). Returns malloc'd text or NULL (err set). */
static char *build_prompt(const app_options *opts, const seer_vocab *vocab, const seer_vision *vision,
                          const char *user, seer_chat_style *style_out, seer_error *err) {
    if (opts->raw) return strdup(user);
    seer_chat_style style = SEER_CHAT_UNKNOWN;
    if (opts->chat_template) {
        style = seer_chat_from_name(opts->chat_template);
    } else {
        bool fallback;
        const char *projector = vision ? seer_vision_get_hparams(vision)->projector_name : NULL;
        style = seer_chat_for_model(seer_vocab_chat_template(vocab), projector, &fallback);
        if (fallback)
            fprintf(stderr, "seer: warning: the model's chat template is %s; using %s (see --chat-template)\n",
                    seer_vocab_chat_template(vocab) ? "not recognised" : "missing", seer_chat_style_name(style));
    }
    size_t ulen = strlen(user), mlen = strlen(SEER_MEDIA_MARKER);
    const bool has_marker = strstr(user, SEER_MEDIA_MARKER) != NULL;
    const int n_markers = has_marker ? 0 : opts->n_images;
    char *content = malloc(ulen + (size_t)n_markers * mlen + 1);
    if (!content) {
        seer_error_set(err, "out of memory");
        return NULL;
    }
    size_t o = 0;
    for (int i = 0; i < n_markers; i++, o += mlen) memcpy(content + o, SEER_MEDIA_MARKER, mlen);
    memcpy(content + o, user, ulen + 1);
    seer_chat_msg msgs[2];
    int n = 0;
    const char *system = opts->system_prompt ? opts->system_prompt : seer_chat_default_system(style);
    if (system && *system) msgs[n++] = (seer_chat_msg){.role = "system", .content = system};
    msgs[n++] = (seer_chat_msg){.role = "user", .content = content};
    char *text = seer_chat_render_thinking(style, msgs, n, true, !opts->think_off, err);
    free(content);
    *style_out = style;
    return text;
}

/* ---- the one-shot chat ---- */

typedef struct run_state {
    const app_options *opts;
    chat_out out;
    seer_pool *pool;
    seer_llm *llm;
    seer_vision *vision;
    seer_image images[APP_MAX_IMAGES];
    int n_loaded;
    seer_mm_prompt prompt;
    seer_ctx *ctx;
    seer_sampler *sampler;
    char *user_text, *text;
    seer_chat_style style;             /* UNKNOWN with --raw */
} run_state;

static void run_free(run_state *r) {
    seer_sampler_free(r->sampler);
    seer_ctx_free(r->ctx);
    seer_mm_prompt_free(&r->prompt);
    for (int i = 0; i < r->n_loaded; i++) seer_image_free(&r->images[i]);
    seer_vision_free(r->vision);
    seer_llm_free(r->llm);
    seer_pool_destroy(r->pool);
    free(r->user_text);
    free(r->text);
}

static const char *stop_name(seer_stop_reason s) {
    switch (s) {
    case SEER_STOP_EOG: return "eog";
    case SEER_STOP_LIMIT: return "limit";
    case SEER_STOP_CANCELLED: return "cancelled";
    case SEER_STOP_CONTEXT_FULL: return "context_full";
    default: return "error";
    }
}

static double per_s(int n, double ms) { return ms > 0 ? n * 1000.0 / ms : 0.0; }

/* Model files are mapped, not read: one larger than RAM still loads, but the
 * kernel must re-read evicted weights from disk on every token. Say so. */
static void warn_if_larger_than_ram(const char *path) {
    struct stat st;
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (stat(path, &st) != 0 || pages <= 0 || page <= 0) return;
    const double ram = (double)pages * (double)page, size = (double)st.st_size;
    if (size <= ram) return;
    char safe[512];
    seer_text_sanitize(path, strlen(path), safe, sizeof safe, 0);
    fprintf(stderr,
            "seer: warning: %s is %.0f MB, more than this machine's %.0f MB of RAM; it is mapped, not read, so it "
            "will load, but weights will be re-read from disk for every token (very slow)\n",
            safe, size / 1048576.0, ram / 1048576.0);
}

/* Loads everything and prefills the prompt. Returns 0 or an exit code. */
static int prepare(run_state *r, double *load_ms, double *prompt_ms) {
    const app_options *opts = r->opts;
    seer_error err = {{0}};
    const double t0 = seer_time_ms();
    r->pool = seer_pool_create(opts->n_threads);
    warn_if_larger_than_ram(opts->model_path);
    if (opts->mmproj_path) warn_if_larger_than_ram(opts->mmproj_path);
    r->llm = seer_llm_load(opts->model_path, NULL, NULL, &err);
    if (!r->llm) return report_error(&r->out, "%s", err.msg), 1;
    if (opts->mmproj_path) {
        r->vision = seer_vision_load(opts->mmproj_path, &err);
        seer_vision_set_preproc(r->vision, opts->image_preproc);
        app_vision_precision(r->vision, opts->vision_precision);
        if (!r->vision || seer_mtmd_check_pair(r->llm, r->vision, &err) != 0)
            return report_error(&r->out, "%s", err.msg), 1;
    }
    *load_ms = seer_time_ms() - t0;
    const seer_llm_info *info = seer_llm_get_info(r->llm);
    if (opts->verbose) {
        char name[256], arch[64]; /* GGUF metadata: terminal-safe */
        seer_text_sanitize(info->name, strlen(info->name), name, sizeof name, 0);
        seer_text_sanitize(info->arch, strlen(info->arch), arch, sizeof arch, 0);
        fprintf(stderr, "seer: loaded %s (%s, %.1f M parameters, %s) in %.0f ms, %d threads\n", name, arch,
                info->n_params / 1e6, seer_type_name(info->weight_type), *load_ms, seer_pool_size(r->pool));
        if (info->state_bytes)
            fprintf(stderr, "seer: recurrent state %.1f MB per conversation, kept at up to %d marks (%.1f MB each)\n",
                    (double)info->state_bytes / 1e6, info->state_marks, (double)info->state_bytes / 1e6);
    }
    for (; r->n_loaded < opts->n_images; r->n_loaded++)
        if (seer_image_load(opts->images[r->n_loaded], SEER_IMAGE_DEFAULT_MAX_PIXELS, &r->images[r->n_loaded], &err))
            return report_error(&r->out, "%s", err.msg), 1;
    r->text = build_prompt(opts, seer_llm_vocab(r->llm), r->vision, r->user_text, &r->style, &err);
    if (!r->text) return report_error(&r->out, "%s", err.msg), 1;
    if (seer_mtmd_tokenize(seer_llm_vocab(r->llm), r->vision, r->text, r->images, r->n_loaded, true, &r->prompt,
                           &err) != 0)
        return report_error(&r->out, "%s", err.msg), 1;
    if (r->prompt.n_embd && r->prompt.n_embd != info->n_embd_inp)
        return report_error(&r->out, "the projector makes %d-wide image embeddings but the model is %d wide",
                            r->prompt.n_embd, info->n_embd_inp), 1;
    if (r->vision && seer_mtmd_encode(r->vision, r->pool, &r->prompt, &interrupted, &err) != 0)
        return interrupted ? 130 : (report_error(&r->out, "%s", err.msg), 1);
    for (int i = 0; i < r->n_loaded; i++) {
        int n_tok = 0;
        double ms = 0;
        for (int c = 0; c < r->prompt.n_chunks; c++)
            if (r->prompt.chunks[c].type == SEER_CHUNK_IMAGE && r->prompt.chunks[c].image_index == i) {
                n_tok += r->prompt.chunks[c].n_tokens;
                ms += r->prompt.chunks[c].encode_ms;
            }
        if (r->out.json) printf("{\"event\":\"image\",\"index\":%d,\"n_tokens\":%d,\"ms\":%.3f}\n", i, n_tok, ms);
        else fprintf(stderr, "seer: image %d: %d tokens, encoded in %.0f ms\n", i + 1, n_tok, ms);
    }
    int n_ctx = opts->n_ctx;
    r->ctx = seer_ctx_new(r->llm, n_ctx, opts->kv_type, r->pool, &err);
    if (!r->ctx) return report_error(&r->out, "%s", err.msg), 1;
    const double t1 = seer_time_ms();
    if (seer_mtmd_eval(r->ctx, &r->prompt, &interrupted, &err) != 0)
        return interrupted ? 130 : (report_error(&r->out, "%s", err.msg), 1);
    *prompt_ms = seer_time_ms() - t1;
    if (r->out.json)
        printf("{\"event\":\"prompt\",\"n_tokens\":%d,\"n_images\":%d,\"ms\":%.3f,\"tok_per_s\":%.2f}\n",
               r->prompt.n_tokens, r->n_loaded, *prompt_ms, per_s(r->prompt.n_tokens, *prompt_ms));
    fflush(stdout);
    return 0;
}

/* Reply tokens on their way out through the thought/answer split (which
 * may hold a token back until the next ones tell; details wait by tag). */
typedef struct reply_out {
    bool json, thinks;
    bool dim;                          /* stderr is a terminal: thoughts dimmed */
    bool answer_started;               /* leading blank lines of the answer are skipped */
    bool thought_open;                 /* a dimmed thought line is being written */
    const seer_chat_thinking *markers;
    struct { int32_t id; double ms; float prob; } ring[SEER_THINK_HOLD + 1];
    int thought_tokens;
    double thought_ms;
} reply_out;

/* A thought's text on stderr, its markers left out. */
static void emit_thought(reply_out *o, const char *text, int len) {
    char buf[512];
    int n = 0;
    for (int i = 0; i < len && n < (int)sizeof buf - 1;) {
        const char *ms[2] = {o->markers->open, o->markers->close};
        int skip = 0;
        for (int k = 0; k < 2 && !skip; k++)
            if (len - i >= (int)strlen(ms[k]) && memcmp(text + i, ms[k], strlen(ms[k])) == 0) skip = (int)strlen(ms[k]);
        if (skip) {
            i += skip;
            continue;
        }
        buf[n++] = text[i++];
    }
    if (n == 0) return;
    char *safe = seer_text_sanitize_dup(buf, (size_t)n, SEER_SANITIZE_KEEP_NEWLINES | SEER_SANITIZE_KEEP_TABS);
    if (!safe) return;
    fprintf(stderr, "%s%s%s", o->dim ? "\033[2m" : "", safe, o->dim ? "\033[0m" : "");
    o->thought_open = true;
    free(safe);
}

static int emit_reply_token(void *ud, int tag, const char *text, int len, int thought_len) {
    reply_out *o = ud;
    const bool real = tag >= 0;
    const int32_t id = real ? o->ring[tag % (SEER_THINK_HOLD + 1)].id : -1;
    if (real && thought_len > 0) {
        o->thought_tokens++;
        o->thought_ms += o->ring[tag % (SEER_THINK_HOLD + 1)].ms;
    }
    if (o->json) {
        if (!real) return 0; /* trailing bytes: the done event follows */
        printf("{\"event\":\"token\",\"id\":%d,\"text\":", id);
        json_put_string(stdout, text, (size_t)len);
        printf(",\"ms\":%.3f,\"prob\":%.6f", o->ring[tag % (SEER_THINK_HOLD + 1)].ms,
               o->ring[tag % (SEER_THINK_HOLD + 1)].prob);
        if (o->thinks) printf(",\"thought\":%s", thought_len > 0 ? "true" : "false");
        if (thought_len > 0 && thought_len < len) printf(",\"thought_len\":%d", thought_len);
        printf("}\n");
        fflush(stdout);
        return 0;
    }
    if (thought_len > 0) emit_thought(o, text, thought_len);
    const char *a = text + thought_len;
    int n = len - thought_len;
    if (o->thinks && !o->answer_started)
        while (n > 0 && (*a == '\n' || *a == ' ')) a++, n--;
    if (n > 0) {
        if (o->thought_open) fputc('\n', stderr), o->thought_open = false;
        o->answer_started = true;
        emit_text(a, n);
    }
    return 0;
}

/* Samples and streams the reply. Returns 0 or an exit code. */
static int generate(run_state *r, seer_turn_stats *st) {
    const app_options *opts = r->opts;
    const seer_vocab *vocab = seer_llm_vocab(r->llm);
    seer_error err = {{0}};
    r->sampler = seer_sampler_new(&opts->sampling, seer_llm_get_info(r->llm)->n_vocab);
    if (!r->sampler) return report_error(&r->out, "out of memory for the sampler"), 1;
    seer_detok detok = {{0}, 0};
    char piece[256];
    const double t_start = seer_time_ms();
    double t_prev = t_start;
    /* thinking templates: the split, open from the start when the prompt opened a thought */
    reply_out out = {.json = r->out.json, .markers = seer_chat_thinking_of(r->style), .dim = isatty(STDERR_FILENO)};
    out.thinks = out.markers != NULL;
    seer_think_stream split;
    seer_think_begin(&split, out.markers,
                     out.markers && out.markers->prompt_opens && (!opts->think_off || !out.markers->can_switch_off));
    st->stop = SEER_STOP_LIMIT;
    for (int i = 0; opts->n_predict < 0 || i < opts->n_predict; i++) {
        if (interrupted) {
            st->stop = SEER_STOP_CANCELLED;
            break;
        }
        float prob = 0;
        const int32_t id = seer_sampler_sample(r->sampler, seer_ctx_logits(r->ctx, 0), &prob);
        seer_sampler_accept(r->sampler, id);
        if (seer_vocab_is_eog(vocab, id)) {
            st->stop = SEER_STOP_EOG;
            break;
        }
        int len = seer_detok_push(&detok, vocab, id, piece, (int)sizeof piece);
        if (len > (int)sizeof piece) len = 0;
        if (len == 0) len = seer_think_marker_piece(out.markers, vocab, id, piece, (int)sizeof piece);
        const double now = seer_time_ms();
        out.ring[i % (SEER_THINK_HOLD + 1)].id = id;
        out.ring[i % (SEER_THINK_HOLD + 1)].ms = now - t_prev;
        out.ring[i % (SEER_THINK_HOLD + 1)].prob = prob;
        seer_think_push(&split, i, piece, len, emit_reply_token, &out);
        t_prev = now;
        st->gen_tokens++;
        if (opts->n_predict >= 0 && i + 1 >= opts->n_predict) break;
        if (seer_ctx_used(r->ctx) + 1 > seer_ctx_size(r->ctx)) {
            st->stop = SEER_STOP_CONTEXT_FULL;
            break;
        }
        seer_batch b = {.n = 1, .tokens = &id};
        if (seer_ctx_decode(r->ctx, &b, &interrupted, &err) != 0) {
            if (interrupted) {
                st->stop = SEER_STOP_CANCELLED;
                break;
            }
            st->stop = SEER_STOP_ERROR;
            report_error(&r->out, "%s", err.msg);
            return 1;
        }
    }
    const int tail = seer_detok_flush(&detok, piece, (int)sizeof piece);
    if (tail > 0 && tail <= (int)sizeof piece) seer_think_push(&split, -1, piece, tail, emit_reply_token, &out);
    seer_think_end(&split, emit_reply_token, &out);
    if (out.thought_open) fputc('\n', stderr);
    st->gen_ms = t_prev - t_start;
    st->thought_tokens = out.thought_tokens;
    st->thought_ms = out.thought_ms;
    return 0;
}

static int run_headless(const app_options *opts) {
    run_state r;
    memset(&r, 0, sizeof r);
    r.opts = opts;
    r.out.json = opts->json;
    if (opts->prompt) {
        r.user_text = strdup(opts->prompt);
    } else {
        const char *path = opts->prompt_file ? opts->prompt_file : "-";
        r.user_text = read_prompt_file(path, (size_t)64 << 20);
        if (!r.user_text) {
            report_error(&r.out, "cannot read the prompt from %s", strcmp(path, "-") ? path : "standard input");
            return 2;
        }
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigaction(SIGINT, &sa, NULL);

    double load_ms = 0, prompt_ms = 0;
    int rc = prepare(&r, &load_ms, &prompt_ms);
    seer_turn_stats st;
    memset(&st, 0, sizeof st);
    if (rc == 0) rc = generate(&r, &st);
    if (rc == 0) {
        if (st.stop == SEER_STOP_CANCELLED) rc = 130;
        const int n_ctx = seer_ctx_size(r.ctx), used = seer_ctx_used(r.ctx);
        if (r.out.json) {
            printf("{\"event\":\"done\",\"stop\":\"%s\",\"load_ms\":%.3f,\"prompt_tokens\":%d,\"prompt_ms\":%.3f,"
                   "\"prompt_tok_per_s\":%.2f,\"gen_tokens\":%d,\"gen_ms\":%.3f,\"gen_tok_per_s\":%.2f,"
                   "\"n_ctx\":%d,\"n_used\":%d",
                   stop_name(st.stop), load_ms, r.prompt.n_tokens, prompt_ms, per_s(r.prompt.n_tokens, prompt_ms),
                   st.gen_tokens, st.gen_ms, per_s(st.gen_tokens, st.gen_ms), n_ctx, used);
            if (seer_chat_thinking_of(r.style))
                printf(",\"thought_tokens\":%d,\"thought_ms\":%.3f", st.thought_tokens, st.thought_ms);
            printf("}\n");
        } else {
            printf("\n");
        }
        fflush(stdout);
        char thought[96] = "";
        if (seer_chat_thinking_of(r.style))
            snprintf(thought, sizeof thought, " (thinking %d tokens in %.0f ms, answer %d in %.0f ms)", st.thought_tokens,
                     st.thought_ms, st.gen_tokens - st.thought_tokens, st.gen_ms - st.thought_ms);
        fprintf(stderr,
                "seer: load %.0f ms | prompt %d tokens in %.0f ms (%.1f tok/s) | generated %d tokens in %.0f ms "
                "(%.1f tok/s)%s | stop: %s | context %d/%d\n",
                load_ms, r.prompt.n_tokens, prompt_ms, per_s(r.prompt.n_tokens, prompt_ms), st.gen_tokens, st.gen_ms,
                per_s(st.gen_tokens, st.gen_ms), thought, stop_name(st.stop), used, n_ctx);
    }
    run_free(&r);
    return rc;
}

/* The chat on local files (-hf already resolved to them). */
static int run_chat(app_options opts) {
    const char *files[2 + APP_MAX_IMAGES] = {opts.model_path, opts.mmproj_path};
    int n_files = 2;
    for (int i = 0; i < opts.n_images; i++) files[n_files++] = opts.images[i];
    if (opts.prompt_file && strcmp(opts.prompt_file, "-") != 0) files[n_files++] = opts.prompt_file;
    for (int i = 0; i < n_files; i++) {
        const char *problem = files[i] ? file_problem(files[i]) : NULL;
        if (problem) {
            report_error(&(chat_out){.json = opts.json}, "%.400s: %s", files[i], problem);
            return 2;
        }
    }
    if (opts.chat_template && seer_chat_from_name(opts.chat_template) == SEER_CHAT_UNKNOWN) {
        fprintf(stderr, "seer: unknown chat template '%.64s' (chatml, vicuna, llama2, llama3, mistral, gemma, smolvlm, "
                        "qwen2vl, qwen3vl, qwen3vl-thinking, qwen3.5, gemma4, glm4, mistral-v7, paddleocr, dots.ocr, hunyuan-vl)\n", opts.chat_template);
        return 2;
    }
    if (opts.tui) {
        if (tui_main) return tui_main(&opts);
        fprintf(stderr, "seer: TUI not built; give a prompt with -p for a one-shot answer\n");
        return 2;
    }
    if (!opts.prompt && !opts.prompt_file && isatty(STDIN_FILENO)) {
        fprintf(stderr, "seer: no prompt: use -p PROMPT or -f FILE (try 'seer --help')\n");
        return 2;
    }
    return run_headless(&opts);
}

int cmd_chat(int argc, char **argv) {
    app_options opts;
    char err[512] = "";
    if (app_options_parse(argc, argv, &opts, err, sizeof err) != 0) {
        fprintf(stderr, "seer: %s (try 'seer --help')\n", err);
        return 2;
    }
    if (opts.help) {
        app_options_usage(stdout);
        return 0;
    }
    if (!opts.hub.repo) return run_chat(opts);
    /* --mmproj given explicitly wins over the repository's */
    seer_hub_files hub;
    seer_error hub_err;
    int rc = app_hub_fetch(&opts.hub, !opts.mmproj_path, &hub, &hub_err);
    if (rc) {
        report_error(&(chat_out){.json = opts.json}, "%s", hub_err.msg);
        return rc;
    }
    opts.model_path = hub.model;
    if (!opts.mmproj_path) opts.mmproj_path = hub.mmproj;
    if (opts.n_images > 0 && !opts.mmproj_path) {
        fprintf(stderr, "seer: %s has no mmproj file: images need a vision projector (add --mmproj FILE)\n",
                opts.hub.repo);
        rc = 2;
    } else {
        rc = run_chat(opts);
    }
    seer_hub_files_free(&hub);
    return rc;
}
