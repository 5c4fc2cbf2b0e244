/* seer bench: how fast a model runs here, and how far that is from what this
 * machine can do, measured in one run with one thread pool.
 *   seer bench -m LLM.gguf [--mmproj P.gguf] [--image IMG] [-p N] [-n N] [-t N] [-r N] [--json]
 *   seer bench --synth NAME --out DIR      (writes NAME-llm.gguf + NAME-mmproj.gguf)
 * Exit status: 0 ok, 1 load/run failure, 2 usage. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "cli_errors.h"
#include "commands.h"
#include "hub_fetch.h"
#include "options.h"
#include "seer/bench.h"
#include "seer/blas.h"
#include "seer/image.h"
#include "seer/json.h"
#include "seer/llm.h"
#include "seer/mtmd.h"
#include "seer/sampler.h"
#include "seer/sanitize.h"
#include "seer/tensor.h"

#define MAX_REPS 64
#define BENCH_IMAGE_PROMPT SEER_MTMD_MARKER "\nDescribe this image in detail."

typedef struct bench_opts {
    const char *model, *mmproj, *image, *synth, *out;
    app_hub_args hub; /* -hf: model (and projector) from the hub */
    int n_prompt, n_gen, threads, reps;
    seer_kv_type kv_type;
    seer_preproc_mode preproc; /* how --image is prepared (tiles differ: llamacpp matches llama.cpp's work) */
    seer_vision_precision vision_precision; /* --vision-precision exact|bf16 */
    bool json;
} bench_opts;

/* Medians and spreads over the repetitions; each efficiency is the median
 * of the repetitions' own ratios. */
typedef struct bench_result {
    double load_ms;
    double pp_tok_s, pp_spread, tg_tok_s, tg_spread;
    double encode_ms, encode_spread, ttft_ms, ttft_spread;
    int image_tokens, encoder_inputs;
    double encode_flops;
    double peak_rss_mb, weight_mb, kv_mb;
    char name[256];
    double machine_gb_s, machine_gb_spread, machine_gflop_s, machine_encode_gflop_s;
    double weights_gb_s, weights_gb_spread; /* the same read of the decode kernels' weights; 0 without a copy */
    int encode_gemm[3]; /* its sizes: M, N, K */
    seer_bench_llm_work work;
    double kv_read_per_token; /* KV cache bytes a generated token reads, the generation's mean */
    double state_per_token;   /* recurrent state bytes a generated token reads and writes back */
    seer_bench_efficiency eff;
    seer_bench_peaks peaks;                   /* the machine's arithmetic peaks on these threads */
    double peak_prompt_gop_s, peak_encode_gop_s; /* the ones the prompt's and the encoder's kernels run on */
    const char *peak_prompt_name, *peak_encode_name;
    seer_vision_precision vision_precision; /* the one that ran (exact when bf16 was asked for on a CPU without it) */
    int vision_type;                        /* the mmproj's dominant matrix type; -1 without one */
    double steal;                           /* the hypervisor's share of the threads' time over the reps; -1 unknown */
} bench_result;

/* The kernels seer runs for these weights, the encoder's as its matrices'
 * type and the precision that ran chose them (bf16: BF16 products on
 * AMX-BF16 tiles or AVX512-BF16 for the F16/F32 matrices). */
static seer_bench_kernels bench_kernels(int weight_type, const bench_result *r) {
    return seer_bench_kernels_running(weight_type, r->vision_type, r->vision_precision == SEER_VISION_BF16);
}

/* The int8 peak an integer kernel runs on (AMX tiles' for those on tiles),
 * NULL for a floating-point one. */
static const char *int8_peak_of(const bench_result *r, const char *kernel, double *gop_s) {
    if (!strcmp(kernel, "sgemm_f32") || !strcmp(kernel, "f32_gemm") || strstr(kernel, "bf16")) return NULL;
    const bool amx = strncmp(kernel, "int8_gemm_amx", 13) == 0 && r->peaks.amx_int8_gop_s > 0;
    *gop_s = amx ? r->peaks.amx_int8_gop_s : r->peaks.int8_gop_s;
    return amx ? r->peaks.amx_int8_kernel : r->peaks.int8_kernel;
}

/* Which hardware peak a kernel runs on: int8 dot products for the quantized
 * kernels (a prompt's, a quantized mmproj's), BF16 for encoders on BF16 dot
 * products (AMX-BF16's on tiles), else FP32 FMA. */
static void choose_peaks(bench_result *r, const seer_bench_kernels *k) {
    r->peak_prompt_name = int8_peak_of(r, k->prompt, &r->peak_prompt_gop_s);
    if (!r->peak_prompt_name) r->peak_prompt_gop_s = r->peaks.fp32_gflop_s, r->peak_prompt_name = r->peaks.fp32_kernel;
    r->peak_encode_name = int8_peak_of(r, k->encode, &r->peak_encode_gop_s);
    if (r->peak_encode_name) return;
    const bool amx_encode = (!strcmp(k->encode, "f16_amx_bf16") || !strcmp(k->encode, "bf16_amx")) && r->peaks.amx_bf16_gflop_s > 0;
    const bool bf16 = strcmp(k->encode, "bf16_avx512") == 0 && r->peaks.bf16_gflop_s > 0;
    r->peak_encode_gop_s = amx_encode ? r->peaks.amx_bf16_gflop_s : bf16 ? r->peaks.bf16_gflop_s : r->peaks.fp32_gflop_s;
    r->peak_encode_name = amx_encode ? r->peaks.amx_bf16_kernel : bf16 ? r->peaks.bf16_kernel : r->peaks.fp32_kernel;
}

static void usage(FILE *out) {
    fprintf(out,
            "usage: seer bench -m LLM.gguf [--mmproj MMPROJ.gguf] [--image IMG] [-p N_PROMPT] [-n N_GEN]\n"
            "                  (or -hf USER/REPO[:QUANT] [--hf-file PATH] [--offline] [--no-mmproj])\n"
            "                  [-t THREADS] [-r REPS] [--kv-type f16|f32] [--image-preproc original|llamacpp]\n"
            "                  [--vision-precision exact|bf16] [--json]\n"
            "       seer bench --synth NAME --out DIR\n"
            "  Measures load time, image encode, prompt processing and generation speed, time to\n"
            "  first token with an image, peak memory, and the machine's bandwidth and GEMM\n"
            "  throughput, then the efficiencies relating the two.\n"
            "  --synth writes a random-weight model with a real layout; NAME is one of:");
    for (const char *const *n = seer_bench_synth_names(); *n; n++) fprintf(out, " %s", *n);
    fprintf(out, "\n  (a Q4_K_M one's NAME-q5_k_m or NAME-q8_0: the same model as a Q5_K_M or Q8_0 file)\n");
    fprintf(out, "example: seer bench -m qwen2.5-vl-3b-q4_k_m.gguf --mmproj mmproj-f16.gguf --image photo.jpg -t 2\n");
}

static int fail_usage(const char *msg, const char *arg) { return app_usage_error("bench", msg, arg); }

static int fail(const seer_error *err) {
    char *safe = seer_text_sanitize_dup(err->msg, strlen(err->msg), 0);
    fprintf(stderr, "seer: %s\n", safe ? safe : "bench failed");
    free(safe);
    return 1;
}

static bool parse_int(const char *s, int lo, int hi, int *out) {
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < lo || v > hi) return false;
    *out = (int)v;
    return true;
}

/* Returns 0 to run, 1 for --help, 2 on a usage error (already reported). */
static int parse_args(int argc, char **argv, bench_opts *o) {
    *o = (bench_opts){.n_prompt = 512, .n_gen = 128, .threads = 0, .reps = 3};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) return 1;
        const int hub = app_hub_arg(argc, argv, &i, &o->hub);
        if (hub < 0) return fail_usage("missing value after", a);
        if (hub > 0) continue;
        if (strcmp(a, "--json") == 0) { o->json = true; continue; }
        if (strcmp(a, "--image-preproc") == 0) {
            if (!v) return fail_usage("missing value after", a);
            if (!seer_preproc_mode_parse(v, &o->preproc)) return fail_usage("--image-preproc takes original or llamacpp, not", v);
            i++;
            continue;
        }
        if (strcmp(a, "--vision-precision") == 0) {
            if (!v) return fail_usage("missing value after", a);
            if (!seer_vision_precision_parse(v, &o->vision_precision)) return fail_usage("--vision-precision takes exact or bf16, not", v);
            i++;
            continue;
        }
        if (strcmp(a, "--kv-type") == 0) {
            if (!v) return fail_usage("missing value after", a);
            if (!seer_kv_type_parse(v, &o->kv_type)) return fail_usage("--kv-type takes f16 or f32, not", v);
            i++;
            continue;
        }
        const char **str = strcmp(a, "-m") == 0 || strcmp(a, "--model") == 0 ? &o->model
                         : strcmp(a, "--mmproj") == 0 ? &o->mmproj
                         : strcmp(a, "--image") == 0 ? &o->image
                         : strcmp(a, "--synth") == 0 ? &o->synth
                         : strcmp(a, "--out") == 0 ? &o->out : NULL;
        int *num = strcmp(a, "-p") == 0 ? &o->n_prompt : strcmp(a, "-n") == 0 ? &o->n_gen
                 : strcmp(a, "-t") == 0 ? &o->threads : strcmp(a, "-r") == 0 ? &o->reps : NULL;
        if (!str && !num) return fail_usage("unknown option", a);
        if (!v) return fail_usage("missing value after", a);
        if (str) *str = v;
        else if (!parse_int(v, num == &o->reps ? 1 : 0, num == &o->reps ? MAX_REPS : 1 << 20, num))
            return fail_usage("bad number for", a);
        i++;
    }
    if (o->synth) return o->out ? 0 : fail_usage("--synth needs --out DIR", NULL);
    if (app_hub_args_problem(&o->hub)) return fail_usage(app_hub_args_problem(&o->hub), NULL);
    if (!o->model == !o->hub.repo) return fail_usage("give -m LLM.gguf or -hf USER/REPO[:QUANT]", NULL);
    if (o->image && !o->mmproj && !o->hub.repo) return fail_usage("--image needs --mmproj", NULL);
    if (o->n_prompt < 1) return fail_usage("-p must be at least 1", NULL);
    return 0;
}

#define MB (1024.0 * 1024.0)

/* Peak resident memory since start or since the last reset_peak_rss. */
static double peak_rss_mb(void) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    double kb = -1;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmHWM: %lf", &kb) == 1) break;
    if (f) fclose(f);
    if (kb >= 0) return kb / 1024.0;
    struct rusage ru;
    return getrusage(RUSAGE_SELF, &ru) == 0 ? (double)ru.ru_maxrss / 1024.0 : 0;
}

/* Starts the peak over at the current resident size (Linux's clear_refs
 * "5"), so that the bandwidth buffer measured between repetitions does not
 * count as the model's memory. False where the kernel does not offer it. */
static bool reset_peak_rss(void) {
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (!f) return false;
    bool ok = fputs("5", f) >= 0;
    return fclose(f) == 0 && ok;
}

/* The machine's read bandwidth now. With `peak` (where the peak memory can
 * be restarted), the peak so far is folded into *peak first and restarted
 * after, so the 1 GiB buffer does not count as the model's memory. */
typedef struct machine_probe {
    seer_pool *pool;
    double *peak; /* NULL: do not measure (no clear_refs) */
    const void *weights; /* the decode kernels' copy of the weights, or NULL */
    size_t weights_bytes;
} machine_probe;

/* The read probes' bytes: 1 GiB, or past the caches where they are larger. */
static size_t probe_bytes(void) { return seer_bench_beyond_caches((size_t)1 << 30); }

static double probe_bandwidth(const machine_probe *mp) {
    if (!mp->peak) return 0;
    double peak = peak_rss_mb();
    if (peak > *mp->peak) *mp->peak = peak;
    double gb_s = seer_bench_mem_bandwidth(mp->pool, probe_bytes(), 2);
    (void)reset_peak_rss();
    return gb_s;
}

/* The same read of the model's own weights (at most probe_bytes() of them,
 * spread over the copy): what decode's memory gives, whatever the fresh
 * buffer above got. 0 without a copy. */
static double probe_weights(const machine_probe *mp) {
    return seer_bench_read_gb_s(mp->pool, mp->weights, mp->weights_bytes, probe_bytes(), 2);
}

/* A test card at the encoder's native size when no image is given. */
static bool synthetic_image(int size, seer_image *img) {
    img->w = img->h = size > 0 ? size : 336;
    img->rgb = malloc((size_t)img->w * img->h * 3);
    if (!img->rgb) return false;
    for (int y = 0; y < img->h; y++)
        for (int x = 0; x < img->w; x++) {
            uint8_t *p = img->rgb + ((size_t)y * img->w + x) * 3;
            p[0] = (uint8_t)(x * 255 / img->w), p[1] = (uint8_t)(y * 255 / img->h), p[2] = (uint8_t)((x ^ y) & 255);
        }
    return true;
}

/* A sampler that picks the greedy token as a chat does: its argmax (a
 * plain scan here took about 1 ms of each of Qwen3.5's generated tokens,
 * 248k logits, 2% of one). */
static seer_sampler *greedy_sampler(int n_vocab) {
    return seer_sampler_new(&(seer_sampling){.temp = 0.0f, .repeat_penalty = 1.0f}, n_vocab);
}

/* Prompt processing then generation in a fresh context; *gb_s is the
 * larger of the bandwidths probed right before and right after generation
 * (the host's share moves within seconds; the larger one is the limit
 * decode could have had), *weights_gb_s the same for the weights' read. */
static int run_text(seer_ctx *ctx, const seer_llm_info *info, const bench_opts *o, uint32_t seed,
                    const machine_probe *mp, double *pp_s, double *tg_s_per_tok, double *gb_s, double *weights_gb_s,
                    seer_error *err) {
    int32_t *tokens = malloc((size_t)o->n_prompt * sizeof *tokens);
    seer_sampler *greedy = greedy_sampler(info->n_vocab);
    if (!tokens || !greedy) {
        free(tokens);
        seer_sampler_free(greedy);
        seer_error_set(err, "out of memory");
        return -1;
    }
    for (int i = 0; i < o->n_prompt; i++) tokens[i] = (int32_t)((seed = seed * 1664525u + 1013904223u) >> 8) % info->n_vocab;
    seer_ctx_truncate(ctx, 0, 0);
    seer_batch b = {.n = o->n_prompt, .tokens = tokens};
    double t0 = seer_time_ms();
    int rc = seer_ctx_decode(ctx, &b, NULL, err);
    *pp_s = (seer_time_ms() - t0) / 1e3;
    free(tokens);
    int32_t next = rc == 0 ? seer_sampler_sample(greedy, seer_ctx_logits(ctx, 0), NULL) : 0;
    double before = rc == 0 ? probe_bandwidth(mp) : 0, weights_before = rc == 0 ? probe_weights(mp) : 0;
    t0 = seer_time_ms();
    for (int i = 0; i < o->n_gen && rc == 0; i++) {
        seer_batch one = {.n = 1, .tokens = &next};
        rc = seer_ctx_decode(ctx, &one, NULL, err);
        if (rc == 0) next = seer_sampler_sample(greedy, seer_ctx_logits(ctx, 0), NULL);
    }
    *tg_s_per_tok = o->n_gen ? (seer_time_ms() - t0) / 1e3 / o->n_gen : 0;
    seer_sampler_free(greedy);
    if (rc != 0) return -1;
    *weights_gb_s = fmax(weights_before, probe_weights(mp));
    *gb_s = fmax(before, probe_bandwidth(mp));
    return 0;
}

/* One untimed prompt and token before the repetitions, as llama-bench
 * does: the first prompt of a process also pays for first touches (the KV
 * cache's and scratch buffers' pages, the AMX tile permission) that no
 * later one does, and with -r 2 that one slow run moved the median. */
static int warm_up(seer_ctx *ctx, const seer_llm_info *info, const bench_opts *o, seer_error *err) {
    int32_t *tokens = calloc((size_t)o->n_prompt, sizeof *tokens);
    if (!tokens) {
        seer_error_set(err, "out of memory");
        return -1;
    }
    for (int i = 0; i < o->n_prompt; i++) tokens[i] = (int32_t)((uint32_t)i * 2654435761u % (uint32_t)info->n_vocab);
    seer_ctx_truncate(ctx, 0, 0);
    seer_batch b = {.n = o->n_prompt, .tokens = tokens};
    int rc = seer_ctx_decode(ctx, &b, NULL, err);
    if (rc == 0) {
        seer_batch one = {.n = 1, .tokens = tokens};
        rc = seer_ctx_decode(ctx, &one, NULL, err);
    }
    free(tokens);
    return rc;
}

/* Reads one byte of every page of a file's tensor data, so that the first
 * timed repetition does not pay for paging in the mmapped weights (that is
 * loading, not prompt processing or encoding). */
static void page_in_weights(const gguf_file *f) {
    for (uint64_t i = 0; f && i < f->n_tensors; i++) gguf_page_in(f, f->tensors[i].data, f->tensors[i].nbytes);
}

/* An image prompt from scratch to the first token: preprocess + tokenize,
 * encode (timed on its own), prefill. */
static int run_image(seer_ctx *ctx, const seer_llm *llm, seer_vision *vision, seer_pool *pool,
                     const seer_image *img, double *encode_ms, double *ttft_ms, bench_result *r, seer_error *err) {
    seer_ctx_truncate(ctx, 0, 0);
    seer_mm_prompt prompt = {0};
    seer_sampler *greedy = greedy_sampler(seer_llm_get_info(llm)->n_vocab);
    if (!greedy) {
        seer_error_set(err, "out of memory");
        return -1;
    }
    double t0 = seer_time_ms();
    if (seer_mtmd_tokenize(seer_llm_vocab(llm), vision, BENCH_IMAGE_PROMPT, img, 1, true, &prompt, err) != 0) {
        seer_sampler_free(greedy);
        return -1;
    }
    const seer_vision_hparams *hp = seer_vision_get_hparams(vision);
    r->image_tokens = 0, r->encoder_inputs = 0, r->encode_flops = 0;
    for (int i = 0; i < prompt.n_chunks; i++) {
        const seer_chunk *c = &prompt.chunks[i];
        if (c->type != SEER_CHUNK_IMAGE) continue;
        r->image_tokens += c->n_tokens;
        r->encoder_inputs++;
        r->encode_flops += seer_bench_vision_flops(hp, c->pixels.w, c->pixels.h);
    }
    double t1 = seer_time_ms();
    int rc = seer_mtmd_encode(vision, pool, &prompt, NULL, err);
    *encode_ms = seer_time_ms() - t1;
    if (rc == 0) rc = seer_mtmd_eval(ctx, &prompt, NULL, err);
    if (rc == 0) (void)seer_sampler_sample(greedy, seer_ctx_logits(ctx, 0), NULL);
    *ttft_ms = seer_time_ms() - t0;
    seer_mm_prompt_free(&prompt);
    seer_sampler_free(greedy);
    return rc;
}

static int run_bench(const bench_opts *o, bench_result *r, seer_llm_info *info_out, seer_error *err) {
    int rc = -1;
    seer_pool *pool = seer_pool_create(o->threads);
    seer_llm *llm = NULL;
    seer_vision *vision = NULL;
    seer_ctx *ctx = NULL;
    seer_image img = {0};
    if (!pool) {
        seer_error_set(err, "cannot start the thread pool");
        return -1;
    }
    double t0 = seer_time_ms();
    llm = seer_llm_load(o->model, NULL, NULL, err);
    if (!llm) goto done;
    if (o->mmproj && !(vision = seer_vision_load(o->mmproj, err))) goto done;
    if (vision) seer_vision_set_preproc(vision, o->preproc);
    if (vision) app_vision_precision(vision, o->vision_precision);
    r->vision_precision = seer_vision_get_precision(vision);
    r->vision_type = vision ? gguf_dominant_matrix_type(seer_vision_gguf(vision)) : -1;
    r->load_ms = seer_time_ms() - t0;
    seer_llm_page_in(llm);
    if (vision) page_in_weights(seer_vision_gguf(vision));
    const seer_llm_info *info = seer_llm_get_info(llm);
    *info_out = *info;
    snprintf(r->name, sizeof r->name, "%s", info->name ? info->name : o->model);
    info_out->name = r->name; /* the model is freed before printing */
    r->work = seer_bench_llm_work_of(seer_llm_gguf(llm));

    if (vision) {
        if (o->image) {
            if (seer_image_load(o->image, 0, &img, err) != 0) goto done;
        } else if (!synthetic_image(seer_vision_get_hparams(vision)->image_size, &img)) {
            seer_error_set(err, "out of memory");
            goto done;
        }
    }
    /* KV cache just large enough for the longer of the two runs (it counts in peak memory) */
    int n_ctx = o->n_prompt + o->n_gen;
    if (vision) {
        seer_mm_prompt dry = {0};
        if (seer_mtmd_tokenize(seer_llm_vocab(llm), vision, BENCH_IMAGE_PROMPT, &img, 1, true, &dry, err) != 0)
            goto done;
        if (dry.n_pos + 1 > n_ctx) n_ctx = dry.n_pos + 1;
        if (dry.n_tokens + 1 > n_ctx) n_ctx = dry.n_tokens + 1;
        seer_mm_prompt_free(&dry);
    }
    n_ctx += 16;
    ctx = seer_ctx_new(llm, n_ctx, o->kv_type, pool, err);
    if (!ctx || seer_ctx_reserve(ctx, n_ctx, err) != 0) goto done; /* no growth inside the timings */
    /* the memory budget: mmapped weights + the KV cache */
    r->weight_mb = (seer_bench_tensor_bytes(seer_llm_gguf(llm)) +
                    (vision ? seer_bench_tensor_bytes(seer_vision_gguf(vision)) : 0)) / MB;
    r->kv_mb = seer_kv_cache_bytes(info, n_ctx, o->kv_type) / MB;
    /* generated token i attends over the prompt, the tokens before it and itself */
    r->kv_read_per_token = 0;
    for (int i = 0; i < o->n_gen; i++)
        r->kv_read_per_token += seer_llm_kv_read_bytes(llm, o->n_prompt + 1 + i, o->kv_type);
    if (o->n_gen > 0) r->kv_read_per_token /= o->n_gen;
    r->state_per_token = 2.0 * (double)info->state_bytes;

    /* The host's bandwidth can move by half within seconds, so each
     * repetition's decode is related to the bandwidth probed around it and
     * its prompt and image to the sgemm measured right after (where the
     * peak memory can be restarted after the bandwidth buffer; else all to
     * one measurement after the last repetition). */
    double pp[MAX_REPS], tg[MAX_REPS], enc[MAX_REPS], ttft[MAX_REPS], gb_s[MAX_REPS], gflop_s[MAX_REPS];
    double weights_gb_s[MAX_REPS], eff_tg_weights[MAX_REPS];
    double enc_gflop_s[MAX_REPS];
    /* the encoder's GEMMs: one input's patches × its MLP */
    const seer_vision_hparams *vhp = vision ? seer_vision_get_hparams(vision) : NULL;
    int enc_rows = vhp && vhp->patch_size > 0 ? (vhp->image_size / vhp->patch_size) * (vhp->image_size / vhp->patch_size) : 0;
    double eff_tg[MAX_REPS], eff_pp[MAX_REPS], eff_enc[MAX_REPS], eff_pp_peak[MAX_REPS], eff_enc_peak[MAX_REPS];
    if (warm_up(ctx, info, o, err) != 0) goto done;
    r->peak_rss_mb = 0;
    bool paired = reset_peak_rss();
    machine_probe mp = {.pool = pool, .peak = paired ? &r->peak_rss_mb : NULL};
    mp.weights = seer_llm_weights_copy(llm, &mp.weights_bytes);
    const double steal0 = seer_bench_steal_seconds(), reps_t0 = seer_time_ms();
    for (int rep = 0; rep < o->reps; rep++) {
        double pp_s, tg_s;
        if (run_text(ctx, info, o, 1234u + (uint32_t)rep, &mp, &pp_s, &tg_s, &gb_s[rep], &weights_gb_s[rep], err) != 0)
            goto done;
        pp[rep] = pp_s > 0 ? o->n_prompt / pp_s : 0;
        tg[rep] = tg_s > 0 ? 1.0 / tg_s : 0;
        enc[rep] = ttft[rep] = 0;
        if (vision && run_image(ctx, llm, vision, pool, &img, &enc[rep], &ttft[rep], r, err) != 0) goto done;
        if (paired || rep == o->reps - 1) {
            double peak = peak_rss_mb(); /* before the measurements' buffers inflate it */
            if (peak > r->peak_rss_mb) r->peak_rss_mb = peak;
            if (!paired) gb_s[rep] = seer_bench_mem_bandwidth(pool, probe_bytes(), 3);
            gflop_s[rep] = seer_bench_sgemm_gflops(pool, o->n_prompt, info->n_ff, info->n_embd, 3);
            enc_gflop_s[rep] = vhp ? seer_bench_encoder_gemm_gflops(pool, enc_rows, vhp->n_ff, vhp->n_embd, 3) : 0;
            if (paired) (void)reset_peak_rss();
        }
    }
    const double steal1 = seer_bench_steal_seconds(), reps_s = (seer_time_ms() - reps_t0) / 1e3;
    r->steal = steal0 >= 0 && steal1 >= steal0 && reps_s > 0 ? (steal1 - steal0) / (reps_s * seer_pool_size(pool)) : -1;
    r->peaks = seer_bench_peaks_measure(pool);
    const seer_bench_kernels kernels = bench_kernels(info->weight_type, r);
    choose_peaks(r, &kernels);
    for (int rep = 0; rep < o->reps - 1 && !paired; rep++)
        gb_s[rep] = gb_s[o->reps - 1], gflop_s[rep] = gflop_s[o->reps - 1], enc_gflop_s[rep] = enc_gflop_s[o->reps - 1];
    for (int rep = 0; rep < o->reps; rep++) {
        seer_bench_measure m = {
            .llm = r->work,
            .n_prompt = o->n_prompt,
            .pp_seconds = pp[rep] > 0 ? o->n_prompt / pp[rep] : 0,
            .tg_seconds_per_token = tg[rep] > 0 ? 1.0 / tg[rep] : 0,
            .kv_bytes_per_token = r->kv_read_per_token,
            .state_bytes_per_token = r->state_per_token,
            .encode_flops = r->encode_flops,
            .encode_seconds = enc[rep] / 1e3,
            .machine_gb_s = gb_s[rep],
            .weights_read_gb_s = weights_gb_s[rep],
            .machine_gflop_s = gflop_s[rep],
            .machine_encode_gflop_s = enc_gflop_s[rep],
            .peak_rss_bytes = r->peak_rss_mb * MB,
            .weight_bytes = r->weight_mb * MB,
            .kv_bytes = r->kv_mb * MB,
            .peak_prompt_gop_s = r->peak_prompt_gop_s,
            .peak_encode_gop_s = r->peak_encode_gop_s,
        };
        seer_bench_efficiency e = seer_bench_efficiencies(&m);
        eff_tg[rep] = e.decode_bw, eff_tg_weights[rep] = e.decode_weights_bw;
        eff_pp[rep] = e.prefill_flop, eff_enc[rep] = e.encode_flop;
        eff_pp_peak[rep] = e.prefill_peak, eff_enc_peak[rep] = e.encode_peak;
        r->eff.memory_overhead = e.memory_overhead;
    }
    r->pp_tok_s = seer_bench_median(pp, o->reps, &r->pp_spread);
    r->tg_tok_s = seer_bench_median(tg, o->reps, &r->tg_spread);
    if (vision) {
        r->encode_ms = seer_bench_median(enc, o->reps, &r->encode_spread);
        r->ttft_ms = seer_bench_median(ttft, o->reps, &r->ttft_spread);
    }
    r->machine_gb_s = seer_bench_median(gb_s, o->reps, &r->machine_gb_spread);
    r->weights_gb_s = seer_bench_median(weights_gb_s, o->reps, &r->weights_gb_spread);
    r->machine_gflop_s = seer_bench_median(gflop_s, o->reps, NULL);
    r->machine_encode_gflop_s = vision ? seer_bench_median(enc_gflop_s, o->reps, NULL) : 0;
    if (vhp) r->encode_gemm[0] = enc_rows, r->encode_gemm[1] = vhp->n_ff, r->encode_gemm[2] = vhp->n_embd;
    r->eff.decode_bw = seer_bench_median(eff_tg, o->reps, NULL);
    r->eff.decode_weights_bw = seer_bench_median(eff_tg_weights, o->reps, NULL);
    r->eff.prefill_flop = seer_bench_median(eff_pp, o->reps, NULL);
    r->eff.encode_flop = vision ? seer_bench_median(eff_enc, o->reps, NULL) : 0;
    r->eff.prefill_peak = seer_bench_median(eff_pp_peak, o->reps, NULL);
    r->eff.encode_peak = vision ? seer_bench_median(eff_enc_peak, o->reps, NULL) : 0;
    rc = 0;
done:
    seer_ctx_free(ctx);
    seer_image_free(&img);
    seer_vision_free(vision);
    seer_llm_free(llm);
    seer_pool_destroy(pool);
    return rc;
}

static void print_json_str(const char *key, const char *v) {
    printf("\"%s\": ", key);
    json_put_string(stdout, v ? v : "", strlen(v ? v : ""));
    printf(", ");
}

static void print_json(const bench_opts *o, const seer_llm_info *info, const bench_result *r, int threads) {
    printf("{");
    print_json_str("model", o->model);
    print_json_str("name", r->name);
    print_json_str("mmproj", o->mmproj ? o->mmproj : "");
    print_json_str("weight_type", seer_type_name(info->weight_type));
    seer_bench_kernels k = bench_kernels(info->weight_type, r);
    printf("\"kernels\": {\"simd\": \"%s\", \"amx_int8\": %s, \"amx_bf16\": %s, \"int8_gemm\": %s, \"prompt\": \"%s\", "
           "\"decode\": \"%s\", \"encode\": \"%s\"}, ",
           k.simd, k.amx_int8 ? "true" : "false", k.amx_bf16 ? "true" : "false", k.int8_gemm ? "true" : "false", k.prompt,
           k.decode, k.encode);
    const seer_blas_info blas = seer_blas_describe();
    printf("\"blas\": {\"core\": \"%s\", \"threads\": %d, \"vector_bits\": %d, \"cpu_vector_bits\": %d}, ", blas.core,
           blas.threads, blas.vector_bits, blas.cpu_vector_bits);
    printf("\"threads\": %d, \"n_prompt\": %d, \"n_gen\": %d, \"reps\": %d, \"kv_type\": \"%s\", ", threads, o->n_prompt,
           o->n_gen, o->reps, seer_kv_type_name(o->kv_type));
    printf("\"load_ms\": %.1f, \"encode_ms\": %.1f, \"encode_ms_spread\": %.1f, \"image_tokens\": %d, "
           "\"image_preproc\": \"%s\", \"vision_precision\": \"%s\", ", r->load_ms, r->encode_ms, r->encode_spread, r->image_tokens,
           o->preproc == SEER_PREPROC_LLAMACPP ? "llamacpp" : "original", seer_vision_precision_name(r->vision_precision));
    printf("\"pp_tok_s\": %.2f, \"pp_tok_s_spread\": %.2f, \"tg_tok_s\": %.2f, \"tg_tok_s_spread\": %.2f, ",
           r->pp_tok_s, r->pp_spread, r->tg_tok_s, r->tg_spread);
    printf("\"ttft_ms\": %.1f, \"ttft_ms_spread\": %.1f, \"peak_rss_mb\": %.1f, \"weight_mb\": %.1f, "
           "\"kv_mb\": %.1f, \"memory_overhead\": %.3f, ",
           r->ttft_ms, r->ttft_spread, r->peak_rss_mb, r->weight_mb, r->kv_mb, r->eff.memory_overhead);
    printf("\"weight_bytes_per_token\": %.0f, \"kv_bytes_per_token\": %.0f, \"state_bytes_per_token\": %.0f, "
           "\"encode_gflop\": %.3f, ",
           r->work.bytes_per_token, r->kv_read_per_token, r->state_per_token, r->encode_flops / 1e9);
    printf("\"machine_gb_s\": %.2f, \"machine_gb_s_spread\": %.2f, \"machine_gflop_s\": %.2f, "
           "\"machine_encode_gflop_s\": %.2f, ",
           r->machine_gb_s, r->machine_gb_spread, r->machine_gflop_s, r->machine_encode_gflop_s);
    printf("\"weights_read_gb_s\": %.2f, \"weights_read_gb_s_spread\": %.2f, ", r->weights_gb_s, r->weights_gb_spread);
    printf("\"peaks\": {\"fp32_gflop_s\": %.1f, \"fp32_kernel\": \"%s\", \"int8_gop_s\": %.1f, \"int8_kernel\": \"%s\", "
           "\"bf16_gflop_s\": %.1f, \"bf16_kernel\": \"%s\", \"amx_int8_gop_s\": %.1f, \"amx_int8_kernel\": \"%s\", "
           "\"amx_bf16_gflop_s\": %.1f, \"amx_bf16_kernel\": \"%s\"}, ",
           r->peaks.fp32_gflop_s, r->peaks.fp32_kernel, r->peaks.int8_gop_s, r->peaks.int8_kernel, r->peaks.bf16_gflop_s,
           r->peaks.bf16_kernel, r->peaks.amx_int8_gop_s, r->peaks.amx_int8_kernel, r->peaks.amx_bf16_gflop_s,
           r->peaks.amx_bf16_kernel);
    printf("\"prefill_peak_efficiency\": %.3f, \"prefill_peak\": \"%s\", \"encode_peak_efficiency\": %.3f, "
           "\"encode_peak\": \"%s\", ",
           r->eff.prefill_peak, r->peak_prompt_name, r->eff.encode_peak, r->peak_encode_name);
    if (r->steal >= 0) printf("\"steal_fraction\": %.3f, ", r->steal);
    else printf("\"steal_fraction\": null, ");
    printf("\"decode_bw_efficiency\": %.3f, \"decode_weights_bw_efficiency\": %.3f, \"prefill_flop_efficiency\": %.3f, "
           "\"encode_flop_efficiency\": %.3f}\n",
           r->eff.decode_bw, r->eff.decode_weights_bw, r->eff.prefill_flop, r->eff.encode_flop);
}

static void print_text(const bench_opts *o, const seer_llm_info *info, const bench_result *r, int threads) {
    char *name = seer_text_sanitize_dup(r->name, strlen(r->name), 0);
    printf("model        %s (%s, %.1f M params, %.1f MB of weights read per token)\n", name ? name : "?",
           seer_type_name(info->weight_type), (double)info->n_params / 1e6, r->work.bytes_per_token / 1e6);
    free(name);
    printf("threads      %d, %d reps (median, spread = max - min)\n", threads, o->reps);
    seer_bench_kernels k = bench_kernels(info->weight_type, r);
    char kernels[256];
    seer_bench_kernels_format(&k, true, kernels, sizeof kernels);
    printf("kernels      %s\n", kernels);
    const seer_blas_info blas = seer_blas_describe();
    printf("blas         OpenBLAS %s kernels (%d-bit; the CPU's vectors %d-bit), %d threads\n", blas.core,
           blas.vector_bits, blas.cpu_vector_bits, blas.threads);
    char warning[256];
    if (seer_blas_narrower_warning(&blas, warning, sizeof warning)) fprintf(stderr, "seer: %s\n", warning);
    printf("machine      %.1f GB/s read (±%.1f) around each generation, %.1f GFLOP/s f32 GEMM (%d x %d x %d)\n",
           r->machine_gb_s, r->machine_gb_spread, r->machine_gflop_s, o->n_prompt, info->n_ff, info->n_embd);
    printf("peaks        FP32 %.0f GFLOP/s (%s), int8 %.0f GOP/s (%s), BF16 %.0f GFLOP/s (%s)",
           r->peaks.fp32_gflop_s, r->peaks.fp32_kernel, r->peaks.int8_gop_s, r->peaks.int8_kernel,
           r->peaks.bf16_gflop_s, r->peaks.bf16_kernel);
    if (r->peaks.amx_int8_gop_s > 0)
        printf(", AMX int8 %.0f GOP/s, AMX BF16 %.0f GFLOP/s", r->peaks.amx_int8_gop_s, r->peaks.amx_bf16_gflop_s);
    printf("\n");
    if (r->steal >= 0.01)
        printf("host         steal %.0f%%: the hypervisor gave that share of the runs' CPU time (per thread used) "
               "to other guests; every figure below carries it\n", 100 * r->steal);
    printf("load         %.0f ms\n", r->load_ms);
    printf("prompt       %.1f tok/s (±%.1f) for %d tokens   %.2f of the %s peak (prefill_flop_efficiency %.2f "
           "against the f32 GEMM)\n",
           r->pp_tok_s, r->pp_spread, o->n_prompt, r->eff.prefill_peak, r->peak_prompt_name, r->eff.prefill_flop);
    printf("generation   %.2f tok/s (±%.2f) for %d tokens   decode_bw_efficiency %.2f (the weights and %.1f MB of "
           "KV cache a token",
           r->tg_tok_s, r->tg_spread, o->n_gen, r->eff.decode_bw, r->kv_read_per_token / 1e6);
    if (r->state_per_token > 0) printf(", its %.1f MB recurrent state read and written back", r->state_per_token / 2e6);
    printf(")\n");
    if (r->weights_gb_s > 0)
        printf("             %.2f of the %.1f GB/s (±%.1f) the same read gets from the model's own weights "
               "(decode_weights_bw_efficiency)\n",
               r->eff.decode_weights_bw, r->weights_gb_s, r->weights_gb_spread);
    if (o->mmproj) {
        printf("image        %.0f ms (±%.0f) to encode %d input(s) into %d tokens, %.1f GFLOP   %.2f of the %s "
               "peak (encode_flop_efficiency %.2f)\n",
               r->encode_ms, r->encode_spread, r->encoder_inputs, r->image_tokens, r->encode_flops / 1e9,
               r->eff.encode_peak, r->peak_encode_name, r->eff.encode_flop);
        printf("             against %.1f GFLOP/s of the encoder's F16 GEMM at its sizes (%d x %d x %d)\n",
               r->machine_encode_gflop_s, r->encode_gemm[0], r->encode_gemm[1], r->encode_gemm[2]);
        printf("first token  %.0f ms (±%.0f) with the image\n", r->ttft_ms, r->ttft_spread);
    }
    printf("peak memory  %.0f MB resident (weights %.0f MB + %s KV cache %.0f MB, %+.0f%%)   memory_overhead %.2f\n",
           r->peak_rss_mb, r->weight_mb, seer_kv_type_name(o->kv_type), r->kv_mb, 100 * r->eff.memory_overhead,
           r->eff.memory_overhead);
}

int cmd_bench(int argc, char **argv) {
    bench_opts o;
    int pr = parse_args(argc, argv, &o);
    if (pr == 1) {
        usage(stdout);
        return 0;
    }
    if (pr) return pr;
    seer_error err = {{0}};
    if (o.synth) {
        double t0 = seer_time_ms();
        if (seer_bench_synth(o.synth, o.out, &err) != 0) return fail(&err);
        fprintf(stderr, "seer: wrote %s/%s-llm.gguf and %s-mmproj.gguf in %.1f s\n", o.out, o.synth, o.synth,
                (seer_time_ms() - t0) / 1e3);
        return 0;
    }
    seer_hub_files hub = {0};
    if (o.hub.repo) {
        const int rc = app_hub_fetch(&o.hub, !o.mmproj, &hub, &err);
        if (rc) return fail(&err), rc;
        o.model = hub.model;
        if (!o.mmproj) o.mmproj = hub.mmproj;
    }
    bench_result r = {0};
    seer_llm_info info = {0};
    const int rc = run_bench(&o, &r, &info, &err);
    if (rc != 0) {
        seer_hub_files_free(&hub);
        return fail(&err);
    }
    int threads = o.threads > 0 ? o.threads : seer_cpu_count();
    if (o.json) print_json(&o, &info, &r, threads);
    else print_text(&o, &info, &r, threads);
    seer_hub_files_free(&hub);
    return 0;
}
