/* Shared bits of the matmul implementation. */
#ifndef SEER_MATMUL_INTERNAL_H
#define SEER_MATMUL_INTERNAL_H

/* Makes OpenBLAS single-threaded (our pool does the splitting); idempotent. */
void seer_blas_init(void);

#include "seer/matmul.h"

/* From this many activation rows on, dequantize + sgemm beats per-row dot
 * products (measured with tools/kernel-bench). */
#define SEER_MATMUL_GEMM_MIN_ROWS 64
/* The same for Q8_0 weights when the int8 GEMM can run. */
#define SEER_MATMUL_INT8_GEMM_MIN_ROWS 16

/* seer_matmul with the algorithm chosen by the caller (benchmarks, tests). */
/* GEMM: the best batched algorithm (int8 GEMM for Q8_0 when the CPU has
 * VNNI, else dequantize + sgemm); GEMM_F32 forces dequantize + sgemm. */
enum { SEER_MATMUL_AUTO = 0, SEER_MATMUL_DOT = 1, SEER_MATMUL_GEMM = 2, SEER_MATMUL_GEMM_F32 = 3 };
void seer_matmul_path(seer_pool *pool, const seer_weight *w, const float *x, int64_t n_rows, float *y,
                      const float *bias, int path);

#endif
