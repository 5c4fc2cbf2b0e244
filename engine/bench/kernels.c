/* Which kernels a model's products take here, named for seer bench's JSON:
 * the same choices seer_matmul makes (matmul.c), asked of the same
 * dispatch functions, so a table from another host says what ran there. */
#include <stdint.h>
#include <stdio.h>

#include "kernels/gemm_f16_internal.h"
#include "kernels/gemm_q8_internal.h"
#include "kernels/interleave_internal.h"
#include "kernels/matmul_internal.h"
#include "kernels/q8_0_wide_internal.h"
#include "seer/bench.h"
#include "seer/cpu.h"

/* The interleaved groups' several-row dot kernels: Q8_0's at plain AVX2
 * in 16-bit products from 64 rows (q8_0_wide_internal.h). */
static const char *several_row_kernel(int type) {
    return seer_q8_0_wide_takes(type, seer_simd_level()) ? "dot16x4_i16" : "dot16x4";
}

seer_bench_kernels seer_bench_kernels_for(int weight_type) {
    seer_bench_kernels k = {.simd = seer_simd_level_name(seer_simd_level()),
                            .amx_int8 = seer_q8_panel_amx_ready(),
                            .amx_bf16 = seer_amx_bf16_ready()};
    bool int8_gemm = seer_int8_gemm_supports(weight_type) && seer_q8_panel_get();
    bool grouped = seer_vec_dot16_get(weight_type) != NULL;
    k.int8_gemm = int8_gemm;
    if (seer_matmul_gemm_min_rows(weight_type) == INT64_MAX) k.prompt = several_row_kernel(weight_type);
    else if (int8_gemm && k.amx_int8 && weight_type == SEER_TYPE_Q8_0) k.prompt = "int8_gemm_amx_in_place";
    else if (int8_gemm && k.amx_int8 && grouped &&
             (weight_type == SEER_TYPE_Q4_K || weight_type == SEER_TYPE_Q5_K || weight_type == SEER_TYPE_Q6_K))
        k.prompt = "int8_gemm_amx"; /* from 32 rows: the groups unpacked with their block scales, on tiles */
    else if (int8_gemm && weight_type == SEER_TYPE_Q4_K && grouped && seer_q8_groups_avx512_built())
        k.prompt = "int8_gemm_avx512_in_place"; /* the super-block kernel on the interleaved groups */
    else if (int8_gemm) k.prompt = "int8_gemm_avx512";
    else k.prompt = "sgemm_f32";
    k.decode = grouped ? "dot16" : "dot";
    k.encode = k.amx_bf16 ? "f16_amx_bf16" : "f32_gemm";
    return k;
}

const char *seer_bench_bf16_encode_kernel(void) { return seer_amx_bf16_ready() ? "bf16_amx" : "bf16_avx512"; }

/* A quantized mmproj's block matrices (seer quantize's Q8_0): the int8 GEMM
 * on the file's rows where this level has one for the type, else the
 * several-row dot kernels on a copy interleaved at load
 * (seer_matmul_batch_interleave), else widened into the FP32 GEMM's panels. */
static const char *quantized_encode_kernel(int type, bool amx_int8) {
    if (seer_int8_gemm_supports(type) && seer_q8_panel_get())
        return amx_int8 && type == SEER_TYPE_Q8_0 ? "int8_gemm_amx_in_place" : "int8_gemm_avx512";
    if (seer_vec_dot16_rows_get(type)) return several_row_kernel(type);
    return "f32_gemm";
}

seer_bench_kernels seer_bench_kernels_running(int weight_type, int vision_type, bool bf16_encoder) {
    seer_bench_kernels k = seer_bench_kernels_for(weight_type);
    const seer_type_info *vt = seer_type_get(vision_type);
    if (vt && vt->block_size > 1) k.encode = quantized_encode_kernel(vision_type, k.amx_int8);
    else if (bf16_encoder) k.encode = seer_bench_bf16_encode_kernel();
    return k;
}

void seer_bench_kernels_format(const seer_bench_kernels *k, bool with_encode, char *buf, size_t cap) {
    snprintf(buf, cap, "%s%s%s: prompt %s, decode %s%s%s", k->simd, k->amx_int8 ? " + AMX-INT8" : "",
             k->amx_bf16 ? " + AMX-BF16" : "", k->prompt, k->decode, with_encode ? ", encode " : "",
             with_encode ? k->encode : "");
}
