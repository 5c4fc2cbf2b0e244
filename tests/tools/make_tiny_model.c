/* make_tiny_model: writes a tiny random-weight LLM GGUF (llama or qwen2vl
 * layout) with a real, usable byte-level BPE vocabulary and a ChatML chat
 * template, and optionally a matching tiny LLaVA-1.5-layout CLIP mmproj, so
 * the headless, session and UI tests can exercise the whole machinery
 * without the conformance data. Outputs are random text; that is the point.
 *
 *   make_tiny_model --out M.gguf [--arch llama|qwen2vl] [--type f32|q8_0|q4_k]
 *                   [--mmproj P.gguf] [--seed N] [--layers N]
 *                   [--embd N --ff N --heads N --kv-heads N --vocab N]
 * The size flags make realistic-size random models for benchmarks (tensor
 * data is generated while the file is written).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seer/gguf.h"
#include "seer/tensor.h"
#include "tokenizer/unicode.h"

typedef struct rng {
    uint64_t s;
} rng;
static float rng_uniform(rng *r) { /* [-1, 1) */
    r->s = r->s * 6364136223846793005ull + 1442695040888963407ull;
    return (float)((r->s >> 40) & 0xffffff) / 8388608.0f - 1.0f;
}

/* Merges of common English pieces ("Ġ" = U+0120 is the space byte). */
static const char *MERGES[][2] = {
    {"Ġ", "t"}, {"h", "e"}, {"Ġt", "he"}, {"i", "n"}, {"Ġ", "a"}, {"e", "r"}, {"o", "n"}, {"Ġ", "s"},
    {"r", "e"}, {"a", "t"}, {"Ġ", "w"}, {"o", "r"}, {"e", "n"}, {"Ġ", "i"}, {"Ġ", "c"}, {"i", "s"},
    {"Ġ", "o"}, {"e", "s"}, {"a", "n"}, {"Ġ", "b"}, {"in", "g"}, {"Ġ", "h"}, {"l", "l"}, {"Ġ", "m"},
};
#define N_MERGES (int)(sizeof MERGES / sizeof MERGES[0])
static const char *SPECIALS[] = {"<|endoftext|>", "<|im_start|>", "<|im_end|>"};
#define N_SPECIALS 3

static const char *CHATML_TEMPLATE =
    "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + "
    "'<|im_end|>' + '\\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

/* n_vocab > the real tokens: padded with unused [PADn] tokens (benchmarks). */
static int write_vocab(gguf_writer *w, int n_vocab) {
    const int n_real = 256 + N_MERGES + N_SPECIALS, n = n_vocab > n_real ? n_vocab : n_real;
    char **tok = calloc((size_t)n, sizeof *tok);
    int32_t *type = calloc((size_t)n, sizeof *type);
    float *score = calloc((size_t)n, sizeof *score);
    char **merges = calloc(N_MERGES, sizeof *merges);
    if (!tok || !type || !score || !merges) return -1;
    for (int b = 0; b < 256; b++) {
        tok[b] = malloc(4);
        tok[b][seer_utf8_encode(seer_byte_to_cp((uint8_t)b), tok[b])] = 0;
        type[b] = 1;
    }
    for (int i = 0; i < N_MERGES; i++) {
        size_t a = strlen(MERGES[i][0]), c = strlen(MERGES[i][1]);
        tok[256 + i] = malloc(a + c + 1);
        memcpy(tok[256 + i], MERGES[i][0], a);
        memcpy(tok[256 + i] + a, MERGES[i][1], c + 1);
        type[256 + i] = 1;
        score[256 + i] = -(float)i;
        merges[i] = malloc(a + c + 2);
        snprintf(merges[i], a + c + 2, "%s %s", MERGES[i][0], MERGES[i][1]);
    }
    for (int i = 0; i < N_SPECIALS; i++) {
        tok[256 + N_MERGES + i] = strdup(SPECIALS[i]);
        type[256 + N_MERGES + i] = 3; /* control */
    }
    for (int i = n_real; i < n; i++) {
        char pad[32];
        snprintf(pad, sizeof pad, "[PAD%d]", i);
        tok[i] = strdup(pad);
        type[i] = 5; /* unused */
    }
    gguf_writer_set_str(w, "tokenizer.ggml.model", "gpt2");
    gguf_writer_set_str(w, "tokenizer.ggml.pre", "gpt-2");
    gguf_writer_set_arr_str(w, "tokenizer.ggml.tokens", (const char *const *)tok, (uint64_t)n);
    gguf_writer_set_arr_i32(w, "tokenizer.ggml.token_type", type, (uint64_t)n);
    gguf_writer_set_arr_str(w, "tokenizer.ggml.merges", (const char *const *)merges, N_MERGES);
    gguf_writer_set_u32(w, "tokenizer.ggml.bos_token_id", 256 + N_MERGES);     /* <|endoftext|> */
    gguf_writer_set_u32(w, "tokenizer.ggml.eos_token_id", 256 + N_MERGES + 2); /* <|im_end|> */
    gguf_writer_set_u32(w, "tokenizer.ggml.padding_token_id", 256 + N_MERGES);
    gguf_writer_set_bool(w, "tokenizer.ggml.add_bos_token", false);
    gguf_writer_set_str(w, "tokenizer.chat_template", CHATML_TEMPLATE);
    for (int i = 0; i < n; i++) free(tok[i]);
    for (int i = 0; i < N_MERGES; i++) free(merges[i]);
    free(tok);
    free(type);
    free(score);
    free(merges);
    return n;
}

/* A random tensor of `type` (rows of ne[0] quantized one by one), generated
 * when the file is written so big benchmark models never sit in memory. */
typedef struct random_tensor {
    int type;
    int64_t n_in, rows;
    float scale, offset;
    uint64_t seed;
} random_tensor;

static void fill_random(void *ctx, void *dst, size_t nbytes) {
    const random_tensor *t = ctx;
    rng r = {t->seed};
    float *row = malloc(sizeof *row * (size_t)t->n_in);
    const size_t rb = seer_row_bytes(t->type, t->n_in);
    for (int64_t i = 0; row && i < t->rows && (size_t)(i + 1) * rb <= nbytes; i++) {
        for (int64_t k = 0; k < t->n_in; k++) row[k] = t->offset + t->scale * rng_uniform(&r);
        seer_quantize_row(t->type, row, (char *)dst + (size_t)i * rb, t->n_in);
    }
    free(row);
}

/* Contexts of the pending tensors (freed after writing). */
static random_tensor *pending[4096];
static int n_pending;

static int add_random(gguf_writer *w, rng *r, const char *name, int type, int n_dims, const int64_t *ne, float scale,
                      float offset) {
    int64_t rows = 1;
    for (int d = 1; d < n_dims; d++) rows *= ne[d];
    if (n_dims == 1 || ne[0] % seer_type_get(type)->block_size != 0) type = SEER_TYPE_F32;
    random_tensor *t = malloc(sizeof *t);
    /* the seed goes through int64_t: rng_uniform can be negative, and a
     * negative double cast straight to an unsigned type is undefined (x86
     * happened to wrap it, as the signed cast does by definition) */
    if (!t || n_pending == (int)(sizeof pending / sizeof pending[0])) return -1;
    *t = (random_tensor){.type = type, .n_in = ne[0], .rows = rows, .scale = scale, .offset = offset,
                         .seed = (uint64_t)(int64_t)(rng_uniform(r) * 1e9) ^ ((uint64_t)n_pending << 32)};
    pending[n_pending++] = t;
    gguf_writer_add_tensor_fn(w, name, type, n_dims, ne, fill_random, t);
    return 0;
}

static void free_pending(void) {
    for (int i = 0; i < n_pending; i++) free(pending[i]);
    n_pending = 0;
}

typedef struct opts {
    const char *out, *mmproj, *arch;
    int type, n_layer;
    int n_embd, n_ff, n_head, n_head_kv, n_vocab; /* 0: the tiny defaults */
    uint64_t seed;
} opts;

static int write_llm(const opts *o, int *n_embd_out) {
    const bool k_quant = o->type == SEER_TYPE_Q4_K;
    const int E = o->n_embd ? o->n_embd : k_quant ? 256 : 64, F = o->n_ff ? o->n_ff : k_quant ? 256 : 128;
    const int H = o->n_head ? o->n_head : 4, KV = o->n_head_kv ? o->n_head_kv : 2, HD = E / H;
    if (E % H || H % KV || HD % 2) {
        fprintf(stderr, "make_tiny_model: width %d, %d heads, %d KV heads do not fit together\n", E, H, KV);
        return -1;
    }
    *n_embd_out = E;
    const char *a = o->arch;
    gguf_writer *w = gguf_writer_new();
    char key[128], name[128];
    rng r = {o->seed * 2654435761u + 1};
#define KEY(s) (snprintf(key, sizeof key, "%s.%s", a, s), key)
    gguf_writer_set_str(w, "general.architecture", a);
    snprintf(name, sizeof name, "tiny-%s-%s", a, seer_type_name(o->type));
    gguf_writer_set_str(w, "general.name", name);
    gguf_writer_set_u32(w, KEY("block_count"), (uint32_t)o->n_layer);
    gguf_writer_set_u32(w, KEY("context_length"), 2048);
    gguf_writer_set_u32(w, KEY("embedding_length"), (uint32_t)E);
    gguf_writer_set_u32(w, KEY("feed_forward_length"), (uint32_t)F);
    gguf_writer_set_u32(w, KEY("attention.head_count"), H);
    gguf_writer_set_u32(w, KEY("attention.head_count_kv"), KV);
    gguf_writer_set_f32(w, KEY("attention.layer_norm_rms_epsilon"), 1e-6f);
    gguf_writer_set_u32(w, KEY("rope.dimension_count"), (uint32_t)HD);
    const bool qwen = strcmp(a, "qwen2vl") == 0;
    gguf_writer_set_f32(w, KEY("rope.freq_base"), qwen ? 1e6f : 10000.0f);
    if (qwen) {
        const int32_t sec[4] = {HD / 8, 3 * HD / 16, 3 * HD / 16, 0}; /* [2, 3, 3, 0] for head 16 */
        gguf_writer_set_arr_i32(w, KEY("rope.dimension_sections"), sec, 4);
    }
#undef KEY
    const int n_vocab = write_vocab(w, o->n_vocab);
    if (n_vocab < 0) return -1;
    const float s_in = 1.0f / sqrtf((float)E), s_ff = 1.0f / sqrtf((float)F);
    int rc = 0;
    rc |= add_random(w, &r, "token_embd.weight", o->type, 2, (int64_t[]){E, n_vocab}, 1.0f, 0);
    for (int l = 0; l < o->n_layer; l++) {
#define T(s) (snprintf(name, sizeof name, "blk.%d.%s", l, s), name)
        rc |= add_random(w, &r, T("attn_norm.weight"), SEER_TYPE_F32, 1, (int64_t[]){E}, 0.1f, 1.0f);
        rc |= add_random(w, &r, T("attn_q.weight"), o->type, 2, (int64_t[]){E, H * HD}, s_in, 0);
        rc |= add_random(w, &r, T("attn_k.weight"), o->type, 2, (int64_t[]){E, KV * HD}, s_in, 0);
        rc |= add_random(w, &r, T("attn_v.weight"), o->type, 2, (int64_t[]){E, KV * HD}, s_in, 0);
        if (qwen) {
            rc |= add_random(w, &r, T("attn_q.bias"), SEER_TYPE_F32, 1, (int64_t[]){H * HD}, 0.1f, 0);
            rc |= add_random(w, &r, T("attn_k.bias"), SEER_TYPE_F32, 1, (int64_t[]){KV * HD}, 0.1f, 0);
            rc |= add_random(w, &r, T("attn_v.bias"), SEER_TYPE_F32, 1, (int64_t[]){KV * HD}, 0.1f, 0);
        }
        rc |= add_random(w, &r, T("attn_output.weight"), o->type, 2, (int64_t[]){H * HD, E}, s_in, 0);
        rc |= add_random(w, &r, T("ffn_norm.weight"), SEER_TYPE_F32, 1, (int64_t[]){E}, 0.1f, 1.0f);
        rc |= add_random(w, &r, T("ffn_gate.weight"), o->type, 2, (int64_t[]){E, F}, s_in, 0);
        rc |= add_random(w, &r, T("ffn_up.weight"), o->type, 2, (int64_t[]){E, F}, s_in, 0);
        rc |= add_random(w, &r, T("ffn_down.weight"), o->type, 2, (int64_t[]){F, E}, s_ff, 0);
#undef T
    }
    rc |= add_random(w, &r, "output_norm.weight", SEER_TYPE_F32, 1, (int64_t[]){E}, 0.1f, 1.0f);
    rc |= add_random(w, &r, "output.weight", o->type, 2, (int64_t[]){E, n_vocab}, 3.0f * s_in, 0);
    seer_error err = {{0}};
    if (rc == 0 && gguf_writer_write(w, o->out, &err) != 0) {
        fprintf(stderr, "make_tiny_model: %s\n", err.msg);
        rc = -1;
    }
    gguf_writer_free(w);
    free_pending();
    return rc ? -1 : 0;
}

/* LLaVA-1.5 layout (legacy converter names, ffn_down = first matrix). */
static int write_mmproj(const opts *o, int n_embd_llm) {
    const int W = 32, FF = 64, HEADS = 4, BLOCKS = 2, IMG = 56, PATCH = 14;
    const int n_pos = (IMG / PATCH) * (IMG / PATCH) + 1;
    gguf_writer *w = gguf_writer_new();
    rng r = {o->seed * 40503u + 7};
    gguf_writer_set_str(w, "general.architecture", "clip");
    gguf_writer_set_str(w, "general.name", "tiny-llava-mmproj");
    gguf_writer_set_u32(w, "general.file_type", 0);
    gguf_writer_set_bool(w, "clip.has_text_encoder", false);
    gguf_writer_set_bool(w, "clip.has_vision_encoder", true);
    gguf_writer_set_bool(w, "clip.has_llava_projector", true);
    gguf_writer_set_str(w, "clip.projector_type", "mlp");
    gguf_writer_set_bool(w, "clip.use_gelu", false);
    gguf_writer_set_u32(w, "clip.vision.image_size", IMG);
    gguf_writer_set_u32(w, "clip.vision.patch_size", PATCH);
    gguf_writer_set_u32(w, "clip.vision.embedding_length", W);
    gguf_writer_set_u32(w, "clip.vision.feed_forward_length", FF);
    gguf_writer_set_u32(w, "clip.vision.projection_dim", (uint32_t)n_embd_llm);
    gguf_writer_set_u32(w, "clip.vision.attention.head_count", HEADS);
    gguf_writer_set_f32(w, "clip.vision.attention.layer_norm_epsilon", 1e-5f);
    gguf_writer_set_u32(w, "clip.vision.block_count", BLOCKS);
    const float mean[3] = {0.48145466f, 0.4578275f, 0.40821073f}, std[3] = {0.26862954f, 0.26130258f, 0.27577711f};
    gguf_writer_set_arr_f32(w, "clip.vision.image_mean", mean, 3);
    gguf_writer_set_arr_f32(w, "clip.vision.image_std", std, 3);
    const float s = 1.0f / sqrtf((float)W);
    int rc = 0;
    char name[128];
    rc |= add_random(w, &r, "v.class_embd", SEER_TYPE_F32, 1, (int64_t[]){W}, 0.5f, 0);
    rc |= add_random(w, &r, "v.patch_embd.weight", SEER_TYPE_F32, 4, (int64_t[]){PATCH, PATCH, 3, W}, 0.05f, 0);
    rc |= add_random(w, &r, "v.position_embd.weight", SEER_TYPE_F32, 2, (int64_t[]){W, n_pos}, 0.5f, 0);
    rc |= add_random(w, &r, "v.pre_ln.weight", SEER_TYPE_F32, 1, (int64_t[]){W}, 0.1f, 1.0f);
    rc |= add_random(w, &r, "v.pre_ln.bias", SEER_TYPE_F32, 1, (int64_t[]){W}, 0.1f, 0);
    for (int b = 0; b < BLOCKS; b++) {
        const char *lin[] = {"attn_q", "attn_k", "attn_v", "attn_out"};
        for (int i = 0; i < 4; i++) {
            snprintf(name, sizeof name, "v.blk.%d.%s.weight", b, lin[i]);
            rc |= add_random(w, &r, name, SEER_TYPE_F32, 2, (int64_t[]){W, W}, s, 0);
            snprintf(name, sizeof name, "v.blk.%d.%s.bias", b, lin[i]);
            rc |= add_random(w, &r, name, SEER_TYPE_F32, 1, (int64_t[]){W}, 0.1f, 0);
        }
        const char *ln[] = {"ln1", "ln2"};
        for (int i = 0; i < 2; i++) {
            snprintf(name, sizeof name, "v.blk.%d.%s.weight", b, ln[i]);
            rc |= add_random(w, &r, name, SEER_TYPE_F32, 1, (int64_t[]){W}, 0.1f, 1.0f);
            snprintf(name, sizeof name, "v.blk.%d.%s.bias", b, ln[i]);
            rc |= add_random(w, &r, name, SEER_TYPE_F32, 1, (int64_t[]){W}, 0.1f, 0);
        }
        snprintf(name, sizeof name, "v.blk.%d.ffn_down.weight", b);
        rc |= add_random(w, &r, name, SEER_TYPE_F32, 2, (int64_t[]){W, FF}, s, 0);
        snprintf(name, sizeof name, "v.blk.%d.ffn_down.bias", b);
        rc |= add_random(w, &r, name, SEER_TYPE_F32, 1, (int64_t[]){FF}, 0.1f, 0);
        snprintf(name, sizeof name, "v.blk.%d.ffn_up.weight", b);
        rc |= add_random(w, &r, name, SEER_TYPE_F32, 2, (int64_t[]){FF, W}, 1.0f / sqrtf((float)FF), 0);
        snprintf(name, sizeof name, "v.blk.%d.ffn_up.bias", b);
        rc |= add_random(w, &r, name, SEER_TYPE_F32, 1, (int64_t[]){W}, 0.1f, 0);
    }
    rc |= add_random(w, &r, "mm.0.weight", SEER_TYPE_F32, 2, (int64_t[]){W, n_embd_llm}, s, 0);
    rc |= add_random(w, &r, "mm.0.bias", SEER_TYPE_F32, 1, (int64_t[]){n_embd_llm}, 0.1f, 0);
    rc |= add_random(w, &r, "mm.2.weight", SEER_TYPE_F32, 2, (int64_t[]){n_embd_llm, n_embd_llm},
                     1.0f / sqrtf((float)n_embd_llm), 0);
    rc |= add_random(w, &r, "mm.2.bias", SEER_TYPE_F32, 1, (int64_t[]){n_embd_llm}, 0.1f, 0);
    seer_error err = {{0}};
    if (rc == 0 && gguf_writer_write(w, o->mmproj, &err) != 0) {
        fprintf(stderr, "make_tiny_model: %s\n", err.msg);
        rc = -1;
    }
    gguf_writer_free(w);
    free_pending();
    return rc ? -1 : 0;
}

static int usage(void) {
    fprintf(stderr, "usage: make_tiny_model --out M.gguf [--arch llama|qwen2vl] [--type f32|q8_0|q4_k] "
                    "[--mmproj P.gguf] [--seed N] [--layers N]\n"
                    "       [--embd N --ff N --heads N --kv-heads N --vocab N]   (bigger models for benchmarks)\n");
    return 2;
}

int main(int argc, char **argv) {
    opts o = {.arch = "llama", .type = SEER_TYPE_F32, .n_layer = 2, .seed = 1};
    for (int i = 1; i < argc; i += 2) { /* every flag takes a value */
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) return usage();
        if (!strcmp(a, "--out")) o.out = v;
        else if (!strcmp(a, "--mmproj")) o.mmproj = v;
        else if (!strcmp(a, "--arch")) o.arch = v;
        else if (!strcmp(a, "--seed")) o.seed = strtoull(v, NULL, 10);
        else if (!strcmp(a, "--layers")) o.n_layer = atoi(v);
        else if (!strcmp(a, "--embd")) o.n_embd = atoi(v);
        else if (!strcmp(a, "--ff")) o.n_ff = atoi(v);
        else if (!strcmp(a, "--heads")) o.n_head = atoi(v);
        else if (!strcmp(a, "--kv-heads")) o.n_head_kv = atoi(v);
        else if (!strcmp(a, "--vocab")) o.n_vocab = atoi(v);
        else if (!strcmp(a, "--type")) {
            if (!strcmp(v, "f32")) o.type = SEER_TYPE_F32;
            else if (!strcmp(v, "q8_0")) o.type = SEER_TYPE_Q8_0;
            else if (!strcmp(v, "q4_k")) o.type = SEER_TYPE_Q4_K;
            else return usage();
        } else return usage();
    }
    if (!o.out || o.n_layer < 1 || (strcmp(o.arch, "llama") && strcmp(o.arch, "qwen2vl"))) return usage();
    int n_embd = 0;
    if (write_llm(&o, &n_embd) != 0) return 1;
    if (o.mmproj && write_mmproj(&o, n_embd) != 0) return 1;
    return 0;
}
