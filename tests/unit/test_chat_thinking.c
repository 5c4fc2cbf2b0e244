/* Thinking templates (Qwen3.5, Gemma 4, GLM-4.6) and the streaming split of a
 * reply into thought and answer. Expected renderings are written out by hand
 * from the Jinja templates in llama.cpp's models/templates (Qwen3.5-4B.jinja,
 * google-gemma-4-31B-it.jinja, GLM-4.6.jinja; leading BOS text left out), then checked
 * against those templates rendered by Python's jinja2. */
#include <stdlib.h>
#include <string.h>

#include "seer/chat.h"
#include "testlib.h"

static void check_one(seer_chat_style s, const seer_chat_msg *m, int n, bool gen, bool think, const char *want) {
    seer_error err = {{0}};
    char *got = seer_chat_render_thinking(s, m, n, gen, think, &err);
    CHECK_MSG(got && strcmp(got, want) == 0, "%s (gen %d, thinking %d):\n  got  [%s]\n  want [%s]",
              seer_chat_style_name(s), gen, think, got ? got : err.msg, want);
    free(got);
}

/* A past exchange whose reply carries its reasoning as the model wrote it
 * (the prompt opened "<think>\n"), then a new question. */
static const seer_chat_msg CONV[] = {
    {"system", "  Be brief. \n"},
    {"user", "<__media__>  What is this?\n"},
    {"assistant", "Looks like fur.\nA cat, likely.\n</think>\n\nA cat. "},
    {"user", "Its colour?"},
};

static void check_qwen35(void) {
    const seer_chat_style q = SEER_CHAT_QWEN35;
    /* past reasoning dropped; generation prompt opens a thought, or closes an empty one */
    check_one(q, CONV, 4, true, true,
              "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\n<__media__>  What is this?<|im_end|>\n"
              "<|im_start|>assistant\nA cat.<|im_end|>\n<|im_start|>user\nIts colour?<|im_end|>\n"
              "<|im_start|>assistant\n<think>\n");
    check_one(q, CONV + 1, 3, true, false,
              "<|im_start|>user\n<__media__>  What is this?<|im_end|>\n<|im_start|>assistant\nA cat.<|im_end|>\n"
              "<|im_start|>user\nIts colour?<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n");
    /* the reply after the last user turn keeps its reasoning, re-wrapped */
    check_one(q, CONV, 3, false, true,
              "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\n<__media__>  What is this?<|im_end|>\n"
              "<|im_start|>assistant\n<think>\nLooks like fur.\nA cat, likely.\n</think>\n\nA cat.<|im_end|>\n");
    /* a reply with no reasoning (thinking was off) still gets an empty thought there */
    const seer_chat_msg off[] = {{"user", "Hi"}, {"assistant", "Hello."}};
    check_one(q, off, 2, false, false,
              "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\nHello.<|im_end|>\n");
    /* a reply cut off inside its thought (no "</think>") is kept whole in a past turn */
    const seer_chat_msg cut[] = {{"user", "Hi"}, {"assistant", "Let me see"}, {"user", "Well?"}};
    check_one(q, cut, 3, true, true,
              "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\nLet me see<|im_end|>\n<|im_start|>user\n"
              "Well?<|im_end|>\n<|im_start|>assistant\n<think>\n");
}

static void check_gemma4(void) {
    const seer_chat_style g = SEER_CHAT_GEMMA4;
    const seer_chat_msg conv[] = {
        {"system", "  Be brief. \n"},
        {"user", "<__media__>  What is this?\n"},
        {"assistant", "<|channel>thought\nFur, whiskers.<channel|>A cat. "},
        {"user", "Its colour?"},
    };
    check_one(g, conv, 4, true, true,
              "<|turn>system\n<|think|>\nBe brief.<turn|>\n<|turn>user\n<__media__>  What is this?<turn|>\n"
              "<|turn>model\nA cat.<turn|>\n<|turn>user\nIts colour?<turn|>\n<|turn>model\n");
    check_one(g, conv, 4, true, false,
              "<|turn>system\nBe brief.<turn|>\n<|turn>user\n<__media__>  What is this?<turn|>\n"
              "<|turn>model\nA cat.<turn|>\n<|turn>user\nIts colour?<turn|>\n<|turn>model\n<|channel>thought\n<channel|>");
    /* no system prompt: a system turn only to switch thinking on */
    check_one(g, conv + 1, 3, true, true,
              "<|turn>system\n<|think|>\n<turn|>\n<|turn>user\n<__media__>  What is this?<turn|>\n"
              "<|turn>model\nA cat.<turn|>\n<|turn>user\nIts colour?<turn|>\n<|turn>model\n");
    check_one(g, conv + 1, 3, false, false,
              "<|turn>user\n<__media__>  What is this?<turn|>\n<|turn>model\nA cat.<turn|>\n<|turn>user\n"
              "Its colour?<turn|>\n");
    /* a reply's thoughts are dropped even as the last message */
    check_one(g, conv + 1, 2, false, false, "<|turn>user\n<__media__>  What is this?<turn|>\n<|turn>model\nA cat.<turn|>\n");
}

static void check_glm4(void) {
    const seer_chat_style g = SEER_CHAT_GLM4;
    const seer_chat_msg conv[] = {
        {"system", "  Be brief. \n"},
        {"user", "<__media__>  What is this?\n"},
        {"assistant", "\n<think>Looks like fur.\nA cat, likely.\n</think>\n\nA cat. "},
        {"user", "Its colour?"},
    };
    /* past reasoning dropped (an empty thought in its place), contents as written */
    check_one(g, conv, 4, true, true,
              "[gMASK]<sop><|system|>\n  Be brief. \n<|user|>\n<__media__>  What is this?\n<|assistant|>\n"
              "<think></think>\nA cat.<|user|>\nIts colour?<|assistant|>");
    /* thinking off: "/nothink" after each user turn, an empty thought after the prompt */
    check_one(g, conv + 1, 3, true, false,
              "[gMASK]<sop><|user|>\n<__media__>  What is this?\n/nothink<|assistant|>\n<think></think>\nA cat."
              "<|user|>\nIts colour?/nothink<|assistant|>\n<think></think>");
    /* the reply after the last user turn keeps its reasoning, trimmed */
    check_one(g, conv, 3, false, true,
              "[gMASK]<sop><|system|>\n  Be brief. \n<|user|>\n<__media__>  What is this?\n<|assistant|>\n"
              "<think>Looks like fur.\nA cat, likely.</think>\nA cat.");
    const seer_chat_msg off[] = {{"user", "Hi"}, {"assistant", "Hello."}};
    check_one(g, off, 2, false, false, "[gMASK]<sop><|user|>\nHi/nothink<|assistant|>\n<think></think>\nHello.");
    /* a reply cut inside its thought is kept as answer text; "/nothink" is not doubled */
    const seer_chat_msg cut[] = {{"user", "Hi"}, {"assistant", "<think>Let me see"}, {"user", "Well?/nothink"}};
    check_one(g, cut, 3, true, false,
              "[gMASK]<sop><|user|>\nHi/nothink<|assistant|>\n<think></think>\n<think>Let me see<|user|>\n"
              "Well?/nothink<|assistant|>\n<think></think>");
}

/* Ministral 3 Reasoning (mistralai-Ministral-3-14B-Reasoning-2512.jinja):
 * v7 turns, a reply's string content written as it is (its [THINK] part
 * included) then </s>; no system turn: the template's default one. */
static void check_ministral3(void) {
    const seer_chat_style m = SEER_CHAT_MINISTRAL3_REASONING;
    const seer_chat_msg conv[] = {
        {"system", "Be brief."},
        {"user", "[IMG]What is this?"},
        {"assistant", "[THINK]Fur, whiskers.[/THINK]A cat."},
        {"user", "Its colour?"},
    };
    check_one(m, conv, 4, true, true,
              "[SYSTEM_PROMPT]Be brief.[/SYSTEM_PROMPT][INST][IMG]What is this?[/INST][THINK]Fur, whiskers.[/THINK]"
              "A cat.</s>[INST]Its colour?[/INST]");
    const char *sys = seer_chat_default_system(m);
    CHECK(sys && strncmp(sys, "# HOW YOU SHOULD THINK AND ANSWER\n\nFirst draft ", 47) == 0 &&
          strstr(sys, "below:[THINK]Your thoughts") && strstr(sys, "the user.[/THINK]Here, provide a self-contained response."));
    CHECK(seer_chat_detect("{%- set default_system_message = '# HOW YOU SHOULD THINK AND ANSWER\n\n... template "
                           "below:[THINK]Your thoughts...[/THINK]Here' %}{{- '[SYSTEM_PROMPT]' -}}") == m);
    /* Mistral Small 3.x: v7 without thinking, no default system prompt here */
    CHECK(seer_chat_detect("{{- '[SYSTEM_PROMPT]' + system_message + '[/SYSTEM_PROMPT]' }}") == SEER_CHAT_MISTRAL_V7);
    CHECK(seer_chat_default_system(SEER_CHAT_MISTRAL_V7) == NULL && !seer_chat_thinking_of(SEER_CHAT_MISTRAL_V7));
    CHECK(seer_chat_from_name("ministral3-reasoning") == m &&
          strcmp(seer_chat_style_name(m), "ministral3-reasoning") == 0);
    const seer_chat_thinking *t = seer_chat_thinking_of(m);
    CHECK(t && strcmp(t->open, "[THINK]") == 0 && strcmp(t->close, "[/THINK]") == 0 && !t->prompt_opens &&
          !t->can_switch_off);
}

static void check_detect_thinking(void) {
    /* pieces of the real templates */
    CHECK(seer_chat_detect("{{- '<|vision_start|><|image_pad|><|vision_end|>' }}{%- if enable_thinking is defined and "
                           "enable_thinking is false %}{{- '<think>\\n\\n</think>\\n\\n' }}{%- else %}{{- '<think>\\n' }}") ==
          SEER_CHAT_QWEN35);
    CHECK(seer_chat_detect("{{- bos_token -}}{{- '<|turn>system\\n' -}}{{- '<|think|>\\n' -}}{{- '<turn|>\\n' -}}") ==
          SEER_CHAT_GEMMA4);
    /* Qwen3's text-only template has the same switch but no vision: plain ChatML as before */
    CHECK(seer_chat_detect("{{- '<|im_start|>assistant\\n' }}{%- if enable_thinking is defined and enable_thinking is false "
                           "%}{{- '<think>\\n\\n</think>\\n\\n' }}") == SEER_CHAT_CHATML);
    CHECK(seer_chat_from_name("qwen3.5") == SEER_CHAT_QWEN35 && seer_chat_from_name("gemma4") == SEER_CHAT_GEMMA4);
    CHECK(strcmp(seer_chat_style_name(SEER_CHAT_QWEN35), "qwen3.5") == 0);
    CHECK(seer_chat_thinking_of(SEER_CHAT_QWEN35) && seer_chat_thinking_of(SEER_CHAT_QWEN35)->prompt_opens);
    CHECK(seer_chat_thinking_of(SEER_CHAT_GEMMA4) && !seer_chat_thinking_of(SEER_CHAT_GEMMA4)->prompt_opens);
    CHECK(seer_chat_detect("[gMASK]<sop>\n{%- if tools -%}<|system|>") == SEER_CHAT_GLM4);
    CHECK(seer_chat_from_name("glm4") == SEER_CHAT_GLM4 && strcmp(seer_chat_style_name(SEER_CHAT_GLM4), "glm4") == 0);
    CHECK(seer_chat_thinking_of(SEER_CHAT_GLM4) && !seer_chat_thinking_of(SEER_CHAT_GLM4)->prompt_opens &&
          seer_chat_thinking_of(SEER_CHAT_GLM4)->can_switch_off);
    CHECK(seer_chat_thinking_of(SEER_CHAT_QWEN3VL) == NULL && seer_chat_thinking_of(SEER_CHAT_CHATML) == NULL);
}

/* ---- the stream ---- */

typedef struct split { char thought[256], answer[256]; int tags[32], thought_lens[32], n; } split;

static int collect(void *ud, int tag, const char *text, int len, int thought_len) {
    split *s = ud;
    strncat(s->thought, text, (size_t)thought_len);
    strncat(s->answer, text + thought_len, (size_t)(len - thought_len));
    if (s->n < 32) {
        s->tags[s->n] = tag;
        s->thought_lens[s->n] = thought_len;
    }
    s->n++;
    return 0;
}

/* Streams tokens; checks every token came out once, in order. */
static split run(seer_chat_style style, bool open, const char *const *toks, int n) {
    split s = {{0}, {0}, {0}, {0}, 0};
    seer_think_stream t;
    seer_think_begin(&t, seer_chat_thinking_of(style), open);
    for (int i = 0; i < n; i++) seer_think_push(&t, i, toks[i], (int)strlen(toks[i]), collect, &s);
    seer_think_end(&t, collect, &s);
    CHECK_MSG(s.n == n, "%d tokens in, %d out", n, s.n);
    for (int i = 0; i < s.n && i < 32; i++) CHECK_MSG(s.tags[i] == i, "token %d came out as %d", i, s.tags[i]);
    return s;
}

#define RUN(style, open, ...) run(style, open, (const char *const[]){__VA_ARGS__}, \
                                  (int)(sizeof (const char *const[]){__VA_ARGS__} / sizeof(const char *)))

static void check_split(const split *s, const char *thought, const char *answer) {
    CHECK_MSG(strcmp(s->thought, thought) == 0 && strcmp(s->answer, answer) == 0,
              "thought [%s] answer [%s], want [%s] [%s]", s->thought, s->answer, thought, answer);
}

static void check_stream(void) {
    /* the close marker as one (special) token, the prompt having opened the thought */
    split s = RUN(SEER_CHAT_QWEN35, true, "Fur", ".\n", "</think>", "\n\n", "A cat.");
    check_split(&s, "Fur.\n</think>", "\n\nA cat.");
    CHECK(s.thought_lens[2] == 8 && s.thought_lens[3] == 0);
    /* the close marker split over three tokens, the last one carrying the answer's start */
    s = RUN(SEER_CHAT_QWEN35, true, "Fur", "</", "thi", "nk>\n\nA", " cat.");
    check_split(&s, "Fur</think>", "\n\nA cat.");
    CHECK(s.thought_lens[3] == 3);
    /* no close marker before the turn ends: all thought */
    s = RUN(SEER_CHAT_QWEN35, true, "Hmm", " </thin", "g");
    check_split(&s, "Hmm </thing", "");
    /* thinking off: the prompt closed the thought, everything is answer */
    s = RUN(SEER_CHAT_QWEN35, false, "A", " cat", " </think>");
    check_split(&s, "", "A cat </think>");
    /* Gemma 4: the model opens its channel ("<|channel>" special, then "thought") */
    s = RUN(SEER_CHAT_GEMMA4, true, "<|channel>", "thought", "\nFur.", "<channel|>", "A cat.");
    check_split(&s, "<|channel>thought\nFur.<channel|>", "A cat.");
    /* a held prefix that turns out not to be a marker is answer, in order */
    s = RUN(SEER_CHAT_GEMMA4, false, "a <|", "chan", "nel", "> b", "c");
    check_split(&s, "", "a <|channel> bc");
    /* the open marker and the close marker inside held text */
    s = RUN(SEER_CHAT_GEMMA4, false, "Hi", "<|chan", "nel>thought x<channel|>y", "z");
    check_split(&s, "<|channel>thought x<channel|>", "Hiyz");
    /* a turn that ends while a marker's beginning is held: answer */
    s = RUN(SEER_CHAT_GEMMA4, false, "ok", "<|channel>");
    check_split(&s, "", "ok<|channel>");
    /* Ministral 3: the model opens with its [THINK] control token */
    s = RUN(SEER_CHAT_MINISTRAL3_REASONING, false, "[THINK]", "Fur", ".", "[/THINK]", "A cat.");
    check_split(&s, "[THINK]Fur.[/THINK]", "A cat.");
    /* no thinking in the template */
    s = RUN(SEER_CHAT_CHATML, true, "<think>", "x");
    check_split(&s, "", "<think>x");
    /* what the reader sees of a thought */
    char vis[64];
    const char *raw = "<|channel>thought\nFur.\n<channel|>";
    int n = seer_think_visible(seer_chat_thinking_of(SEER_CHAT_GEMMA4), raw, (int)strlen(raw), vis, sizeof vis);
    CHECK_MSG(n == 4 && strcmp(vis, "Fur.") == 0, "visible [%s]", vis);
}

int main(void) {
    check_qwen35();
    check_gemma4();
    check_glm4();
    check_ministral3();
    check_detect_thinking();
    check_stream();
    TEST_MAIN_END();
}
