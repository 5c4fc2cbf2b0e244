/* Loading on the engine thread: model (with progress), vision encoder, pool,
 * conversation; then a summary of what was loaded for the status line. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "seer/bench.h"
#include "seer/blas.h"
#include "seer/tensor.h"
#include "worker/worker_internal.h"

static double file_mb(const char *path) {
    struct stat st;
    return path && stat(path, &st) == 0 ? (double)st.st_size / (1024.0 * 1024.0) : 0;
}

static void on_progress(void *ud, float fraction) {
    seer_worker *w = ud;
    /* One event per percent is plenty for a progress bar. */
    if (fraction < 1 && fraction - w->last_fraction < 0.01f) return;
    w->last_fraction = fraction;
    seer_event ev = {.type = SEER_EV_LOAD_PROGRESS};
    ev.mb_total = w->mb_total;
    ev.mb_done = w->mb_llm * fraction;
    ev.fraction = w->mb_total > 0 ? (float)(ev.mb_done / w->mb_total) : fraction;
    worker_emit(w, &ev);
}

static void fail(seer_worker *w, const char *msg) {
    seer_event ev = {.type = SEER_EV_LOAD_FAILED, .text = strdup(msg)};
    ev.text_len = ev.text ? (int)strlen(ev.text) : 0;
    worker_emit(w, &ev);
}

static void summarize(seer_worker *w, seer_model_summary *m) {
    memset(m, 0, sizeof *m);
    const seer_llm_info *info = seer_llm_get_info(w->llm);
    if (info) {
        snprintf(m->name, sizeof m->name, "%s", info->name ? info->name : "model");
        snprintf(m->arch, sizeof m->arch, "%s", info->arch ? info->arch : "?");
        snprintf(m->quant, sizeof m->quant, "%s", seer_type_name(info->weight_type));
        m->n_layer = info->n_layer;
        m->n_nextn = info->n_nextn;
        m->n_embd = info->n_embd;
        m->n_vocab = info->n_vocab;
        m->n_params = info->n_params;
        m->weight_bytes = info->weight_bytes;
    }
    snprintf(m->chat, sizeof m->chat, "%s", seer_chat_style_name(seer_session_chat_style(w->session)));
    m->chat_fallback = seer_session_chat_fallback(w->session);
    m->chat_template_present = seer_vocab_chat_template(seer_llm_vocab(w->llm)) != NULL;
    if (w->vision) {
        m->vision = true;
        snprintf(m->projector, sizeof m->projector, "%s", seer_vision_get_hparams(w->vision)->projector_name);
        snprintf(m->vision_quant, sizeof m->vision_quant, "%s",
                 seer_type_name(gguf_dominant_matrix_type(seer_vision_gguf(w->vision))));
    }
    const seer_chat_thinking *think = seer_session_thinking_markers(w->session);
    m->thinks = think != NULL;
    m->think_switch = think && think->can_switch_off;
    m->thinking = seer_session_thinking(w->session);
    m->n_ctx = seer_ctx_size(seer_session_ctx(w->session));
    m->n_threads = seer_pool_size(w->pool);
    if (info) {
        const bool bf16 = w->vision && seer_vision_get_precision(w->vision) == SEER_VISION_BF16;
        const int vision_type = w->vision ? gguf_dominant_matrix_type(seer_vision_gguf(w->vision)) : -1;
        const seer_bench_kernels k = seer_bench_kernels_running(info->weight_type, vision_type, bf16);
        seer_bench_kernels_format(&k, w->vision != NULL, m->kernels, sizeof m->kernels);
        snprintf(m->kernels_short, sizeof m->kernels_short, "%s%s", k.simd, k.amx_int8 || k.amx_bf16 ? "+AMX" : "");
    }
    const seer_blas_info b = seer_blas_describe();
    seer_blas_format(&b, m->blas, sizeof m->blas);
    if (seer_blas_narrower_warning(&b, m->blas_warning, sizeof m->blas_warning)) {
        const size_t n = strlen(m->kernels_short);
        snprintf(m->kernels_short + n, sizeof m->kernels_short - n, " · BLAS %d", b.vector_bits); /* fits the timings pane */
    }
}

bool worker_load(seer_worker *w) {
    seer_error err = {{0}};
    w->mb_llm = file_mb(w->model_path);
    w->mb_total = w->mb_llm + file_mb(w->mmproj_path);
    w->last_fraction = -1;
    on_progress(w, 0);
    w->llm = seer_llm_load(w->model_path, on_progress, w, &err);
    if (!w->llm) {
        fail(w, err.msg[0] ? err.msg : "cannot load the model");
        return false;
    }
    if (w->mmproj_path) {
        w->vision = seer_vision_load(w->mmproj_path, &err);
        if (!w->vision) {
            fail(w, err.msg[0] ? err.msg : "cannot load the vision model");
            return false;
        }
    }
    w->pool = seer_pool_create(w->cfg.n_threads);
    if (!w->pool) {
        fail(w, "cannot create the thread pool");
        return false;
    }
    w->session = seer_session_new(w->llm, w->vision, w->pool, &w->cfg.params, &err);
    if (!w->session) {
        fail(w, err.msg[0] ? err.msg : "cannot create the conversation");
        return false;
    }
    seer_event done = {.type = SEER_EV_LOAD_PROGRESS, .fraction = 1, .mb_done = w->mb_total, .mb_total = w->mb_total};
    worker_emit(w, &done);
    seer_event ev = {.type = SEER_EV_LOADED};
    summarize(w, &ev.model);
    ev.sampling = seer_session_sampling(w->session);
    ev.n_predict = seer_session_n_predict(w->session);
    worker_emit(w, &ev);
    return true;
}
