/* The FP32 GEMM's AVX-512 block (gemm_f32_block.inc): 6 rows × 4 panels,
 * 24 zmm accumulators + 4 weight vectors + 1 broadcast of 32. Zen 5 and
 * Intel's server cores retire two 512-bit FMAs a cycle with a latency of
 * 4: 24 independent chains keep both pipes full. */
#include "kernels/gemm_f32_internal.h"

#include <stdlib.h>

#if defined(__x86_64__) && defined(__AVX512F__)
#include <immintrin.h>

#define VEC __m512
#define LANES 16
#define VZERO() _mm512_setzero_ps()
#define VLOAD(p) _mm512_loadu_ps(p)
#define VSTORE(p, v) _mm512_storeu_ps(p, v)
#define VBCAST(p) _mm512_set1_ps(*(p))
#define VFMA(acc, a, b) _mm512_fmadd_ps(a, b, acc)
#define VADD(a, b) _mm512_add_ps(a, b)
#define ROWS 6
#define PANELS 4
#define BLOCK_FN seer_f32_block_avx512
#include "kernels/gemm_f32_block.inc"
#endif
