/* Chat template recognition: the Jinja text of tokenizer.chat_template is
 * matched by substrings that only one family's template contains. */
#include <string.h>

#include "seer/chat.h"

static bool has(const char *t, const char *s) { return strstr(t, s) != NULL; }

/* Qwen2's own ChatML template (and MiniCPM-V 2.6's, which is Qwen2's) opens
 * with a default system turn, written with a newline or, inside a Jinja
 * string, "\n"; Qwen2.5's longer default ("You are Qwen, ...") is not it. */
static bool qwen2_default_system(const char *t) {
    return has(t, "system\nYou are a helpful assistant.<|im_end|>") ||
           has(t, "system\\nYou are a helpful assistant.<|im_end|>");
}

seer_chat_style seer_chat_detect(const char *t) {
    if (!t || !*t) return SEER_CHAT_UNKNOWN;
    /* SmolVLM/Idefics3 opens with <|im_start|> but is not ChatML: check it first. */
    if (has(t, "<end_of_utterance>")) return SEER_CHAT_SMOLVLM;
    /* GLM-4 (and GLM-4.1V / 4.6V / GLM-OCR) open every conversation with [gMASK]<sop> */
    if (has(t, "[gMASK]<sop>")) return SEER_CHAT_GLM4;
    /* PaddleOCR-VL: ERNIE's plain "User: " / "Assistant: " turns with its image placeholder */
    if (has(t, "<|IMAGE_PLACEHOLDER|>")) return SEER_CHAT_PADDLEOCR;
    /* dots.ocr: its own role tags, each closed by <|endof…|> */
    if (has(t, "<|endofuser|>")) return SEER_CHAT_DOTS_OCR;
    /* HunyuanOCR / HunyuanVL (llama.cpp's hunyuan-vl): the fullwidth role markers and BOS text */
    if (has(t, "<｜hy_Assistant｜>") && has(t, "<｜hy_begin▁of▁sentence｜>")) return SEER_CHAT_HUNYUAN_VL;
    /* Gemma 4's turns open with <|turn> (Gemma 3's with <start_of_turn>) */
    if (has(t, "<|turn>")) return SEER_CHAT_GEMMA4;
    /* Qwen3.5 / 3.6: vision, and a thinking switch that closes an empty thought */
    if (has(t, "<|vision_start|>") && has(t, "enable_thinking") && has(t, "<think>\\n\\n</think>\\n\\n"))
        return SEER_CHAT_QWEN35;
    /* Qwen2/2.5-VL's template writes a default system prompt; Qwen3-VL's does
     * not, and its Thinking models' generation prompt is the assistant header
     * followed by <think> (a template that only mentions <think>, e.g. to
     * strip past reasoning, is not a thinking one). */
    if (has(t, "<|im_start|>"))
        return qwen2_default_system(t)                   ? SEER_CHAT_QWEN2VL /* ChatML + that system turn */
               : !has(t, "<|vision_start|>")             ? SEER_CHAT_CHATML
               : has(t, "You are a helpful assistant.") ? SEER_CHAT_QWEN2VL
               : has(t, "assistant\\n<think>")          ? SEER_CHAT_QWEN3VL_THINKING
                                                        : SEER_CHAT_QWEN3VL;
    if (has(t, "<|start_header_id|>")) return SEER_CHAT_LLAMA3;
    if (has(t, "<start_of_turn>")) return SEER_CHAT_GEMMA;
    /* Mistral Small 3.x writes its system prompt in [SYSTEM_PROMPT] tags (v7);
     * Ministral 3 Reasoning's default system prompt teaches the [THINK] form */
    if (has(t, "[SYSTEM_PROMPT]"))
        return has(t, "[THINK]") && has(t, "HOW YOU SHOULD THINK") ? SEER_CHAT_MINISTRAL3_REASONING : SEER_CHAT_MISTRAL_V7;
    if (has(t, "[INST]")) return has(t, "<<SYS>>") ? SEER_CHAT_LLAMA2 : SEER_CHAT_MISTRAL;
    /* Vicuna writes "USER:" literally; LLaVA's HF template upper-cases the role. */
    if (has(t, "ASSISTANT:") && (has(t, "USER:") || has(t, ".upper()"))) return SEER_CHAT_VICUNA;
    return SEER_CHAT_UNKNOWN;
}

typedef struct style_name { const char *name; seer_chat_style style; } style_name;

static const style_name NAMES[] = {
    {"chatml", SEER_CHAT_CHATML},   {"vicuna", SEER_CHAT_VICUNA},     {"llama2", SEER_CHAT_LLAMA2},
    {"llama3", SEER_CHAT_LLAMA3},   {"mistral", SEER_CHAT_MISTRAL},   {"gemma", SEER_CHAT_GEMMA},
    {"smolvlm", SEER_CHAT_SMOLVLM}, {"qwen2vl", SEER_CHAT_QWEN2VL},   {"qwen3vl", SEER_CHAT_QWEN3VL},
    {"qwen3vl-thinking", SEER_CHAT_QWEN3VL_THINKING}, {"mistral-v7", SEER_CHAT_MISTRAL_V7},
    {"qwen3.5", SEER_CHAT_QWEN35},  {"gemma4", SEER_CHAT_GEMMA4},   {"glm4", SEER_CHAT_GLM4},
    {"qwen3.5", SEER_CHAT_QWEN35},  {"gemma4", SEER_CHAT_GEMMA4},   {"paddleocr", SEER_CHAT_PADDLEOCR},
    {"dots.ocr", SEER_CHAT_DOTS_OCR}, {"hunyuan-vl", SEER_CHAT_HUNYUAN_VL},
    {"ministral3-reasoning", SEER_CHAT_MINISTRAL3_REASONING},
    /* aliases people type */
    {"llava", SEER_CHAT_VICUNA},    {"qwen", SEER_CHAT_CHATML},       {"qwen2", SEER_CHAT_CHATML},
    {"qwen2-vl", SEER_CHAT_QWEN2VL}, {"qwen2.5vl", SEER_CHAT_QWEN2VL}, {"qwen2.5-vl", SEER_CHAT_QWEN2VL},
    {"idefics3", SEER_CHAT_SMOLVLM}, {"llama-2", SEER_CHAT_LLAMA2},   {"llama-3", SEER_CHAT_LLAMA3},
    {"qwen3-vl", SEER_CHAT_QWEN3VL}, {"gemma3", SEER_CHAT_GEMMA},     {"gemma-3", SEER_CHAT_GEMMA},
    {"mistral-v7-tekken", SEER_CHAT_MISTRAL_V7}, {"mistral-small", SEER_CHAT_MISTRAL_V7},
    {"qwen35", SEER_CHAT_QWEN35},   {"qwen3.6", SEER_CHAT_QWEN35},    {"gemma-4", SEER_CHAT_GEMMA4},
    {"glm-4", SEER_CHAT_GLM4},      {"glm4v", SEER_CHAT_GLM4},        {"chatglm4", SEER_CHAT_GLM4},
    {"hunyuanocr", SEER_CHAT_HUNYUAN_VL}, {"hunyuan-ocr", SEER_CHAT_HUNYUAN_VL},
};

seer_chat_style seer_chat_from_name(const char *name) {
    if (!name) return SEER_CHAT_UNKNOWN;
    for (size_t i = 0; i < sizeof NAMES / sizeof NAMES[0]; i++)
        if (strcmp(name, NAMES[i].name) == 0) return NAMES[i].style;
    return SEER_CHAT_UNKNOWN;
}

const char *seer_chat_style_name(seer_chat_style s) {
    for (size_t i = 0; i < sizeof NAMES / sizeof NAMES[0]; i++)
        if (NAMES[i].style == s) return NAMES[i].name;
    return "unknown";
}

seer_chat_style seer_chat_for_model(const char *template_text, const char *projector_name, bool *is_fallback) {
    seer_chat_style s = seer_chat_detect(template_text);
    if (is_fallback) *is_fallback = s == SEER_CHAT_UNKNOWN;
    if (s != SEER_CHAT_UNKNOWN) return s;
    if (projector_name && (strcmp(projector_name, "mlp") == 0 || strcmp(projector_name, "mlp_norm") == 0 ||
                           strcmp(projector_name, "ldp") == 0 || strcmp(projector_name, "ldpv2") == 0))
        return SEER_CHAT_VICUNA;
    return SEER_CHAT_CHATML;
}

const char *seer_chat_default_system(seer_chat_style s) {
    switch (s) {
    case SEER_CHAT_QWEN2VL: return "You are a helpful assistant.";
    /* LLaVA-1.5/1.6's conversation template (llava_v1) */
    case SEER_CHAT_VICUNA:
        return "A chat between a curious human and an artificial intelligence assistant. The assistant gives "
               "helpful, detailed, and polite answers to the human's questions.";
    /* Ministral 3 Reasoning's template (default_system_message), written when no system turn is given */
    case SEER_CHAT_MINISTRAL3_REASONING:
        return "# HOW YOU SHOULD THINK AND ANSWER\n\nFirst draft your thinking process (inner monologue) until you "
               "arrive at a response. Format your response using Markdown, and use LaTeX for any mathematical "
               "equations. Write both your thoughts and the response in the same language as the input.\n\nYour "
               "thinking process must follow the template below:[THINK]Your thoughts or/and draft, like working "
               "through an exercise on scratch paper. Be as casual and as long as you want until you are confident "
               "to generate the response to the user.[/THINK]Here, provide a self-contained response.";
    default: return NULL;
    }
}
