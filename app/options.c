/* Parsing the chat command line into app_options. */
#include "options.h"

#include "data_files.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void app_options_usage(FILE *out) {
    fprintf(out,
            "usage: seer -m MODEL.gguf [--mmproj MMPROJ.gguf] [--image IMG]... [-p PROMPT | -f FILE] [options]\n"
            "       seer -hf USER/REPO[:QUANT] ... (a model from the Hugging Face hub)\n"
            "       seer info | tokenize | encode | embed | index | search | ocr | serve | quantize | bench ... (see 'seer COMMAND --help')\n"
            "\n"
            "Chat with a (vision-)language model. With -p or -f the answer streams to stdout and\n"
            "timings go to stderr; on a terminal without a prompt the interactive UI starts.\n"
            "\n"
            "model and input:\n"
            "      --demo              the bundled demo model and picture (no download needed)\n"
            "  -m, --model FILE        language model (GGUF)\n"
            "      --mmproj FILE       vision projector (GGUF) for images\n");
    app_hub_usage(out);
    fprintf(out,
            "      --image FILE        attach an image (repeatable); a bare image path works too\n"
            "  -p, --prompt TEXT       the user message\n"
            "  -f, --file FILE         read the prompt from FILE ('-' = standard input)\n"
            "      --system TEXT       system prompt (default: the template's own, if any)\n"
            "      --chat-template NAME  chatml, vicuna, llama2, llama3, mistral, gemma, smolvlm, qwen2vl, qwen3vl,\n"
            "                            qwen3vl-thinking, qwen3.5, gemma4, glm4, mistral-v7, paddleocr, dots.ocr,\n"
            "                            hunyuan-vl\n"
            "      --think on|off      thinking models: think before answering (default on); headless, the\n"
            "                            thought goes to stderr (dimmed on a terminal), the answer to stdout\n"
            "      --raw               send the prompt as is (no chat template; <__media__> marks images)\n"
            "generation:\n"
            "  -n, --n-predict N       tokens to generate (default: until end of generation)\n"
            "      --temp T            temperature (default 0.8; 0 = greedy)\n"
            "      --top-k N           (default 40; 0 = off)\n"
            "      --top-p P           (default 0.95; 1 = off)\n"
            "      --min-p P           (default 0.05; 0 = off)\n"
            "      --repeat-penalty F  (default 1.0 = off)\n"
            "      --repeat-last-n N   tokens the penalty looks back (default 64)\n"
            "      --seed N            random seed (default: from the clock)\n"
            "runtime:\n"
            "  -t, --threads N         threads (default: all cores)\n"
            "  -c, --ctx-size N        context size in tokens (default: min(model's, 4096))\n"
            "      --kv-type f16|f32   KV cache elements (default f16: half the memory and reads)\n"
            "      --image-preproc original|llamacpp  images prepared as the model's own processor does\n"
            "                          (default) or as llama.cpp does\n"
            "      --vision-precision exact|bf16  image encoder products exact (default) or in BF16\n"
            "                          (faster where the CPU has BF16 dot products; see seer(1))\n"
            "      --json              one JSON object per event on stdout (prompt, image, token, done, error)\n"
            "      --verbose           more detail on stderr\n"
            "terminal UI:\n"
            "      --theme NAME        colour theme (themes/NAME)\n"
            "      --index INDEX       image index for /find (made by seer index DIR -o INDEX)\n"
            "      --sixel auto|on|off image previews with sixel graphics\n"
            "      --preview quadrant|sextant|halfblock  block glyphs of the preview without sixel\n"
            "                          (default quadrant; sextant needs a font with U+1FB00..1FB3B)\n"
            "      --no-tui            never start the interactive UI\n"
            "  -h, --help              this help\n"
            "example: seer -m model.gguf --mmproj mmproj.gguf --image photo.jpg -p \"What is in this picture?\"\n");
}

static int fail(char *err, size_t cap, const char *fmt, const char *arg) {
    snprintf(err, cap, fmt, arg);
    return -1;
}

static bool parse_int(const char *s, long lo, long hi, int *out) {
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi) return false;
    *out = (int)v;
    return true;
}

static bool parse_float(const char *s, float lo, float hi, float *out) {
    char *end;
    errno = 0;
    float v = strtof(s, &end);
    if (errno || end == s || *end || !isfinite(v) || v < lo || v > hi) return false;
    *out = v;
    return true;
}

static bool has_suffix_ci(const char *s, const char *suffix) {
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcasecmp(s + a - b, suffix) == 0;
}

static bool looks_like_image(const char *s) {
    static const char *ext[] = {".png", ".jpg", ".jpeg", ".bmp", ".gif", ".tga", ".psd", ".pnm", ".ppm", ".pgm"};
    for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++)
        if (has_suffix_ci(s, ext[i])) return true;
    return false;
}

static int add_image(app_options *o, const char *path, char *err, size_t cap) {
    if (o->n_images >= APP_MAX_IMAGES) return fail(err, cap, "too many images (at most %s)", "64");
    o->images[o->n_images++] = path;
    return 0;
}

/* --demo: the bundled demo model and, with no image given, its demo picture
 * (found beside the binary, in the source tree or where make install put them). */
static int use_demo_model(app_options *o, char *err, size_t cap) {
    if (!app_data_file("models/demo-llm.gguf", o->demo_paths[0], sizeof o->demo_paths[0]) ||
        !app_data_file("models/demo-mmproj.gguf", o->demo_paths[1], sizeof o->demo_paths[1]))
        return fail(err, cap, "--demo: the demo model is not installed beside this seer (assets/models or "
                              "share/seer/models)%s", "");
    o->model_path = o->demo_paths[0];
    o->mmproj_path = o->demo_paths[1];
    if (o->n_images == 0 && app_data_file("images/demo.png", o->demo_paths[2], sizeof o->demo_paths[2]))
        o->images[o->n_images++] = o->demo_paths[2];
    return 0;
}

int app_options_parse(int argc, char **argv, app_options *o, char *err, size_t cap) {
    memset(o, 0, sizeof *o);
    o->n_predict = -1;
    o->sampling = seer_sampling_default();
    for (int i = 1; i < argc; i++) {
        const int hub = app_hub_arg(argc, argv, &i, &o->hub);
        if (hub < 0) return fail(err, cap, "%s needs a value", argv[i]);
        if (hub > 0) continue;
        const char *a = argv[i];
        /* --name=value is accepted too */
        char name[64];
        const char *val = NULL;
        const char *eq = strncmp(a, "--", 2) == 0 ? strchr(a, '=') : NULL;
        if (eq && (size_t)(eq - a) < sizeof name) {
            memcpy(name, a, (size_t)(eq - a));
            name[eq - a] = 0;
            a = name;
            val = eq + 1;
        }
#define IS(s) (strcmp(a, s) == 0)
#define NEED()                                                                  \
    do {                                                                        \
        if (!val) {                                                             \
            if (i + 1 >= argc) return fail(err, cap, "%s needs a value", a);    \
            val = argv[++i];                                                    \
        }                                                                       \
    } while (0)
        if (IS("-h") || IS("--help")) {
            o->help = true;
        } else if (IS("--demo")) {
            o->demo = true;
        } else if (IS("--raw")) {
            o->raw = true;
        } else if (IS("--json")) {
            o->json = true;
        } else if (IS("--no-tui")) {
            o->no_tui = true;
        } else if (IS("--verbose")) {
            o->verbose = true;
        } else if (IS("-m") || IS("--model")) {
            NEED();
            o->model_path = val;
        } else if (IS("--mmproj")) {
            NEED();
            o->mmproj_path = val;
        } else if (IS("--image")) {
            NEED();
            if (add_image(o, val, err, cap)) return -1;
        } else if (IS("-p") || IS("--prompt")) {
            NEED();
            o->prompt = val;
        } else if (IS("-f") || IS("--file")) {
            NEED();
            o->prompt_file = val;
        } else if (IS("--system")) {
            NEED();
            o->system_prompt = val;
        } else if (IS("--think")) {
            NEED();
            if (strcmp(val, "on") != 0 && strcmp(val, "off") != 0)
                return fail(err, cap, "--think takes on or off, not '%.32s'", val);
            o->think_off = strcmp(val, "off") == 0;
        } else if (IS("--chat-template")) {
            NEED();
            o->chat_template = val;
        } else if (IS("--theme")) {
            NEED();
            o->theme = val;
        } else if (IS("--index")) {
            NEED();
            o->index_path = val;
        } else if (IS("--sixel")) {
            NEED();
            if (!strcmp(val, "auto")) o->sixel = APP_SIXEL_AUTO;
            else if (!strcmp(val, "on")) o->sixel = APP_SIXEL_ON;
            else if (!strcmp(val, "off")) o->sixel = APP_SIXEL_OFF;
            else return fail(err, cap, "--sixel takes auto, on or off, not '%.64s'", val);
        } else if (IS("--preview")) {
            NEED();
            if (!cell_art_parse(val, &o->preview))
                return fail(err, cap, "--preview takes quadrant, sextant or halfblock, not '%.64s'", val);
        } else if (IS("-n") || IS("--n-predict")) {
            NEED();
            if (!parse_int(val, -1, 1 << 24, &o->n_predict)) return fail(err, cap, "-n: bad count '%.64s'", val);
        } else if (IS("-t") || IS("--threads")) {
            NEED();
            if (!parse_int(val, 0, 1024, &o->n_threads)) return fail(err, cap, "-t: bad thread count '%.64s'", val);
        } else if (IS("-c") || IS("--ctx-size")) {
            NEED();
            if (!parse_int(val, 0, 1 << 20, &o->n_ctx)) return fail(err, cap, "-c: bad context size '%.64s'", val);
        } else if (IS("--image-preproc")) {
            NEED();
            if (!seer_preproc_mode_parse(val, &o->image_preproc))
                return fail(err, cap, "--image-preproc takes original or llamacpp, not '%.64s'", val);
        } else if (IS("--vision-precision")) {
            NEED();
            if (!seer_vision_precision_parse(val, &o->vision_precision))
                return fail(err, cap, "--vision-precision takes exact or bf16, not '%.64s'", val);
        } else if (IS("--kv-type")) {
            NEED();
            if (!seer_kv_type_parse(val, &o->kv_type)) return fail(err, cap, "--kv-type takes f16 or f32, not '%.64s'", val);
        } else if (IS("--temp")) {
            NEED();
            if (!parse_float(val, 0, 100, &o->sampling.temp)) return fail(err, cap, "--temp: bad value '%.64s'", val);
        } else if (IS("--top-k")) {
            NEED();
            if (!parse_int(val, 0, 1 << 24, &o->sampling.top_k)) return fail(err, cap, "--top-k: bad value '%.64s'", val);
        } else if (IS("--top-p")) {
            NEED();
            if (!parse_float(val, 0, 1, &o->sampling.top_p)) return fail(err, cap, "--top-p: bad value '%.64s'", val);
        } else if (IS("--min-p")) {
            NEED();
            if (!parse_float(val, 0, 1, &o->sampling.min_p)) return fail(err, cap, "--min-p: bad value '%.64s'", val);
        } else if (IS("--repeat-penalty")) {
            NEED();
            if (!parse_float(val, 0.01f, 100, &o->sampling.repeat_penalty))
                return fail(err, cap, "--repeat-penalty: bad value '%.64s'", val);
        } else if (IS("--repeat-last-n")) {
            NEED();
            if (!parse_int(val, 0, 4096, &o->sampling.repeat_last_n))
                return fail(err, cap, "--repeat-last-n: bad value '%.64s'", val);
        } else if (IS("--seed")) {
            NEED();
            char *end;
            errno = 0;
            unsigned long long s = strtoull(val, &end, 10);
            if (errno || end == val || *end || val[0] == '-') return fail(err, cap, "--seed: bad value '%.64s'", val);
            o->sampling.seed = s;
            o->seed_set = true;
        } else if (a[0] == '-' && a[1]) {
            return fail(err, cap, "unknown option '%.64s'", argv[i]);
        } else if (looks_like_image(a)) {
            if (add_image(o, a, err, cap)) return -1;
        } else {
            return fail(err, cap, "unexpected argument '%.64s'", a);
        }
#undef IS
#undef NEED
    }
    if (!o->seed_set) o->sampling.seed = (uint64_t)time(NULL) * 1000003u ^ (uint64_t)getpid();
    if (o->help) return 0;
    if (o->prompt && o->prompt_file) return fail(err, cap, "give either -p or -f, not both%s", "");
    const char *hub_problem = app_hub_args_problem(&o->hub);
    if (hub_problem) return fail(err, cap, "%s", hub_problem);
    if (o->demo && (o->model_path || o->mmproj_path || o->hub.repo))
        return fail(err, cap, "--demo brings its own model: drop -m, --mmproj and -hf%s", "");
    if (o->demo && use_demo_model(o, err, cap) != 0) return -1;
    if (o->model_path && o->hub.repo) return fail(err, cap, "give either -m or -hf, not both%s", "");
    if (!o->model_path && !o->hub.repo)
        return fail(err, cap, "no model given: use -m MODEL.gguf or -hf USER/REPO[:QUANT]%s", "");
    if (o->n_images > 0 && !o->mmproj_path && !o->hub.repo) return fail(err, cap, "images need a vision projector: add --mmproj FILE%s", "");
    o->tui = !o->prompt && !o->prompt_file && !o->json && !o->no_tui && isatty(STDIN_FILENO) &&
             isatty(STDOUT_FILENO);
    return 0;
}

seer_session_params app_options_session_params(const app_options *o) {
    seer_session_params p = seer_session_params_default();
    p.n_ctx = o->n_ctx;
    p.kv_type = o->kv_type;
    p.image_preproc = o->image_preproc;
    p.n_predict = o->n_predict;
    p.sampling = o->sampling;
    p.chat_template = o->chat_template;
    p.system_prompt = o->system_prompt;
    p.thinking_off = o->think_off;
    return p;
}

void app_vision_precision(seer_vision *v, seer_vision_precision want) {
    if (v && seer_vision_set_precision(v, want) != want)
        fprintf(stderr, "seer: --vision-precision bf16: no BF16 dot products here (AVX512-BF16, with SEER_SIMD at avx512); encoding exactly\n");
}
