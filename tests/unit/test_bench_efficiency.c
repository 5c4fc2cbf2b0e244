/* seer bench arithmetic on known workloads (not the speed itself):
 * efficiencies, weight bytes per token, ViT FLOPs against published counts. */
#include "testlib.h"

#include <math.h>
#include <string.h>

#include "kernels/gemm_q8_internal.h"
#include "kernels/q8_0_wide_internal.h"
#include "seer/bench.h"
#include "seer/cpu.h"
#include "seer/gguf.h"
#include "seer/matmul.h"
#include "seer/tensor.h"

static void test_efficiencies(void) {
    seer_bench_measure m = {
        .llm = {.bytes_per_token = 4e9, .params_per_token = 1e9},
        .n_prompt = 512,
        .pp_seconds = 10,              /* 2·1e9·512/10 = 102.4 GFLOP/s */
        .tg_seconds_per_token = 0.5,   /* 4 GB / 0.5 s = 8 GB/s */
        .encode_flops = 1e12,
        .encode_seconds = 4,           /* 250 GFLOP/s */
        .machine_gb_s = 10,
        .machine_gflop_s = 204.8,
        .peak_rss_bytes = 575e6,
        .weight_bytes = 400e6,
        .kv_bytes = 100e6,             /* 575 / 500 − 1 = 15% over the budget */
    };
    seer_bench_efficiency e = seer_bench_efficiencies(&m);
    CHECK_NEAR(e.memory_overhead, 0.15, 1e-12);
    CHECK_NEAR(e.decode_bw, 0.8, 1e-12);
    CHECK_NEAR(e.prefill_flop, 0.5, 1e-12);
    CHECK_NEAR(e.encode_flop, 250 / 204.8, 1e-12);
    /* the KV cache's bytes count with the weights': (4 + 0.5) GB / 0.5 s = 9 GB/s */
    m.kv_bytes_per_token = 0.5e9;
    CHECK_NEAR(seer_bench_efficiencies(&m).decode_bw, 0.9, 1e-12);
    m.kv_bytes_per_token = 0;
    /* so do a recurrent state's, read and written back (Qwen3.5's DeltaNet) */
    m.state_bytes_per_token = 0.5e9;
    CHECK_NEAR(seer_bench_efficiencies(&m).decode_bw, 0.9, 1e-12);
    m.state_bytes_per_token = 0;
    /* against the same read of the model's own weights (8 GB/s): 1.0; none measured: 0 */
    CHECK(seer_bench_efficiencies(&m).decode_weights_bw == 0);
    m.weights_read_gb_s = 8;
    CHECK_NEAR(seer_bench_efficiencies(&m).decode_weights_bw, 1.0, 1e-12);
    CHECK_NEAR(seer_bench_efficiencies(&m).decode_bw, 0.8, 1e-12);
    m.weights_read_gb_s = 0;
    /* against the hardware peaks: 102.4 GOP/s of a 409.6 GOP/s int8 peak, 250 of a 1000 GFLOP/s FMA peak */
    m.peak_prompt_gop_s = 409.6;
    m.peak_encode_gop_s = 1000;
    e = seer_bench_efficiencies(&m);
    CHECK_NEAR(e.prefill_peak, 0.25, 1e-12);
    CHECK_NEAR(e.encode_peak, 0.25, 1e-12);
    /* the encoder's own GEMM reference, when measured, is the one it is held to */
    m.machine_encode_gflop_s = 312.5;
    e = seer_bench_efficiencies(&m);
    CHECK_NEAR(e.encode_flop, 0.8, 1e-12);
    CHECK_NEAR(e.prefill_flop, 0.5, 1e-12);
    /* a missing measurement gives 0, never inf or nan */
    m.tg_seconds_per_token = 0;
    m.encode_seconds = 0;
    m.machine_gflop_s = 0;
    m.weight_bytes = m.kv_bytes = 0;
    e = seer_bench_efficiencies(&m);
    CHECK(e.decode_bw == 0 && e.prefill_flop == 0 && e.encode_flop == 0 && e.memory_overhead == 0);
    CHECK(e.encode_peak == 0);
    m.peak_prompt_gop_s = 0;
    e = seer_bench_efficiencies(&m);
    CHECK(e.prefill_peak == 0);

    /* a prompt runs the output head for its last row only: 2·(0.75e9·512 + 0.25e9) FLOPs in 10 s */
    m.llm.head_params = 0.25e9;
    m.peak_prompt_gop_s = 409.6;
    e = seer_bench_efficiencies(&m);
    CHECK_NEAR(seer_bench_prompt_flops(&m.llm, 512), 2 * (0.75e9 * 512 + 0.25e9), 1e-3);
    CHECK_NEAR(e.prefill_peak, 2 * (0.75e9 * 512 + 0.25e9) / 10 / 409.6e9, 1e-12);
    CHECK(seer_bench_prompt_flops(&m.llm, 0) == 0);
}

/* The read probe on memory that is already there: a rate for a buffer
 * read whole or, past the cap, in pieces spread over it (the sanitizer
 * lane's bounds checks see every load); nothing for no buffer or one
 * under 1 KiB. */
static void test_read_probe(void) {
    seer_pool *pool = seer_pool_create(2);
    const size_t bytes = (3u << 20) + 100;
    char *buf = malloc(bytes);
    CHECK(buf != NULL);
    if (buf) {
        memset(buf, 1, bytes);
        CHECK(seer_bench_read_gb_s(pool, buf, bytes, bytes, 1) > 0);
        CHECK(seer_bench_read_gb_s(pool, buf + 3, bytes - 3, 1u << 20, 2) > 0); /* unaligned, in 16 pieces */
        CHECK(seer_bench_read_gb_s(pool, buf, 1000, 1u << 20, 1) == 0);
        CHECK(seer_bench_read_gb_s(pool, buf, bytes, 1000, 1) == 0);
    }
    CHECK(seer_bench_read_gb_s(pool, NULL, bytes, bytes, 1) == 0);
    free(buf);
    seer_pool_destroy(pool);
}

/* The probes' bytes pass the last-level cache twice over (a VM with 480
 * MiB of L3 held most of kernel-bench's old fixed sizes), never below the
 * floor asked for, and stop at 4 GiB. */
static void test_probe_bytes(void) {
    const size_t llc = (size_t)seer_cpu_llc_bytes(), gib = (size_t)1 << 30;
    CHECK(seer_bench_beyond_caches(gib) >= gib);
    CHECK(seer_bench_beyond_caches(8 * gib) == 8 * gib);
    CHECK(seer_bench_beyond_caches(1) >= (2 * llc < 4 * gib ? 2 * llc : 4 * gib));
    CHECK(seer_bench_beyond_caches(1) <= 4 * gib);
}

/* The peaks are measured by running their kernels: each kind the CPU has
 * gives a rate and names its instruction; where it has none, 0 and "none". */
static void test_peaks(void) {
    seer_pool *pool = seer_pool_create(1);
    const seer_bench_peaks p = seer_bench_peaks_measure(pool);
    printf("peaks: FP32 %.1f GFLOP/s (%s), int8 %.1f GOP/s (%s), BF16 %.1f GFLOP/s (%s)\n", p.fp32_gflop_s,
           p.fp32_kernel, p.int8_gop_s, p.int8_kernel, p.bf16_gflop_s, p.bf16_kernel);
    CHECK((p.fp32_gflop_s > 0) == (strcmp(p.fp32_kernel, "none") != 0));
    CHECK((p.int8_gop_s > 0) == (strcmp(p.int8_kernel, "none") != 0));
    CHECK((p.bf16_gflop_s > 0) == (strcmp(p.bf16_kernel, "none") != 0));
    /* the tiles' peaks where they are ready, and well past the vectors' (4x and more on Sapphire Rapids) */
    printf("AMX peaks: int8 %.1f GOP/s (%s), BF16 %.1f GFLOP/s (%s)\n", p.amx_int8_gop_s, p.amx_int8_kernel,
           p.amx_bf16_gflop_s, p.amx_bf16_kernel);
    CHECK((p.amx_int8_gop_s > 0) == (seer_q8_panel_amx_ready() && seer_simd_allowed() >= SEER_SIMD_AVX512));
    CHECK((p.amx_int8_gop_s > 0) == (strcmp(p.amx_int8_kernel, "none") != 0));
    CHECK((p.amx_bf16_gflop_s > 0) == (strcmp(p.amx_bf16_kernel, "none") != 0));
    if (p.amx_int8_gop_s > 0) CHECK_MSG(p.amx_int8_gop_s > 2 * p.int8_gop_s, "AMX %.0f vs VNNI %.0f", p.amx_int8_gop_s, p.int8_gop_s);
    /* a SIMD level seer may use has both kernels here (AVX2: FMA and maddubs; NEON: FMA and SDOT) */
    if (seer_simd_allowed() >= 1) CHECK(p.fp32_gflop_s > 0 && p.int8_gop_s > 0);
#if defined(__aarch64__)
    CHECK(p.fp32_gflop_s > 0); /* NEON's FMA is baseline ARMv8 */
#endif
    seer_pool_destroy(pool);
}

static void test_median(void) {
    double v[] = {5, 1, 3};
    double spread;
    CHECK(seer_bench_median(v, 3, &spread) == 3 && spread == 4);
    double w[] = {4, 1, 3, 2};
    CHECK(seer_bench_median(w, 4, &spread) == 2.5 && spread == 3);
    CHECK(seer_bench_median(w, 0, &spread) == 0 && spread == 0);
}

/* CLIP ViT-L/14 at 336 px: OpenCLIP's profile lists 190.7 GFLOPs (counted as
 * multiply-adds) for the 24-block tower. LLaVA-1.5 runs 23 blocks (the last is
 * dropped) plus a 1024→4096→4096 MLP over 576 patches. */
static void test_vision_flops_clip(void) {
    seer_vision_hparams hp = {0};
    hp.projector = SEER_PROJ_MLP;
    hp.image_size = 336, hp.patch_size = 14;
    hp.n_embd = 1024, hp.n_ff = 4096, hp.n_layer = 24, hp.n_head = 16, hp.n_embd_out = 4096;
    double tower24 = seer_bench_vision_flops(&hp, 336, 336) - 2.0 * 576 * (1024.0 * 4096 + 4096.0 * 4096);
    CHECK_MSG(fabs(tower24 / (2 * 190.7e9) - 1) < 0.01, "ViT-L/14-336 tower: %.4g FLOPs", tower24);
    hp.n_layer = 23;
    double per_block = (tower24 - seer_bench_vision_flops(&hp, 336, 336) +
                        2.0 * 576 * (1024.0 * 4096 + 4096.0 * 4096));
    /* one block: 577 tokens × (4·d² + 2·d·ff) MACs + 2·577²·d MACs, doubled */
    double want_block = 2 * (577.0 * (4 * 1024.0 * 1024 + 2 * 1024.0 * 4096) + 2 * 577.0 * 577 * 1024);
    CHECK_NEAR(per_block / want_block, 1.0, 1e-9);
}

/* SigLIP-B/16 at 512 px (SmolVLM): 1024 patches, 12 blocks of 768 wide. */
static void test_vision_flops_siglip(void) {
    seer_vision_hparams hp = {0};
    hp.projector = SEER_PROJ_IDEFICS3;
    hp.patch_size = 16, hp.n_embd = 768, hp.n_ff = 3072, hp.n_layer = 12, hp.n_embd_out = 576, hp.scale_factor = 4;
    double n = 1024, d = 768;
    double want = 2 * n * 768 * d                                        /* patch embedding */
                  + 12 * 2 * (n * (4 * d * d + 2 * d * 3072) + 2 * n * n * d) /* blocks */
                  + 2 * (n / 16) * (d * 16) * 576;                       /* pixel shuffle + fc */
    CHECK_NEAR(seer_bench_vision_flops(&hp, 512, 512) / want, 1.0, 1e-12);
}

/* Qwen2.5-VL: windowed blocks attend within 112-px windows (64 patches), the
 * full ones across the image; gated FFN; a 2×2 merger. */
static void test_vision_flops_qwen25(void) {
    seer_vision_hparams hp = {0};
    hp.projector = SEER_PROJ_QWEN25VL;
    hp.patch_size = 14, hp.n_embd = 1280, hp.n_ff = 3420, hp.n_layer = 32, hp.n_embd_out = 2048, hp.n_wa_pattern = 8;
    /* 448×448: 32×32 patches = 1024, exactly 16 windows of 64 */
    double n = 1024, d = 1280;
    double full = 2 * (n * n * d) * 2, windowed = 2 * (16 * 64.0 * 64 * d) * 2;
    double linear = 2 * n * (4 * d * d + 3 * d * 3420);
    double want = 2 * n * 2 * 3 * 14 * 14 * d + 32 * linear + 4 * full + 28 * windowed +
                  2 * (n / 4) * (4 * d * 4 * d + 4 * d * 2048);
    CHECK_NEAR(seer_bench_vision_flops(&hp, 448, 448) / want, 1.0, 1e-12);
}

static void test_llm_work(void) {
    gguf_writer *w = gguf_writer_new();
    gguf_writer_set_str(w, "general.architecture", "llama");
    gguf_writer_add_tensor(w, "token_embd.weight", SEER_TYPE_F32, 2, (int64_t[]){64, 100}, NULL);
    gguf_writer_add_tensor(w, "output_norm.weight", SEER_TYPE_F32, 1, (int64_t[]){64}, NULL);
    gguf_writer_add_tensor(w, "output.weight", SEER_TYPE_Q8_0, 2, (int64_t[]){64, 100}, NULL);
    gguf_writer_add_tensor(w, "blk.0.attn_q.weight", SEER_TYPE_Q4_K, 2, (int64_t[]){256, 64}, NULL);
    gguf_writer_add_tensor(w, "blk.0.attn_k.weight", SEER_TYPE_Q3_K, 2, (int64_t[]){256, 32}, NULL);
    char path[512];
    snprintf(path, sizeof path, "%s/work.gguf", test_tmpdir());
    seer_error err = {{0}};
    CHECK_MSG(gguf_writer_write(w, path, &err) == 0, "%s", err.msg);
    gguf_writer_free(w);
    gguf_file *f = gguf_open(path, &err);
    CHECK_MSG(f != NULL, "%s", err.msg);
    if (!f) return;
    seer_bench_llm_work lw = seer_bench_llm_work_of(f);
    /* one embedding row (256 B) + norm (256 B) + output (100 rows × 2 blocks × 34 B: not a multiple of 16
     * rows, so read in the file's layout) + q and k as decoding reads them, in interleaved groups of 16
     * rows with their scales unpacked to bytes: q 4 × 2368 B (block_q4_Kx16) for the file's 64 × 144,
     * k 2 × 1856 B (block_q3_Kx16) for the file's 32 × 110 */
    CHECK_NEAR(lw.bytes_per_token, 256 + 256 + 100 * 68 + 4 * 2368 + 2 * 1856, 1e-9);
    CHECK_NEAR(lw.params_per_token, 64 * 100 + 256 * 64 + 256 * 32, 1e-9);
    CHECK_NEAR(lw.head_params, 64 * 100, 1e-9); /* output.weight */
    gguf_close(f);

    /* tied embeddings: token_embd is also the output matrix, read in full */
    w = gguf_writer_new();
    gguf_writer_add_tensor(w, "token_embd.weight", SEER_TYPE_F32, 2, (int64_t[]){64, 100}, NULL);
    CHECK(gguf_writer_write(w, path, &err) == 0);
    gguf_writer_free(w);
    f = gguf_open(path, &err);
    if (!f) return;
    lw = seer_bench_llm_work_of(f);
    CHECK_NEAR(lw.bytes_per_token, 64 * 100 * 4, 1e-9);
    CHECK_NEAR(lw.params_per_token, 6400, 1e-9);
    CHECK_NEAR(lw.head_params, 6400, 1e-9);
    gguf_close(f);
}

/* The kernels bench names follow the level in force: scalar has neither an
 * int8 GEMM nor interleaved several-row kernels; AVX-512 takes a Q4_K
 * prompt through the int8 GEMM (on AMX tiles where there are, Q6_K's too;
 * Q3_K's stays on AVX-512 there), but for a
 * CPU that halves 512-bit vectors (Zen 4) without AMX: the four-row dot
 * kernel. */
/* /proc/stat's steal column: the eighth number of the "cpu" line (a
 * kernel's line as it prints it), nothing from a per-CPU or short line;
 * and this host's own figure, where it has /proc/stat, never goes back. */
static void test_steal(void) {
    double t = -1;
    CHECK(seer_bench_parse_steal("cpu  4705 150 1120 16250 520 0 35 977 0 0\n", &t) && t == 977);
    CHECK(seer_bench_parse_steal("cpu 1 2 3 4 5 6 7 8", &t) && t == 8);
    CHECK(!seer_bench_parse_steal("cpu0 4705 150 1120 16250 520 0 35 977 0 0", &t));
    CHECK(!seer_bench_parse_steal("cpu  4705 150 1120 16250 520 0 35", &t));
    CHECK(!seer_bench_parse_steal("intr 12345", &t) && !seer_bench_parse_steal(NULL, &t));
    const double a = seer_bench_steal_seconds(), b = seer_bench_steal_seconds();
    CHECK(a < 0 || b >= a);
}

static void test_kernels(void) {
    seer_simd_set_level(SEER_SIMD_SCALAR);
    seer_bench_kernels k = seer_bench_kernels_for(SEER_TYPE_Q4_K);
    CHECK_MSG(strcmp(k.simd, "scalar") == 0 && strcmp(k.prompt, "sgemm_f32") == 0 && !k.int8_gemm,
              "scalar: %s prompt %s", k.simd, k.prompt);
    seer_simd_set_level(-1);
    if (seer_simd_level() >= SEER_SIMD_AVX512) {
        k = seer_bench_kernels_for(SEER_TYPE_Q4_K);
        const char *want = k.amx_int8 ? "int8_gemm_amx" : "int8_gemm_avx512_in_place";
        CHECK_MSG(strcmp(k.prompt, want) == 0 && strcmp(k.decode, "dot16") == 0, "avx512: prompt %s (want %s), decode %s",
                  k.prompt, want, k.decode);
        k = seer_bench_kernels_for(SEER_TYPE_Q6_K); /* packed panels */
        want = k.amx_int8 ? "int8_gemm_amx" : "int8_gemm_avx512";
        CHECK_MSG(strcmp(k.prompt, want) == 0, "avx512 Q6_K: prompt %s (want %s)", k.prompt, want);
        k = seer_bench_kernels_for(SEER_TYPE_Q3_K); /* on AVX-512 on AMX hosts too, and on Zen 4 since 2026-12-07 */
        CHECK_MSG(strcmp(k.prompt, "int8_gemm_avx512") == 0, "avx512 Q3_K: prompt %s", k.prompt);
        k = seer_bench_kernels_for(SEER_TYPE_F16);
        CHECK_MSG(strcmp(k.encode, k.amx_bf16 ? "f16_amx_bf16" : "f32_gemm") == 0, "encode %s", k.encode);
        /* --vision-precision bf16 on the tiles where they are (matmul.c) */
        CHECK_MSG(strcmp(seer_bench_bf16_encode_kernel(), k.amx_bf16 ? "bf16_amx" : "bf16_avx512") == 0,
                  "bf16 encode %s", seer_bench_bf16_encode_kernel());
    }
}

/* A quantized mmproj's encoder is named for the kernel its batches take at
 * each level: the int8 GEMM where the level has one for the type, the
 * several-row dot kernels exactly where the encoder interleaves its
 * matrices at load (seer_matmul_batch_interleave), else the FP32 panels;
 * never a BF16 kernel, which only F16/F32 matrices take. */
static void test_encode_kernels(void) {
    const int types[] = {SEER_TYPE_Q8_0, SEER_TYPE_Q4_K, SEER_TYPE_Q6_K};
    for (int level = SEER_SIMD_SCALAR; level < SEER_SIMD_LEVELS; level++) {
        seer_simd_set_level(level);
        if (seer_simd_level() != level) continue; /* not on this CPU */
        for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
            const seer_weight w = {.type = types[t], .n_in = 256, .n_out = 16,
                                   .row_bytes = seer_row_bytes(types[t], 256)};
            const seer_bench_kernels k = seer_bench_kernels_running(SEER_TYPE_Q4_K, types[t], true);
            const char *want = seer_int8_gemm_supports(types[t]) && seer_q8_panel_get()
                                   ? (k.amx_int8 && types[t] == SEER_TYPE_Q8_0 ? "int8_gemm_amx_in_place" : "int8_gemm_avx512")
                               : !seer_matmul_batch_interleave(&w) ? "f32_gemm"
                               : seer_q8_0_wide_takes(types[t], level) ? "dot16x4_i16"
                                                                       : "dot16x4";
            CHECK_MSG(strcmp(k.encode, want) == 0, "level %d %s mmproj: encode %s (want %s)", level,
                      seer_type_name(types[t]), k.encode, want);
        }
        /* F16 matrices (and no mmproj) keep the precision's kernel */
        seer_bench_kernels k = seer_bench_kernels_running(SEER_TYPE_Q4_K, SEER_TYPE_F16, false);
        CHECK_MSG(strcmp(k.encode, seer_bench_kernels_for(SEER_TYPE_Q4_K).encode) == 0, "F16 mmproj: %s", k.encode);
        k = seer_bench_kernels_running(SEER_TYPE_Q4_K, -1, true);
        CHECK_MSG(strcmp(k.encode, seer_bench_bf16_encode_kernel()) == 0, "bf16: %s", k.encode);
    }
    seer_simd_set_level(-1);
#if defined(__x86_64__)
    /* AVX2 has no int8 GEMM: a Q8_0 mmproj takes the interleaved dot kernels (5cee366), in 16-bit products
     * where the AVX2 build is the plain one */
    seer_simd_set_level(SEER_SIMD_AVX2);
    const char *want_avx2 = seer_cpu_avx2_build() == SEER_AVX2_PLAIN ? "dot16x4_i16" : "dot16x4";
    if (seer_simd_level() == SEER_SIMD_AVX2)
        CHECK_MSG(strcmp(seer_bench_kernels_running(SEER_TYPE_Q4_K, SEER_TYPE_Q8_0, false).encode, want_avx2) == 0,
                  "avx2 Q8_0 mmproj: %s", seer_bench_kernels_running(SEER_TYPE_Q4_K, SEER_TYPE_Q8_0, false).encode);
    seer_simd_set_level(-1);
#endif
}

int main(void) {
    test_read_probe();
    test_probe_bytes();
    test_kernels();
    test_encode_kernels();
    test_steal();
    test_efficiencies();
    test_peaks();
    test_median();
    test_vision_flops_clip();
    test_vision_flops_siglip();
    test_vision_flops_qwen25();
    test_llm_work();
    TEST_MAIN_END();
}
