/* Rendering a conversation the way each family's own chat template does
 * (the Jinja templates shipped with the models, written out by hand). The
 * leading BOS text is left out: the tokenizer adds BOS. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "seer/chat.h"

typedef struct out_str { char *s; size_t n, cap; bool failed; } out_str;

static void put_n(out_str *o, const char *s, size_t len) {
    if (o->failed) return;
    if (o->n + len + 1 > o->cap) {
        size_t cap = o->cap ? o->cap : 256;
        while (cap < o->n + len + 1) cap *= 2;
        char *g = realloc(o->s, cap);
        if (!g) { o->failed = true; return; }
        o->s = g;
        o->cap = cap;
    }
    memcpy(o->s + o->n, s, len);
    o->n += len;
    o->s[o->n] = '\0';
}

/* Appends each string argument in turn (NULL ends the list). */
static void put(out_str *o, ...) {
    va_list ap;
    va_start(ap, o);
    for (const char *s; (s = va_arg(ap, const char *)) != NULL;) put_n(o, s, strlen(s));
    va_end(ap);
}

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

/* Jinja's trim / Python's strip() (ASCII whitespace is all that matters here). */
static void put_trimmed(out_str *o, const char *s) {
    size_t a = 0, b = strlen(s);
    while (a < b && is_space(s[a])) a++;
    while (b > a && is_space(s[b - 1])) b--;
    put_n(o, s + a, b - a);
}

static const char *content_of(const seer_chat_msg *m) { return m->content ? m->content : ""; }
static bool role_is(const seer_chat_msg *m, const char *r) { return m->role && strcmp(m->role, r) == 0; }

/* Qwen3 thinking templates: a past reply keeps only what follows its
 * reasoning (the text after "</think>", leading newlines dropped). */
static const char *past_reply(const seer_chat_msg *m) {
    const char *c = content_of(m), *end = strstr(c, "</think>");
    if (!end) return c;
    for (c = end + strlen("</think>"); *c == '\n'; c++) {}
    return c;
}

/* think: Qwen3 thinking models (replies open with "<think>\n"). */
static void render_chatml(out_str *o, const seer_chat_msg *msgs, int n, bool gen, const char *default_system,
                          bool think) {
    if (default_system && (n == 0 || !role_is(&msgs[0], "system")))
        put(o, "<|im_start|>system\n", default_system, "<|im_end|>\n", NULL);
    for (int i = 0; i < n; i++) {
        const char *c = think && role_is(&msgs[i], "assistant") ? past_reply(&msgs[i]) : content_of(&msgs[i]);
        put(o, "<|im_start|>", msgs[i].role ? msgs[i].role : "user", "\n", c, "<|im_end|>\n", NULL);
    }
    if (gen) put(o, think ? "<|im_start|>assistant\n<think>\n" : "<|im_start|>assistant\n", NULL);
}

/* Qwen3.5 / 3.6 (its Jinja, no tools): every turn trimmed; a reply is split
 * at "</think>" into reasoning and answer, and keeps its reasoning only after
 * the last user turn (an agent's steps), never in an earlier exchange. */
static void render_qwen35(out_str *o, const seer_chat_msg *msgs, int n, bool gen, bool think) {
    int start = 0, last_user = -1;
    if (n > 0 && role_is(&msgs[0], "system")) {
        put(o, "<|im_start|>system\n", NULL);
        put_trimmed(o, content_of(&msgs[0]));
        put(o, "<|im_end|>\n", NULL);
        start = 1;
    }
    for (int i = start; i < n; i++)
        if (role_is(&msgs[i], "user")) last_user = i;
    for (int i = start; i < n; i++) {
        const char *c = content_of(&msgs[i]);
        if (!role_is(&msgs[i], "assistant")) {
            put(o, "<|im_start|>", msgs[i].role ? msgs[i].role : "user", "\n", NULL);
            put_trimmed(o, c);
            put(o, "<|im_end|>\n", NULL);
            continue;
        }
        /* content|trim, then reasoning = before the first "</think>" (rstrip
         * "\n", after the last "<think>", lstrip "\n", trim) and answer =
         * after the last "</think>" (lstrip "\n") */
        size_t a = 0, b = strlen(c);
        while (a < b && is_space(c[a])) a++;
        while (b > a && is_space(c[b - 1])) b--;
        const char *body = c + a, *end = c + b, *first_close = NULL, *answer = body;
        for (const char *p = body; p + 8 <= end; p++)
            if (memcmp(p, "</think>", 8) == 0) {
                if (!first_close) first_close = p;
                answer = p + 8;
            }
        put(o, "<|im_start|>assistant\n", NULL);
        if (i > last_user) {
            const char *r0 = body, *r1 = first_close ? first_close : body;
            while (r1 > r0 && r1[-1] == '\n') r1--;
            for (const char *p = r0; p + 7 <= r1; p++)
                if (memcmp(p, "<think>", 7) == 0) r0 = p + 7;
            while (r0 < r1 && is_space(*r0)) r0++;
            while (r1 > r0 && is_space(r1[-1])) r1--;
            put(o, "<think>\n", NULL);
            put_n(o, r0, (size_t)(r1 - r0));
            put(o, "\n</think>\n\n", NULL);
        }
        while (answer < end && *answer == '\n') answer++;
        put_n(o, answer, (size_t)(end - answer));
        put(o, "<|im_end|>\n", NULL);
    }
    if (gen) put(o, "<|im_start|>assistant\n", think ? "<think>\n" : "<think>\n\n</think>\n\n", NULL);
}

/* Gemma 4's strip_thinking: every "<|channel>…<channel|>" span removed, then trimmed. */
static void put_without_thoughts(out_str *o, const char *c) {
    out_str kept = {0};
    put_n(&kept, "", 0);
    for (const char *p = c;;) {
        const char *close = strstr(p, "<channel|>");
        size_t part = close ? (size_t)(close - p) : strlen(p);
        const char *open = memmem(p, part, "<|channel>", 10);
        put_n(&kept, p, open ? (size_t)(open - p) : part);
        if (!close) break;
        p = close + 10;
    }
    if (kept.failed) o->failed = true;
    else put_trimmed(o, kept.s);
    free(kept.s);
}

/* Gemma 4 (its Jinja, no tools): a system turn when there is a system
 * prompt or thinking is on ("<|think|>" first); replies lose their thought
 * channels; the generation prompt closes an empty thought when thinking is off. */
static void render_gemma4(out_str *o, const seer_chat_msg *msgs, int n, bool gen, bool think) {
    int start = 0;
    bool system = n > 0 && role_is(&msgs[0], "system");
    if (think || system) {
        put(o, "<|turn>system\n", think ? "<|think|>\n" : "", NULL);
        if (system) put_trimmed(o, content_of(&msgs[0]));
        put(o, "<turn|>\n", NULL);
        start = system;
    }
    for (int i = start; i < n; i++) {
        bool model = role_is(&msgs[i], "assistant");
        /* consecutive replies continue one model turn */
        if (!(model && i > start && role_is(&msgs[i - 1], "assistant")))
            put(o, "<|turn>", model ? "model" : (msgs[i].role ? msgs[i].role : "user"), "\n", NULL);
        if (model) put_without_thoughts(o, content_of(&msgs[i]));
        else put_trimmed(o, content_of(&msgs[i]));
        put(o, "<turn|>\n", NULL);
    }
    if (gen) put(o, "<|turn>model\n", think ? "" : "<|channel>thought\n<channel|>", NULL);
}

/* [*a, *b) with the whitespace at both ends dropped (Jinja's strip()). */
static void trim_span(const char **a, const char **b) {
    while (*a < *b && is_space(**a)) (*a)++;
    while (*b > *a && is_space((*b)[-1])) (*b)--;
}

/* GLM-4.6 / 4.6V (its Jinja, no tools): "[gMASK]<sop>", then "<|role|>\n"
 * + content per turn, no end-of-turn text. A reply is split at "</think>":
 * its reasoning is kept only after the last user turn, every other reply
 * gets an empty "<think></think>". Thinking off: each user turn ends
 * "/nothink" and the generation prompt closes an empty thought. */
static void render_glm4(out_str *o, const seer_chat_msg *msgs, int n, bool gen, bool think) {
    int last_user = -1;
    for (int i = 0; i < n; i++)
        if (role_is(&msgs[i], "user")) last_user = i;
    put(o, "[gMASK]<sop>", NULL);
    for (int i = 0; i < n; i++) {
        const char *c = content_of(&msgs[i]);
        if (role_is(&msgs[i], "system")) {
            put(o, "<|system|>\n", c, NULL);
        } else if (role_is(&msgs[i], "assistant")) {
            /* reasoning = before the first "</think>", rstrip "\n", after its last "<think>",
             * lstrip "\n"; answer = after the last "</think>", lstrip "\n" */
            const char *first_close = strstr(c, "</think>"), *answer = c, *r0 = c, *r1 = c;
            for (const char *p = first_close; p; p = strstr(p + 8, "</think>")) answer = p + 8;
            if (first_close) {
                r1 = first_close;
                while (r1 > c && r1[-1] == '\n') r1--;
                for (const char *p = c; p + 7 <= r1; p++)
                    if (memcmp(p, "<think>", 7) == 0) r0 = p + 7;
                while (r0 < r1 && *r0 == '\n') r0++;
                while (*answer == '\n') answer++;
            }
            trim_span(&r0, &r1);
            put(o, "<|assistant|>\n<think>", NULL);
            if (i > last_user) put_n(o, r0, (size_t)(r1 - r0));
            put(o, "</think>", NULL);
            const char *a0 = answer, *a1 = answer + strlen(answer);
            trim_span(&a0, &a1);
            if (a1 > a0) {
                put(o, "\n", NULL);
                put_n(o, a0, (size_t)(a1 - a0));
            }
        } else {
            put(o, "<|", msgs[i].role ? msgs[i].role : "user", "|>\n", c, NULL);
            size_t len = strlen(c);
            if (!think && (len < 8 || strcmp(c + len - 8, "/nothink") != 0)) put(o, "/nothink", NULL);
        }
    }
    if (gen) put(o, "<|assistant|>", think ? "" : "\n<think></think>", NULL);
}

/* LLaVA (HF llava-1.5 / 1.6-vicuna): "SYSTEM USER: text ASSISTANT: text ... ASSISTANT:". */
static void render_vicuna(out_str *o, const seer_chat_msg *msgs, int n, bool gen) {
    for (int i = 0; i < n; i++) {
        if (role_is(&msgs[i], "system")) put(o, content_of(&msgs[i]), " ", NULL);
        else if (role_is(&msgs[i], "assistant")) put(o, "ASSISTANT: ", content_of(&msgs[i]), " ", NULL);
        else put(o, "USER: ", content_of(&msgs[i]), " ", NULL);
    }
    if (gen) put(o, "ASSISTANT:", NULL);
}

/* Llama-2 chat: the system prompt goes inside the first [INST] in <<SYS>>;
 * every later user turn starts with the BOS text "<s>". */
static void render_llama2(out_str *o, const seer_chat_msg *msgs, int n) {
    int start = 0;
    const char *system = NULL;
    if (n > 0 && role_is(&msgs[0], "system")) { system = content_of(&msgs[0]); start = 1; }
    for (int i = start; i < n; i++) {
        if (role_is(&msgs[i], "assistant")) {
            put(o, " ", NULL);
            put_trimmed(o, content_of(&msgs[i]));
            put(o, " </s>", NULL);
            continue;
        }
        if (i > start) put(o, "<s>", NULL);
        put(o, "[INST] ", NULL);
        if (i == start && system) {
            /* strip() applies to the whole "<<SYS>>…" + content string */
            out_str tmp = {0};
            put(&tmp, "<<SYS>>\n", system, "\n<</SYS>>\n\n", content_of(&msgs[i]), NULL);
            if (tmp.failed) o->failed = true;
            else put_trimmed(o, tmp.s);
            free(tmp.s);
        } else {
            put_trimmed(o, content_of(&msgs[i]));
        }
        put(o, " [/INST]", NULL);
    }
}

static void render_llama3(out_str *o, const seer_chat_msg *msgs, int n, bool gen) {
    for (int i = 0; i < n; i++) {
        put(o, "<|start_header_id|>", msgs[i].role ? msgs[i].role : "user", "<|end_header_id|>\n\n", NULL);
        put_trimmed(o, content_of(&msgs[i]));
        put(o, "<|eot_id|>", NULL);
    }
    if (gen) put(o, "<|start_header_id|>assistant<|end_header_id|>\n\n", NULL);
}

/* Mistral-7B-Instruct v0.1/v0.2: "[INST] user [/INST]answer</s>". It has no
 * system role; a system prompt is put in front of the first user turn. */
static void render_mistral(out_str *o, const seer_chat_msg *msgs, int n) {
    const char *system = NULL;
    bool first_user = true;
    for (int i = 0; i < n; i++) {
        if (role_is(&msgs[i], "system")) { system = content_of(&msgs[i]); continue; }
        if (role_is(&msgs[i], "assistant")) { put(o, content_of(&msgs[i]), "</s>", NULL); continue; }
        put(o, "[INST] ", NULL);
        if (first_user && system) put(o, system, "\n\n", NULL);
        first_user = false;
        put(o, content_of(&msgs[i]), " [/INST]", NULL);
    }
}

/* Mistral Small 3.x (v7 tekken), as its template writes it: no spaces
 * inside the tags, the system prompt in its own tags, "answer</s>". (llama.cpp
 * renders it with v7's spaces unless told "mistral-v7-tekken".) */
static void render_mistral_v7(out_str *o, const seer_chat_msg *msgs, int n) {
    for (int i = 0; i < n; i++) {
        if (role_is(&msgs[i], "system")) put(o, "[SYSTEM_PROMPT]", content_of(&msgs[i]), "[/SYSTEM_PROMPT]", NULL);
        else if (role_is(&msgs[i], "assistant")) put(o, content_of(&msgs[i]), "</s>", NULL);
        else put(o, "[INST]", content_of(&msgs[i]), "[/INST]", NULL);
    }
}

/* Gemma (3): roles user/model; a system prompt prefixes the first turn. */
static void render_gemma(out_str *o, const seer_chat_msg *msgs, int n, bool gen) {
    int start = 0;
    const char *prefix = NULL;
    if (n > 0 && role_is(&msgs[0], "system")) { prefix = content_of(&msgs[0]); start = 1; }
    for (int i = start; i < n; i++) {
        put(o, "<start_of_turn>", role_is(&msgs[i], "assistant") ? "model" : (msgs[i].role ? msgs[i].role : "user"),
            "\n", NULL);
        if (i == start && prefix) put(o, prefix, "\n\n", NULL);
        put_trimmed(o, content_of(&msgs[i]));
        put(o, "<end_of_turn>\n", NULL);
    }
    if (gen) put(o, "<start_of_turn>model\n", NULL);
}

/* SmolVLM / Idefics3: "<|im_start|>User:<image>text<end_of_utterance>\nAssistant:"
 * The role is capitalised, followed by ":" when the turn starts with an
 * image and ": " otherwise. */
static void render_smolvlm(out_str *o, const seer_chat_msg *msgs, int n, bool gen) {
    put(o, "<|im_start|>", NULL);
    for (int i = 0; i < n; i++) {
        const char *c = content_of(&msgs[i]);
        const char *role = role_is(&msgs[i], "assistant") ? "Assistant" : role_is(&msgs[i], "system") ? "System" : "User";
        bool image_first = strncmp(c, SEER_MEDIA_MARKER, strlen(SEER_MEDIA_MARKER)) == 0;
        put(o, role, image_first ? ":" : ": ", c, "<end_of_utterance>\n", NULL);
    }
    if (gen) put(o, "Assistant:", NULL);
}

/* PaddleOCR-VL (its Jinja): the cls token "<|begin_of_sentence|>" first (it
 * is not the vocabulary's BOS); a user turn puts its images before its text
 * ("User: " images text "\n"), a reply is "Assistant: " text "</s>", a system
 * turn its text and "\n". */
static void render_paddleocr(out_str *o, const seer_chat_msg *msgs, int n, bool gen) {
    const size_t ml = strlen(SEER_MEDIA_MARKER);
    put(o, "<|begin_of_sentence|>", NULL);
    for (int i = 0; i < n; i++) {
        const char *c = content_of(&msgs[i]);
        if (role_is(&msgs[i], "assistant")) {
            put(o, "Assistant: ", c, "</s>", NULL);
            continue;
        }
        if (role_is(&msgs[i], "system")) {
            put(o, c, "\n", NULL);
            continue;
        }
        put(o, "User: ", NULL);
        for (const char *p = strstr(c, SEER_MEDIA_MARKER); p; p = strstr(p + ml, SEER_MEDIA_MARKER))
            put(o, SEER_MEDIA_MARKER, NULL);
        for (const char *p = c;;) {
            const char *m = strstr(p, SEER_MEDIA_MARKER);
            put_n(o, p, m ? (size_t)(m - p) : strlen(p));
            if (!m) break;
            p = m + ml;
        }
        put(o, "\n", NULL);
    }
    if (gen) put(o, "Assistant: ", NULL);
}

/* dots.ocr (its Jinja): <|system|>…<|endofsystem|>\n, <|user|>…<|endofuser|>,
 * <|assistant|>… closed by <|endofassistant|> unless it is the last message;
 * the generation prompt <|assistant|> unless the last message is a reply. */
static void render_dots_ocr(out_str *o, const seer_chat_msg *msgs, int n, bool gen) {
    for (int i = 0; i < n; i++) {
        const char *c = content_of(&msgs[i]);
        if (role_is(&msgs[i], "system")) put(o, "<|system|>", c, "<|endofsystem|>\n", NULL);
        else if (role_is(&msgs[i], "assistant")) put(o, "<|assistant|>", c, i + 1 < n ? "<|endofassistant|>" : "", NULL);
        else put(o, "<|user|>", c, "<|endofuser|>", NULL);
    }
    if (gen && (n == 0 || !role_is(&msgs[n - 1], "assistant"))) put(o, "<|assistant|>", NULL);
}

/* HunyuanOCR / HunyuanVL as llama.cpp renders hunyuan-vl: the BOS text, a
 * first system turn closed by <｜hy_place▁holder▁no▁3｜>, then each turn's
 * content followed by its role's marker (user <｜hy_User｜>, assistant
 * <｜hy_Assistant｜>; later system turns dropped). The user marker is where a
 * reply starts, so there is no generation prompt to add. */
static void render_hunyuan_vl(out_str *o, const seer_chat_msg *msgs, int n) {
    put(o, "<｜hy_begin▁of▁sentence｜>", NULL);
    for (int i = 0; i < n; i++) {
        const char *c = content_of(&msgs[i]);
        if (role_is(&msgs[i], "system")) {
            if (i == 0) put(o, c, "<｜hy_place▁holder▁no▁3｜>", NULL);
        } else if (role_is(&msgs[i], "assistant")) {
            put(o, c, "<｜hy_Assistant｜>", NULL);
        } else {
            put(o, c, "<｜hy_User｜>", NULL);
        }
    }
}

char *seer_chat_render(seer_chat_style s, const seer_chat_msg *msgs, int n_msgs, bool add_generation_prompt,
                       seer_error *err) {
    return seer_chat_render_thinking(s, msgs, n_msgs, add_generation_prompt, true, err);
}

char *seer_chat_render_thinking(seer_chat_style s, const seer_chat_msg *msgs, int n_msgs, bool add_generation_prompt,
                                bool thinking, seer_error *err) {
    if (n_msgs < 0 || (n_msgs > 0 && !msgs)) {
        seer_error_set(err, "chat: invalid message list");
        return NULL;
    }
    out_str o = {0};
    put_n(&o, "", 0);
    switch (s) {
    case SEER_CHAT_CHATML:
    case SEER_CHAT_QWEN3VL:
    case SEER_CHAT_QWEN3VL_THINKING:
        render_chatml(&o, msgs, n_msgs, add_generation_prompt, NULL, s == SEER_CHAT_QWEN3VL_THINKING);
        break;
    case SEER_CHAT_QWEN2VL:
        render_chatml(&o, msgs, n_msgs, add_generation_prompt, seer_chat_default_system(s), false);
        break;
    case SEER_CHAT_VICUNA: render_vicuna(&o, msgs, n_msgs, add_generation_prompt); break;
    case SEER_CHAT_LLAMA2: render_llama2(&o, msgs, n_msgs); break;
    case SEER_CHAT_LLAMA3: render_llama3(&o, msgs, n_msgs, add_generation_prompt); break;
    case SEER_CHAT_MISTRAL: render_mistral(&o, msgs, n_msgs); break;
    case SEER_CHAT_MISTRAL_V7:
    case SEER_CHAT_MINISTRAL3_REASONING: render_mistral_v7(&o, msgs, n_msgs); break;
    case SEER_CHAT_GEMMA: render_gemma(&o, msgs, n_msgs, add_generation_prompt); break;
    case SEER_CHAT_SMOLVLM: render_smolvlm(&o, msgs, n_msgs, add_generation_prompt); break;
    case SEER_CHAT_QWEN35: render_qwen35(&o, msgs, n_msgs, add_generation_prompt, thinking); break;
    case SEER_CHAT_GEMMA4: render_gemma4(&o, msgs, n_msgs, add_generation_prompt, thinking); break;
    case SEER_CHAT_GLM4: render_glm4(&o, msgs, n_msgs, add_generation_prompt, thinking); break;
    case SEER_CHAT_PADDLEOCR: render_paddleocr(&o, msgs, n_msgs, add_generation_prompt); break;
    case SEER_CHAT_DOTS_OCR: render_dots_ocr(&o, msgs, n_msgs, add_generation_prompt); break;
    case SEER_CHAT_HUNYUAN_VL: render_hunyuan_vl(&o, msgs, n_msgs); break;
    default:
        free(o.s);
        seer_error_set(err, "chat: unknown template style %d", (int)s);
        return NULL;
    }
    if (o.failed) {
        free(o.s);
        seer_error_set(err, "chat: out of memory");
        return NULL;
    }
    return o.s;
}
