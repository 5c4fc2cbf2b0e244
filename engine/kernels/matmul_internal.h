/* Shared bits of the matmul implementation. */
#ifndef SEER_MATMUL_INTERNAL_H
#define SEER_MATMUL_INTERNAL_H

/* Makes OpenBLAS single-threaded (our pool does the splitting); idempotent. */
void seer_blas_init(void);

#include "seer/matmul.h"

/* From how many activation rows on the batched algorithm (int8 GEMM or
 * dequantize + sgemm) beats per-row dot products for weights of `type` on
 * this CPU (measured with tools/kernel-bench), for a weight with the decode
 * kernels' interleaved copy (seer_weight_interleave). */
int64_t seer_matmul_gemm_min_rows(int type);
/* The same for w as it is (with or without the interleaved copy): from how
 * many rows SEER_MATMUL_AUTO takes the batched algorithm for it. */
int64_t seer_matmul_weight_gemm_min_rows(const seer_weight *w);
/* From how many rows seer_matmul_multi_share takes the int8 GEMM for rows
 * of a batch of batch_rows whose first weight is w. */
int64_t seer_matmul_share_gemm_rows(const seer_weight *w, int64_t batch_rows);

/* GEMM: the best batched algorithm (int8 GEMM where the type and CPU allow,
 * else dequantize + sgemm); GEMM_F32 forces dequantize + sgemm; GEMM_BF16
 * the BF16 products (gemm_bf16_internal.h) where seer_matmul_bf16_takes(w),
 * else GEMM. */
enum { SEER_MATMUL_AUTO = 0, SEER_MATMUL_DOT = 1, SEER_MATMUL_GEMM = 2, SEER_MATMUL_GEMM_F32 = 3, SEER_MATMUL_GEMM_BF16 = 4 };
void seer_matmul_path(seer_pool *pool, const seer_weight *w, const float *x, int64_t n_rows, float *y,
                      const float *bias, int path);

#endif
