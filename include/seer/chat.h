/* Chat templates: recognise the template in the GGUF and render turns. */
#ifndef SEER_CHAT_H
#define SEER_CHAT_H

#include "seer/common.h"

typedef enum seer_chat_style {
    SEER_CHAT_UNKNOWN = 0, SEER_CHAT_CHATML, SEER_CHAT_VICUNA, SEER_CHAT_LLAMA2, SEER_CHAT_LLAMA3,
    SEER_CHAT_MISTRAL, SEER_CHAT_GEMMA, SEER_CHAT_SMOLVLM, SEER_CHAT_QWEN2VL,
    SEER_CHAT_QWEN3VL, /* ChatML with vision, no default system prompt */
    SEER_CHAT_QWEN3VL_THINKING, /* the same; replies open with <think>, past reasoning is dropped */
    SEER_CHAT_MISTRAL_V7, /* Mistral Small 3.1 / 3.2 (v7 tekken): [SYSTEM_PROMPT]…[/SYSTEM_PROMPT][INST]…[/INST] */
} seer_chat_style;

typedef struct seer_chat_msg {
    const char *role;     /* "system", "user", "assistant" */
    const char *content;  /* may contain the media marker <__media__> */
} seer_chat_msg;

#define SEER_MEDIA_MARKER "<__media__>"

/* Detects the style from a Jinja template text (NULL → UNKNOWN). */
seer_chat_style seer_chat_detect(const char *template_text);
/* By name: "chatml", "vicuna", "llama2", "llama3", "mistral", "gemma", "smolvlm", "qwen2vl", "qwen3vl",
 * "qwen3vl-thinking", "mistral-v7". */
seer_chat_style seer_chat_from_name(const char *name);
const char *seer_chat_style_name(seer_chat_style s);
/* The style for a model: the one its template text shows, else a fallback
 * (*is_fallback set): Vicuna for LLaVA-family files (an `mlp`/`mlp_norm`
 * projector: the converters write no template, and LLaVA was trained on
 * "USER: … ASSISTANT:"), ChatML otherwise (llama.cpp's own fallback). */
seer_chat_style seer_chat_for_model(const char *template_text, const char *projector_name, bool *is_fallback);
/* Default system prompt of the style (Qwen's "You are a helpful assistant."), or NULL. */
const char *seer_chat_default_system(seer_chat_style s);

/* Renders msgs; with add_generation_prompt the assistant prefix is appended.
 * Returns a malloc'd string (caller frees), NULL on error. The BOS token text
 * is not included (the tokenizer adds BOS). */
char *seer_chat_render(seer_chat_style s, const seer_chat_msg *msgs, int n_msgs, bool add_generation_prompt,
                       seer_error *err);

#endif
