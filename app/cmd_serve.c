/* seer serve -m MODEL [--mmproj P] [--host H] [--port N] [--parallel N]
 * [--api-key KEY] [--allow-local-files] [--embeddings [--mv-proj V]]: the
 * engine behind an OpenAI-compatible HTTP API (app/serve/). Runs until
 * SIGTERM or SIGINT, which let streaming replies finish (up to a deadline)
 * and exit 0. Exit status: 1 load or listen problems, 2 usage. */
#include <curl/curl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"
#include "cli_errors.h"
#include "commands.h"
#include "hub_fetch.h"
#include "seer/blas.h"
#include "serve/http.h"
#include "serve/serve.h"

#define SERVE_DEFAULT_MAX_TOKENS 512
#define SERVE_DEFAULT_BODY_MB 32
#define SERVE_DEFAULT_SHUTDOWN_S 10
#define SERVE_DEFAULT_IDLE_S 30

typedef struct serve_args {
    serve_config cfg;
    app_hub_args hub;
    char name[256];
} serve_args;

static void usage(FILE *out) {
    fprintf(out,
            "usage: seer serve -m MODEL.gguf [--mmproj MMPROJ.gguf] [options]\n"
            "       seer serve -hf USER/REPO[:QUANT] [options] (the model from the Hugging Face hub)\n"
            "  Serves the model over an OpenAI-compatible HTTP API: POST /v1/chat/completions (images as\n"
            "  data: or http(s) URLs, stream: true as server-sent events), POST /v1/embeddings (--embeddings),\n"
            "  GET /v1/models, GET /health, GET /metrics (Prometheus). Runs until SIGTERM or Ctrl-C.\n"
            "options:\n"
            "  --host ADDR          address to listen on (default: 127.0.0.1, this machine only)\n"
            "  --port N             port (default: 8080; 0: any free port, printed at start)\n"
            "  --parallel N         conversation slots, decoded together; each keeps its conversation for a follow-up (default: 4)\n"
            "  --api-key KEY        clients must send Authorization: Bearer KEY (/v1/ endpoints)\n"
            "  --allow-local-files  image URLs may be paths on this machine (refused by default)\n"
            "  --embeddings         serve /v1/embeddings (jina-embeddings-v4 recipe) instead of chat\n"
            "  --mv-proj PROJ.gguf  multi-vector projector for embeddings (\"multi_vector\": true)\n"
            "  -n, --max-tokens N   reply length when a request gives none (default: %d)\n"
            "  --max-body MB        largest request body (default: %d)\n"
            "  --timeout S          drop a client that sends or reads nothing for S seconds (default: %d)\n"
            "  --shutdown-timeout S seconds streaming replies may still run after SIGTERM (default: %d)\n"
            "  -c, --ctx-size N     context per slot (default: min(training context, 4096))\n"
            "  -t, --threads N      worker threads (default: all cores)\n"
            "  --vision-precision exact|bf16  the image encoder's products exact (default) or in BF16\n",
            SERVE_DEFAULT_MAX_TOKENS, SERVE_DEFAULT_BODY_MB, SERVE_DEFAULT_IDLE_S, SERVE_DEFAULT_SHUTDOWN_S);
    app_hub_usage(out);
    fprintf(out, "example: seer serve -m model.gguf --mmproj mmproj.gguf --port 8080\n");
}

static int usage_error(const char *msg, const char *arg) { return app_usage_error("serve", msg, arg); }

static int parse_value(serve_args *a, const char *s, const char *val) {
    serve_config *c = &a->cfg;
    int mb;
    if (!strcmp(s, "-m") || !strcmp(s, "--model")) c->model_path = val;
    else if (!strcmp(s, "--mmproj")) c->mmproj_path = val;
    else if (!strcmp(s, "--mv-proj")) c->mv_proj_path = val;
    else if (!strcmp(s, "--host")) c->host = val;
    else if (!strcmp(s, "--api-key")) c->api_key = val;
    else if (!strcmp(s, "--port")) return app_parse_int(val, 0, 65535, &c->port) ? usage_error("invalid --port", val) : 0;
    else if (!strcmp(s, "--parallel"))
        return app_parse_int(val, 1, 64, &c->parallel) ? usage_error("--parallel takes 1…64, not", val) : 0;
    else if (!strcmp(s, "-n") || !strcmp(s, "--max-tokens"))
        return app_parse_int(val, 1, 1 << 20, &c->max_tokens) ? usage_error("invalid --max-tokens", val) : 0;
    else if (!strcmp(s, "--max-body")) {
        if (app_parse_int(val, 1, 4096, &mb)) return usage_error("--max-body takes 1…4096 MB, not", val);
        c->max_body = (size_t)mb << 20;
    } else if (!strcmp(s, "--timeout"))
        return app_parse_int(val, 1, 3600, &c->idle_seconds) ? usage_error("invalid --timeout", val) : 0;
    else if (!strcmp(s, "--shutdown-timeout"))
        return app_parse_int(val, 0, 3600, &c->shutdown_seconds) ? usage_error("invalid --shutdown-timeout", val) : 0;
    else if (!strcmp(s, "-c") || !strcmp(s, "--ctx-size"))
        return app_parse_int(val, 16, 1 << 20, &c->n_ctx) ? usage_error("invalid context size", val) : 0;
    else if (!strcmp(s, "-t") || !strcmp(s, "--threads"))
        return app_parse_int(val, 1, 1024, &c->threads) ? usage_error("invalid thread count", val) : 0;
    else if (!strcmp(s, "--vision-precision"))
        return seer_vision_precision_parse(val, &c->vision_precision)
                   ? 0
                   : usage_error("--vision-precision takes exact or bf16, not", val);
    else return usage_error("unknown argument", s);
    return 0;
}

/* 0, the exit status (2 usage), or -1 after --help. */
static int parse_args(int argc, char **argv, serve_args *a) {
    memset(a, 0, sizeof *a);
    serve_config *c = &a->cfg;
    c->host = "127.0.0.1";
    c->port = 8080;
    c->parallel = 4;
    c->max_tokens = SERVE_DEFAULT_MAX_TOKENS;
    c->max_body = (size_t)SERVE_DEFAULT_BODY_MB << 20;
    c->shutdown_seconds = SERVE_DEFAULT_SHUTDOWN_S;
    c->idle_seconds = SERVE_DEFAULT_IDLE_S;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
            usage(stdout);
            return -1;
        }
        if (!strcmp(s, "--allow-local-files") || !strcmp(s, "--embeddings")) {
            *(s[2] == 'a' ? &c->allow_local_files : &c->embeddings) = true;
            continue;
        }
        const int hub = app_hub_arg(argc, argv, &i, &a->hub);
        if (hub < 0) return usage_error("missing value after", s);
        if (hub > 0) continue;
        if (s[0] != '-') return usage_error("unknown argument", s);
        if (i + 1 >= argc) return usage_error("missing value after", s);
        int rc = parse_value(a, s, argv[++i]);
        if (rc) return rc;
    }
    const char *problem = app_hub_args_problem(&a->hub);
    if (problem) return usage_error(problem, NULL);
    if (!c->model_path && !a->hub.repo) return usage_error("no model: give -m MODEL.gguf or -hf USER/REPO", NULL);
    if (c->model_path && a->hub.repo) return usage_error("give -m or -hf, not both", NULL);
    if (c->mv_proj_path && !c->embeddings) return usage_error("--mv-proj is for --embeddings", NULL);
    return 0;
}

/* The id clients use: the model file's name without folder and .gguf. */
static void model_name(serve_args *a) {
    const char *base = strrchr(a->cfg.model_path, '/');
    snprintf(a->name, sizeof a->name, "%s", base ? base + 1 : a->cfg.model_path);
    size_t n = strlen(a->name);
    if (n > 5 && !strcmp(a->name + n - 5, ".gguf")) a->name[n - 5] = 0;
    a->cfg.model_name = a->name;
}

int cmd_serve(int argc, char **argv) {
    serve_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc) return rc < 0 ? 0 : rc;
    seer_hub_files hub = {0};
    if (a.hub.repo) {
        seer_error err = {{0}};
        if ((rc = app_hub_fetch(&a.hub, !a.cfg.mmproj_path && !a.hub.no_mmproj, &hub, &err)) != 0) {
            app_fail("serve", err.msg);
            return rc;
        }
        a.cfg.model_path = hub.model;
        if (!a.cfg.mmproj_path) a.cfg.mmproj_path = hub.mmproj;
    }
    model_name(&a);
    /* the signals wait for sigwait below, in no other thread */
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGTERM);
    sigaddset(&stop_signals, SIGINT);
    pthread_sigmask(SIG_BLOCK, &stop_signals, NULL);
    signal(SIGPIPE, SIG_IGN);
    curl_global_init(CURL_GLOBAL_DEFAULT); /* before the connection threads fetch image URLs */
    serve_state st;
    char why[SEER_ERR_MAX + 64];
    if (serve_start(&st, &a.cfg, why, sizeof why) != 0) {
        curl_global_cleanup();
        seer_hub_files_free(&hub);
        return app_fail("serve", why);
    }
    int port = 0;
    serve_http *http = serve_http_start(&st, &port, why, sizeof why);
    if (!http) {
        serve_stop(&st);
        curl_global_cleanup();
        seer_hub_files_free(&hub);
        return app_fail("serve", why);
    }
    const bool v6 = strchr(a.cfg.host, ':') != NULL;
    printf("seer serve: listening on http://%s%s%s:%d (model %s, %s)\n", v6 ? "[" : "", a.cfg.host, v6 ? "]" : "", port,
           a.cfg.model_name, a.cfg.embeddings ? "embeddings" : "chat");
    fflush(stdout);
    const seer_blas_info blas = seer_blas_describe();
    char warning[256];
    if (seer_blas_narrower_warning(&blas, warning, sizeof warning)) fprintf(stderr, "seer serve: %s\n", warning);
    int sig = 0;
    sigwait(&stop_signals, &sig);
    fprintf(stderr, "seer serve: %s: finishing the replies under way (at most %d s)\n",
            sig == SIGTERM ? "SIGTERM" : "SIGINT", a.cfg.shutdown_seconds);
    serve_http_quiesce(http);
    serve_drain(&st, a.cfg.shutdown_seconds);
    serve_stop(&st);       /* the worker ends its job (cancelled at the deadline) */
    serve_http_stop(http); /* the connections send what is left and close */
    seer_hub_files_free(&hub);
    curl_global_cleanup();
    fprintf(stderr, "seer serve: stopped\n");
    return 0;
}
