/* Chat templates: recognise the template in the GGUF and render turns. */
#ifndef SEER_CHAT_H
#define SEER_CHAT_H

#include "seer/common.h"
#include "seer/tokenizer.h"

typedef enum seer_chat_style {
    SEER_CHAT_UNKNOWN = 0, SEER_CHAT_CHATML, SEER_CHAT_VICUNA, SEER_CHAT_LLAMA2, SEER_CHAT_LLAMA3,
    SEER_CHAT_MISTRAL, SEER_CHAT_GEMMA, SEER_CHAT_SMOLVLM, SEER_CHAT_QWEN2VL,
    SEER_CHAT_QWEN3VL, /* ChatML with vision, no default system prompt */
    SEER_CHAT_QWEN3VL_THINKING, /* the same; replies open with <think>, past reasoning is dropped */
    SEER_CHAT_MISTRAL_V7, /* Mistral Small 3.1 / 3.2 (v7 tekken): [SYSTEM_PROMPT]…[/SYSTEM_PROMPT][INST]…[/INST] */
    SEER_CHAT_QWEN35,     /* Qwen3.5 / 3.6: ChatML, trimmed turns, <think> opened (or closed empty) by the prompt */
    SEER_CHAT_GEMMA4,     /* Gemma 4: <|turn>role…<turn|>, role "model", a thought channel */
    SEER_CHAT_GLM4,       /* GLM-4 / 4.1V / 4.6V: [gMASK]<sop><|role|>\n…, <think>…</think> written by the model */
    SEER_CHAT_PADDLEOCR,  /* PaddleOCR-VL: <|begin_of_sentence|>User: [images]text\nAssistant: reply</s> */
    SEER_CHAT_DOTS_OCR,   /* dots.ocr: <|user|>text<|endofuser|><|assistant|>reply<|endofassistant|> */
    SEER_CHAT_HUNYUAN_VL, /* HunyuanOCR / HunyuanVL: <｜hy_begin▁of▁sentence｜>text<｜hy_User｜>reply<｜hy_Assistant｜> */
    SEER_CHAT_MINISTRAL3_REASONING, /* Ministral 3 Reasoning: Mistral v7 turns, a default system prompt, [THINK]…[/THINK] written by the model */
} seer_chat_style;

typedef struct seer_chat_msg {
    const char *role;     /* "system", "user", "assistant" */
    const char *content;  /* may contain the media marker <__media__> */
} seer_chat_msg;

#define SEER_MEDIA_MARKER "<__media__>"

/* Detects the style from a Jinja template text (NULL → UNKNOWN). */
seer_chat_style seer_chat_detect(const char *template_text);
/* By name: "chatml", "vicuna", "llama2", "llama3", "mistral", "gemma", "smolvlm", "qwen2vl", "qwen3vl",
 * "qwen3vl-thinking", "mistral-v7", "qwen3.5", "gemma4", "glm4", "paddleocr", "dots.ocr", "hunyuan-vl",
 * "ministral3-reasoning". */
seer_chat_style seer_chat_from_name(const char *name);
const char *seer_chat_style_name(seer_chat_style s);
/* The style for a model: the one its template text shows, else a fallback
 * (*is_fallback set): Vicuna for LLaVA-family files (an `mlp`/`mlp_norm`
 * projector: the converters write no template, and LLaVA was trained on
 * "USER: … ASSISTANT:"), ChatML otherwise (llama.cpp's own fallback). */
seer_chat_style seer_chat_for_model(const char *template_text, const char *projector_name, bool *is_fallback);
/* Default system prompt of the style (Qwen's "You are a helpful assistant."), or NULL. */
const char *seer_chat_default_system(seer_chat_style s);

/* The OCR prompt the model's authors document for a whole page (PaddleOCR-VL:
 * "OCR:", GLM-OCR: "Text Recognition:"), from the mmproj's projector type,
 * the LLM's architecture and its NextN (MTP) block count (GLM-OCR's glm4
 * carries one, GLM-4.xV's none); NULL when the model has none
 * (engine/chat/ocr_prompt.c). */
const char *seer_ocr_prompt(const char *projector, const char *arch, int n_nextn);

/* Renders msgs; with add_generation_prompt the assistant prefix is appended.
 * Returns a malloc'd string (caller frees), NULL on error. The BOS token text
 * is not included (the tokenizer adds BOS). Thinking templates render in
 * their default mode (thinking on, as llama.cpp's enable_thinking). */
char *seer_chat_render(seer_chat_style s, const seer_chat_msg *msgs, int n_msgs, bool add_generation_prompt,
                       seer_error *err);
/* The same with the thinking mode chosen (ignored by styles without one):
 * the template's enable_thinking. */
char *seer_chat_render_thinking(seer_chat_style s, const seer_chat_msg *msgs, int n_msgs, bool add_generation_prompt,
                                bool thinking, seer_error *err);

/* ---- thinking ----
 * How a template marks the model's reasoning: the same data drives every
 * thinking family. Replies are kept raw (markers and thoughts included); the
 * template drops past thoughts where the model's own template does. */
typedef struct seer_chat_thinking {
    const char *open, *close;  /* the markers around a thought, as text */
    bool prompt_opens;         /* with thinking on the generation prompt ends inside an open thought */
    bool can_switch_off;       /* the template has a thinking-off form (enable_thinking=false) */
} seer_chat_thinking;

/* The style's thinking markers, or NULL when it has none. */
const seer_chat_thinking *seer_chat_thinking_of(seer_chat_style s);

/* Splits streamed reply text into thought and answer, token by token. A
 * token's text that may be the start of a marker is held back until the
 * next tokens tell (at most SEER_THINK_HOLD tokens, SEER_THINK_BYTES bytes);
 * each token then comes out once, in order, with thought_len: its first
 * thought_len bytes belong to a thought (markers included), the rest to the
 * answer. A thought opened inside a token takes the whole token. */
#define SEER_THINK_HOLD 16
#define SEER_THINK_BYTES 1024
typedef struct seer_think_stream {
    const seer_chat_thinking *m; /* NULL: every byte is answer */
    bool in_thought;
    char tail[32];               /* the last bytes of the thought (a close marker split over tokens) */
    int n_tail;
    char held[SEER_THINK_BYTES]; /* held tokens' text, back to back */
    int held_len[SEER_THINK_HOLD], held_tag[SEER_THINK_HOLD], n_held, n_held_bytes;
} seer_think_stream;

/* Receives one token: tag as pushed, its text, and how much of it is thought.
 * A non-zero return is remembered (see seer_think_push). */
typedef int (*seer_think_emit)(void *ud, int tag, const char *text, int len, int thought_len);

/* Starts a reply: in_thought when the generation prompt opened a thought. */
void seer_think_begin(seer_think_stream *t, const seer_chat_thinking *m, bool in_thought);
/* Feeds one token's text; emits the tokens now decided. Returns the first
 * non-zero value an emit returned, else 0. */
int seer_think_push(seer_think_stream *t, int tag, const char *text, int len, seer_think_emit emit, void *ud);
/* End of the reply: held tokens come out as what they were so far. */
int seer_think_end(seer_think_stream *t, seer_think_emit emit, void *ud);
/* A marker (or a piece of one) that the vocabulary holds as a control
 * token detokenizes to nothing; the split and the kept reply need its
 * text. Writes that text for such a token and returns its length, else 0. */
int seer_think_marker_piece(const seer_chat_thinking *m, const seer_vocab *v, int32_t id, char *buf, int cap);
/* Copies text without the markers (and the blank lines around a thought's
 * edges) into out (NUL-terminated, at most cap-1 bytes): the thought as a
 * reader sees it. Returns the length written. */
int seer_think_visible(const seer_chat_thinking *m, const char *text, int len, char *out, int cap);

#endif
