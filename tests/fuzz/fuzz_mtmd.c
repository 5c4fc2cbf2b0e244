/* Fuzz target: multimodal prompt layout (seer_mtmd_tokenize_hparams) for
 * every family: text with arbitrary <__media__> markers and up to 4 images of
 * arbitrary sizes, then the positions of every chunk (M-RoPE grids for Qwen).
 * Input: byte 0 picks the family, byte 1 the image count and flags, then two
 * bytes (w, h) per image, then the prompt text. Layout invariants are checked:
 * chunk rows add up, positions end where the prompt says. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_input.h"
#include "fuzz_input.c.inc"
#include "seer/gguf.h"
#include "seer/mtmd.h"
#include "seer/tokenizer.h"

static seer_vocab *vocab;

/* GPT-2's byte → printable code point map, as UTF-8. */
static void byte_token(int b, char *out) {
    int cp = b;
    if (!((b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255))) {
        int k = 0;
        for (int x = 0; x < b; x++)
            if (!((x >= 33 && x <= 126) || (x >= 161 && x <= 172) || (x >= 174 && x <= 255))) k++;
        cp = 256 + k;
    }
    if (cp < 0x80) { out[0] = (char)cp; out[1] = 0; }
    else { out[0] = (char)(0xC0 | (cp >> 6)); out[1] = (char)(0x80 | (cp & 0x3F)); out[2] = 0; }
}

/* Byte-level vocabulary with the wrapper tokens the families use. */
static const char *SPECIALS[] = {"<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|vision_start|>",
                                 "<|vision_end|>", "<|image_pad|>", "<fake_token_around_image>", "<global-img>",
                                 "<row_1_col_1>", "<row_1_col_2>", "<row_2_col_1>", "<row_2_col_2>", "<image>"};
#define N_SPECIALS (int)(sizeof SPECIALS / sizeof SPECIALS[0])

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    static char texts[256][4];
    const char *toks[256 + N_SPECIALS];
    int32_t types[256 + N_SPECIALS];
    for (int b = 0; b < 256; b++) { byte_token(b, texts[b]); toks[b] = texts[b]; types[b] = 1; }
    for (int i = 0; i < N_SPECIALS; i++) { toks[256 + i] = SPECIALS[i]; types[256 + i] = 3; }
    const char *merges[] = {"\xc4\xa0 t"};
    char path[128];
    snprintf(path, sizeof path, "/tmp/seer-fuzz-mtmd-vocab-%d.gguf", (int)getpid());
    gguf_writer *w = gguf_writer_new();
    gguf_writer_set_str(w, "general.architecture", "llama");
    gguf_writer_set_str(w, "tokenizer.ggml.model", "gpt2");
    gguf_writer_set_str(w, "tokenizer.ggml.pre", "qwen2");
    gguf_writer_set_arr_str(w, "tokenizer.ggml.tokens", toks, 256 + N_SPECIALS);
    gguf_writer_set_arr_i32(w, "tokenizer.ggml.token_type", types, 256 + N_SPECIALS);
    gguf_writer_set_arr_str(w, "tokenizer.ggml.merges", merges, 1);
    gguf_writer_set_u32(w, "tokenizer.ggml.bos_token_id", 256);
    gguf_writer_set_u32(w, "tokenizer.ggml.eos_token_id", 258);
    gguf_writer_set_bool(w, "tokenizer.ggml.add_bos_token", true);
    seer_error err;
    if (gguf_writer_write(w, path, &err) != 0) { fprintf(stderr, "fuzz_mtmd: %s\n", err.msg); exit(1); }
    gguf_writer_free(w);
    gguf_file *f = gguf_open(path, &err);
    vocab = f ? seer_vocab_load(f, &err) : NULL;
    if (f) gguf_close(f);
    remove(path);
    if (!vocab) { fprintf(stderr, "fuzz_mtmd: vocabulary: %s\n", err.msg); exit(1); }
    return 0;
}

/* The families' layouts at tiny encoder sizes: 4-pixel tiles of 2-pixel
 * patches. The layout logic only sees ratios of image, tile, patch and grid
 * sizes, and each image is preprocessed to learn its grid: at real sizes
 * (336-pixel tiles) a run cost ~100x more. Qwen's canvas is at least 8 merge
 * units of (2·patch)² pixels: 32 pixels for patch 1. */
static void family(seer_vision_hparams *hp, int which) {
    memset(hp, 0, sizeof *hp);
    for (int c = 0; c < 3; c++) { hp->mean[c] = 0.5f; hp->std[c] = 0.5f; }
    hp->patch_size = 2;
    hp->image_size = 4;
    switch (which) {
    case 0: hp->projector = SEER_PROJ_MLP; break;                       /* LLaVA 1.5 */
    case 1: {                                                           /* LLaVA 1.6 (anyres) */
        hp->projector = SEER_PROJ_MLP;
        hp->anyres = true;
        hp->n_pinpoints = 4;
        int pins[4][2] = {{4, 8}, {8, 4}, {8, 8}, {12, 4}};
        memcpy(hp->pinpoints, pins, sizeof pins);
        break;
    }
    case 2:                                                             /* SmolVLM (idefics3) */
        hp->projector = SEER_PROJ_IDEFICS3;
        hp->scale_factor = 2;
        hp->preproc_image_size = 10;
        break;
    case 3: hp->projector = SEER_PROJ_QWEN2VL; hp->patch_size = 1; break;
    case 4: hp->projector = SEER_PROJ_QWEN25VL; hp->patch_size = 1; break;
    case 5: hp->projector = SEER_PROJ_QWEN3VL; hp->patch_size = 1; break;  /* <|vision_start|> wrappers, M-RoPE */
    default: hp->projector = SEER_PROJ_GEMMA3; hp->scale_factor = 2; break; /* <start_of_image> wrappers, non-causal */
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2) return 0;
    seer_vision_hparams hp;
    family(&hp, data[0] % 7);
    const int n_images = data[1] & 3;
    const bool add_special = data[1] & 4;
    size_t off = 2;
    seer_image imgs[4];
    int n = 0;
    for (; n < n_images && off + 2 <= size; n++, off += 2) {
        /* 1..16 px a side: from a fraction of a tile to past the largest
         * grid; shapes from 1×16 to 16×1 */
        imgs[n].w = 1 + (data[off] & 15);
        imgs[n].h = 1 + (data[off + 1] & 15);
        imgs[n].rgb = calloc((size_t)imgs[n].w * imgs[n].h, 3);
        if (!imgs[n].rgb) break;
    }
    char *text = malloc(size - off + 1);
    if (!text) goto done;
    memcpy(text, data + off, size - off);
    text[size - off] = 0; /* a NUL inside ends the prompt, as for any C string */
    seer_mm_prompt p;
    seer_error err;
    if (seer_mtmd_tokenize_hparams(vocab, n ? &hp : NULL, text, imgs, n, add_special, &p, &err) == 0) {
        int rows = 0;
        for (int i = 0; i < p.n_chunks; i++) {
            const seer_chunk *c = &p.chunks[i];
            if (c->n_tokens < 0) abort();
            rows += c->n_tokens;
            if (c->type == SEER_CHUNK_IMAGE) {
                if (c->image_index < 0 || c->image_index >= n) abort();
                if (p.mrope && c->nx * c->ny == c->n_tokens && c->n_tokens > 0 && c->n_tokens <= 65536) {
                    int32_t *pos = malloc(sizeof *pos * 4 * (size_t)c->n_tokens);
                    if (pos) seer_mrope_image_positions(0, c->nx, c->ny, pos);
                    free(pos);
                }
            }
        }
        if (rows != p.n_tokens) abort();
        int32_t *start = malloc(sizeof *start * (size_t)(p.n_chunks ? p.n_chunks : 1));
        if (start && seer_mtmd_positions(&p, 7, start) != 7 + p.n_pos) abort();
        free(start);
        seer_mm_prompt_free(&p);
    }
    free(text);
done:
    for (int i = 0; i < n; i++) free(imgs[i].rgb);
    return 0;
}
