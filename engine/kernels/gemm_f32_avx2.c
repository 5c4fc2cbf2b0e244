/* The FP32 GEMM's AVX2+FMA block (gemm_f32_block.inc): 6 rows × 1 panel
 * of two ymm, 12 accumulators + 2 weight vectors + 1 broadcast of 16. */
#include "kernels/gemm_f32_internal.h"

#include <stdlib.h>

#if defined(__x86_64__) && defined(__FMA__)
#include <immintrin.h>

#define VEC __m256
#define LANES 8
#define VZERO() _mm256_setzero_ps()
#define VLOAD(p) _mm256_loadu_ps(p)
#define VSTORE(p, v) _mm256_storeu_ps(p, v)
#define VBCAST(p) _mm256_broadcast_ss(p)
#define VFMA(acc, a, b) _mm256_fmadd_ps(a, b, acc)
#define VADD(a, b) _mm256_add_ps(a, b)
#define ROWS 6
#define PANELS 1
#define BLOCK_FN seer_f32_block_avx2
#include "kernels/gemm_f32_block.inc"
#endif
