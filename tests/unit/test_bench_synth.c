/* The synthetic "tiny" model: written by seer bench --synth, it has the
 * SmolVLM layout (tensor names, shapes, types, keys), a vocabulary of the
 * declared size whose special tokens sit where the metadata says, loads in
 * the engine (LLM, vocabulary, mmproj) and runs a token. The tiny Qwen3-VL
 * MoE, Gemma 3, LFM2, Pixtral, Qwen3.5 MoE, Gemma 4 (E and MoE shapes) and
 * PaddleOCR-VL layouts load and run text and image rows. */
#include "testlib.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "seer/bench.h"
#include "seer/gguf.h"
#include "seer/llm.h"
#include "seer/tensor.h"
#include "seer/tokenizer.h"
#include "seer/vision.h"

static char llm_path[512], mmproj_path[512];

static void check_tensor(const gguf_file *f, const char *name, int type, int64_t ne0, int64_t ne1) {
    const gguf_tensor *t = gguf_find_tensor(f, name);
    CHECK_MSG(t != NULL, "missing tensor %s", name);
    if (!t) return;
    CHECK_MSG(t->type == type, "%s: type %s", name, seer_type_name(t->type));
    CHECK_MSG(t->ne[0] == ne0 && t->ne[1] == ne1, "%s: shape %lld x %lld", name, (long long)t->ne[0],
              (long long)t->ne[1]);
}

static void test_llm_file(void) {
    seer_error err = {{0}};
    gguf_file *f = gguf_open(llm_path, &err);
    CHECK_MSG(f != NULL, "%s", err.msg);
    if (!f) return;
    CHECK(strcmp(gguf_get_str(f, "general.architecture"), "llama") == 0);
    CHECK(gguf_get_int(f, "llama.block_count", 0) == 2);
    CHECK(gguf_get_int(f, "llama.embedding_length", 0) == 64);
    check_tensor(f, "token_embd.weight", SEER_TYPE_Q8_0, 64, 512);
    check_tensor(f, "output.weight", SEER_TYPE_Q8_0, 64, 512);
    check_tensor(f, "output_norm.weight", SEER_TYPE_F32, 64, 1);
    for (int i = 0; i < 2; i++) {
        char n[64];
        snprintf(n, sizeof n, "blk.%d.attn_k.weight", i);
        check_tensor(f, n, SEER_TYPE_Q8_0, 64, 32); /* 2 kv heads of 16 */
        snprintf(n, sizeof n, "blk.%d.ffn_down.weight", i);
        check_tensor(f, n, SEER_TYPE_Q8_0, 128, 64);
        snprintf(n, sizeof n, "blk.%d.ffn_norm.weight", i);
        check_tensor(f, n, SEER_TYPE_F32, 64, 1);
    }
    CHECK(f->n_tensors == 3 + 2 * 9);
    /* norm weights near 1, matrices not all zero */
    const float *norm = gguf_find_tensor(f, "output_norm.weight")->data;
    for (int i = 0; i < 64; i++) CHECK(norm[i] > 0.7f && norm[i] < 1.3f);
    const gguf_tensor *q = gguf_find_tensor(f, "blk.1.attn_q.weight");
    float row[64];
    seer_dequantize_row(q->type, q->data, row, 64);
    double ss = 0;
    for (int i = 0; i < 64; i++) ss += row[i] * row[i];
    CHECK_MSG(sqrt(ss / 64) > 0.005 && sqrt(ss / 64) < 0.1, "weight rms %g", sqrt(ss / 64));

    /* vocabulary: 512 tokens, specials where the ids say */
    CHECK(gguf_get_arr_n(f, "tokenizer.ggml.tokens") == 512);
    const gguf_kv *toks = gguf_find_kv(f, "tokenizer.ggml.tokens");
    CHECK(strcmp(toks->arr_str[1], "<|im_start|>") == 0);
    CHECK(strcmp(toks->arr_str[gguf_get_int(f, "tokenizer.ggml.eos_token_id", 0)], "<end_of_utterance>") == 0);
    seer_vocab *v = seer_vocab_load(f, &err);
    CHECK_MSG(v != NULL, "vocab: %s", err.msg);
    if (v) {
        CHECK(seer_vocab_size(v) == 512);
        CHECK(seer_vocab_find(v, "<fake_token_around_image>") >= 0);
        CHECK(seer_vocab_find(v, "<row_6_col_6>") >= 0);
        int32_t ids[64];
        int64_t n = seer_tokenize(v, "<|im_start|>hello world", 23, false, true, ids, 64);
        CHECK_MSG(n >= 2 && ids[0] == 1, "tokenized into %lld ids, first %d", (long long)n, n > 0 ? ids[0] : -1);
        seer_vocab_free(v);
    }
    gguf_close(f);
}

static void test_mmproj_file(void) {
    seer_error err = {{0}};
    gguf_file *f = gguf_open(mmproj_path, &err);
    CHECK_MSG(f != NULL, "%s", err.msg);
    if (!f) return;
    seer_vision_hparams hp;
    CHECK_MSG(seer_vision_hparams_read(f, &hp, &err) == 0, "%s", err.msg);
    CHECK(hp.projector == SEER_PROJ_IDEFICS3 && hp.n_embd == 32 && hp.patch_size == 16 && hp.n_layer == 2);
    check_tensor(f, "v.patch_embd.weight", SEER_TYPE_F16, 16, 16);
    check_tensor(f, "v.position_embd.weight", SEER_TYPE_F32, 32, 16);
    check_tensor(f, "mm.model.fc.weight", SEER_TYPE_F16, 32 * 4, 64);
    check_tensor(f, "v.blk.1.ffn_up.weight", SEER_TYPE_F16, 32, 64);
    check_tensor(f, "v.post_ln.bias", SEER_TYPE_F32, 32, 1);
    gguf_close(f);
}

static void test_loads_and_runs(void) {
    seer_error err = {{0}};
    seer_llm *m = seer_llm_load(llm_path, NULL, NULL, &err);
    CHECK_MSG(m != NULL, "LLM load: %s", err.msg);
    seer_vision *vis = seer_vision_load(mmproj_path, &err);
    CHECK_MSG(vis != NULL, "mmproj load: %s", err.msg);
    if (m) {
        seer_pool *pool = seer_pool_create(1);
        /* the decode kernels' copy of its Q8_0 matrices: every matrix a token
         * reads but the norms, in the file's bytes (34 a block of 32 either way) */
        size_t copy_bytes = 0;
        const void *copy = seer_llm_weights_copy(m, &copy_bytes);
        const double per_token = seer_bench_llm_work_of(seer_llm_gguf(m)).bytes_per_token;
        CHECK_MSG(copy && copy_bytes > 0.9 * per_token && copy_bytes <= per_token, "copy %zu bytes, a token reads %.0f",
                  copy_bytes, per_token);
        CHECK(seer_bench_read_gb_s(pool, copy, copy_bytes, copy_bytes, 1) > 0);
        seer_ctx *ctx = seer_ctx_new(m, 64, SEER_KV_F16, pool, &err);
        CHECK_MSG(ctx != NULL, "%s", err.msg);
        if (ctx) {
            int32_t toks[3] = {1, 300, 42};
            seer_batch b = {.n = 3, .tokens = toks};
            CHECK_MSG(seer_ctx_decode(ctx, &b, NULL, &err) == 0, "%s", err.msg);
            const float *logits = seer_ctx_logits(ctx, 0);
            bool finite = logits != NULL;
            for (int i = 0; finite && i < 512; i++) finite = isfinite(logits[i]);
            CHECK(finite);
            seer_ctx_free(ctx);
        }
        seer_pool_destroy(pool);
        seer_llm_free(m);
    }
    seer_vision_free(vis);
}

/* The later families' tiny layouts: their own tensors are there, and the
 * engine loads both files and runs text and image rows through them. */
static void check_3d(const gguf_file *f, const char *name, int64_t ne0, int64_t ne1, int64_t ne2) {
    const gguf_tensor *t = gguf_find_tensor(f, name);
    CHECK_MSG(t && t->ne[0] == ne0 && t->ne[1] == ne1 && t->ne[2] == ne2, "%s: missing or misshapen", name);
}

static void run_pair(const char *llm_file, const char *mmproj_file, bool image_non_causal) {
    seer_error err = {{0}};
    seer_llm *m = seer_llm_load(llm_file, NULL, NULL, &err);
    CHECK_MSG(m != NULL, "LLM load %s: %s", llm_file, err.msg);
    seer_vision *vis = seer_vision_load(mmproj_file, &err);
    CHECK_MSG(vis != NULL, "mmproj load %s: %s", mmproj_file, err.msg);
    if (m && vis) {
        const seer_llm_info *in = seer_llm_get_info(m);
        CHECK_MSG(seer_vision_get_hparams(vis)->n_embd_out == in->n_embd_inp, "projector width %d, LLM input %d",
                  seer_vision_get_hparams(vis)->n_embd_out, in->n_embd_inp);
        seer_pool *pool = seer_pool_create(1);
        seer_ctx *ctx = seer_ctx_new(m, 64, SEER_KV_F16, pool, &err);
        CHECK_MSG(ctx != NULL, "%s", err.msg);
        float *rows = calloc(4 * (size_t)in->n_embd_inp, sizeof *rows);
        if (ctx && rows) {
            int32_t toks[3] = {1, 300, 42};
            seer_batch b = {.n = 3, .tokens = toks};
            CHECK_MSG(seer_ctx_decode(ctx, &b, NULL, &err) == 0, "%s", err.msg);
            for (int i = 0; i < 4 * in->n_embd_inp; i++) rows[i] = 0.01f * (float)(i % 17);
            seer_batch img = {.n = 4, .embd = rows, .non_causal = image_non_causal};
            CHECK_MSG(seer_ctx_decode(ctx, &img, NULL, &err) == 0, "%s", err.msg);
            const float *logits = seer_ctx_logits(ctx, 0);
            bool finite = logits != NULL;
            for (int i = 0; finite && i < in->n_vocab; i++) finite = isfinite(logits[i]);
            CHECK(finite);
        }
        free(rows);
        seer_ctx_free(ctx);
        seer_pool_destroy(pool);
    }
    seer_vision_free(vis);
    seer_llm_free(m);
}

/* Last-token logits of tokens decoded one at a time (the decode path) with
 * SEER_INTERLEAVE set to `interleave` while the model loads. */
static float *decode_logits(const char *llm_file, const char *interleave, int *n_vocab) {
    seer_error err = {{0}};
    setenv("SEER_INTERLEAVE", interleave, 1);
    seer_llm *m = seer_llm_load(llm_file, NULL, NULL, &err);
    unsetenv("SEER_INTERLEAVE");
    CHECK_MSG(m != NULL, "LLM load %s: %s", llm_file, err.msg);
    if (!m) return NULL;
    *n_vocab = seer_llm_get_info(m)->n_vocab;
    seer_pool *pool = seer_pool_create(2);
    seer_ctx *ctx = seer_ctx_new(m, 64, SEER_KV_F16, pool, &err);
    float *out = ctx ? malloc(sizeof(float) * (size_t)*n_vocab) : NULL;
    const int32_t toks[4] = {1, 300, 42, 7};
    for (int i = 0; out && i < 4; i++) {
        seer_batch b = {.n = 1, .tokens = &toks[i]};
        CHECK_MSG(seer_ctx_decode(ctx, &b, NULL, &err) == 0, "%s", err.msg);
    }
    const float *logits = ctx ? seer_ctx_logits(ctx, 0) : NULL;
    if (out && logits) memcpy(out, logits, sizeof(float) * (size_t)*n_vocab);
    seer_ctx_free(ctx);
    seer_pool_destroy(pool);
    seer_llm_free(m);
    return out;
}

/* The routed experts interleaved at load (the fused gate_up's gate and up
 * halves each expert's own groups) give what the file's layout gives. */
static void check_experts_interleaved(const char *llm_file) {
    int n_file = 0, n_ilv = 0;
    float *file = decode_logits(llm_file, "0", &n_file), *ilv = decode_logits(llm_file, "1", &n_ilv);
    CHECK(file && ilv && n_file == n_ilv);
    if (file && ilv && n_file == n_ilv) {
        double d = 0, r = 0;
        for (int i = 0; i < n_file; i++) d += (double)(file[i] - ilv[i]) * (file[i] - ilv[i]), r += (double)file[i] * file[i];
        CHECK_MSG(r > 0 && sqrt(d / r) < 1e-4, "interleaved experts: logits rel_l2 %g", sqrt(d / (r > 0 ? r : 1)));
    }
    free(file);
    free(ilv);
}

/* Writes the synthetic layout NAME into the test folder; llm and mmproj get its two paths. */
static void write_synth(const char *name, char llm[512], char mmproj[512]) {
    seer_error err = {{0}};
    CHECK_MSG(seer_bench_synth(name, test_tmpdir(), &err) == 0, "%s", err.msg);
    snprintf(llm, 512, "%s/%s-llm.gguf", test_tmpdir(), name);
    snprintf(mmproj, 512, "%s/%s-mmproj.gguf", test_tmpdir(), name);
}

/* Gemma 4's E and 26B shapes and PaddleOCR-VL at test size: the parts each
 * has, and both files load and run text and image rows. */
static void test_gemma4_paddleocr(void) {
    seer_error err = {{0}};
    char llm[512], mmproj[512];
    write_synth("tiny-gemma4e", llm, mmproj);
    gguf_file *f = gguf_open(llm, &err);
    if (f) { /* layers 3 and 7 full (heads of 32), 4-7 on earlier caches, 32-wide per-layer inputs */
        check_tensor(f, "blk.0.attn_q.weight", SEER_TYPE_Q8_0, 64, 4 * 16);
        check_tensor(f, "blk.3.attn_q.weight", SEER_TYPE_Q8_0, 64, 4 * 32);
        check_tensor(f, "blk.3.attn_v.weight", SEER_TYPE_Q8_0, 64, 32);
        check_tensor(f, "blk.3.attn_k_norm.weight", SEER_TYPE_F32, 32, 1);
        CHECK(gguf_find_tensor(f, "blk.3.attn_k.weight") && !gguf_find_tensor(f, "blk.4.attn_k.weight") &&
              !gguf_find_tensor(f, "blk.7.attn_v.weight"));
        check_tensor(f, "per_layer_token_embd.weight", SEER_TYPE_Q8_0, 32 * 8, 600);
        check_tensor(f, "per_layer_model_proj.weight", SEER_TYPE_F16, 64, 32 * 8);
        check_tensor(f, "blk.6.proj.weight", SEER_TYPE_Q8_0, 32, 64);
        check_tensor(f, "rope_freqs.weight", SEER_TYPE_F32, 16, 1);
        CHECK(!gguf_find_tensor(f, "output.weight"));
        CHECK(gguf_get_arr_n(f, "gemma4.attention.sliding_window_pattern") == 8 &&
              gguf_get_int(f, "gemma4.attention.shared_kv_layers", 0) == 4 &&
              gguf_get_int(f, "gemma4.attention.key_length_swa", 0) == 16);
        /* a token reads one row of the per-layer table, not all of it */
        const gguf_tensor *ple = gguf_find_tensor(f, "per_layer_token_embd.weight");
        CHECK(ple && seer_bench_llm_work_of(f).bytes_per_token < seer_bench_tensor_bytes(f) - ple->nbytes / 2);
        gguf_close(f);
    }
    f = gguf_open(mmproj, &err);
    if (f) {
        check_3d(f, "v.position_embd.weight", 32, 64, 2);
        check_tensor(f, "v.blk.1.attn_k_norm.weight", SEER_TYPE_F32, 16, 1);
        check_tensor(f, "mm.input_projection.weight", SEER_TYPE_F16, 32, 64);
        CHECK(!gguf_find_tensor(f, "v.blk.0.attn_q.bias") && !gguf_find_tensor(f, "v.patch_embd.bias") &&
              !gguf_find_tensor(f, "v.std_bias"));
        gguf_close(f);
    }
    run_pair(llm, mmproj, false);

    write_synth("tiny-gemma4moe", llm, mmproj);
    f = gguf_open(llm, &err);
    if (f) { /* full layers 2 and 5 without attn_v; a dense MLP beside 8 fused gate_up experts */
        CHECK(gguf_find_tensor(f, "blk.1.attn_v.weight") && !gguf_find_tensor(f, "blk.2.attn_v.weight"));
        check_tensor(f, "blk.2.attn_k.weight", SEER_TYPE_Q8_0, 64, 32);
        check_tensor(f, "blk.0.ffn_gate.weight", SEER_TYPE_Q8_0, 64, 96);
        check_3d(f, "blk.4.ffn_gate_up_exps.weight", 64, 64, 8);
        check_3d(f, "blk.4.ffn_down_exps.weight", 32, 64, 8);
        check_tensor(f, "blk.4.ffn_down_exps.scale", SEER_TYPE_F32, 8, 1);
        check_tensor(f, "blk.4.ffn_gate_inp.scale", SEER_TYPE_F32, 64, 1);
        check_tensor(f, "blk.4.pre_ffw_norm_2.weight", SEER_TYPE_F32, 64, 1);
        CHECK(!gguf_find_tensor(f, "per_layer_token_embd.weight"));
        gguf_close(f);
    }
    check_experts_interleaved(llm);
    f = gguf_open(mmproj, &err);
    if (f) {
        check_tensor(f, "v.std_scale", SEER_TYPE_F32, 32, 1);
        gguf_close(f);
    }
    run_pair(llm, mmproj, true);

    write_synth("tiny-paddleocr", llm, mmproj);
    f = gguf_open(llm, &err);
    if (f) {
        check_tensor(f, "blk.1.attn_q.weight", SEER_TYPE_Q8_0, 64, 4 * 16);
        CHECK(gguf_get_arr_n(f, "paddleocr.rope.dimension_sections") == 4 && !gguf_find_tensor(f, "output.weight"));
        gguf_close(f);
    }
    f = gguf_open(mmproj, &err);
    if (f) { /* the 4x4 table, LayerNorm over the tower's width, then the unshuffled MLP */
        check_tensor(f, "v.position_embd.weight", SEER_TYPE_F32, 32, 16);
        check_tensor(f, "mm.input_norm.bias", SEER_TYPE_F32, 32, 1);
        check_tensor(f, "mm.1.weight", SEER_TYPE_F16, 4 * 32, 128);
        check_tensor(f, "mm.2.weight", SEER_TYPE_F16, 128, 64);
        CHECK(gguf_get_int(f, "clip.vision.image_max_pixels", 0) == 64 * 28 * 28);
        gguf_close(f);
    }
    run_pair(llm, mmproj, false);
}

static void test_later_families(void) {
    seer_error err = {{0}};
    char llm[512], mmproj[512];
    write_synth("tiny-qwen3vlmoe", llm, mmproj);
    gguf_file *f = gguf_open(llm, &err);
    if (f) {
        check_3d(f, "blk.1.ffn_gate_exps.weight", 64, 32, 8);
        check_3d(f, "blk.1.ffn_down_exps.weight", 32, 64, 8);
        check_tensor(f, "blk.0.ffn_gate_inp.weight", SEER_TYPE_F32, 64, 8);
        check_tensor(f, "blk.0.attn_q_norm.weight", SEER_TYPE_F32, 16, 1);
        CHECK(gguf_get_int(f, "qwen3vlmoe.n_deepstack_layers", 0) == 1);
        /* a token reads the experts it uses, not all of them */
        double experts = 0, rest = 0;
        for (uint64_t i = 0; i < f->n_tensors; i++) {
            const gguf_tensor *t = &f->tensors[i];
            if (strstr(t->name, "_exps.")) experts += (double)t->nbytes;
            else if (strcmp(t->name, "token_embd.weight") != 0 || !gguf_find_tensor(f, "output.weight")) rest += (double)t->nbytes;
            else rest += (double)t->nbytes / (double)t->ne[1];
        }
        const double used = (double)gguf_get_int(f, "qwen3vlmoe.expert_used_count", 0) /
                            (double)gguf_get_int(f, "qwen3vlmoe.expert_count", 1);
        CHECK(experts > 0 && used > 0 && used < 1);
        CHECK_NEAR(seer_bench_llm_work_of(f).bytes_per_token, rest + used * experts, 1e-6 * rest);
        gguf_close(f);
    }
    f = gguf_open(mmproj, &err);
    if (f) {
        check_tensor(f, "v.blk.0.attn_qkv.weight", SEER_TYPE_F16, 32, 96);
        check_tensor(f, "v.deepstack.0.fc2.weight", SEER_TYPE_F16, 128, 64);
        check_tensor(f, "v.position_embd.weight", SEER_TYPE_F32, 32, 4);
        gguf_close(f);
    }
    run_pair(llm, mmproj, false);

    write_synth("tiny-gemma3", llm, mmproj);
    f = gguf_open(llm, &err);
    if (f) {
        check_tensor(f, "blk.5.post_ffw_norm.weight", SEER_TYPE_F32, 64, 1);
        check_tensor(f, "blk.0.attn_q.weight", SEER_TYPE_Q8_0, 64, 128); /* 4 heads of 32 */
        CHECK(gguf_get_int(f, "gemma3.attention.sliding_window", 0) == 8);
        gguf_close(f);
    }
    f = gguf_open(mmproj, &err);
    if (f) {
        check_tensor(f, "mm.input_projection.weight", SEER_TYPE_F16, 64, 32);
        check_tensor(f, "v.position_embd.weight", SEER_TYPE_F32, 32, 64);
        gguf_close(f);
    }
    run_pair(llm, mmproj, true);
    /* what a decode step reads of the cache (seer bench's decode figure):
     * 2 KV heads of 32 on 6 layers, layers 0-4 sliding over 8 rows */
    seer_llm *lm = seer_llm_load(llm, NULL, NULL, &err);
    CHECK_MSG(lm != NULL, "%s", err.msg);
    if (lm) {
        CHECK_NEAR(seer_llm_kv_read_bytes(lm, 4, SEER_KV_F16), 6 * 4 * 64 * 2 * 2, 1e-9);
        CHECK_NEAR(seer_llm_kv_read_bytes(lm, 100, SEER_KV_F16), (5 * 8 + 100) * 64 * 2 * 2, 1e-9);
        CHECK_NEAR(seer_llm_kv_read_bytes(lm, 100, SEER_KV_F32), (5 * 8 + 100) * 64 * 2 * 4, 1e-9);
        seer_llm_free(lm);
    }

    write_synth("tiny-lfm2", llm, mmproj);
    f = gguf_open(llm, &err);
    if (f) { /* layers c c a c: conv kernels and in_proj on 0, 1, 3; attention with q/k norm on 2 */
        check_tensor(f, "blk.0.shortconv.conv.weight", SEER_TYPE_F32, 3, 64);
        check_tensor(f, "blk.1.shortconv.in_proj.weight", SEER_TYPE_Q8_0, 64, 192);
        check_tensor(f, "blk.3.shortconv.out_proj.weight", SEER_TYPE_Q8_0, 64, 64);
        check_tensor(f, "blk.2.attn_k_norm.weight", SEER_TYPE_F32, 16, 1);
        check_tensor(f, "token_embd_norm.weight", SEER_TYPE_F32, 64, 1);
        CHECK(!gguf_find_tensor(f, "blk.0.attn_q.weight") && !gguf_find_tensor(f, "output_norm.weight"));
        CHECK(gguf_get_arr_n(f, "lfm2.attention.head_count_kv") == 4 &&
              gguf_get_arr_int(f, "lfm2.attention.head_count_kv", 2, -1) == 2 &&
              gguf_get_arr_int(f, "lfm2.attention.head_count_kv", 3, -1) == 0);
        gguf_close(f);
    }
    f = gguf_open(mmproj, &err);
    if (f) {
        check_tensor(f, "mm.1.weight", SEER_TYPE_F16, 128, 96); /* 2×2-unshuffled 32-wide patches */
        check_tensor(f, "v.position_embd.weight", SEER_TYPE_F32, 32, 16);
        gguf_close(f);
    }
    run_pair(llm, mmproj, false);
    lm = seer_llm_load(llm, NULL, NULL, &err);
    CHECK_MSG(lm && seer_llm_get_info(lm)->n_layer_kv == 1, "%s", err.msg);
    if (lm) { /* the one attention layer's rows; the convolutions read none */
        const double rows10 = seer_kv_cache_bytes(seer_llm_get_info(lm), 10, SEER_KV_F16);
        CHECK(rows10 > 0 && seer_llm_kv_read_bytes(lm, 10, SEER_KV_F16) == rows10);
    }
    seer_llm_free(lm);

    write_synth("tiny-pixtral", llm, mmproj);
    f = gguf_open(llm, &err);
    if (f) {
        check_tensor(f, "blk.1.attn_q.weight", SEER_TYPE_Q8_0, 64, 128); /* 4 heads of 32 */
        CHECK(gguf_get_int(f, "llama.attention.key_length", 0) == 32);
        gguf_close(f);
    }
    f = gguf_open(mmproj, &err);
    if (f) {
        check_tensor(f, "v.blk.1.ffn_gate.weight", SEER_TYPE_F16, 32, 64);
        check_tensor(f, "v.token_embd.img_break", SEER_TYPE_F32, 64, 1);
        CHECK(!gguf_find_tensor(f, "v.blk.0.attn_q.bias") && !gguf_find_tensor(f, "v.post_ln.weight"));
        gguf_close(f);
    }
    run_pair(llm, mmproj, false);

    write_synth("tiny-glm4v", llm, mmproj);
    f = gguf_open(llm, &err);
    if (f) { /* fused [gate | up], sandwich norms, QKV biases, half the head rotated */
        check_tensor(f, "blk.1.ffn_up.weight", SEER_TYPE_Q8_0, 64, 256);
        check_tensor(f, "blk.1.post_ffw_norm.weight", SEER_TYPE_F32, 64, 1);
        check_tensor(f, "blk.0.attn_k.bias", SEER_TYPE_F32, 32, 1);
        CHECK(!gguf_find_tensor(f, "blk.0.ffn_gate.weight") && gguf_get_int(f, "glm4.rope.dimension_count", 0) == 8);
        gguf_close(f);
    }
    f = gguf_open(mmproj, &err);
    if (f) {
        check_tensor(f, "mm.gate.weight", SEER_TYPE_F16, 64, 96);
        check_tensor(f, "v.norm_embd.weight", SEER_TYPE_F32, 32, 1);
        const gguf_tensor *k = gguf_find_tensor(f, "mm.patch_merger.weight");
        CHECK(k && k->ne[0] == 2 && k->ne[1] == 2 && k->ne[2] == 32 && k->ne[3] == 64);
        gguf_close(f);
    }
    run_pair(llm, mmproj, false);

    write_synth("tiny-qwen35moe", llm, mmproj);
    f = gguf_open(llm, &err);
    if (f) { /* DeltaNet on 0-2 (2 key / 4 value heads of 16), gated attention on 3 */
        check_tensor(f, "blk.0.attn_qkv.weight", SEER_TYPE_Q8_0, 64, 2 * 2 * 16 + 4 * 16);
        check_tensor(f, "blk.2.ssm_conv1d.weight", SEER_TYPE_F32, 4, 2 * 2 * 16 + 4 * 16);
        check_tensor(f, "blk.1.ssm_out.weight", SEER_TYPE_Q8_0, 64, 64);
        check_tensor(f, "blk.3.attn_q.weight", SEER_TYPE_Q8_0, 64, 2 * 4 * 16); /* queries and their gates */
        check_tensor(f, "blk.0.post_attention_norm.weight", SEER_TYPE_F32, 64, 1);
        check_tensor(f, "blk.2.ffn_down_shexp.weight", SEER_TYPE_Q8_0, 32, 64);
        CHECK(!gguf_find_tensor(f, "blk.0.attn_q.weight") && !gguf_find_tensor(f, "blk.3.ssm_a"));
        CHECK(gguf_get_int(f, "qwen35moe.ssm.time_step_rank", 0) == 4 &&
              gguf_get_int(f, "qwen35moe.rope.dimension_count", 0) == 4);
        gguf_close(f);
    }
    run_pair(llm, mmproj, false);
    lm = seer_llm_load(llm, NULL, NULL, &err);
    CHECK_MSG(lm && seer_llm_get_info(lm)->n_layer_kv == 1 && seer_llm_get_info(lm)->state_bytes > 0, "%s", err.msg);
    seer_llm_free(lm);
    test_gemma4_paddleocr();
}

int main(void) {
    seer_error err = {{0}};
    CHECK(seer_bench_synth("no-such-model", test_tmpdir(), &err) == -1 && strstr(err.msg, "unknown synthetic"));
    /* NAME-q5_k_m / NAME-q8_0 name the other files of a Q4_K_M layout only */
    CHECK(seer_bench_synth("tiny-q5_k_m", test_tmpdir(), &err) == -1 && strstr(err.msg, "unknown synthetic"));
    CHECK(seer_bench_synth("-q5_k_m", test_tmpdir(), &err) == -1 && strstr(err.msg, "unknown synthetic"));
    CHECK(seer_bench_synth("qwen25vl-3-q5_k_m", test_tmpdir(), &err) == -1 && strstr(err.msg, "unknown synthetic"));
    CHECK(seer_bench_synth("tiny-q8_0", test_tmpdir(), &err) == -1 && strstr(err.msg, "unknown synthetic"));
    CHECK(seer_bench_synth("-q8_0", test_tmpdir(), &err) == -1 && strstr(err.msg, "unknown synthetic"));
    if (seer_bench_synth("tiny", test_tmpdir(), &err) != 0) {
        fprintf(stderr, "synth failed: %s\n", err.msg);
        return 1;
    }
    snprintf(llm_path, sizeof llm_path, "%s/tiny-llm.gguf", test_tmpdir());
    snprintf(mmproj_path, sizeof mmproj_path, "%s/tiny-mmproj.gguf", test_tmpdir());
    test_llm_file();
    test_mmproj_file();
    test_loads_and_runs();
    test_later_families();
    TEST_MAIN_END();
}
