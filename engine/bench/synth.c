/* Synthetic models for benchmarks: the exact tensor names, shapes, types and
 * metadata keys of real llama.cpp files of each family (LLM + mmproj), at
 * their real sizes, with random weights (fixed seed) and a synthetic
 * vocabulary of the real size. */
#include "bench/synth_internal.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "seer/safe_write.h"
#include "seer/tensor.h"


typedef struct vit_spec {
    seer_projector projector;
    const char *projector_name, *name;
    int image_size, patch, n_embd, n_ff, n_layer, n_head, n_out, proj_dim;
    float eps, mean[3], std[3];
    int scale_factor, preproc_size, n_wa_pattern;
    bool use_gelu, use_silu;
    int pos_grid;            /* Qwen3-VL, PaddleOCR-VL: side of the learned position grid (resized);
                              * Gemma 4: rows of its x and of its y table */
    int deepstack[4];        /* Qwen3-VL: blocks whose output feeds a DeepStack merger */
    int n_deepstack;
    int minicpmv_version, n_queries; /* MiniCPM-V's resampler */
    int mm_hidden;           /* LFM2, Pixtral, GLM-4V, PaddleOCR-VL: width between the projector's mm.1 and mm.2
                              * (GLM: mm.gate/up) */
    int min_pixels, max_pixels; /* PaddleOCR-VL: the resize's pixel budget */
    bool standardize;        /* Gemma 4's v.std_bias / v.std_scale (26B, 31B) */
} vit_spec;

typedef struct model_spec {
    const char *name;
    llm_spec llm;
    vit_spec vit;
} model_spec;

#define CLIP_MEAN {0.48145466f, 0.4578275f, 0.40821073f}
#define CLIP_STD {0.26862954f, 0.26130258f, 0.27577711f}

/* Each row names the later families' fields only where a family has them;
 * the others are zero. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
static const model_spec MODELS[] = {
    {"tiny",
     {"llama", "seer tiny synthetic", 2, 64, 4, 2, 128, 512, 2048, 10000.0f, 1e-5f, {0}, false, false, QUANT_Q8_0,
      VOCAB_SMOLLM},
     {SEER_PROJ_IDEFICS3, "idefics3", "seer tiny synthetic vision", 64, 16, 32, 64, 2, 2, 64, 64, 1e-6f,
      {0.5f, 0.5f, 0.5f}, {0.5f, 0.5f, 0.5f}, 2, 128, 0, true, false}},
    /* The later families' structure at test size: MoE + DeepStack + IMROPE,
     * and Gemma 3's local/global layers + pooled SigLIP */
    {"tiny-qwen3vlmoe",
     {"qwen3vlmoe", "seer tiny Qwen3-VL MoE synthetic", 2, 64, 4, 2, 128, 512, 2048, 5000000.0f, 1e-6f, {4, 2, 2, 0},
      false, false, QUANT_Q8_0, VOCAB_QWEN2, .head_dim = 16, .qk_norm = true, .n_expert = 8, .n_expert_used = 2,
      .n_ff_exp = 32, .n_deepstack = 1},
     {SEER_PROJ_QWEN3VL, "qwen3vl_merger", "seer tiny Qwen3-VL vision synthetic", 64, 16, 32, 64, 2, 2, 64, 64, 1e-6f,
      {0.5f, 0.5f, 0.5f}, {0.5f, 0.5f, 0.5f}, 2, 0, 0, true, false, .pos_grid = 2, .deepstack = {0},
      .n_deepstack = 1}},
    {"tiny-gemma3",
     {"gemma3", "seer tiny Gemma 3 synthetic", 6, 64, 4, 2, 128, 600, 2048, 1000000.0f, 1e-6f, {0}, false, true,
      QUANT_Q8_0, VOCAB_GEMMA, .head_dim = 32, .qk_norm = true, .sliding_window = 8, .rope_scale = 8.0f},
     {SEER_PROJ_GEMMA3, "gemma3", "seer tiny Gemma 3 vision synthetic", 112, 14, 32, 64, 2, 2, 64, 64, 1e-6f,
      {0.5f, 0.5f, 0.5f}, {0.5f, 0.5f, 0.5f}, 0, 0, 0, true, false}},
    /* Qwen3.5's Gated DeltaNet (layers 0-2) and gated attention (layer 3),
     * the MoE FFN with its gated shared expert, a merger without DeepStack */
    {"tiny-qwen35moe",
     {"qwen35moe", "seer tiny Qwen3.5 MoE synthetic", 4, 64, 4, 2, 128, 512, 2048, 10000000.0f, 1e-6f,
      {1, 1, 0, 0}, false, false, QUANT_Q8_0, VOCAB_QWEN35, .head_dim = 16, .n_rot = 4, .qk_norm = true,
      .n_expert = 8, .n_expert_used = 2, .n_ff_exp = 32, .gdn_k = 2, .gdn_v = 4, .gdn_d = 16, .n_ff_shexp = 32},
     {SEER_PROJ_QWEN3VL, "qwen3vl_merger", "seer tiny Qwen3.5 vision synthetic", 64, 16, 32, 64, 2, 2, 64, 64, 1e-6f,
      {0.5f, 0.5f, 0.5f}, {0.5f, 0.5f, 0.5f}, 2, 0, 0, true, false, .pos_grid = 2}},
    /* LFM2-VL's short-convolution layers and lfm2 projector, Pixtral's
     * bias-free RMSNorm ViT with [IMG_BREAK] and wider heads than n_embd / n_head */
    {"tiny-lfm2",
     {"lfm2", "seer tiny LFM2-VL synthetic", 4, 64, 4, 2, 128, 600, 2048, 1000000.0f, 1e-5f, {0}, false, true,
      QUANT_Q8_0, VOCAB_LFM2, .qk_norm = true, .layer_kinds = "ccac"},
     {SEER_PROJ_LFM2, "lfm2", "seer tiny LFM2-VL vision synthetic", 64, 16, 32, 64, 2, 2, 64, 64, 1e-6f,
      {0.5f, 0.5f, 0.5f}, {0.5f, 0.5f, 0.5f}, 2, 0, 0, true, false, .mm_hidden = 96}},
    {"tiny-pixtral",
     {"llama", "seer tiny Pixtral synthetic", 2, 64, 4, 2, 128, 600, 2048, 1000000000.0f, 1e-5f, {0}, false, false,
      QUANT_Q8_0, VOCAB_TEKKEN, .head_dim = 32},
     {SEER_PROJ_PIXTRAL, "pixtral", "seer tiny Pixtral vision synthetic", 64, 16, 32, 64, 2, 2, 64, 64, 1e-5f,
      CLIP_MEAN, CLIP_STD, 0, 0, 0, false, true, .mm_hidden = 96}},
    /* Qwen2.5-VL's tower (windowed attention, gated FFN, the merger) at test
     * size: the family whose tower takes several images a pass */
    {"tiny-qwen25vl",
     {"qwen2vl", "seer tiny Qwen2.5-VL synthetic", 2, 256, 4, 2, 512, 512, 4096, 1000000.0f, 1e-6f, {8, 12, 12, 0},
      true, true, QUANT_Q8_0, VOCAB_QWEN2},
     {SEER_PROJ_QWEN25VL, "qwen2.5vl_merger", "seer tiny Qwen2.5-VL vision synthetic", 112, 14, 32, 64, 2, 2, 256, 256,
      1e-6f, CLIP_MEAN, CLIP_STD, 0, 0, 2, false, true}},
    /* seer serve's vision-batching measurement: a ViT-B-sized Qwen2.5-VL
     * tower (12 blocks, 768 wide) before a small LLM, so that a chat's time
     * is mostly its image's encode */
    {"serve-qwen25vl",
     {"qwen2vl", "seer serve measurement Qwen2.5-VL synthetic", 2, 256, 4, 2, 768, 512, 4096, 1000000.0f, 1e-6f,
      {8, 12, 12, 0}, true, true, QUANT_Q8_0, VOCAB_QWEN2},
     {SEER_PROJ_QWEN25VL, "qwen2.5vl_merger", "seer serve measurement Qwen2.5-VL vision synthetic", 560, 14, 768,
      2048, 12, 12, 256, 256, 1e-6f, CLIP_MEAN, CLIP_STD, 0, 0, 4, false, true}},
    /* SmolVLM-256M-Instruct: SmolLM2-135M-sized LLM at Q8_0 + SigLIP-B/16-512 */
    {"smolvlm-256m",
     {"llama", "SmolVLM 256M Instruct (synthetic)", 30, 576, 9, 3, 1536, 49280, 8192, 100000.0f, 1e-5f, {0}, false,
      false, QUANT_Q8_0, VOCAB_SMOLLM},
     {SEER_PROJ_IDEFICS3, "idefics3", "SmolVLM 256M Instruct vision (synthetic)", 512, 16, 768, 3072, 12, 12, 576,
      576, 1e-6f, {0.5f, 0.5f, 0.5f}, {0.5f, 0.5f, 0.5f}, 4, 2048, 0, true, false}},
    /* Qwen2.5-VL-3B-Instruct: Q4_K_M LLM (tied embeddings) + 32-block 1280-wide ViT */
    {"qwen25vl-3b",
     {"qwen2vl", "Qwen2.5-VL 3B Instruct (synthetic)", 36, 2048, 16, 2, 11008, 151936, 128000, 1000000.0f, 1e-6f,
      {16, 24, 24, 0}, true, true, QUANT_Q4_K_M, VOCAB_QWEN2},
     {SEER_PROJ_QWEN25VL, "qwen2.5vl_merger", "Qwen2.5-VL 3B Instruct vision (synthetic)", 560, 14, 1280, 3420, 32,
      16, 2048, 2048, 1e-6f, CLIP_MEAN, CLIP_STD, 0, 0, 8, false, true}},
    /* LLaVA-1.5-7B: LLaMA-7B at Q4_K_M + CLIP ViT-L/14-336 (23 blocks used) */
    {"llava15-7b",
     {"llama", "LLaVA 1.5 7B (synthetic)", 32, 4096, 32, 32, 11008, 32000, 4096, 10000.0f, 1e-5f, {0}, false, false,
      QUANT_Q4_K_M, VOCAB_SPM},
     {SEER_PROJ_MLP, "mlp", "LLaVA 1.5 7B vision (synthetic)", 336, 14, 1024, 4096, 23, 16, 4096, 768, 1e-5f,
      CLIP_MEAN, CLIP_STD, 0, 0, 0, false, false}},
    /* Qwen3-VL-4B-Instruct: Qwen3 LLM at Q4_K_M (tied, q/k norm, interleaved
     * M-RoPE, 3 DeepStack slices) + 24-block 1024-wide ViT, 16 px patches */
    {"qwen3vl-4b",
     {"qwen3vl", "Qwen3-VL 4B Instruct (synthetic)", 36, 2560, 32, 8, 9728, 151936, 262144, 5000000.0f, 1e-6f,
      {24, 20, 20, 0}, false, true, QUANT_Q4_K_M, VOCAB_QWEN2, .head_dim = 128, .qk_norm = true, .n_deepstack = 3},
     {SEER_PROJ_QWEN3VL, "qwen3vl_merger", "Qwen3-VL 4B Instruct vision (synthetic)", 768, 16, 1024, 4096, 24, 16,
      2560, 2560, 1e-6f, {0.5f, 0.5f, 0.5f}, {0.5f, 0.5f, 0.5f}, 2, 0, 0, true, false, .pos_grid = 48,
      .deepstack = {5, 11, 17}, .n_deepstack = 3}},
    /* Qwen3-VL-30B-A3B-Instruct: 48 MoE layers of 128 experts (8 active, 768
     * wide) at Q4_K_M + 27-block 1152-wide ViT */
    {"qwen3vl-30b-a3b",
     {"qwen3vlmoe", "Qwen3-VL 30B A3B Instruct (synthetic)", 48, 2048, 32, 4, 6144, 151936, 262144, 5000000.0f,
      1e-6f, {24, 20, 20, 0}, false, false, QUANT_Q4_K_M, VOCAB_QWEN2, .head_dim = 128, .qk_norm = true,
      .n_expert = 128, .n_expert_used = 8, .n_ff_exp = 768, .n_deepstack = 3},
     {SEER_PROJ_QWEN3VL, "qwen3vl_merger", "Qwen3-VL 30B A3B Instruct vision (synthetic)", 768, 16, 1152, 4304, 27,
      16, 2048, 2048, 1e-6f, {0.5f, 0.5f, 0.5f}, {0.5f, 0.5f, 0.5f}, 2, 0, 0, true, false, .pos_grid = 48,
      .deepstack = {8, 16, 24}, .n_deepstack = 3}},
    /* Gemma 3 4B IT: 34 layers (5 of 6 with a 1024-token window), 256-wide
     * heads, Q4_K_M (tied) + SigLIP so400m at 896 px pooled to 256 tokens */
    {"gemma3-4b",
     {"gemma3", "Gemma 3 4B IT (synthetic)", 34, 2560, 8, 4, 10240, 262208, 131072, 1000000.0f, 1e-6f, {0}, false,
      true, QUANT_Q4_K_M, VOCAB_GEMMA, .head_dim = 256, .qk_norm = true, .sliding_window = 1024,
      .rope_scale = 8.0f},
     {SEER_PROJ_GEMMA3, "gemma3", "Gemma 3 4B IT vision (synthetic)", 896, 14, 1152, 4304, 27, 16, 2560, 2560,
      1e-6f, {0.5f, 0.5f, 0.5f}, {0.5f, 0.5f, 0.5f}, 0, 0, 0, true, false}},
    /* InternVL3-2B-Instruct: Qwen2.5-1.5B-sized LLM (q/k/v biases) at Q8_0 +
     * InternViT-300M (class token, layer scales) at 448 px, pixel unshuffle 2 */
    {"internvl3-2b",
     {"qwen2", "InternVL3 2B Instruct (synthetic)", 28, 1536, 12, 2, 8960, 151674, 32768, 1000000.0f, 1e-6f, {0},
      true, false, QUANT_Q8_0, VOCAB_QWEN2},
     {SEER_PROJ_INTERNVL, "internvl", "InternVL3 2B Instruct vision (synthetic)", 448, 14, 1024, 4096, 24, 16, 1536,
      1536, 1e-6f, {0.485f, 0.456f, 0.406f}, {0.229f, 0.224f, 0.225f}, 2, 0, 0, true, false}},
    /* MiniCPM-V 4.5: Qwen3-8B at Q4_K_M (untied, q/k norm) + SigLIP-400M (27 blocks, 1152 wide) through the
     * legacy converter (swapped FFN names, 70x70 bucketed positions) and the resampler's 64 queries into 4096 */
    {"minicpmv-4.5-8b",
     {"qwen3", "MiniCPM-V 4.5 (synthetic)", 36, 4096, 32, 8, 12288, 151748, 40960, 1000000.0f, 1e-6f, {0}, false,
      false, QUANT_Q4_K_M, VOCAB_MINICPMV, .head_dim = 128, .qk_norm = true},
     {SEER_PROJ_RESAMPLER, "resampler", "MiniCPM-V 4.5 vision (synthetic)", 448, 14, 1152, 4304, 27, 16, 4096, 0,
      1e-6f, {0.5f, 0.5f, 0.5f}, {0.5f, 0.5f, 0.5f}, 0, 0, 0, true, false, .minicpmv_version = 6, .n_queries = 64}},
    /* LFM2-VL-1.6B: LFM2-1.2B (10 short-convolution and 6 attention layers,
     * q/k norm, tied) at Q8_0 + SigLIP2 NaFlex shape-optimized (400M, the
     * last of its 27 blocks dropped), pixel unshuffle 2, LayerNorm + MLP */
    {"lfm2-vl-1.6b",
     {"lfm2", "LFM2-VL 1.6B (synthetic)", 16, 2048, 32, 8, 8192, 65536, 128000, 1000000.0f, 1e-5f, {0}, false, true,
      QUANT_Q8_0, VOCAB_LFM2, .qk_norm = true, .layer_kinds = "ccaccaccacacacac"},
     {SEER_PROJ_LFM2, "lfm2", "LFM2-VL 1.6B vision (synthetic)", 256, 16, 1152, 4304, 26, 16, 2048, 2048, 1e-6f,
      {0.5f, 0.5f, 0.5f}, {0.5f, 0.5f, 0.5f}, 2, 0, 0, true, false, .mm_hidden = 2560}},
    /* Pixtral 12B: Mistral NeMo 12B (llama, 128-wide heads, rope base 1e9)
     * at Q4_K_M + the Pixtral ViT (1024 wide, 24 RMSNorm blocks, SiLU-gated
     * FFN, 2-D RoPE) up to 1024 px, mm.1 -> GELU -> mm.2, [IMG_BREAK] rows */
    {"pixtral-12b",
     {"llama", "Pixtral 12B (synthetic)", 40, 5120, 32, 8, 14336, 131072, 1024000, 1000000000.0f, 1e-5f, {0}, false,
      false, QUANT_Q4_K_M, VOCAB_TEKKEN, .head_dim = 128},
     {SEER_PROJ_PIXTRAL, "pixtral", "Pixtral 12B vision (synthetic)", 1024, 16, 1024, 4096, 24, 16, 5120, 5120, 1e-5f,
      CLIP_MEAN, CLIP_STD, 0, 0, 0, false, true, .mm_hidden = 5120}},
    /* GLM-4.6V-Flash (GLM-4.1V-9B-Thinking's layout): GLM-4 9B (40 layers, 2 KV
     * heads, QKV biases, sandwich norms, fused gate/up, M-RoPE on half of each
     * 128-wide head) at Q4_K_M + the 24-block 1536-wide ViT (RMSNorm,
     * SwiGLU 4096, 24×24 learned positions resized bicubically), 2×2 conv
     * merger to 4096, SwiGLU 13696 */
    {"glm4v-9b",
     {"glm4", "GLM-4.6V-Flash (synthetic)", 40, 4096, 32, 2, 13696, 151552, 131072, 10000.0f, 1e-5f, {8, 12, 12, 0},
      true, false, QUANT_Q4_K_M, VOCAB_GLM, .n_rot = 64, .glm4 = true},
     {SEER_PROJ_GLM4V, "glm4v", "GLM-4.6V-Flash vision (synthetic)", 336, 14, 1536, 4096, 24, 12, 4096, 4096, 1e-5f,
      CLIP_MEAN, CLIP_STD, 2, 0, 0, false, true, .pos_grid = 24, .mm_hidden = 13696}},
    {"tiny-glm4v",
     {"glm4", "seer tiny GLM-4V synthetic", 2, 64, 4, 2, 128, 600, 2048, 10000.0f, 1e-5f, {2, 1, 1, 0}, true, false,
      QUANT_Q8_0, VOCAB_GLM, .n_rot = 8, .glm4 = true},
     {SEER_PROJ_GLM4V, "glm4v", "seer tiny GLM-4V vision synthetic", 56, 14, 32, 64, 2, 2, 64, 64, 1e-5f, CLIP_MEAN,
      CLIP_STD, 2, 0, 0, false, true, .pos_grid = 4, .mm_hidden = 96}},
    /* Gemma 4's E shape (per-layer embeddings, the last 4 layers reading the
     * caches of layers 2 and 3, every 4th layer full with wider heads) and
     * its 26B shape (K as V on full layers, a dense MLP beside 8 experts) */
    {"tiny-gemma4e",
     {"gemma4", "seer tiny Gemma 4 E synthetic", 8, 64, 4, 1, 128, 600, 2048, 1000000.0f, 1e-6f, {0}, false, true,
      QUANT_Q8_0, VOCAB_GEMMA4, .head_dim = 16, .qk_norm = true, .sliding_window = 8, .gemma4 = true, .swa_period = 4,
      .head_dim_full = 32, .n_head_kv_full = 1, .ple_dim = 32, .n_shared_kv = 4, .rope_base_swa = 10000.0f,
      .softcap = 30.0f},
     {SEER_PROJ_GEMMA4V, "gemma4v", "seer tiny Gemma 4 vision synthetic", 224, 16, 32, 64, 2, 2, 64, 64, 1e-6f,
      {0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, 3, 0, 0, false, false, .pos_grid = 64}},
    {"tiny-gemma4moe",
     {"gemma4", "seer tiny Gemma 4 MoE synthetic", 6, 64, 4, 2, 96, 600, 2048, 1000000.0f, 1e-6f, {0}, false, true,
      QUANT_Q8_0, VOCAB_GEMMA4, .head_dim = 16, .qk_norm = true, .n_expert = 8, .n_expert_used = 2, .n_ff_exp = 32,
      .sliding_window = 8, .gemma4 = true, .k_eq_v = true, .swa_period = 3, .head_dim_full = 32, .n_head_kv_full = 1,
      .rope_base_swa = 10000.0f, .softcap = 30.0f},
     {SEER_PROJ_GEMMA4V, "gemma4v", "seer tiny Gemma 4 MoE vision synthetic", 224, 16, 32, 64, 2, 2, 64, 64, 1e-6f,
      {0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, 3, 0, 0, false, false, .pos_grid = 64, .standardize = true}},
    /* PaddleOCR-VL's ERNIE on the M-RoPE graph and its SigLIP NaViT with the
     * LayerNorm + 2x2 unshuffle + MLP projector */
    {"tiny-paddleocr",
     {"paddleocr", "seer tiny PaddleOCR-VL synthetic", 2, 64, 4, 2, 128, 600, 2048, 500000.0f, 1e-5f, {2, 3, 3, 0},
      false, true, QUANT_Q8_0, VOCAB_ERNIE, .head_dim = 16},
     {SEER_PROJ_PADDLEOCR, "paddleocr", "seer tiny PaddleOCR-VL vision synthetic", 224, 14, 32, 64, 2, 2, 64, 64,
      1e-6f, {0.5f, 0.5f, 0.5f}, {0.5f, 0.5f, 0.5f}, 2, 0, 0, true, false, .pos_grid = 4, .mm_hidden = 128,
      .min_pixels = 4 * 28 * 28, .max_pixels = 64 * 28 * 28}},
    /* Qwen3.5-4B: 24 Gated DeltaNet layers (16 key / 32 value heads of 128,
     * 50 MB of F32 state) and 8 gated-attention layers (16 / 4 heads of 256,
     * a quarter rotated), tied, 248k vocabulary, at Q4_K_M; the mmproj is
     * Qwen3-VL's merger without DeepStack (27 blocks, 1152 wide) */
    {"qwen35-4b",
     {"qwen35", "Qwen3.5 4B (synthetic)", 32, 2560, 16, 4, 9216, 248320, 262144, 10000000.0f, 1e-6f,
      {11, 11, 10, 0}, false, true, QUANT_Q4_K_M, VOCAB_QWEN35, .head_dim = 256, .n_rot = 64, .qk_norm = true, .gdn_k = 16,
      .gdn_v = 32, .gdn_d = 128},
     {SEER_PROJ_QWEN3VL, "qwen3vl_merger", "Qwen3.5 4B vision (synthetic)", 768, 16, 1152, 4304, 27, 16, 2560, 2560,
      1e-6f, {0.5f, 0.5f, 0.5f}, {0.5f, 0.5f, 0.5f}, 2, 0, 0, true, false, .pos_grid = 48}},
    /* Qwen3.5-9B: the same at 4096 wide (FFN 12288), untied */
    {"qwen35-9b",
     {"qwen35", "Qwen3.5 9B (synthetic)", 32, 4096, 16, 4, 12288, 248320, 262144, 10000000.0f, 1e-6f,
      {11, 11, 10, 0}, false, false, QUANT_Q4_K_M, VOCAB_QWEN35, .head_dim = 256, .n_rot = 64, .qk_norm = true, .gdn_k = 16,
      .gdn_v = 32, .gdn_d = 128},
     {SEER_PROJ_QWEN3VL, "qwen3vl_merger", "Qwen3.5 9B vision (synthetic)", 768, 16, 1152, 4304, 27, 16, 4096, 4096,
      1e-6f, {0.5f, 0.5f, 0.5f}, {0.5f, 0.5f, 0.5f}, 2, 0, 0, true, false, .pos_grid = 48}},
    /* Qwen3.5-35B-A3B with half its experts (128 of 256, 8 active of 512
     * wide, plus the gated shared expert): the real file (~21 GB at Q4_K_M)
     * does not fit beside the OS in 24 GB; a token reads the same bytes */
    {"qwen35-35b-a3b-half",
     {"qwen35moe", "Qwen3.5 35B A3B, half the experts (synthetic)", 40, 2048, 16, 2, 512, 248320, 262144,
      10000000.0f, 1e-6f, {11, 11, 10, 0}, false, false, QUANT_Q4_K_M, VOCAB_QWEN35, .head_dim = 256,
      .n_rot = 64, .qk_norm = true, .n_expert = 128, .n_expert_used = 8, .n_ff_exp = 512, .gdn_k = 16, .gdn_v = 32, .gdn_d = 128,
      .n_ff_shexp = 512},
     {SEER_PROJ_QWEN3VL, "qwen3vl_merger", "Qwen3.5 35B A3B vision (synthetic)", 768, 16, 1152, 4304, 27, 16, 2048,
      2048, 1e-6f, {0.5f, 0.5f, 0.5f}, {0.5f, 0.5f, 0.5f}, 2, 0, 0, true, false, .pos_grid = 48}},
    /* Gemma 4 E4B IT: 42 layers (each 6th full: 512-wide heads, a quarter
     * rotated; the others a 512-token window, 256-wide heads), 2 KV heads,
     * 256-wide per-layer embeddings (a 262144 x 10752 table read a row per
     * token), the last 18 layers on earlier layers' caches, tied 262k
     * vocabulary, Q4_K_M; the 16-block 768-wide gemma4v tower (its clippable
     * linears' bounds left out: they barely change the work) */
    {"gemma4-e4b",
     {"gemma4", "Gemma 4 E4B IT (synthetic)", 42, 2560, 8, 2, 10240, 262144, 131072, 1000000.0f, 1e-6f, {0}, false,
      true, QUANT_Q4_K_M, VOCAB_GEMMA4, .head_dim = 256, .qk_norm = true, .sliding_window = 512, .gemma4 = true,
      .swa_period = 6, .head_dim_full = 512, .n_head_kv_full = 2, .ple_dim = 256, .n_shared_kv = 18,
      .rope_base_swa = 10000.0f, .softcap = 30.0f},
     {SEER_PROJ_GEMMA4V, "gemma4v", "Gemma 4 E4B IT vision (synthetic)", 224, 16, 768, 3072, 16, 12, 2560, 2560,
      1e-6f, {0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, 3, 0, 0, false, false, .pos_grid = 10240}},
    /* Gemma 4 26B A4B IT: 30 layers (each 6th full, K as V there, 2 KV heads
     * of 512; the others a 1024-token window, 8 KV heads of 256), each a
     * dense 2112-wide MLP beside 128 experts (8 active, 704 wide, gate and
     * up fused), tied 262k vocabulary, Q4_K_M; the 27-block 1152-wide
     * gemma4v tower with its standardisation */
    {"gemma4-26b-a4b",
     {"gemma4", "Gemma 4 26B A4B IT (synthetic)", 30, 2816, 16, 8, 2112, 262144, 262144, 1000000.0f, 1e-6f, {0},
      false, true, QUANT_Q4_K_M, VOCAB_GEMMA4, .head_dim = 256, .qk_norm = true, .n_expert = 128,
      .n_expert_used = 8, .n_ff_exp = 704, .sliding_window = 1024, .gemma4 = true, .k_eq_v = true, .swa_period = 6,
      .head_dim_full = 512, .n_head_kv_full = 2, .rope_base_swa = 10000.0f, .softcap = 30.0f},
     {SEER_PROJ_GEMMA4V, "gemma4v", "Gemma 4 26B A4B IT vision (synthetic)", 224, 16, 1152, 4304, 27, 16, 2816,
      2816, 1e-6f, {0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, 3, 0, 0, false, false, .pos_grid = 10240,
      .standardize = true}},
    /* The same with 6 of its 30 layers (5 sliding, 1 full): every matrix,
     * expert and the output at its real size in a 3.9 GB file, for measuring
     * the experts' decode where the whole 16.8 GB does not fit */
    {"gemma4-26b-a4b-6l",
     {"gemma4", "Gemma 4 26B A4B IT, 6 layers (synthetic)", 6, 2816, 16, 8, 2112, 262144, 262144, 1000000.0f, 1e-6f,
      {0}, false, true, QUANT_Q4_K_M, VOCAB_GEMMA4, .head_dim = 256, .qk_norm = true, .n_expert = 128,
      .n_expert_used = 8, .n_ff_exp = 704, .sliding_window = 1024, .gemma4 = true, .k_eq_v = true, .swa_period = 6,
      .head_dim_full = 512, .n_head_kv_full = 2, .rope_base_swa = 10000.0f, .softcap = 30.0f},
     {SEER_PROJ_GEMMA4V, "gemma4v", "Gemma 4 26B A4B IT vision (synthetic)", 224, 16, 1152, 4304, 27, 16, 2816,
      2816, 1e-6f, {0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, 3, 0, 0, false, false, .pos_grid = 10240,
      .standardize = true}},
    /* PaddleOCR-VL (0.9B): ERNIE-4.5-0.3B (18 layers, 16 / 2 heads of 128,
     * M-RoPE sections 16/24/24, tied 103k vocabulary) at Q8_0 + the 27-block
     * 1152-wide SigLIP NaViT (patch 14, a 27x27 position table resized to
     * the grid), 2x2 unshuffle into the 4608-wide MLP; up to 2822400 pixels */
    {"paddleocr-vl",
     {"paddleocr", "PaddleOCR-VL (synthetic)", 18, 1024, 16, 2, 3072, 103424, 131072, 500000.0f, 1e-5f,
      {16, 24, 24, 0}, false, true, QUANT_Q8_0, VOCAB_ERNIE, .head_dim = 128},
     {SEER_PROJ_PADDLEOCR, "paddleocr", "PaddleOCR-VL vision (synthetic)", 1680, 14, 1152, 4304, 27, 16, 1024, 1024,
      1e-6f, {0.5f, 0.5f, 0.5f}, {0.5f, 0.5f, 0.5f}, 2, 0, 0, true, false, .pos_grid = 27, .mm_hidden = 4608,
      .min_pixels = 147384, .max_pixels = 2822400}},
};

static const char *const MODEL_NAMES[] = {"tiny", "tiny-qwen3vlmoe", "tiny-gemma3", "tiny-lfm2", "tiny-pixtral", "tiny-glm4v",
                                          "tiny-qwen35moe", "tiny-qwen25vl", "serve-qwen25vl", "smolvlm-256m", "qwen25vl-3b",
                                          "llava15-7b", "qwen3vl-4b", "qwen3vl-30b-a3b", "gemma3-4b", "internvl3-2b", "minicpmv-4.5-8b",
                                          "lfm2-vl-1.6b", "pixtral-12b", "glm4v-9b", "qwen35-4b", "qwen35-9b",
                                          "qwen35-35b-a3b-half", "tiny-gemma4e", "tiny-gemma4moe", "tiny-paddleocr",
                                          "gemma4-e4b", "gemma4-26b-a4b", "gemma4-26b-a4b-6l", "paddleocr-vl", NULL};

const char *const *seer_bench_synth_names(void) { return MODEL_NAMES; }

/* ---- vocabularies of each family ---- */

static const char *const SMOL_LEAD[] = {"<|endoftext|>", "<|im_start|>", "<|im_end|>"};
static const char *const QWEN_TAIL[] = {
    "<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|object_ref_start|>", "<|object_ref_end|>", "<|box_start|>",
    "<|box_end|>", "<|quad_start|>", "<|quad_end|>", "<|vision_start|>", "<|vision_end|>", "<|vision_pad|>",
    "<|image_pad|>", "<|video_pad|>"};
/* Qwen's, then MiniCPM-V's image and slice markers */
static const char *const MINICPMV_TAIL[] = {
    "<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|object_ref_start|>", "<|object_ref_end|>", "<|box_start|>",
    "<|box_end|>", "<|quad_start|>", "<|quad_end|>", "<|vision_start|>", "<|vision_end|>", "<|vision_pad|>",
    "<|image_pad|>", "<|video_pad|>", "<image>", "</image>", "<ref>", "</ref>", "<box>", "</box>", "<quad>",
    "</quad>", "<point>", "</point>", "<slice>", "</slice>", "<image_id>", "</image_id>", "<unk>"};

/* LFM2's chat specials lead (BOS 1, EOS <|im_end|> 7), its image markers
 * and the 10×10 tile tags close the vocabulary. */
static bool write_vocab_lfm2(gguf_writer *w, const llm_spec *s) {
    static const char *const LEAD[] = {"<|pad|>", "<|startoftext|>", "<|endoftext|>", "<|fim_pre|>",
                                       "<|fim_mid|>", "<|fim_suf|>", "<|im_start|>", "<|im_end|>"};
    const char *tail[4 + 100];
    char tags[100][24];
    int n_tail = 0;
    tail[n_tail++] = "<image>";
    tail[n_tail++] = "<|image_start|>";
    tail[n_tail++] = "<|image_end|>";
    tail[n_tail++] = "<|img_thumbnail|>";
    for (int r = 0; r < 10; r++)
        for (int c = 0; c < 10; c++) {
            snprintf(tags[r * 10 + c], sizeof tags[0], "<|img_row_%d_col_%d|>", r + 1, c + 1);
            tail[n_tail++] = tags[r * 10 + c];
        }
    if (!synth_vocab_bpe(w, s->n_vocab, "lfm2", LEAD, 8, tail, n_tail)) return false;
    gguf_writer_set_u32(w, "tokenizer.ggml.bos_token_id", 1);
    gguf_writer_set_u32(w, "tokenizer.ggml.eos_token_id", 7);
    gguf_writer_set_u32(w, "tokenizer.ggml.padding_token_id", 0);
    gguf_writer_set_bool(w, "tokenizer.ggml.add_bos_token", true);
    return true;
}

/* Mistral's Tekken vocabulary: its control tokens first ([IMG] 10,
 * [IMG_BREAK] 12, [IMG_END] 13; BOS <s> 1, EOS </s> 2). */
static bool write_vocab_tekken(gguf_writer *w, const llm_spec *s) {
    static const char *const LEAD[] = {
        "<unk>", "<s>", "</s>", "[INST]", "[/INST]", "[AVAILABLE_TOOLS]", "[/AVAILABLE_TOOLS]", "[TOOL_RESULTS]",
        "[/TOOL_RESULTS]", "[TOOL_CALLS]", "[IMG]", "<pad>", "[IMG_BREAK]", "[IMG_END]", "[PREFIX]", "[MIDDLE]",
        "[SUFFIX]", "[SYSTEM_PROMPT]", "[/SYSTEM_PROMPT]", "[TOOL_CONTENT]"};
    if (!synth_vocab_bpe(w, s->n_vocab, "tekken", LEAD, (int)(sizeof LEAD / sizeof LEAD[0]), NULL, 0)) return false;
    gguf_writer_set_u32(w, "tokenizer.ggml.unknown_token_id", 0);
    gguf_writer_set_u32(w, "tokenizer.ggml.bos_token_id", 1);
    gguf_writer_set_u32(w, "tokenizer.ggml.eos_token_id", 2);
    gguf_writer_set_u32(w, "tokenizer.ggml.padding_token_id", 11);
    gguf_writer_set_bool(w, "tokenizer.ggml.add_bos_token", true);
    return true;
}

/* GLM-4's added tokens at the end of its byte-level BPE (pre-tokenizer
 * glm4); <|endoftext|> ends text, <|user|> a turn. */
static bool write_vocab_glm(gguf_writer *w, const llm_spec *s) {
    static const char *const TAIL[] = {
        "<|endoftext|>", "[MASK]", "[gMASK]", "[sMASK]", "<sop>", "<eop>", "<|system|>", "<|user|>", "<|assistant|>",
        "<|observation|>", "<|begin_of_image|>", "<|end_of_image|>", "<|begin_of_video|>", "<|end_of_video|>",
        "<think>", "</think>"};
    const int n_tail = (int)(sizeof TAIL / sizeof TAIL[0]);
    if (!synth_vocab_bpe(w, s->n_vocab, "glm4", NULL, 0, TAIL, n_tail)) return false;
    const int eot = synth_vocab_bpe_id(s->n_vocab, NULL, 0, TAIL, n_tail, "<|endoftext|>");
    gguf_writer_set_u32(w, "tokenizer.ggml.eos_token_id", (uint32_t)eot);
    gguf_writer_set_u32(w, "tokenizer.ggml.eot_token_id",
                        (uint32_t)synth_vocab_bpe_id(s->n_vocab, NULL, 0, TAIL, n_tail, "<|user|>"));
    gguf_writer_set_u32(w, "tokenizer.ggml.bos_token_id", (uint32_t)eot);
    gguf_writer_set_u32(w, "tokenizer.ggml.padding_token_id", (uint32_t)eot);
    gguf_writer_set_bool(w, "tokenizer.ggml.add_bos_token", false);
    return true;
}

static bool write_vocab(gguf_writer *w, const llm_spec *s) {
    if (s->vocab == VOCAB_GLM) return write_vocab_glm(w, s);
    if (s->vocab == VOCAB_SPM) return synth_vocab_spm(w, s->n_vocab, NULL, 0);
    if (s->vocab == VOCAB_ERNIE) { /* ERNIE's sentence and image markers at the end */
        static const char *const ERNIE_TAIL[] = {"<|begin_of_sentence|>", "<|end_of_sentence|>", "<|IMAGE_START|>",
                                                 "<|IMAGE_PLACEHOLDER|>", "<|IMAGE_END|>"};
        return synth_vocab_spm(w, s->n_vocab, ERNIE_TAIL, 5);
    }
    if (s->vocab == VOCAB_LFM2) return write_vocab_lfm2(w, s);
    if (s->vocab == VOCAB_TEKKEN) return write_vocab_tekken(w, s);
    if (s->vocab == VOCAB_GEMMA || s->vocab == VOCAB_GEMMA4) {
        /* Gemma's turn and image markers (Gemma 4's own); a turn ends generation */
        static const char *const GEMMA_TAIL[] = {"<start_of_turn>", "<end_of_turn>", "<start_of_image>",
                                                 "<end_of_image>"};
        static const char *const GEMMA4_TAIL[] = {"<|turn>", "<turn|>", "<|image>", "<image|>"};
        if (!synth_vocab_spm(w, s->n_vocab, s->vocab == VOCAB_GEMMA4 ? GEMMA4_TAIL : GEMMA_TAIL, 4)) return false;
        gguf_writer_set_u32(w, "tokenizer.ggml.eos_token_id", (uint32_t)(s->n_vocab - 3));
        gguf_writer_set_bool(w, "tokenizer.ggml.add_space_prefix", false);
        return true;
    }
    if (s->vocab == VOCAB_QWEN2 || s->vocab == VOCAB_MINICPMV || s->vocab == VOCAB_QWEN35) {
        const bool minicpmv = s->vocab == VOCAB_MINICPMV;
        const char *const *qt = minicpmv ? MINICPMV_TAIL : QWEN_TAIL;
        int n_tail = minicpmv ? (int)(sizeof MINICPMV_TAIL / sizeof MINICPMV_TAIL[0])
                              : (int)(sizeof QWEN_TAIL / sizeof QWEN_TAIL[0]);
        if (!synth_vocab_bpe(w, s->n_vocab, s->vocab == VOCAB_QWEN35 ? "qwen35" : "qwen2", NULL, 0, qt, n_tail))
            return false;
        int eot = synth_vocab_bpe_id(s->n_vocab, NULL, 0, qt, n_tail, "<|endoftext|>");
        int eos = synth_vocab_bpe_id(s->n_vocab, NULL, 0, qt, n_tail, "<|im_end|>");
        gguf_writer_set_u32(w, "tokenizer.ggml.eos_token_id", (uint32_t)eos);
        gguf_writer_set_u32(w, "tokenizer.ggml.padding_token_id", (uint32_t)eot);
        gguf_writer_set_u32(w, "tokenizer.ggml.bos_token_id", (uint32_t)eot);
        gguf_writer_set_bool(w, "tokenizer.ggml.add_bos_token", false);
        return true;
    }
    /* SmolVLM: chat specials first, image tags and the end-of-utterance last */
    const char *tail[3 + 36 + 1];
    char tags[36][24];
    int n_tail = 0;
    tail[n_tail++] = "<fake_token_around_image>";
    tail[n_tail++] = "<image>";
    tail[n_tail++] = "<global-img>";
    for (int r = 0; r < 6; r++)
        for (int c = 0; c < 6; c++) {
            snprintf(tags[r * 6 + c], sizeof tags[0], "<row_%d_col_%d>", r + 1, c + 1);
            tail[n_tail++] = tags[r * 6 + c];
        }
    tail[n_tail++] = "<end_of_utterance>";
    if (!synth_vocab_bpe(w, s->n_vocab, "smollm", SMOL_LEAD, 3, tail, n_tail)) return false;
    gguf_writer_set_u32(w, "tokenizer.ggml.bos_token_id", 1);
    gguf_writer_set_u32(w, "tokenizer.ggml.eos_token_id", (uint32_t)(s->n_vocab - 1));
    gguf_writer_set_u32(w, "tokenizer.ggml.unknown_token_id", 0);
    gguf_writer_set_u32(w, "tokenizer.ggml.padding_token_id", 2);
    gguf_writer_set_bool(w, "tokenizer.ggml.add_bos_token", false);
    gguf_writer_set_bool(w, "tokenizer.ggml.add_space_prefix", false);
    return true;
}

/* ---- the LLM ---- */

/* Q4_K_M keeps more bits in the first and last eighth of the layers and in
 * every third layer between them (llama.cpp's rule for attn_v / ffn_down). */
static bool more_bits(int i, int n) { return i < n / 8 || i >= 7 * n / 8 || (i - n / 8) % 3 == 2; }

int synth_matrix_type(const llm_spec *s, const char *role, int layer) {
    switch (s->quant) {
    case QUANT_F32: return SEER_TYPE_F32;
    case QUANT_Q8_0: return SEER_TYPE_Q8_0;
    case QUANT_Q4_K_M:
    case QUANT_Q5_K_M: { /* the same rule, Q5_K where Q4_K_M has Q4_K */
        const int base = s->quant == QUANT_Q5_K_M ? SEER_TYPE_Q5_K : SEER_TYPE_Q4_K;
        if (strcmp(role, "output") == 0) return SEER_TYPE_Q6_K;
        if (strcmp(role, "token_embd") == 0) return s->tied ? SEER_TYPE_Q6_K : base;
        if ((strcmp(role, "attn_v") == 0 || strcmp(role, "ffn_down") == 0) && more_bits(layer, s->n_layer))
            return SEER_TYPE_Q6_K;
        return base;
    }
    }
    return SEER_TYPE_F32;
}

/* llama-quantize's fallback for rows that are not whole 256-value blocks
 * (GLM-4's 13696-wide FFN): the 32-block type of about the same size. */
int synth_block_fallback(int type, int64_t n_in) {
    if (n_in % 256 == 0) return type;
    return type == SEER_TYPE_Q4_K ? SEER_TYPE_Q5_0 : type == SEER_TYPE_Q5_K ? SEER_TYPE_Q5_1
         : type == SEER_TYPE_Q6_K ? SEER_TYPE_Q8_0 : type;
}

void synth_add(synth_weights *sw, gguf_writer *w, const char *name, int type, synth_init init, int64_t ne0,
               int64_t ne1) {
    type = synth_block_fallback(type, ne0);
    int64_t ne[2] = {ne0, ne1};
    synth_add_tensor(sw, w, name, type, ne1 > 0 ? 2 : 1, ne, init);
}

void synth_blk_name(char *buf, size_t cap, int i, const char *what) { snprintf(buf, cap, "blk.%d.%s", i, what); }

static bool conv_layer(const llm_spec *s, int i) { return s->layer_kinds && s->layer_kinds[i] == 'c'; }
/* qwen35*: Gated DeltaNet in place of attention but in each 4th layer */
#define SYNTH_FULL_ATTENTION_INTERVAL 4
static bool gdn_layer(const llm_spec *s, int i) { return s->gdn_d && (i + 1) % SYNTH_FULL_ATTENTION_INTERVAL != 0; }

/* lfm2's short convolution in place of attention: the depthwise kernel
 * [l_cache][n_embd] (F32, as llama-quantize leaves it), in_proj to B, C, X,
 * out_proj. */
#define SYNTH_CONV_LEN 3
static void conv_matrices(synth_weights *sw, gguf_writer *w, const llm_spec *s, int i) {
    char n[96];
    synth_blk_name(n, sizeof n, i, "shortconv.conv.weight");
    synth_add(sw, w, n, SEER_TYPE_F32, SYNTH_BIAS, SYNTH_CONV_LEN, s->n_embd);
    synth_blk_name(n, sizeof n, i, "shortconv.in_proj.weight");
    synth_add(sw, w, n, synth_matrix_type(s, "shortconv_in", i), SYNTH_WEIGHT, s->n_embd, 3 * (int64_t)s->n_embd);
    synth_blk_name(n, sizeof n, i, "shortconv.out_proj.weight");
    synth_add(sw, w, n, synth_matrix_type(s, "shortconv_out", i), SYNTH_WEIGHT, s->n_embd, s->n_embd);
}

/* Qwen3.5's Gated DeltaNet in place of attention: in_proj to q, k, v (the
 * conv channels) and to the output gate z, beta and alpha per value head,
 * the conv kernel [4][channels], dt bias, A, the per-head output norm,
 * out_proj. in_proj is quantized as attn_v is (llama.cpp counts it so). */
#define SYNTH_GDN_CONV_LEN 4
static void gdn_matrices(synth_weights *sw, gguf_writer *w, const llm_spec *s, int i) {
    const int64_t vd = (int64_t)s->gdn_v * s->gdn_d, ch = 2 * (int64_t)s->gdn_k * s->gdn_d + vd;
    struct { const char *name, *role; int64_t in, out; } mats[] = {
        {"attn_qkv.weight", "attn_v", s->n_embd, ch}, {"attn_gate.weight", "attn_q", s->n_embd, vd},
        {"ssm_beta.weight", "attn_q", s->n_embd, s->gdn_v}, {"ssm_alpha.weight", "attn_q", s->n_embd, s->gdn_v},
        {"ssm_out.weight", "attn_output", vd, s->n_embd}};
    char n[96];
    for (size_t m = 0; m < sizeof mats / sizeof mats[0]; m++) {
        synth_blk_name(n, sizeof n, i, mats[m].name);
        synth_add(sw, w, n, synth_matrix_type(s, mats[m].role, i), SYNTH_WEIGHT, mats[m].in, mats[m].out);
    }
    synth_blk_name(n, sizeof n, i, "ssm_conv1d.weight");
    synth_add(sw, w, n, SEER_TYPE_F32, SYNTH_BIAS, SYNTH_GDN_CONV_LEN, ch);
    synth_blk_name(n, sizeof n, i, "ssm_dt.bias");
    synth_add(sw, w, n, SEER_TYPE_F32, SYNTH_BIAS, s->gdn_v, 0);
    synth_blk_name(n, sizeof n, i, "ssm_a");
    synth_add(sw, w, n, SEER_TYPE_F32, SYNTH_BIAS, s->gdn_v, 0);
    synth_blk_name(n, sizeof n, i, "ssm_norm.weight");
    synth_add(sw, w, n, SEER_TYPE_F32, SYNTH_NORM, s->gdn_d, 0);
}

/* qwen35moe's shared expert beside the routed ones, with its sigmoid gate. */
static void shared_expert(synth_weights *sw, gguf_writer *w, const llm_spec *s, int i) {
    char n[96];
    synth_blk_name(n, sizeof n, i, "ffn_gate_inp_shexp.weight");
    synth_add(sw, w, n, SEER_TYPE_F32, SYNTH_WEIGHT, s->n_embd, 0);
    struct { const char *name, *role; int64_t in, out; } mats[] = {
        {"ffn_gate_shexp.weight", "ffn_gate", s->n_embd, s->n_ff_shexp},
        {"ffn_up_shexp.weight", "ffn_up", s->n_embd, s->n_ff_shexp},
        {"ffn_down_shexp.weight", "ffn_down", s->n_ff_shexp, s->n_embd}};
    for (size_t m = 0; m < 3; m++) {
        synth_blk_name(n, sizeof n, i, mats[m].name);
        synth_add(sw, w, n, synth_matrix_type(s, mats[m].role, i), SYNTH_WEIGHT, mats[m].in, mats[m].out);
    }
}

/* A layer's attention and FFN matrices with their roles (for the quant
 * mixture): dense SwiGLU/GeGLU, or the router and the 3-D expert tensors. */
static void layer_matrices(synth_weights *sw, gguf_writer *w, const llm_spec *s, int i) {
    const int64_t hd = s->head_dim ? s->head_dim : s->n_embd / s->n_head;
    const int64_t q = hd * s->n_head, kv = hd * s->n_head_kv;
    const int64_t q_rows = s->gdn_d ? 2 * q : q; /* qwen35: each head's query, then its output gate */
    typedef struct { const char *role; int64_t in, out; } role_matrix;
    role_matrix mats[] = {
        {"attn_q", s->n_embd, q_rows}, {"attn_k", s->n_embd, kv}, {"attn_v", s->n_embd, kv}, {"attn_output", q, s->n_embd},
        {"ffn_gate", s->n_embd, s->n_ff}, {"ffn_up", s->n_embd, s->n_ff}, {"ffn_down", s->n_ff, s->n_embd}};
    if (s->glm4) { /* one ffn_up holding the gate's rows then up's, no ffn_gate */
        mats[4] = (role_matrix){"ffn_up", s->n_embd, 2 * (int64_t)s->n_ff};
        mats[5] = mats[6];
    }
    const size_t n_mats = s->n_expert ? 4 : s->glm4 ? 6 : sizeof mats / sizeof mats[0];
    char n[96], what[48];
    if (conv_layer(s, i)) conv_matrices(sw, w, s, i);
    if (gdn_layer(s, i)) gdn_matrices(sw, w, s, i);
    for (size_t m = conv_layer(s, i) || gdn_layer(s, i) ? 4 : 0; m < n_mats; m++) {
        snprintf(what, sizeof what, "%s.weight", mats[m].role);
        synth_blk_name(n, sizeof n, i, what);
        synth_add(sw, w, n, synth_matrix_type(s, mats[m].role, i), SYNTH_WEIGHT, mats[m].in, mats[m].out);
        if (s->qkv_bias && m < 3) {
            snprintf(what, sizeof what, "%s.bias", mats[m].role);
            synth_blk_name(n, sizeof n, i, what);
            synth_add(sw, w, n, SEER_TYPE_F32, SYNTH_BIAS, mats[m].out, 0);
        }
    }
    if (!s->n_expert) return;
    synth_blk_name(n, sizeof n, i, "ffn_gate_inp.weight"); /* the router stays F32, as llama-quantize leaves it */
    synth_add(sw, w, n, SEER_TYPE_F32, SYNTH_WEIGHT, s->n_embd, s->n_expert);
    struct { const char *name, *role; int64_t in, out; } exps[] = {
        {"ffn_gate_exps.weight", "ffn_gate", s->n_embd, s->n_ff_exp},
        {"ffn_up_exps.weight", "ffn_up", s->n_embd, s->n_ff_exp},
        {"ffn_down_exps.weight", "ffn_down", s->n_ff_exp, s->n_embd}};
    for (size_t e = 0; e < 3; e++) {
        int64_t ne[3] = {exps[e].in, exps[e].out, s->n_expert};
        synth_blk_name(n, sizeof n, i, exps[e].name);
        synth_add_tensor(sw, w, n, synth_block_fallback(synth_matrix_type(s, exps[e].role, i), ne[0]), 3, ne, SYNTH_WEIGHT);
    }
    if (s->n_ff_shexp) shared_expert(sw, w, s, i);
}

static void llm_tensors(synth_weights *sw, gguf_writer *w, const llm_spec *s) {
    const int64_t hd = s->head_dim ? s->head_dim : s->n_embd / s->n_head;
    if (!s->tied) synth_add(sw, w, "output.weight", synth_matrix_type(s, "output", 0), SYNTH_WEIGHT, s->n_embd, s->n_vocab);
    /* lfm2 keeps its final norm under the name token_embd_norm */
    synth_add(sw, w, s->layer_kinds ? "token_embd_norm.weight" : "output_norm.weight", SEER_TYPE_F32, SYNTH_NORM, s->n_embd,
        0);
    synth_add(sw, w, "token_embd.weight", synth_matrix_type(s, "token_embd", 0), SYNTH_WEIGHT, s->n_embd, s->n_vocab);
    /* the norms of a layer: Gemma 3 adds one after attention and one after the FFN */
    const char *norms[] = {"attn_norm", "ffn_norm", "post_attention_norm", "post_ffw_norm"};
    const int n_norms = s->sliding_window || s->glm4 ? 4 : 2;
    char n[96], what[48];
    for (int i = 0; i < s->n_layer; i++) {
        for (int k = 0; k < n_norms; k++) {
            /* qwen35* names its FFN norm post_attention_norm */
            snprintf(what, sizeof what, "%s.weight", s->gdn_d && k == 1 ? norms[2] : norms[k]);
            synth_blk_name(n, sizeof n, i, what);
            synth_add(sw, w, n, SEER_TYPE_F32, SYNTH_NORM, s->n_embd, 0);
        }
        if (s->qk_norm && !conv_layer(s, i) && !gdn_layer(s, i)) {
            synth_blk_name(n, sizeof n, i, "attn_q_norm.weight");
            synth_add(sw, w, n, SEER_TYPE_F32, SYNTH_NORM, hd, 0);
            synth_blk_name(n, sizeof n, i, "attn_k_norm.weight");
            synth_add(sw, w, n, SEER_TYPE_F32, SYNTH_NORM, hd, 0);
        }
        layer_matrices(sw, w, s, i);
    }
}

/* Keys only some families have: explicit head size, experts, DeepStack,
 * sliding window and the global layers' rope scaling. */
static void llm_family_keys(gguf_writer *w, const llm_spec *s) {
    char k[128];
#define KEY(suffix) (snprintf(k, sizeof k, "%s.%s", s->arch, suffix), k)
    if (s->head_dim) {
        gguf_writer_set_u32(w, KEY("attention.key_length"), (uint32_t)s->head_dim);
        gguf_writer_set_u32(w, KEY("attention.value_length"), (uint32_t)s->head_dim);
    }
    if (s->n_expert) {
        gguf_writer_set_u32(w, KEY("expert_count"), (uint32_t)s->n_expert);
        gguf_writer_set_u32(w, KEY("expert_used_count"), (uint32_t)s->n_expert_used);
        gguf_writer_set_u32(w, KEY("expert_feed_forward_length"), (uint32_t)s->n_ff_exp);
    }
    if (s->n_deepstack) gguf_writer_set_u32(w, KEY("n_deepstack_layers"), (uint32_t)s->n_deepstack);
    if (s->gdn_d) { /* the DeltaNet sizes */
        gguf_writer_set_u32(w, KEY("full_attention_interval"), SYNTH_FULL_ATTENTION_INTERVAL);
        gguf_writer_set_u32(w, KEY("ssm.conv_kernel"), SYNTH_GDN_CONV_LEN);
        gguf_writer_set_u32(w, KEY("ssm.state_size"), (uint32_t)s->gdn_d);
        gguf_writer_set_u32(w, KEY("ssm.group_count"), (uint32_t)s->gdn_k);
        gguf_writer_set_u32(w, KEY("ssm.time_step_rank"), (uint32_t)s->gdn_v);
        gguf_writer_set_u32(w, KEY("ssm.inner_size"), (uint32_t)(s->gdn_v * s->gdn_d));
    }
    if (s->n_ff_shexp) gguf_writer_set_u32(w, KEY("expert_shared_feed_forward_length"), (uint32_t)s->n_ff_shexp);
    if (s->sliding_window) {
        gguf_writer_set_u32(w, KEY("attention.sliding_window"), (uint32_t)s->sliding_window);
        gguf_writer_set_str(w, KEY("rope.scaling.type"), "linear");
        gguf_writer_set_f32(w, KEY("rope.scaling.factor"), s->rope_scale);
    }
#undef KEY
}

static int write_llm(const llm_spec *s, const char *path, seer_error *err) {
    gguf_writer *w = gguf_writer_new();
    synth_weights *sw = synth_weights_new(0x5eed0001);
    if (!w || !sw) {
        gguf_writer_free(w);
        synth_weights_free(sw);
        seer_error_set(err, "%s: out of memory", path);
        return -1;
    }
    char k[128];
#define KEY(suffix) (snprintf(k, sizeof k, "%s.%s", s->arch, suffix), k)
    gguf_writer_set_str(w, "general.architecture", s->arch);
    gguf_writer_set_str(w, "general.type", "model");
    gguf_writer_set_str(w, "general.name", s->name);
    gguf_writer_set_u32(w, KEY("block_count"), (uint32_t)s->n_layer);
    gguf_writer_set_u32(w, KEY("context_length"), (uint32_t)s->n_ctx);
    gguf_writer_set_u32(w, KEY("embedding_length"), (uint32_t)s->n_embd);
    gguf_writer_set_u32(w, KEY("feed_forward_length"), (uint32_t)s->n_ff);
    gguf_writer_set_u32(w, KEY("attention.head_count"), (uint32_t)s->n_head);
    if (s->layer_kinds) { /* lfm2: one count per layer, 0 on the short convolutions */
        int32_t kv[128];
        for (int i = 0; i < s->n_layer && i < 128; i++) kv[i] = conv_layer(s, i) ? 0 : s->n_head_kv;
        gguf_writer_set_arr_i32(w, KEY("attention.head_count_kv"), kv, (uint64_t)(s->n_layer < 128 ? s->n_layer : 128));
        gguf_writer_set_u32(w, KEY("shortconv.l_cache"), SYNTH_CONV_LEN);
    } else {
        gguf_writer_set_u32(w, KEY("attention.head_count_kv"), (uint32_t)s->n_head_kv);
    }
    gguf_writer_set_f32(w, KEY("rope.freq_base"), s->rope_base);
    gguf_writer_set_f32(w, KEY("attention.layer_norm_rms_epsilon"), s->eps);
    if (s->n_rot) gguf_writer_set_u32(w, KEY("rope.dimension_count"), (uint32_t)s->n_rot);
    if (s->sections[0]) gguf_writer_set_arr_i32(w, KEY("rope.dimension_sections"), s->sections, 4);
    else {
        gguf_writer_set_u32(w, KEY("vocab_size"), (uint32_t)s->n_vocab);
        const int head_dim = s->head_dim ? s->head_dim : s->n_embd / s->n_head;
        gguf_writer_set_u32(w, KEY("rope.dimension_count"), (uint32_t)head_dim);
    }
#undef KEY
    if (s->gemma4) synth_gemma4_keys(w, s);
    else llm_family_keys(w, s);
    int rc = -1;
    if (!write_vocab(w, s)) {
        seer_error_set(err, "%s: cannot build a %d-token vocabulary", path, s->n_vocab);
        goto done;
    }
    gguf_writer_set_u32(w, "general.quantization_version", 2);
    const uint32_t file_type[] = {[QUANT_Q8_0] = 7, [QUANT_Q4_K_M] = 15, [QUANT_Q5_K_M] = 17, [QUANT_F32] = 0};
    gguf_writer_set_u32(w, "general.file_type", file_type[s->quant]);
    if (s->gemma4) synth_gemma4_tensors(sw, w, s);
    else llm_tensors(sw, w, s);
    rc = gguf_writer_write(w, path, err);
done:
    gguf_writer_free(w);
    synth_weights_free(sw);
    return rc;
}

/* ---- the mmproj ---- */

static void vit_block(synth_weights *sw, gguf_writer *w, const vit_spec *s, int i) {
    const bool pixtral = s->projector == SEER_PROJ_PIXTRAL; /* no biases at all */
    const bool glm = s->projector == SEER_PROJ_GLM4V;      /* fused QKV, no biases either */
    const bool gemma4 = s->projector == SEER_PROJ_GEMMA4V; /* no biases, sandwich norms, q/k norms */
    const bool rms = s->projector == SEER_PROJ_QWEN25VL || pixtral || glm || gemma4; /* RMS norms: weight only */
    char n[96];
    /* Qwen3-VL and GLM-4V keep Q, K and V in one fused matrix */
    const bool fused = s->projector == SEER_PROJ_QWEN3VL || glm;
    const char *attn[] = {"attn_q", "attn_k", "attn_v", "attn_out"}, *attn_fused[] = {"attn_qkv", "attn_out"};
    const int64_t out_fused[] = {3 * (int64_t)s->n_embd, s->n_embd};
    for (int a = 0; a < (fused ? 2 : 4); a++) {
        const int64_t out = fused ? out_fused[a] : s->n_embd;
        snprintf(n, sizeof n, "v.blk.%d.%s.weight", i, fused ? attn_fused[a] : attn[a]);
        synth_add(sw, w, n, SEER_TYPE_F16, SYNTH_WEIGHT, s->n_embd, out);
        if (pixtral || glm || gemma4) continue;
        snprintf(n, sizeof n, "v.blk.%d.%s.bias", i, fused ? attn_fused[a] : attn[a]);
        synth_add(sw, w, n, SEER_TYPE_F32, SYNTH_BIAS, out, 0);
    }
    for (int l = 1; l <= 2; l++) {
        snprintf(n, sizeof n, "v.blk.%d.ln%d.weight", i, l);
        synth_add(sw, w, n, SEER_TYPE_F32, SYNTH_NORM, s->n_embd, 0);
        if (!rms) {
            snprintf(n, sizeof n, "v.blk.%d.ln%d.bias", i, l);
            synth_add(sw, w, n, SEER_TYPE_F32, SYNTH_BIAS, s->n_embd, 0);
        }
    }
    /* LLaVA's and MiniCPM-V's converters name the first FFN matrix ffn_down (d → ff) and the second ffn_up */
    bool llava = s->projector == SEER_PROJ_MLP || s->projector == SEER_PROJ_RESAMPLER;
    typedef struct { const char *name; int64_t in, out; } ffn_matrix;
    ffn_matrix ffn[3];
    int nf = 0;
    if (s->projector == SEER_PROJ_QWEN25VL || pixtral || glm || gemma4) ffn[nf++] = (ffn_matrix){"ffn_gate", s->n_embd, s->n_ff};
    ffn[nf++] = (ffn_matrix){llava ? "ffn_down" : "ffn_up", s->n_embd, s->n_ff};
    ffn[nf++] = (ffn_matrix){llava ? "ffn_up" : "ffn_down", s->n_ff, s->n_embd};
    for (int f = 0; f < nf; f++) {
        snprintf(n, sizeof n, "v.blk.%d.%s.weight", i, ffn[f].name);
        synth_add(sw, w, n, SEER_TYPE_F16, SYNTH_WEIGHT, ffn[f].in, ffn[f].out);
        if (pixtral || glm || gemma4) continue;
        snprintf(n, sizeof n, "v.blk.%d.%s.bias", i, ffn[f].name);
        synth_add(sw, w, n, SEER_TYPE_F32, SYNTH_BIAS, ffn[f].out, 0);
    }
    if (s->projector == SEER_PROJ_INTERNVL) /* InternViT's layer scales */
        for (int l = 1; l <= 2; l++) {
            snprintf(n, sizeof n, "v.blk.%d.ls%d.weight", i, l);
            synth_add(sw, w, n, SEER_TYPE_F32, SYNTH_NORM, s->n_embd, 0);
        }
    if (gemma4) { /* per-head q/k norms, the norms after attention and FFN, the block's output scale */
        const struct { const char *name; int64_t n; } extra[] = {
            {"attn_q_norm", s->n_embd / s->n_head}, {"attn_k_norm", s->n_embd / s->n_head},
            {"attn_post_norm", s->n_embd}, {"ffn_post_norm", s->n_embd}, {"out_scale", 1}};
        for (size_t e = 0; e < sizeof extra / sizeof extra[0]; e++) {
            snprintf(n, sizeof n, "v.blk.%d.%s.weight", i, extra[e].name);
            synth_add(sw, w, n, SEER_TYPE_F32, SYNTH_NORM, extra[e].n, 0);
        }
    }
}

/* A merger of groups of four patches (4·n_embd wide): norm, then two
 * matrices with a GELU between them, to the LLM's width. Qwen3-VL's main
 * merger normalises per patch (v.post_ln), its DeepStack mergers per group. */
static void merger(synth_weights *sw, gguf_writer *w, const vit_spec *s, const char *fc1, const char *fc2) {
    const int64_t merged = 4 * (int64_t)s->n_embd;
    char n[96];
    snprintf(n, sizeof n, "%s.weight", fc1);
    synth_add(sw, w, n, SEER_TYPE_F16, SYNTH_WEIGHT, merged, merged);
    snprintf(n, sizeof n, "%s.bias", fc1);
    synth_add(sw, w, n, SEER_TYPE_F32, SYNTH_BIAS, merged, 0);
    snprintf(n, sizeof n, "%s.weight", fc2);
    synth_add(sw, w, n, SEER_TYPE_F16, SYNTH_WEIGHT, merged, s->n_out);
    snprintf(n, sizeof n, "%s.bias", fc2);
    synth_add(sw, w, n, SEER_TYPE_F32, SYNTH_BIAS, s->n_out, 0);
}

static void deepstack_mergers(synth_weights *sw, gguf_writer *w, const vit_spec *s) {
    for (int d = 0; d < s->n_deepstack; d++) {
        char n[96], fc1[48], fc2[48];
        const int L = s->deepstack[d];
        snprintf(n, sizeof n, "v.deepstack.%d.norm.weight", L);
        synth_add(sw, w, n, SEER_TYPE_F32, SYNTH_NORM, 4 * (int64_t)s->n_embd, 0);
        snprintf(n, sizeof n, "v.deepstack.%d.norm.bias", L);
        synth_add(sw, w, n, SEER_TYPE_F32, SYNTH_BIAS, 4 * (int64_t)s->n_embd, 0);
        snprintf(fc1, sizeof fc1, "v.deepstack.%d.fc1", L);
        snprintf(fc2, sizeof fc2, "v.deepstack.%d.fc2", L);
        merger(sw, w, s, fc1, fc2);
    }
}

/* MiniCPM-V's resampler under the legacy converter's names and types. */
static void resampler_tensors(synth_weights *sw, gguf_writer *w, const vit_spec *s) {
    char n[96];
    synth_add(sw, w, "resampler.query", SEER_TYPE_F32, SYNTH_BIAS, s->n_out, s->n_queries);
    synth_add(sw, w, "resampler.pos_embed_k", SEER_TYPE_F32, SYNTH_BIAS, s->n_out, 70 * 70); /* unused by the graph */
    synth_add(sw, w, "resampler.proj.weight", SEER_TYPE_F16, SYNTH_WEIGHT, s->n_out, s->n_out);
    synth_add(sw, w, "resampler.kv.weight", SEER_TYPE_F16, SYNTH_WEIGHT, s->n_embd, s->n_out);
    const char *attn[] = {"q", "k", "v", "out"};
    for (int a = 0; a < 4; a++) {
        snprintf(n, sizeof n, "resampler.attn.%s.weight", attn[a]);
        synth_add(sw, w, n, SEER_TYPE_F16, SYNTH_WEIGHT, s->n_out, s->n_out);
        snprintf(n, sizeof n, "resampler.attn.%s.bias", attn[a]);
        synth_add(sw, w, n, SEER_TYPE_F32, SYNTH_BIAS, s->n_out, 0);
    }
    const char *ln[] = {"q", "kv", "post"};
    for (int l = 0; l < 3; l++) {
        snprintf(n, sizeof n, "resampler.ln_%s.weight", ln[l]);
        synth_add(sw, w, n, SEER_TYPE_F32, SYNTH_NORM, s->n_out, 0);
        snprintf(n, sizeof n, "resampler.ln_%s.bias", ln[l]);
        synth_add(sw, w, n, SEER_TYPE_F32, SYNTH_BIAS, s->n_out, 0);
    }
}

/* GLM-4V's merger: the 2×2 conv [2, 2, n_embd, n_out] with its bias, fc,
 * LayerNorm, then the SwiGLU MLP (mm_hidden wide), no biases. */
static void glm4v_merger(synth_weights *sw, gguf_writer *w, const vit_spec *s) {
    int64_t conv_ne[4] = {2, 2, s->n_embd, s->n_out};
    synth_add_tensor(sw, w, "mm.patch_merger.weight", SEER_TYPE_F16, 4, conv_ne, SYNTH_WEIGHT);
    synth_add(sw, w, "mm.patch_merger.bias", SEER_TYPE_F32, SYNTH_BIAS, s->n_out, 0);
    synth_add(sw, w, "mm.model.fc.weight", SEER_TYPE_F16, SYNTH_WEIGHT, s->n_out, s->n_out);
    synth_add(sw, w, "mm.post_norm.weight", SEER_TYPE_F32, SYNTH_NORM, s->n_out, 0);
    synth_add(sw, w, "mm.post_norm.bias", SEER_TYPE_F32, SYNTH_BIAS, s->n_out, 0);
    synth_add(sw, w, "mm.gate.weight", SEER_TYPE_F16, SYNTH_WEIGHT, s->n_out, s->mm_hidden);
    synth_add(sw, w, "mm.up.weight", SEER_TYPE_F16, SYNTH_WEIGHT, s->n_out, s->mm_hidden);
    synth_add(sw, w, "mm.down.weight", SEER_TYPE_F16, SYNTH_WEIGHT, s->mm_hidden, s->n_out);
}

/* LFM2's and Pixtral's projector: mm.1 (in → mm_hidden) → GELU → mm.2, with biases. */
static void mm12(synth_weights *sw, gguf_writer *w, const vit_spec *s, int64_t in) {
    synth_add(sw, w, "mm.1.weight", SEER_TYPE_F16, SYNTH_WEIGHT, in, s->mm_hidden);
    synth_add(sw, w, "mm.1.bias", SEER_TYPE_F32, SYNTH_BIAS, s->mm_hidden, 0);
    synth_add(sw, w, "mm.2.weight", SEER_TYPE_F16, SYNTH_WEIGHT, s->mm_hidden, s->n_out);
    synth_add(sw, w, "mm.2.bias", SEER_TYPE_F32, SYNTH_BIAS, s->n_out, 0);
}

static void vit_tensors(synth_weights *sw, gguf_writer *w, const vit_spec *s) {
    int64_t grid = s->image_size / s->patch, n_patches = grid * grid;
    int64_t patch_ne[4] = {s->patch, s->patch, 3, s->n_embd};
    const bool glm = s->projector == SEER_PROJ_GLM4V;
    const bool qwen = s->projector == SEER_PROJ_QWEN25VL || s->projector == SEER_PROJ_QWEN3VL;
    const bool internvl = s->projector == SEER_PROJ_INTERNVL;
    const bool lfm2 = s->projector == SEER_PROJ_LFM2, pixtral = s->projector == SEER_PROJ_PIXTRAL;
    const bool gemma4 = s->projector == SEER_PROJ_GEMMA4V, paddle = s->projector == SEER_PROJ_PADDLEOCR;
    if (s->projector == SEER_PROJ_MLP) {
        synth_add(sw, w, "mm.0.weight", SEER_TYPE_F16, SYNTH_WEIGHT, s->n_embd, s->n_out);
        synth_add(sw, w, "mm.0.bias", SEER_TYPE_F32, SYNTH_BIAS, s->n_out, 0);
        synth_add(sw, w, "mm.2.weight", SEER_TYPE_F16, SYNTH_WEIGHT, s->n_out, s->n_out);
        synth_add(sw, w, "mm.2.bias", SEER_TYPE_F32, SYNTH_BIAS, s->n_out, 0);
    }
    if (s->projector == SEER_PROJ_MLP || internvl) synth_add(sw, w, "v.class_embd", SEER_TYPE_F32, SYNTH_BIAS, s->n_embd, 0);
    synth_add_tensor(sw, w, "v.patch_embd.weight", SEER_TYPE_F16, 4, patch_ne, SYNTH_WEIGHT);
    if (qwen || glm) synth_add_tensor(sw, w, "v.patch_embd.weight.1", SEER_TYPE_F16, 4, patch_ne, SYNTH_WEIGHT);
    const bool resampler = s->projector == SEER_PROJ_RESAMPLER;
    if (s->projector == SEER_PROJ_IDEFICS3 || s->projector == SEER_PROJ_GEMMA3 || s->projector == SEER_PROJ_QWEN3VL ||
        internvl || resampler || lfm2 || glm || paddle)
        synth_add(sw, w, "v.patch_embd.bias", SEER_TYPE_F32, SYNTH_BIAS, s->n_embd, 0);
    if (glm) { /* RMSNorm after the patch embedding; the learned grid, resized bicubically */
        synth_add(sw, w, "v.norm_embd.weight", SEER_TYPE_F32, SYNTH_NORM, s->n_embd, 0);
        synth_add(sw, w, "v.position_embd.weight", SEER_TYPE_F32, SYNTH_BIAS, s->n_embd, (int64_t)s->pos_grid * s->pos_grid);
    }
    if (resampler) /* SigLIP-NaViT's 70x70 table, F16 as the legacy converter writes 2-D weights */
        synth_add(sw, w, "v.position_embd.weight", SEER_TYPE_F16, SYNTH_BIAS, s->n_embd, 70 * 70);
    if (internvl) synth_add(sw, w, "v.position_embd.weight", SEER_TYPE_F32, SYNTH_BIAS, s->n_embd, n_patches + 1);
    if (s->projector == SEER_PROJ_IDEFICS3 || s->projector == SEER_PROJ_GEMMA3 || lfm2) /* LFM2: resized to the grid */
        synth_add(sw, w, "v.position_embd.weight", SEER_TYPE_F32, SYNTH_BIAS, s->n_embd, n_patches);
    if (pixtral) synth_add(sw, w, "v.pre_ln.weight", SEER_TYPE_F32, SYNTH_NORM, s->n_embd, 0);
    if (s->projector == SEER_PROJ_QWEN3VL || paddle)
        synth_add(sw, w, "v.position_embd.weight", SEER_TYPE_F32, SYNTH_BIAS, s->n_embd, (int64_t)s->pos_grid * s->pos_grid);
    if (gemma4) { /* the x table, then the y table (F32 as the converter forces it) */
        int64_t pos_ne[3] = {s->n_embd, s->pos_grid, 2};
        synth_add_tensor(sw, w, "v.position_embd.weight", SEER_TYPE_F32, 3, pos_ne, SYNTH_BIAS);
    }
    if (s->projector == SEER_PROJ_MLP) {
        synth_add(sw, w, "v.position_embd.weight", SEER_TYPE_F16, SYNTH_BIAS, s->n_embd, n_patches + 1);
        synth_add(sw, w, "v.pre_ln.weight", SEER_TYPE_F32, SYNTH_NORM, s->n_embd, 0);
        synth_add(sw, w, "v.pre_ln.bias", SEER_TYPE_F32, SYNTH_BIAS, s->n_embd, 0);
    }
    for (int i = 0; i < s->n_layer; i++) vit_block(sw, w, s, i);
    if (s->projector != SEER_PROJ_MLP && !internvl && !pixtral && !gemma4) {
        synth_add(sw, w, "v.post_ln.weight", SEER_TYPE_F32, SYNTH_NORM, s->n_embd, 0);
        if (s->projector != SEER_PROJ_QWEN25VL && s->projector != SEER_PROJ_QWEN2VL && !glm)
            synth_add(sw, w, "v.post_ln.bias", SEER_TYPE_F32, SYNTH_BIAS, s->n_embd, 0);
    }
    if (s->projector == SEER_PROJ_IDEFICS3) {
        int64_t in = (int64_t)s->n_embd * s->scale_factor * s->scale_factor;
        synth_add(sw, w, "mm.model.fc.weight", SEER_TYPE_F16, SYNTH_WEIGHT, in, s->n_out);
    }
    if (qwen) merger(sw, w, s, "mm.0", "mm.2");
    if (internvl) { /* mlp1: LayerNorm over the unshuffled features, two matrices */
        int64_t in = (int64_t)s->n_embd * s->scale_factor * s->scale_factor;
        synth_add(sw, w, "mm.model.mlp.0.weight", SEER_TYPE_F32, SYNTH_NORM, in, 0);
        synth_add(sw, w, "mm.model.mlp.0.bias", SEER_TYPE_F32, SYNTH_BIAS, in, 0);
        synth_add(sw, w, "mm.model.mlp.1.weight", SEER_TYPE_F16, SYNTH_WEIGHT, in, s->n_out);
        synth_add(sw, w, "mm.model.mlp.1.bias", SEER_TYPE_F32, SYNTH_BIAS, s->n_out, 0);
        synth_add(sw, w, "mm.model.mlp.3.weight", SEER_TYPE_F16, SYNTH_WEIGHT, s->n_out, s->n_out);
        synth_add(sw, w, "mm.model.mlp.3.bias", SEER_TYPE_F32, SYNTH_BIAS, s->n_out, 0);
    }
    if (s->projector == SEER_PROJ_QWEN3VL) deepstack_mergers(sw, w, s);
    if (glm) glm4v_merger(sw, w, s);
    if (resampler) resampler_tensors(sw, w, s);
    if (paddle) { /* LayerNorm over the tower's width, 2×2 unshuffle, then the MLP */
        synth_add(sw, w, "mm.input_norm.weight", SEER_TYPE_F32, SYNTH_NORM, s->n_embd, 0);
        synth_add(sw, w, "mm.input_norm.bias", SEER_TYPE_F32, SYNTH_BIAS, s->n_embd, 0);
        mm12(sw, w, s, 4 * (int64_t)s->n_embd);
    }
    if (gemma4) { /* the pooled tokens' projection, the optional standardisation before it */
        synth_add(sw, w, "mm.input_projection.weight", SEER_TYPE_F16, SYNTH_WEIGHT, s->n_embd, s->n_out);
        if (s->standardize) {
            synth_add(sw, w, "v.std_bias", SEER_TYPE_F32, SYNTH_BIAS, s->n_embd, 0);
            synth_add(sw, w, "v.std_scale", SEER_TYPE_F32, SYNTH_NORM, s->n_embd, 0);
        }
    }
    if (lfm2) { /* LayerNorm over the 2×2-unshuffled features, then the MLP */
        int64_t in = (int64_t)s->n_embd * s->scale_factor * s->scale_factor;
        synth_add(sw, w, "mm.input_norm.weight", SEER_TYPE_F32, SYNTH_NORM, in, 0);
        synth_add(sw, w, "mm.input_norm.bias", SEER_TYPE_F32, SYNTH_BIAS, in, 0);
        mm12(sw, w, s, in);
    }
    if (pixtral) { /* the MLP per patch; [IMG_BREAK]'s embedding ends each row */
        mm12(sw, w, s, s->n_embd);
        synth_add(sw, w, "v.token_embd.img_break", SEER_TYPE_F32, SYNTH_BIAS, s->n_out, 0);
    }
    if (s->projector == SEER_PROJ_GEMMA3) {
        synth_add(sw, w, "mm.soft_emb_norm.weight", SEER_TYPE_F32, SYNTH_NORM, s->n_embd, 0);
        /* stored as the model's raw [vision, text] parameter: ne = [text, vision] */
        synth_add(sw, w, "mm.input_projection.weight", SEER_TYPE_F16, SYNTH_WEIGHT, s->n_out, s->n_embd);
    }
}

static int write_vit(const vit_spec *s, const char *path, seer_error *err) {
    gguf_writer *w = gguf_writer_new();
    synth_weights *sw = synth_weights_new(0x5eed0002);
    if (!w || !sw) {
        gguf_writer_free(w);
        synth_weights_free(sw);
        seer_error_set(err, "%s: out of memory", path);
        return -1;
    }
    gguf_writer_set_str(w, "general.architecture", "clip");
    gguf_writer_set_str(w, "general.type", "mmproj");
    gguf_writer_set_str(w, "general.name", s->name);
    gguf_writer_set_u32(w, "general.file_type", 1);
    gguf_writer_set_bool(w, "clip.has_vision_encoder", true);
    if (s->projector == SEER_PROJ_MLP) {
        gguf_writer_set_bool(w, "clip.has_text_encoder", false);
        gguf_writer_set_bool(w, "clip.has_llava_projector", true);
        gguf_writer_set_str(w, "general.description", "image encoder for LLaVA");
    }
    if (s->projector == SEER_PROJ_RESAMPLER) {
        gguf_writer_set_bool(w, "clip.has_text_encoder", false);
        gguf_writer_set_bool(w, "clip.has_minicpmv_projector", true);
        gguf_writer_set_str(w, "general.description", "image encoder for MiniCPM-V");
    }
    /* Gemma 4's converter names the vision tower's type apart from the audio tower's */
    gguf_writer_set_str(w, s->projector == SEER_PROJ_GEMMA4V ? "clip.vision.projector_type" : "clip.projector_type",
                        s->projector_name);
    if (s->projector == SEER_PROJ_RESAMPLER) {
        gguf_writer_set_i32(w, "clip.minicpmv_version", s->minicpmv_version);
        gguf_writer_set_u32(w, "clip.minicpmv_query_num", (uint32_t)s->n_queries);
    }
    gguf_writer_set_u32(w, "clip.vision.projection_dim", (uint32_t)s->proj_dim);
    gguf_writer_set_u32(w, "clip.vision.image_size", (uint32_t)s->image_size);
    gguf_writer_set_u32(w, "clip.vision.patch_size", (uint32_t)s->patch);
    gguf_writer_set_u32(w, "clip.vision.embedding_length", (uint32_t)s->n_embd);
    gguf_writer_set_u32(w, "clip.vision.feed_forward_length", (uint32_t)s->n_ff);
    gguf_writer_set_u32(w, "clip.vision.block_count", (uint32_t)s->n_layer);
    gguf_writer_set_u32(w, "clip.vision.attention.head_count", (uint32_t)s->n_head);
    gguf_writer_set_f32(w, "clip.vision.attention.layer_norm_epsilon", s->eps);
    gguf_writer_set_arr_f32(w, "clip.vision.image_mean", s->mean, 3);
    gguf_writer_set_arr_f32(w, "clip.vision.image_std", s->std, 3);
    if (s->use_silu) gguf_writer_set_bool(w, "clip.use_silu", true);
    else gguf_writer_set_bool(w, "clip.use_gelu", s->use_gelu);
    if (s->scale_factor && (s->projector == SEER_PROJ_IDEFICS3 || s->projector == SEER_PROJ_INTERNVL ||
                            s->projector == SEER_PROJ_LFM2 || s->projector == SEER_PROJ_GEMMA4V))
        gguf_writer_set_u32(w, "clip.vision.projector.scale_factor", (uint32_t)s->scale_factor);
    if (s->max_pixels) {
        gguf_writer_set_u32(w, "clip.vision.image_min_pixels", (uint32_t)s->min_pixels);
        gguf_writer_set_u32(w, "clip.vision.image_max_pixels", (uint32_t)s->max_pixels);
    }
    if (s->preproc_size) gguf_writer_set_u32(w, "clip.vision.preproc_image_size", (uint32_t)s->preproc_size);
    if (s->n_wa_pattern) gguf_writer_set_u32(w, "clip.vision.n_wa_pattern", (uint32_t)s->n_wa_pattern);
    if (s->projector == SEER_PROJ_QWEN3VL) {
        uint8_t is_ds[64] = {0}; /* GGUF bools are one byte each */
        for (int d = 0; d < s->n_deepstack; d++) is_ds[s->deepstack[d]] = 1;
        gguf_writer_set_u32(w, "clip.vision.spatial_merge_size", 2);
        gguf_writer_set_raw(w, "clip.vision.is_deepstack_layers", GGUF_TYPE_ARRAY, GGUF_TYPE_BOOL, is_ds,
                            (uint64_t)s->n_layer);
    }
    gguf_writer_set_u32(w, "general.quantization_version", 2);
    vit_tensors(sw, w, s);
    int rc = gguf_writer_write(w, path, err);
    gguf_writer_free(w);
    synth_weights_free(sw);
    return rc;
}

/* The layout called `name`: one of MODELS, or a Q4_K_M one's name + one of
 * REQUANT's suffixes (the same model as the other common downloads of it),
 * written into *spec. */
static const struct {
    const char *suffix;
    quant_scheme quant;
} REQUANT[] = {{"-q5_k_m", QUANT_Q5_K_M}, {"-q8_0", QUANT_Q8_0}};

static bool find_model(const char *name, model_spec *spec) {
    if (!name) return false;
    /* NAME-q5_k_m, NAME-q8_0: a Q4_K_M layout written with that scheme */
    const size_t len = strlen(name);
    size_t base_len = len;
    quant_scheme quant = QUANT_Q4_K_M;
    for (size_t r = 0; r < sizeof REQUANT / sizeof REQUANT[0]; r++) {
        const size_t suffix = strlen(REQUANT[r].suffix);
        if (len > suffix && strcmp(name + len - suffix, REQUANT[r].suffix) == 0) {
            base_len = len - suffix;
            quant = REQUANT[r].quant;
            break;
        }
    }
    const bool requant = base_len < len;
    for (size_t i = 0; i < sizeof MODELS / sizeof MODELS[0]; i++) {
        const model_spec *m = &MODELS[i];
        const bool match = requant ? strlen(m->name) == base_len && strncmp(m->name, name, base_len) == 0 &&
                                         m->llm.quant == QUANT_Q4_K_M
                                   : strcmp(m->name, name) == 0;
        if (match) {
            *spec = *m;
            spec->name = name;
            if (requant) spec->llm.quant = quant;
            return true;
        }
    }
    return false;
}

int seer_bench_synth(const char *name, const char *dir, seer_error *err) {
    model_spec found;
    const model_spec *m = find_model(name, &found) ? &found : NULL;
    if (!m) {
        char known[1024] = "";
        for (const char *const *n = MODEL_NAMES; *n; n++)
            snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", n == MODEL_NAMES ? "" : ", ", *n);
        seer_error_set(err, "unknown synthetic model '%s' (known: %s)", name ? name : "", known);
        return -1;
    }
    if (seer_mkdirs(dir, 0755, err) != 0) return -1;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s-llm.gguf", dir, m->name);
    if (write_llm(&m->llm, path, err) != 0) return -1;
    snprintf(path, sizeof path, "%s/%s-mmproj.gguf", dir, m->name);
    return write_vit(&m->vit, path, err);
}
