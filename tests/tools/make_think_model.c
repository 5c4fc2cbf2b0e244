/* make_think_model: writes a real llama-layout GGUF whose weights script its
 * output, for tests of thinking models: it thinks, closes the thought, then
 * answers, deterministically, under any sampling.
 *
 *   make_think_model --out M.gguf [--glm]
 *
 * How: the width equals the vocabulary size and token i embeds as the unit
 * vector e_i; attention and FFN outputs are zero, so the residual stream
 * still holds e_i at the end; the output matrix maps e_i to a large logit
 * for i's successor in the script (every other token's successor is
 * <|im_end|>, the end of a turn). The next token is a fixed function of the
 * current one. The prompt of a Qwen3.5 template ends "<think>\n" with
 * thinking on ("\n" → the thought) and "</think>\n\n" with it off ("\n\n" →
 * the answer), each token once in the script:
 *   "\n" " The" " user" " greets" " me." " I" " should" " answer" " briefly."
 *   "</think>" "\n\n" "Hello" " there" "!" <|im_end|>
 * The chat template is a Qwen3.5-shaped one written here (vision markers and
 * the enable_thinking switch), so the file is detected as "qwen3.5".
 * With --glm the template is GLM-4.6-shaped ("[gMASK]<sop>", detected as
 * "glm4"): the prompt ends "<|assistant|>" with thinking on (the model opens
 * its thought: "<|assistant|>" → "<think>" → " The" …) and "<think></think>"
 * with it off; the turn ends with <|user|>. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seer/gguf.h"
#include "seer/tensor.h"
#include "tokenizer/unicode.h"

#define N_VOCAB 288 /* = the width; a multiple of the 4 heads' even size */

/* After the 256 byte tokens: "ĊĊ" (the one merge), the control tokens, the script's words. */
enum { NL2 = 256, ENDOFTEXT, IM_START, IM_END, THINK, THINK_END, VISION_START, VISION_END, IMAGE_PAD, GMASK, SOP,
       USER, ASSISTANT, WORDS };
static const char *CONTROLS[] = {"<|endoftext|>", "<|im_start|>", "<|im_end|>", "<think>", "</think>",
                                 "<|vision_start|>", "<|vision_end|>", "<|image_pad|>", "[gMASK]", "<sop>",
                                 "<|user|>", "<|assistant|>"};
/* "Ġ" (U+0120) is the space byte */
static const char *WORD_TEXT[] = {"ĠThe", "Ġuser", "Ġgreets", "Ġme.", "ĠI", "Ġshould", "Ġanswer", "Ġbriefly.",
                                  "Hello", "Ġthere"};
#define N_WORDS (int)(sizeof WORD_TEXT / sizeof WORD_TEXT[0])
enum { W_THE = WORDS, W_USER, W_GREETS, W_ME, W_I, W_SHOULD, W_ANSWER, W_BRIEFLY, W_HELLO, W_THERE };

static const char *TEMPLATE =
    "{%- for message in messages %}{%- if message.role == 'user' %}{{- '<|im_start|>user\\n' + message.content|trim + "
    "'<|im_end|>\\n' }}{%- elif message.role == 'assistant' %}{%- set content = message.content.split('</think>')[-1]"
    ".lstrip('\\n') %}{{- '<|im_start|>assistant\\n' + content + '<|im_end|>\\n' }}{%- endif %}{%- endfor %}"
    "{# images: <|vision_start|><|image_pad|><|vision_end|> #}"
    "{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}{%- if enable_thinking is defined and "
    "enable_thinking is false %}{{- '<think>\\n\\n</think>\\n\\n' }}{%- else %}{{- '<think>\\n' }}{%- endif %}{%- endif %}";

static const char *GLM_TEMPLATE =
    "[gMASK]<sop>{%- for m in messages -%}{%- if m.role == 'user' -%}<|user|>\n{{ m.content }}"
    "{{- '/nothink' if (enable_thinking is defined and not enable_thinking) else '' -}}"
    "{%- elif m.role == 'assistant' -%}<|assistant|>\n<think></think>\n{{ m.content.split('</think>')[-1].strip() }}"
    "{%- endif -%}{%- endfor -%}{# images: <|begin_of_image|><|image|><|end_of_image|> #}"
    "{%- if add_generation_prompt -%}<|assistant|>{{- '\n<think></think>' if (enable_thinking is defined and not "
    "enable_thinking) else '' -}}{%- endif -%}";

static void write_vocab(gguf_writer *w, bool glm) {
    static char bytes[256][4];
    const char *tok[N_VOCAB];
    int32_t type[N_VOCAB];
    static char pads[N_VOCAB][16];
    for (int b = 0; b < 256; b++) {
        bytes[b][seer_utf8_encode(seer_byte_to_cp((uint8_t)b), bytes[b])] = 0;
        tok[b] = bytes[b];
        type[b] = 1;
    }
    tok[NL2] = "ĊĊ";
    type[NL2] = 1;
    for (int i = 0; i < (int)(sizeof CONTROLS / sizeof CONTROLS[0]); i++) {
        tok[ENDOFTEXT + i] = CONTROLS[i];
        type[ENDOFTEXT + i] = 3;
    }
    for (int i = 0; i < N_WORDS; i++) {
        tok[WORDS + i] = WORD_TEXT[i];
        type[WORDS + i] = 1;
    }
    for (int i = WORDS + N_WORDS; i < N_VOCAB; i++) {
        snprintf(pads[i], sizeof pads[i], "[PAD%d]", i);
        tok[i] = pads[i];
        type[i] = 5;
    }
    const char *merges[] = {"Ċ Ċ"};
    gguf_writer_set_str(w, "tokenizer.ggml.model", "gpt2");
    gguf_writer_set_str(w, "tokenizer.ggml.pre", "gpt-2");
    gguf_writer_set_arr_str(w, "tokenizer.ggml.tokens", tok, N_VOCAB);
    gguf_writer_set_arr_i32(w, "tokenizer.ggml.token_type", type, N_VOCAB);
    gguf_writer_set_arr_str(w, "tokenizer.ggml.merges", merges, 1);
    gguf_writer_set_u32(w, "tokenizer.ggml.bos_token_id", ENDOFTEXT);
    gguf_writer_set_u32(w, "tokenizer.ggml.eos_token_id", glm ? USER : IM_END);
    gguf_writer_set_u32(w, "tokenizer.ggml.padding_token_id", ENDOFTEXT);
    gguf_writer_set_bool(w, "tokenizer.ggml.add_bos_token", false);
    gguf_writer_set_str(w, "tokenizer.chat_template", glm ? GLM_TEMPLATE : TEMPLATE);
}

/* The script: successor of each token (default: end of turn). */
static void script(int *next, bool glm) {
    const int end = glm ? USER : IM_END;
    for (int i = 0; i < N_VOCAB; i++) next[i] = end;
    const int chain[] = {'\n', W_THE, W_USER, W_GREETS, W_ME, W_I, W_SHOULD, W_ANSWER, W_BRIEFLY, THINK_END,
                         NL2, W_HELLO, W_THERE, '!', end};
    for (size_t i = 0; i + 1 < sizeof chain / sizeof chain[0]; i++) next[chain[i]] = chain[i + 1];
    if (glm) { /* the model opens its thought itself: "<|assistant|>" "<think>" " The" … */
        next[ASSISTANT] = THINK;
        next[THINK] = W_THE;
    }
}

int main(int argc, char **argv) {
    const bool glm = argc == 4 && strcmp(argv[3], "--glm") == 0;
    if ((argc != 3 && !glm) || strcmp(argv[1], "--out") != 0) {
        fprintf(stderr, "usage: make_think_model --out M.gguf [--glm]\n");
        return 2;
    }
    const int E = N_VOCAB, H = 4, F = 32;
    gguf_writer *w = gguf_writer_new();
    gguf_writer_set_str(w, "general.architecture", "llama");
    gguf_writer_set_str(w, "general.name", "scripted-thinker");
    gguf_writer_set_u32(w, "llama.block_count", 1);
    gguf_writer_set_u32(w, "llama.context_length", 4096);
    gguf_writer_set_u32(w, "llama.embedding_length", E);
    gguf_writer_set_u32(w, "llama.feed_forward_length", F);
    gguf_writer_set_u32(w, "llama.attention.head_count", H);
    gguf_writer_set_u32(w, "llama.attention.head_count_kv", H);
    gguf_writer_set_f32(w, "llama.attention.layer_norm_rms_epsilon", 1e-6f);
    gguf_writer_set_u32(w, "llama.rope.dimension_count", E / H);
    gguf_writer_set_f32(w, "llama.rope.freq_base", 10000.0f);
    write_vocab(w, glm);

    float *eye = calloc((size_t)E * E, sizeof *eye), *out = calloc((size_t)E * E, sizeof *out);
    float *zero_ee = calloc((size_t)E * E, sizeof *zero_ee), *zero_ef = calloc((size_t)E * F, sizeof *zero_ef);
    float *ones = malloc(sizeof *ones * (size_t)E);
    int next[N_VOCAB];
    if (!eye || !out || !zero_ee || !zero_ef || !ones) return 1;
    script(next, glm);
    for (int i = 0; i < E; i++) {
        eye[(size_t)i * E + i] = 1.0f;              /* token i → e_i */
        out[(size_t)next[i] * E + i] = 10.0f;       /* e_i → logit of next[i] (about 10·sqrt(E) after the norm) */
        ones[i] = 1.0f;
    }
    const int64_t ee[2] = {E, E}, ef[2] = {E, F}, fe[2] = {F, E}, e1[1] = {E};
    gguf_writer_add_tensor(w, "token_embd.weight", SEER_TYPE_F32, 2, ee, eye);
    gguf_writer_add_tensor(w, "blk.0.attn_norm.weight", SEER_TYPE_F32, 1, e1, ones);
    gguf_writer_add_tensor(w, "blk.0.attn_q.weight", SEER_TYPE_F32, 2, ee, zero_ee);
    gguf_writer_add_tensor(w, "blk.0.attn_k.weight", SEER_TYPE_F32, 2, ee, zero_ee);
    gguf_writer_add_tensor(w, "blk.0.attn_v.weight", SEER_TYPE_F32, 2, ee, zero_ee);
    gguf_writer_add_tensor(w, "blk.0.attn_output.weight", SEER_TYPE_F32, 2, ee, zero_ee);
    gguf_writer_add_tensor(w, "blk.0.ffn_norm.weight", SEER_TYPE_F32, 1, e1, ones);
    gguf_writer_add_tensor(w, "blk.0.ffn_gate.weight", SEER_TYPE_F32, 2, ef, zero_ef);
    gguf_writer_add_tensor(w, "blk.0.ffn_up.weight", SEER_TYPE_F32, 2, ef, zero_ef);
    gguf_writer_add_tensor(w, "blk.0.ffn_down.weight", SEER_TYPE_F32, 2, fe, zero_ef);
    gguf_writer_add_tensor(w, "output_norm.weight", SEER_TYPE_F32, 1, e1, ones);
    gguf_writer_add_tensor(w, "output.weight", SEER_TYPE_F32, 2, ee, out);
    seer_error err = {{0}};
    int rc = gguf_writer_write(w, argv[2], &err);
    if (rc != 0) fprintf(stderr, "make_think_model: %s\n", err.msg);
    gguf_writer_free(w);
    free(eye);
    free(out);
    free(zero_ee);
    free(zero_ef);
    free(ones);
    return rc ? 1 : 0;
}
