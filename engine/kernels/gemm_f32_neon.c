/* The FP32 GEMM's NEON block (gemm_f32_block.inc): 6 rows × 1 panel of
 * four q registers, 24 accumulators + 4 weight vectors + 1 broadcast of 32. */
#include "kernels/gemm_f32_internal.h"

#include <stdlib.h>

#if defined(__aarch64__)
#include <arm_neon.h>

#define VEC float32x4_t
#define LANES 4
#define VZERO() vdupq_n_f32(0.0f)
#define VLOAD(p) vld1q_f32(p)
#define VSTORE(p, v) vst1q_f32(p, v)
#define VBCAST(p) vld1q_dup_f32(p)
#define VFMA(acc, a, b) vfmaq_f32(acc, a, b)
#define VADD(a, b) vaddq_f32(a, b)
#define ROWS 6
#define PANELS 1
#define BLOCK_FN seer_f32_block_neon
#include "kernels/gemm_f32_block.inc"
#endif
