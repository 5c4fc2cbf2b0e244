/* Fetching -hf models from the app: options, progress display, Ctrl-C. */
#include "hub_fetch.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "seer/sanitize.h"

int app_hub_arg(int argc, char **argv, int *i, app_hub_args *a) {
    static const struct {
        const char *name;
        int what; /* 0 repo, 1 file, 2 offline, 3 no-mmproj */
    } names[] = {{"-hf", 0}, {"-hfr", 0}, {"--hf-repo", 0}, {"-hff", 1}, {"--hf-file", 1},
                 {"--offline", 2}, {"--no-mmproj", 3}};
    const char *arg = argv[*i];
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        const size_t n = strlen(names[k].name);
        if (strncmp(arg, names[k].name, n) != 0 || (arg[n] && arg[n] != '=')) continue;
        const int what = names[k].what;
        if (what >= 2) {
            if (arg[n]) return 0; /* a flag takes no value */
            if (what == 2) a->offline = true;
            else a->no_mmproj = true;
            return 1;
        }
        const char *val = arg[n] ? arg + n + 1 : *i + 1 < argc ? argv[++*i] : NULL;
        if (!val) return -1;
        if (what == 0) a->repo = val;
        else a->file = val;
        return 1;
    }
    return 0;
}

void app_hub_usage(FILE *out) {
    fprintf(out,
            "  -hf, --hf-repo USER/REPO[:QUANT]  a model from the Hugging Face hub (MODEL_ENDPOINT or\n"
            "                          HF_ENDPOINT, HF_TOKEN), cached where llama.cpp keeps it; QUANT\n"
            "                          e.g. Q8_0 (default Q4_K_M, else the first); its mmproj comes too\n"
            "      --hf-file PATH      that file of the repository instead of choosing by QUANT\n"
            "      --offline           use the cache only\n"
            "      --no-mmproj         not the repository's vision projector\n");
}

const char *app_hub_args_problem(const app_hub_args *a) {
    if (!a->repo && (a->file || a->offline || a->no_mmproj)) return "--hf-file, --offline and --no-mmproj go with -hf";
    return NULL;
}

/* ---- progress ---- */

typedef struct progress_view {
    bool tty;
} progress_view;

static void human_time(double s, char *out, size_t cap) {
    const long t = s < 0 ? 0 : s > 359999 ? 359999 : (long)(s + 0.5);
    if (t >= 3600) snprintf(out, cap, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else snprintf(out, cap, "%ld:%02ld", t / 60, t % 60);
}

static void show_progress(const seer_hub_progress *p, void *user) {
    const progress_view *v = user;
    char name[128];
    const char *base = strrchr(p->file, '/');
    seer_text_sanitize(base ? base + 1 : p->file, strlen(base ? base + 1 : p->file), name, sizeof name, 0);
    const double mb = p->done / 1048576.0, total_mb = p->total / 1048576.0;
    const double secs = p->elapsed_ms / 1000.0;
    const double rate = secs > 0 ? (p->done - p->resumed_from) / 1048576.0 / secs : 0;
    if (!v->tty) {
        if (p->finished)
            fprintf(stderr, "seer: %s: %.1f MB in %.1f s (%.1f MB/s)\n", name, mb, secs, rate);
        else if (p->starting && p->resumed_from)
            fprintf(stderr, "seer: downloading %s (%.1f MB), resuming at %.1f MB\n", name, total_mb,
                    p->resumed_from / 1048576.0);
        else if (p->starting)
            fprintf(stderr, "seer: downloading %s (%.1f MB)\n", name, total_mb);
        return;
    }
    char eta[32] = "--:--";
    if (rate > 0 && p->total > p->done) human_time((p->total - p->done) / 1048576.0 / rate, eta, sizeof eta);
    char numbers[128];
    const int n = snprintf(numbers, sizeof numbers, "%3d%% %7.1f/%.1f MB %6.1f MB/s ETA %s",
                           p->total ? (int)(100.0 * p->done / p->total) : 0, mb, total_mb, rate, eta);
    /* one line that fits the terminal (a wrapped line would not be redrawn in place) */
    struct winsize ws;
    const int cols = ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 ? ws.ws_col : 80;
    int name_w = cols / 4 < 32 ? cols / 4 : 32;
    int bar_w = cols - 1 - n - name_w - 4;
    if (bar_w > 30) bar_w = 30;
    char bar[40] = "";
    if (bar_w >= 5) {
        const int filled = p->total ? (int)(bar_w * (double)p->done / (double)p->total) : 0;
        bar[0] = '[';
        for (int k = 0; k < bar_w; k++) bar[1 + k] = k < filled ? '#' : '-';
        bar[1 + bar_w] = ']';
        bar[2 + bar_w] = 0;
    } else {
        name_w = cols - 2 - n > 0 ? cols - 2 - n : 0;
    }
    fprintf(stderr, "\r%-*.*s %s%s%s\033[K", name_w, name_w, name, bar, *bar ? " " : "", numbers);
    if (p->finished) fputc('\n', stderr);
    fflush(stderr);
}

/* ---- Ctrl-C ---- */

static volatile int interrupted;
static void on_sigint(int sig) {
    (void)sig;
    interrupted = 1;
}

int app_hub_fetch(const app_hub_args *a, bool want_mmproj, seer_hub_files *files, seer_error *err) {
    progress_view view = {.tty = isatty(STDERR_FILENO) != 0};
    seer_hub_request req = {.repo = a->repo, .file = a->file, .want_mmproj = want_mmproj && !a->no_mmproj,
                            .offline = a->offline, .progress = show_progress, .progress_user = &view,
                            .cancel = &interrupted};
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    interrupted = 0;
    sigaction(SIGINT, &sa, &old);
    const int rc = seer_hub_fetch(&req, files, err);
    sigaction(SIGINT, &old, NULL);
    char safe[SEER_ERR_MAX];
    if (rc == 0 && files->notice[0]) {
        seer_text_sanitize(files->notice, strlen(files->notice), safe, sizeof safe, 0);
        fprintf(stderr, "seer: warning: %s\n", safe);
    }
    if (rc == 0 && files->n_parts > 1) {
        seer_error_set(err, "%s is a split GGUF (%d files, now in the cache); seer loads single-file models: join "
                            "them with llama-gguf-split --merge", a->repo, files->n_parts);
        seer_hub_files_free(files);
        return 1;
    }
    return rc == 0 ? 0 : rc == SEER_HUB_CANCELLED ? 130 : 1;
}
