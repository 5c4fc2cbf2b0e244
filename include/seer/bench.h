/* seer bench: the machine's own limits (memory bandwidth, f32 GEMM), the
 * work a model does (bytes per token, FLOPs per image) and the efficiencies
 * that relate measured speed to those limits; synthetic model files. */
#ifndef SEER_BENCH_H
#define SEER_BENCH_H

#include "seer/gguf.h"
#include "seer/threadpool.h"
#include "seer/vision.h"

/* ---- the machine ---- */

/* Read bandwidth in GB/s (1e9 bytes/s): a buffer of `bytes` streamed by all
 * pool threads, the best of `reps` passes at each load width the CPU runs
 * and each of a few prefetch distances. 0 on allocation failure. */
double seer_bench_mem_bandwidth(seer_pool *pool, size_t bytes, int reps);
/* Bytes of a read that no cache holds: twice the last-level cache, at
 * least `floor`, at most 4 GiB. An Intel Xeon VM reports 480 MiB of L3:
 * weights cycled through 192 MB there read Q4_K at 0.91 of the probe,
 * through 960 MB or 2 GB at the 0.77-0.82 a model's layers get. */
size_t seer_bench_beyond_caches(size_t floor);
/* The same read of memory that is already there (a model's weights): `bytes`
 * from buf, or past max_bytes 16 pieces of max_bytes / 16 spread evenly over
 * it, in GB/s, best of `reps` passes. How fast a stream can be depends on
 * where its pages landed: on one VM two buffers of the same process read up
 * to 20% apart, so decode is related to its own weights' read as well as to
 * the fresh buffer above. 0 when buf is NULL or smaller than 1 KiB. */
double seer_bench_read_gb_s(seer_pool *pool, const void *buf, size_t bytes, size_t max_bytes, int reps);
/* f32 GEMM throughput in GFLOP/s of seer_sgemm on C[m][n] = A[m][k]·B^T,
 * best of `reps`. 0 on allocation failure. */
double seer_bench_sgemm_gflops(seer_pool *pool, int m, int n, int k, int reps);
/* The exact vision encoder's product (F16 weights, n x k, times m
 * activation rows through seer_matmul: seer's FP32 GEMM, or AMX-BF16 tiles
 * where the CPU has them), best GFLOP/s of `reps`. */
double seer_bench_encoder_gemm_gflops(seer_pool *pool, int m, int n, int k, int reps);

/* Seconds of all CPUs' time the hypervisor gave to other guests since boot
 * (/proc/stat's steal), -1 where the system does not say. */
double seer_bench_steal_seconds(void);
/* The steal ticks of /proc/stat's first line ("cpu  user nice system idle
 * iowait irq softirq steal ..."); false for any other line. */
bool seer_bench_parse_steal(const char *cpu_line, double *ticks);

/* The arithmetic peaks of all pool threads, each from a register-only loop
 * at the widest vectors the CPU runs (0 and "none" where it has no such
 * instructions): FP32 FMA, int8 dot products (AVX-512 VNNI, AVX-VNNI,
 * AVX2 maddubs, NEON SDOT), BF16 dot products (AVX512-BF16), and the AMX
 * tiles' int8 and BF16 products where they are ready. Operations count a multiply and an add as two. */
typedef struct seer_bench_peaks {
    double fp32_gflop_s, int8_gop_s, bf16_gflop_s;
    const char *fp32_kernel, *int8_kernel, *bf16_kernel;
    /* AMX tiles (0 and "none" without them): the peaks of the prompt and
     * encode kernels that run on them */
    double amx_int8_gop_s, amx_bf16_gflop_s;
    const char *amx_int8_kernel, *amx_bf16_kernel;
} seer_bench_peaks;
seer_bench_peaks seer_bench_peaks_measure(seer_pool *pool);

/* The kernels a model of weight_type takes at the SIMD level in force
 * (SEER_SIMD, SEER_AMX), as seer_matmul chooses them, for interleaved
 * weights (the default): prompt "dot16x4" (interleaved groups, four
 * activation rows a call), "int8_gemm_amx", "int8_gemm_amx_in_place",
 * "int8_gemm_avx512" or "sgemm_f32" (dequantize + BLAS); decode "dot16"
 * (interleaved) or "dot"; encode (F16) "f16_amx_bf16" or "f32_gemm". */
typedef struct seer_bench_kernels {
    const char *simd;         /* seer_simd_level_name: "scalar", "avx2", "avx512-vnni" */
    bool amx_int8, amx_bf16;  /* AMX tiles in use (the CPU has them and SEER_AMX is not 0) */
    bool int8_gemm;           /* the type has an int8 GEMM at this level */
    const char *prompt, *decode, *encode;
} seer_bench_kernels;
seer_bench_kernels seer_bench_kernels_for(int weight_type);
/* The encoder's kernel for its F16/F32 matrices at --vision-precision bf16
 * (where the CPU has BF16 dot products): "bf16_amx" on AMX-BF16 tiles, else
 * "bf16_avx512". */
const char *seer_bench_bf16_encode_kernel(void);
/* seer_bench_kernels_for with the encoder's kernel for its matrices'
 * type (vision_type: the mmproj's dominant matrix type, -1 without one) and
 * the precision that runs (bf16: seer_bench_bf16_encode_kernel). A quantized
 * mmproj's: "int8_gemm_avx512", "int8_gemm_amx_in_place", "dot16x4" (the
 * prompt kernels on a copy interleaved at load) or "f32_gemm" (widened). */
seer_bench_kernels seer_bench_kernels_running(int weight_type, int vision_type, bool bf16_encoder);
/* One line naming them, as seer bench, seer info and the TUI show it:
 * "avx512-vnni + AMX-INT8 + AMX-BF16: prompt int8_gemm_amx, decode dot16,
 * encode f16_amx_bf16" (the encode part only when with_encode). */
void seer_bench_kernels_format(const seer_bench_kernels *k, bool with_encode, char *buf, size_t cap);

/* ---- the work ---- */

/* What one decoded token reads and what one prompt token computes, from the
 * LLM file: every weight tensor is read once per token except token_embd,
 * of which one row is read (unless it doubles as the output matrix). */
typedef struct seer_bench_llm_work {
    double bytes_per_token;   /* weight bytes read per generated token */
    double params_per_token;  /* weights multiplied per token (2 FLOPs each) */
    double head_params;       /* of which the output head's: a prompt runs it for its last row only */
} seer_bench_llm_work;
/* FLOPs of the weight products of an n-token prompt: every matrix per
 * token, the output head once (only the last row's logits are made). */
double seer_bench_prompt_flops(const seer_bench_llm_work *w, int n_prompt);
seer_bench_llm_work seer_bench_llm_work_of(const gguf_file *llm);

/* Bytes of all tensor data in a file (what the mmapped weights can occupy). */
double seer_bench_tensor_bytes(const gguf_file *f);

/* FLOPs of the vision encoder + projector for one encoder input of w×h
 * pixels, from the hyper-parameters: matrix products (patch embedding, QKV,
 * attention scores and weighted sums, output, FFN, projector). */
double seer_bench_vision_flops(const seer_vision_hparams *hp, int w, int h);

/* ---- the efficiencies (pure arithmetic) ---- */

typedef struct seer_bench_measure {
    seer_bench_llm_work llm;
    int n_prompt;
    double pp_seconds;         /* time to process n_prompt tokens */
    double tg_seconds_per_token;
    double kv_bytes_per_token; /* KV cache bytes a generated token's attention reads, averaged over the generation */
    /* a recurrent state's bytes a decode step moves: it reads the whole
     * state (short-conv rows, DeltaNet matrices) and writes it back, 2 × its size */
    double state_bytes_per_token;
    double encode_flops;       /* of all encoder inputs of the image */
    double encode_seconds;
    double machine_gb_s, machine_gflop_s;
    double weights_read_gb_s;      /* the same read of the model's own weights (seer_bench_read_gb_s); 0: none */
    double machine_encode_gflop_s; /* the encoder's F16 GEMM at its sizes; 0: use machine_gflop_s */
    double peak_rss_bytes, weight_bytes, kv_bytes; /* resident peak; the budget's parts */
    /* the hardware peaks the prompt's and the encoder's kernels run on
     * (seer_bench_peaks: int8 for int8 kernels, else FP32; BF16 for BF16 tiles) */
    double peak_prompt_gop_s, peak_encode_gop_s;
} seer_bench_measure;

typedef struct seer_bench_efficiency {
    double decode_bw;     /* ((bytes_per_token + kv_ + state_bytes_per_token) / s per token) / bandwidth */
    double decode_weights_bw; /* the same over weights_read_gb_s */
    double prefill_flop;  /* (2 · params · n_prompt / pp s) / GEMM FLOP/s at the prompt's sizes */
    double encode_flop;   /* (encode FLOPs / encode s) / GEMM FLOP/s at the encoder's sizes */
    double memory_overhead; /* peak resident / (weights + KV cache) − 1: the scratch share */
    double prefill_peak;  /* prompt operations per second / the hardware peak its kernels run on */
    double encode_peak;   /* encoder FLOP/s / the hardware peak its kernels run on */
} seer_bench_efficiency;

/* Ratios are 0 when an input is missing (zero time or zero machine limit). */
seer_bench_efficiency seer_bench_efficiencies(const seer_bench_measure *m);

/* Median and spread (max − min) of n samples (sorted in place). */
double seer_bench_median(double *v, int n, double *spread);

/* ---- synthetic models ---- */

/* Names accepted by seer_bench_synth ("tiny", "smolvlm-256m", …), NULL-terminated. */
const char *const *seer_bench_synth_names(void);
/* Writes DIR/NAME-llm.gguf and DIR/NAME-mmproj.gguf with the real layouts of
 * the model family and random weights (fixed seed). Returns 0 or -1. */
int seer_bench_synth(const char *name, const char *dir, seer_error *err);

#endif
