/* Checking that an mmproj belongs with an LLM before any image reaches the
 * decoder (a width mismatch would make it read past the embeddings). */
#include "seer/mtmd.h"

int seer_mtmd_check_pair(const seer_llm *llm, const seer_vision *vision, seer_error *err) {
    if (!llm || !vision) return 0;
    const seer_llm_info *info = seer_llm_get_info(llm);
    const seer_vision_hparams *hp = seer_vision_get_hparams(vision);
    if (!info || !hp) {
        seer_error_set(err, "model information unavailable");
        return -1;
    }
    if (hp->n_embd_out != info->n_embd) {
        seer_error_set(err,
                       "the vision model does not fit this language model: its projector gives %d-wide embeddings, "
                       "the model's width is %d (wrong --mmproj file?)",
                       hp->n_embd_out, info->n_embd);
        return -1;
    }
    bool qwen = hp->projector == SEER_PROJ_QWEN2VL || hp->projector == SEER_PROJ_QWEN25VL;
    if (qwen && !info->mrope) {
        seer_error_set(err, "the vision model (%s) needs a Qwen2-VL language model with M-RoPE, not '%s'",
                       hp->projector_name, info->arch ? info->arch : "?");
        return -1;
    }
    return 0;
}
