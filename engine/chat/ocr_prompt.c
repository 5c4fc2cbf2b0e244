/* The prompt each OCR model's authors document for reading a whole page,
 * keyed by the mmproj projector and, where a projector serves several
 * models, the LLM architecture. `seer ocr` and the TUI's /ocr send it as
 * the user turn after the image; a model without an entry has none (the
 * caller asks for -p). */
#include <string.h>

#include "seer/chat.h"

typedef struct ocr_prompt {
    const char *projector; /* mmproj clip.projector_type */
    const char *arch;      /* LLM general.architecture, or NULL for any */
    bool nextn;            /* only an LLM with NextN blocks (GLM-OCR beside GLM-4.xV, the same projector and arch) */
    const char *prompt;
} ocr_prompt;

static const ocr_prompt PROMPTS[] = {
    /* PaddleOCR-VL's model card and its pipeline: "OCR:" (also "Table Recognition:",
     * "Formula Recognition:", "Chart Recognition:" for those crops) */
    {"paddleocr", "paddleocr", false, "OCR:"},
    /* GLM-OCR's model card (zai-org/GLM-OCR): "Text Recognition:" for a page's
     * text (also "Formula Recognition:", "Table Recognition:"); the chat
     * models GLM-4.1V / 4.6V-Flash, without NextN blocks, document none */
    {"glm4v", "glm4", true, "Text Recognition:"},
    /* dots.ocr's prompt_ocr (its README and dots_ocr/utils/prompts.py); llama.cpp's tests send "OCR" */
    {"dots_ocr", NULL, false, "Extract the text content from this image."},
    /* HunyuanOCR's default task, document parsing (its README and inference/utils/tasks.py doc_parse):
     * the page's body as Markdown, headers and footers left out, tables as HTML, formulas as LaTeX, in
     * reading order; llama.cpp's tests send "OCR" */
    {"hunyuanvl", "hunyuan_vl", false,
     "提取文档图片中正文的所有信息用markdown格式表示，其中页眉、页脚部分忽略，表格用html格式表达，文档中公式用latex格式表示，"
     "按照阅读顺序组织进行解析。"},
    /* LightOnOCR's model card (lightonai/LightOnOCR-1B-1025, transformers' lighton_ocr
     * docs): a user turn with the image alone, no instruction text */
    {"lightonocr", NULL, false, ""},
};

const char *seer_ocr_prompt(const char *projector, const char *arch, int n_nextn) {
    if (!projector) return NULL;
    for (size_t i = 0; i < sizeof PROMPTS / sizeof PROMPTS[0]; i++)
        if (strcmp(PROMPTS[i].projector, projector) == 0 && (!PROMPTS[i].arch || (arch && strcmp(PROMPTS[i].arch, arch) == 0)) &&
            (!PROMPTS[i].nextn || n_nextn > 0))
            return PROMPTS[i].prompt;
    return NULL;
}
