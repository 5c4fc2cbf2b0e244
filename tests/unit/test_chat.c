/* Chat templates: each style renders system + user + assistant + user exactly
 * as the model's own Jinja template does. The expected strings were produced
 * by rendering the real templates (Qwen2-VL, Qwen3-VL and SmolVLM as shipped in their
 * GGUFs, llava-hf's LLaVA template, Meta's Llama-2/3, Mistral-7B-Instruct
 * v0.2, Gemma 3, generic ChatML) with Python's jinja2, the leading BOS text
 * removed and "<image>" written as the media marker. */
#include <stdlib.h>
#include <string.h>

#include "seer/chat.h"
#include "seer/gguf.h"
#include "seer/tokenizer.h"
#include "testlib.h"

typedef struct expected_render {
    seer_chat_style style;
    bool with_system, generation_prompt;
    const char *text;
} expected_render;

static const expected_render EXPECTED[] = {
    {SEER_CHAT_CHATML, true, true, "<|im_start|>system\nYou are a terse assistant.<|im_end|>\n<|im_start|>user\n  What is in this picture?\n<|im_end|>\n<|im_start|>assistant\nA cat. <|im_end|>\n<|im_start|>user\nAnd its colour?<|im_end|>\n<|im_start|>assistant\n"},
    {SEER_CHAT_CHATML, true, false, "<|im_start|>system\nYou are a terse assistant.<|im_end|>\n<|im_start|>user\n  What is in this picture?\n<|im_end|>\n<|im_start|>assistant\nA cat. <|im_end|>\n<|im_start|>user\nAnd its colour?<|im_end|>\n"},
    {SEER_CHAT_CHATML, false, true, "<|im_start|>user\n  What is in this picture?\n<|im_end|>\n<|im_start|>assistant\nA cat. <|im_end|>\n<|im_start|>user\nAnd its colour?<|im_end|>\n<|im_start|>assistant\n"},
    {SEER_CHAT_CHATML, false, false, "<|im_start|>user\n  What is in this picture?\n<|im_end|>\n<|im_start|>assistant\nA cat. <|im_end|>\n<|im_start|>user\nAnd its colour?<|im_end|>\n"},
    {SEER_CHAT_QWEN2VL, true, true, "<|im_start|>system\nYou are a terse assistant.<|im_end|>\n<|im_start|>user\n<__media__>  What is in this picture?\n<|im_end|>\n<|im_start|>assistant\nA cat. <|im_end|>\n<|im_start|>user\nAnd its colour?<|im_end|>\n<|im_start|>assistant\n"},
    {SEER_CHAT_QWEN2VL, true, false, "<|im_start|>system\nYou are a terse assistant.<|im_end|>\n<|im_start|>user\n<__media__>  What is in this picture?\n<|im_end|>\n<|im_start|>assistant\nA cat. <|im_end|>\n<|im_start|>user\nAnd its colour?<|im_end|>\n"},
    {SEER_CHAT_QWEN2VL, false, true, "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\n<__media__>  What is in this picture?\n<|im_end|>\n<|im_start|>assistant\nA cat. <|im_end|>\n<|im_start|>user\nAnd its colour?<|im_end|>\n<|im_start|>assistant\n"},
    {SEER_CHAT_QWEN2VL, false, false, "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\n<__media__>  What is in this picture?\n<|im_end|>\n<|im_start|>assistant\nA cat. <|im_end|>\n<|im_start|>user\nAnd its colour?<|im_end|>\n"},
    {SEER_CHAT_QWEN3VL, true, true, "<|im_start|>system\nYou are a terse assistant.<|im_end|>\n<|im_start|>user\n<__media__>  What is in this picture?\n<|im_end|>\n<|im_start|>assistant\nA cat. <|im_end|>\n<|im_start|>user\nAnd its colour?<|im_end|>\n<|im_start|>assistant\n"},
    {SEER_CHAT_QWEN3VL, true, false, "<|im_start|>system\nYou are a terse assistant.<|im_end|>\n<|im_start|>user\n<__media__>  What is in this picture?\n<|im_end|>\n<|im_start|>assistant\nA cat. <|im_end|>\n<|im_start|>user\nAnd its colour?<|im_end|>\n"},
    {SEER_CHAT_QWEN3VL, false, true, "<|im_start|>user\n<__media__>  What is in this picture?\n<|im_end|>\n<|im_start|>assistant\nA cat. <|im_end|>\n<|im_start|>user\nAnd its colour?<|im_end|>\n<|im_start|>assistant\n"},
    {SEER_CHAT_QWEN3VL, false, false, "<|im_start|>user\n<__media__>  What is in this picture?\n<|im_end|>\n<|im_start|>assistant\nA cat. <|im_end|>\n<|im_start|>user\nAnd its colour?<|im_end|>\n"},
    {SEER_CHAT_VICUNA, true, true, "You are a terse assistant. USER: <__media__>\n  What is in this picture?\n ASSISTANT: A cat.  USER: And its colour? ASSISTANT:"},
    {SEER_CHAT_VICUNA, true, false, "You are a terse assistant. USER: <__media__>\n  What is in this picture?\n ASSISTANT: A cat.  USER: And its colour? "},
    {SEER_CHAT_VICUNA, false, true, "USER: <__media__>\n  What is in this picture?\n ASSISTANT: A cat.  USER: And its colour? ASSISTANT:"},
    {SEER_CHAT_VICUNA, false, false, "USER: <__media__>\n  What is in this picture?\n ASSISTANT: A cat.  USER: And its colour? "},
    {SEER_CHAT_LLAMA2, true, true, "[INST] <<SYS>>\nYou are a terse assistant.\n<</SYS>>\n\n  What is in this picture? [/INST] A cat. </s><s>[INST] And its colour? [/INST]"},
    {SEER_CHAT_LLAMA2, true, false, "[INST] <<SYS>>\nYou are a terse assistant.\n<</SYS>>\n\n  What is in this picture? [/INST] A cat. </s><s>[INST] And its colour? [/INST]"},
    {SEER_CHAT_LLAMA2, false, true, "[INST] What is in this picture? [/INST] A cat. </s><s>[INST] And its colour? [/INST]"},
    {SEER_CHAT_LLAMA2, false, false, "[INST] What is in this picture? [/INST] A cat. </s><s>[INST] And its colour? [/INST]"},
    {SEER_CHAT_LLAMA3, true, true, "<|start_header_id|>system<|end_header_id|>\n\nYou are a terse assistant.<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nWhat is in this picture?<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\nA cat.<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nAnd its colour?<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n"},
    {SEER_CHAT_LLAMA3, true, false, "<|start_header_id|>system<|end_header_id|>\n\nYou are a terse assistant.<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nWhat is in this picture?<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\nA cat.<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nAnd its colour?<|eot_id|>"},
    {SEER_CHAT_LLAMA3, false, true, "<|start_header_id|>user<|end_header_id|>\n\nWhat is in this picture?<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\nA cat.<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nAnd its colour?<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n"},
    {SEER_CHAT_LLAMA3, false, false, "<|start_header_id|>user<|end_header_id|>\n\nWhat is in this picture?<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\nA cat.<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nAnd its colour?<|eot_id|>"},
    {SEER_CHAT_MISTRAL, false, true, "[INST]   What is in this picture?\n [/INST]A cat. </s>[INST] And its colour? [/INST]"},
    {SEER_CHAT_MISTRAL, false, false, "[INST]   What is in this picture?\n [/INST]A cat. </s>[INST] And its colour? [/INST]"},
    {SEER_CHAT_MISTRAL_V7, true, true, "[SYSTEM_PROMPT]You are a terse assistant.[/SYSTEM_PROMPT][INST]  What is in this picture?\n[/INST]A cat. </s>[INST]And its colour?[/INST]"},
    {SEER_CHAT_MISTRAL_V7, false, false, "[INST]  What is in this picture?\n[/INST]A cat. </s>[INST]And its colour?[/INST]"},
    {SEER_CHAT_GEMMA, true, true, "<start_of_turn>user\nYou are a terse assistant.\n\nWhat is in this picture?<end_of_turn>\n<start_of_turn>model\nA cat.<end_of_turn>\n<start_of_turn>user\nAnd its colour?<end_of_turn>\n<start_of_turn>model\n"},
    {SEER_CHAT_GEMMA, true, false, "<start_of_turn>user\nYou are a terse assistant.\n\nWhat is in this picture?<end_of_turn>\n<start_of_turn>model\nA cat.<end_of_turn>\n<start_of_turn>user\nAnd its colour?<end_of_turn>\n"},
    {SEER_CHAT_GEMMA, false, true, "<start_of_turn>user\nWhat is in this picture?<end_of_turn>\n<start_of_turn>model\nA cat.<end_of_turn>\n<start_of_turn>user\nAnd its colour?<end_of_turn>\n<start_of_turn>model\n"},
    {SEER_CHAT_GEMMA, false, false, "<start_of_turn>user\nWhat is in this picture?<end_of_turn>\n<start_of_turn>model\nA cat.<end_of_turn>\n<start_of_turn>user\nAnd its colour?<end_of_turn>\n"},
    {SEER_CHAT_SMOLVLM, true, true, "<|im_start|>System: You are a terse assistant.<end_of_utterance>\nUser:<__media__>  What is in this picture?\n<end_of_utterance>\nAssistant: A cat. <end_of_utterance>\nUser: And its colour?<end_of_utterance>\nAssistant:"},
    {SEER_CHAT_SMOLVLM, true, false, "<|im_start|>System: You are a terse assistant.<end_of_utterance>\nUser:<__media__>  What is in this picture?\n<end_of_utterance>\nAssistant: A cat. <end_of_utterance>\nUser: And its colour?<end_of_utterance>\n"},
    {SEER_CHAT_SMOLVLM, false, true, "<|im_start|>User:<__media__>  What is in this picture?\n<end_of_utterance>\nAssistant: A cat. <end_of_utterance>\nUser: And its colour?<end_of_utterance>\nAssistant:"},
    {SEER_CHAT_SMOLVLM, false, false, "<|im_start|>User:<__media__>  What is in this picture?\n<end_of_utterance>\nAssistant: A cat. <end_of_utterance>\nUser: And its colour?<end_of_utterance>\n"},
};

static void check_render(const expected_render *e) {
    const char *u1 = "  What is in this picture?\n";
    char first_user[128];
    /* LLaVA's template writes the image then "\n"; Qwen-VL and SmolVLM put it right before the text. */
    if (e->style == SEER_CHAT_VICUNA) snprintf(first_user, sizeof first_user, "%s\n%s", SEER_MEDIA_MARKER, u1);
    else if (e->style == SEER_CHAT_QWEN2VL || e->style == SEER_CHAT_QWEN3VL || e->style == SEER_CHAT_SMOLVLM)
        snprintf(first_user, sizeof first_user, "%s%s", SEER_MEDIA_MARKER, u1);
    else snprintf(first_user, sizeof first_user, "%s", u1);
    seer_chat_msg msgs[4] = {
        {"system", "You are a terse assistant."}, {"user", first_user}, {"assistant", "A cat. "}, {"user", "And its colour?"}};
    const seer_chat_msg *m = e->with_system ? msgs : msgs + 1;
    int n = e->with_system ? 4 : 3;
    seer_error err = {{0}};
    char *got = seer_chat_render(e->style, m, n, e->generation_prompt, &err);
    CHECK_MSG(got && strcmp(got, e->text) == 0, "%s (system %d, generation prompt %d):\n  got  [%s]\n  want [%s]",
              seer_chat_style_name(e->style), e->with_system, e->generation_prompt, got ? got : err.msg, e->text);
    free(got);
}

static void check_detect(void) {
    /* Distinctive pieces of the real templates. */
    CHECK(seer_chat_detect("{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>'}}") == SEER_CHAT_CHATML);
    CHECK(seer_chat_detect("{% if loop.first and message['role'] != 'system' %}<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n{% endif %}<|vision_start|><|image_pad|><|vision_end|>") == SEER_CHAT_QWEN2VL);
    /* Qwen2's (and MiniCPM-V 2.6's) text template: the same default system turn, inside a Jinja string */
    CHECK(seer_chat_detect("{% if loop.first and messages[0]['role'] != 'system' %}{{ '<|im_start|>system\\nYou are a helpful assistant.<|im_end|>\\n' }}{% endif %}") == SEER_CHAT_QWEN2VL);
    CHECK(seer_chat_detect("{{ '<|im_start|>system\\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\\n' }}") == SEER_CHAT_CHATML);
    CHECK(seer_chat_detect("{{- '<|vision_start|><|image_pad|><|vision_end|>' }}{%- if '</think>' in content %}{{- '<|im_start|>assistant\\n<think>\\n' }}") == SEER_CHAT_QWEN3VL_THINKING);
    CHECK(seer_chat_detect("{{- '<|vision_start|><|image_pad|><|vision_end|>' }}{%- if '</think>' in content %}{{- '<|im_start|>assistant\\n' }}") == SEER_CHAT_QWEN3VL);
    /* Qwen3-VL: the vision wrapper but no default system prompt */
    CHECK(seer_chat_detect("{%- if messages[0].role == 'system' %}{{- '<|im_start|>system\n' }}{%- endif %}{{- '<|vision_start|><|image_pad|><|vision_end|>' }}") == SEER_CHAT_QWEN3VL);
    CHECK(seer_chat_detect("<|im_start|>{% for message in messages %}{{message['role'] | capitalize}}{{':'}}<end_of_utterance>\n{% endfor %}{{ 'Assistant:' }}") == SEER_CHAT_SMOLVLM);
    CHECK(seer_chat_detect("{% if message['role'] != 'system' %}{{ message['role'].upper() + ': '}}{% endif %}{{ 'ASSISTANT:' }}") == SEER_CHAT_VICUNA);
    CHECK(seer_chat_detect("{{ system_message }} USER: {{ content }} ASSISTANT: {{ answer }}</s>") == SEER_CHAT_VICUNA);
    CHECK(seer_chat_detect("{% set content = '<<SYS>>\\n' + system_message %}{{ bos_token + '[INST] ' + content.strip() + ' [/INST]' }}") == SEER_CHAT_LLAMA2);
    CHECK(seer_chat_detect("{{ bos_token }}{% if message['role'] == 'user' %}{{ '[INST] ' + message['content'] + ' [/INST]' }}") == SEER_CHAT_MISTRAL);
    /* Mistral Small 3.1 */
    CHECK(seer_chat_detect("{{- bos_token }}{{- '[SYSTEM_PROMPT]' + system_message + '[/SYSTEM_PROMPT]' }}{{- '[INST]' + message['content'] + '[/INST]' }}") == SEER_CHAT_MISTRAL_V7);
    CHECK(seer_chat_detect("{% set content = '<|start_header_id|>' + message['role'] + '<|end_header_id|>\n\n' %}") == SEER_CHAT_LLAMA3);
    CHECK(seer_chat_detect("{{ '<start_of_turn>' + role + '\n' }}{{ '<end_of_turn>\n' }}") == SEER_CHAT_GEMMA);
    CHECK(seer_chat_detect("{{'<|user|>' + '\n' + message['content'] + '<|end|>'}}") == SEER_CHAT_UNKNOWN);
    CHECK(seer_chat_detect("") == SEER_CHAT_UNKNOWN);
    CHECK(seer_chat_detect(NULL) == SEER_CHAT_UNKNOWN);
}

static void check_names(void) {
    for (int s = SEER_CHAT_CHATML; s <= SEER_CHAT_QWEN3VL_THINKING; s++)
        CHECK_MSG(seer_chat_from_name(seer_chat_style_name((seer_chat_style)s)) == (seer_chat_style)s, "style %d does not round-trip", s);
    CHECK(seer_chat_from_name("llava") == SEER_CHAT_VICUNA);
    CHECK(seer_chat_from_name("no-such-style") == SEER_CHAT_UNKNOWN);
    CHECK(seer_chat_from_name(NULL) == SEER_CHAT_UNKNOWN);
    CHECK(strcmp(seer_chat_default_system(SEER_CHAT_QWEN2VL), "You are a helpful assistant.") == 0);
    CHECK(seer_chat_default_system(SEER_CHAT_CHATML) == NULL);
    CHECK(seer_chat_default_system(SEER_CHAT_QWEN3VL) == NULL);
    /* Fallbacks when a model has no usable template: LLaVA files get Vicuna with LLaVA's system prompt. */
    bool fb = false;
    CHECK(seer_chat_for_model(NULL, "mlp", &fb) == SEER_CHAT_VICUNA && fb);
    CHECK(seer_chat_for_model("", "mlp_norm", &fb) == SEER_CHAT_VICUNA && fb);
    /* MobileVLM files carry no template either: the Vicuna prompt it was trained with */
    CHECK(seer_chat_for_model(NULL, "ldp", &fb) == SEER_CHAT_VICUNA && fb);
    CHECK(seer_chat_for_model(NULL, "ldpv2", &fb) == SEER_CHAT_VICUNA && fb);
    CHECK(seer_chat_for_model(NULL, "idefics3", &fb) == SEER_CHAT_CHATML && fb);
    CHECK(seer_chat_for_model(NULL, NULL, &fb) == SEER_CHAT_CHATML && fb);
    CHECK(seer_chat_for_model("{{ '<|im_start|>' + message['role'] }}", "mlp", &fb) == SEER_CHAT_CHATML && !fb);
    CHECK(strncmp(seer_chat_default_system(SEER_CHAT_VICUNA), "A chat between a curious human", 30) == 0);
    seer_error err = {{0}};
    /* Thinking: the reply opens with <think>; a past reply keeps only its answer. */
    seer_chat_msg think[3] = {{"user", "<__media__>Why?"}, {"assistant", "<think>\nhmm\n</think>\n\nBecause."}, {"user", "Sure?"}};
    char *t = seer_chat_render(SEER_CHAT_QWEN3VL_THINKING, think, 3, true, &err);
    CHECK_MSG(t && strcmp(t, "<|im_start|>user\n<__media__>Why?<|im_end|>\n<|im_start|>assistant\nBecause.<|im_end|>\n"
                             "<|im_start|>user\nSure?<|im_end|>\n<|im_start|>assistant\n<think>\n") == 0,
              "thinking render: [%s]", t ? t : err.msg);
    free(t);
    /* PaddleOCR-VL (its chat_template.jinja): the cls token first, a user
     * turn's images before its text wherever the marker was written */
    seer_chat_msg ocr[4] = {{"system", "Be exact."}, {"user", "OCR:<__media__>"}, {"assistant", "Total 42"},
                            {"user", "Table Recognition:"}};
    t = seer_chat_render(SEER_CHAT_PADDLEOCR, ocr, 4, true, &err);
    CHECK_MSG(t && strcmp(t, "<|begin_of_sentence|>Be exact.\nUser: <__media__>OCR:\nAssistant: Total 42</s>"
                             "User: Table Recognition:\nAssistant: ") == 0,
              "paddleocr render: [%s]", t ? t : err.msg);
    free(t);
    CHECK(seer_chat_detect("{%- set image_token = \"<|IMAGE_START|><|IMAGE_PLACEHOLDER|><|IMAGE_END|>\" -%}{{- \"User: \" -}}") ==
          SEER_CHAT_PADDLEOCR);
    CHECK(seer_chat_from_name("paddleocr") == SEER_CHAT_PADDLEOCR);
    CHECK(seer_ocr_prompt("paddleocr", "paddleocr", 0) && !strcmp(seer_ocr_prompt("paddleocr", "paddleocr", 0), "OCR:"));
    CHECK(!seer_ocr_prompt("qwen3vl_merger", "qwen3vl", 0) && !seer_ocr_prompt(NULL, "paddleocr", 0));
    /* GLM-OCR (a NextN block) has one; GLM-4.6V-Flash, the same projector and arch, none */
    CHECK(seer_ocr_prompt("glm4v", "glm4", 1) && !strcmp(seer_ocr_prompt("glm4v", "glm4", 1), "Text Recognition:"));
    CHECK(!seer_ocr_prompt("glm4v", "glm4", 0));
    CHECK(seer_ocr_prompt("dots_ocr", "qwen2", 0) &&
          !strcmp(seer_ocr_prompt("dots_ocr", "qwen2", 0), "Extract the text content from this image."));
    /* dots.ocr (its chat_template): the last reply stays open, no generation prompt after a reply */
    t = seer_chat_render(SEER_CHAT_DOTS_OCR, ocr, 4, true, &err);
    CHECK_MSG(t && strcmp(t, "<|system|>Be exact.<|endofsystem|>\n<|user|>OCR:<__media__><|endofuser|><|assistant|>Total 42"
                             "<|endofassistant|><|user|>Table Recognition:<|endofuser|><|assistant|>") == 0,
              "dots.ocr render: [%s]", t ? t : err.msg);
    free(t);
    t = seer_chat_render(SEER_CHAT_DOTS_OCR, ocr + 1, 2, true, &err);
    CHECK_MSG(t && strcmp(t, "<|user|>OCR:<__media__><|endofuser|><|assistant|>Total 42") == 0, "dots.ocr: [%s]",
              t ? t : err.msg);
    free(t);
    CHECK(seer_chat_detect("{{- '<|user|>' + m.content + '<|endofuser|>' }}") == SEER_CHAT_DOTS_OCR);
    /* HunyuanOCR: llama.cpp's hunyuan-vl (llama_chat_apply_template of de3ff815 gave these strings): the
     * BOS text, the first system turn closed by place holder 3, each turn's content then its role's marker,
     * no generation prompt */
    t = seer_chat_render(SEER_CHAT_HUNYUAN_VL, ocr, 4, true, &err);
    CHECK_MSG(t && strcmp(t, "<｜hy_begin▁of▁sentence｜>Be exact.<｜hy_place▁holder▁no▁3｜>OCR:<__media__><｜hy_User｜>"
                             "Total 42<｜hy_Assistant｜>Table Recognition:<｜hy_User｜>") == 0,
              "hunyuan-vl render: [%s]", t ? t : err.msg);
    free(t);
    seer_chat_msg hy[1] = {{"user", "<__media__>DOC"}};
    t = seer_chat_render(SEER_CHAT_HUNYUAN_VL, hy, 1, true, &err);
    CHECK_MSG(t && strcmp(t, "<｜hy_begin▁of▁sentence｜><__media__>DOC<｜hy_User｜>") == 0, "hunyuan-vl: [%s]",
              t ? t : err.msg);
    free(t);
    CHECK(seer_chat_detect("{{- '<｜hy_begin▁of▁sentence｜>' -}}{{- m['content'] + '<｜hy_Assistant｜>' -}}") ==
          SEER_CHAT_HUNYUAN_VL);
    CHECK(seer_chat_from_name("hunyuan-vl") == SEER_CHAT_HUNYUAN_VL);
    CHECK(seer_ocr_prompt("hunyuanvl", "hunyuan_vl", 0) &&
          !strncmp(seer_ocr_prompt("hunyuanvl", "hunyuan_vl", 0), "提取文档图片中正文的所有信息用markdown格式表示", 62));
    CHECK(seer_chat_render(SEER_CHAT_UNKNOWN, NULL, 0, true, &err) == NULL && err.msg[0]);
    char *empty = seer_chat_render(SEER_CHAT_CHATML, NULL, 0, true, &err);
    CHECK(empty && strcmp(empty, "<|im_start|>assistant\n") == 0);
    free(empty);
}

/* The conformance prompts were written with the models' templates: rendering
 * the same turn must reproduce them byte for byte. */
static void check_conformance_prompts(void) {
    const char *dir = test_conformance_dir();
    if (!dir) { fprintf(stderr, "SKIP: conformance folder not found\n"); return; }
    struct { const char *case_name, *model; seer_chat_style style; seer_chat_msg msgs[2]; int n; } cases[] = {
        {"llava15-f32", "llava15-f32/model.gguf", SEER_CHAT_VICUNA,
         {{"user", "<__media__>\nWhat is in this picture?"}}, 1},
        {"llava16-f32", "llava16-f32/model.gguf", SEER_CHAT_VICUNA,
         {{"system", "A chat between a curious human and an artificial intelligence assistant. The assistant gives "
                     "helpful, detailed, and polite answers to the human's questions."},
          {"user", "<__media__>\nDescribe this image."}}, 2},
        {"smolvlm-f32", "smolvlm-f32/model.gguf", SEER_CHAT_SMOLVLM,
         {{"user", "<__media__>Can you describe this image?"}}, 1},
        {"qwen2vl-f32", "qwen2vl-f32/model.gguf", SEER_CHAT_QWEN2VL, {{"user", "<__media__>What is in the picture?"}}, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/cases/%s/prompt.txt", dir, cases[i].case_name);
        FILE *f = fopen(path, "rb");
        CHECK_MSG(f != NULL, "cannot open %s", path);
        if (!f) continue;
        char want[4096];
        size_t n = fread(want, 1, sizeof want - 1, f);
        fclose(f);
        want[n] = '\0';
        seer_error err = {{0}};
        char *got = seer_chat_render(cases[i].style, cases[i].msgs, cases[i].n, true, &err);
        CHECK_MSG(got && strcmp(got, want) == 0, "%s: rendered [%s]\n  prompt.txt [%s]", cases[i].case_name,
                  got ? got : err.msg, want);
        free(got);

        /* The template stored in the model file is recognised as that style. */
        snprintf(path, sizeof path, "%s/cases/%s", dir, cases[i].model);
        gguf_file *g = gguf_open(path, &err);
        if (!g) continue;
        seer_vocab *v = seer_vocab_load(g, &err);
        gguf_close(g);
        if (v && seer_vocab_chat_template(v))
            CHECK_MSG(seer_chat_detect(seer_vocab_chat_template(v)) == cases[i].style, "%s: template not recognised",
                      cases[i].case_name);
        seer_vocab_free(v);
    }
}

int main(void) {
    for (size_t i = 0; i < sizeof EXPECTED / sizeof EXPECTED[0]; i++) check_render(&EXPECTED[i]);
    check_detect();
    check_names();
    check_conformance_prompts();
    TEST_MAIN_END();
}
