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
    /* Qwen3-VL: each image row is the LLM width times (1 + DeepStack layers) */
    int width = info->n_embd_inp > 0 ? info->n_embd_inp : info->n_embd;
    if (hp->n_embd_out != width) {
        seer_error_set(err,
                       "the vision model does not fit this language model: its projector gives %d-wide embeddings, "
                       "the model's input width is %d (wrong --mmproj file?)",
                       hp->n_embd_out, width);
        return -1;
    }
    if (seer_projector_multi_pos(hp->projector) && !info->mrope) {
        seer_error_set(err,
                       "the vision model (%s) needs a language model with M-RoPE (rope.dimension_sections), not this "
                       "'%s' file",
                       hp->projector_name, info->arch ? info->arch : "?");
        return -1;
    }
    return 0;
}
