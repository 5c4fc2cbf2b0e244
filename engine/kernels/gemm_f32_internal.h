/* seer's own FP32 GEMM: the exact (F32-accumulating) path of the vision
 * encoders and every other many-row product without an int8 or BF16
 * kernel. Weights of any type are dequantized to f32 into packed panels;
 * activations stay f32 rows (rounded through the weight type's vec_dot
 * type by the caller, as llama.cpp's F16 products see them). FMA
 * micro-kernels per SIMD level (AVX-512, AVX2+FMA, NEON, scalar), chosen
 * at run time by seer_simd_level(), so the speed no longer follows the
 * kernel set OpenBLAS detects (OPENBLAS_CORETYPE=Haswell put AVX2 kernels
 * on AVX-512 CPUs). It also takes f32 activations as the packed operand
 * (gemm_f32_packed.c): the ViT attention's per-head score and value
 * products, and the gated-delta layers' chunk products. OpenBLAS keeps
 * the resampler's attention and the gated delta's triangular solve
 * (docs/performance.md).
 *
 * Layout: a panel is 16 weight rows (outputs) transposed, K-major:
 * panel[16·k + c] = w[o0 + c][k] (rows past n_out are zero), so one K step
 * of a panel is 64 contiguous bytes: one zmm, two ymm or four q registers,
 * multiplied by a broadcast activation value. */
#ifndef SEER_GEMM_F32_INTERNAL_H
#define SEER_GEMM_F32_INTERNAL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct seer_weight;

/* Outputs per panel. */
#define SEER_F32_PANEL_COLS 16
/* K values each register sum runs over before it is added to the output:
 * every output is the sum, in K order, of its 128-value runs' sums, however
 * the passes are cut (a float sum over 2048 values in one register was
 * less accurate, and moved greedy tokens of tight random-weight cases). */
#define SEER_F32_KC_SUM 128
/* Largest rows × panels of any level's kernel (for callers' edge buffers). */
#define SEER_F32_MAX_ROWS 6
#define SEER_F32_MAX_PANELS 4

/* c[r·ldc + 16·j + col] = (Σ_{k<kc} a[r·lda + k] · panel_j[16·k + col]
 * + prev[r·ldp + 16·j + col]) + bias[16·j + col] for nr activation rows
 * (1..rows) and np panels (1..panels) `panel_stride` floats apart, prev
 * and bias each left out when NULL (prev may be c itself); writes all
 * 16·np columns. */
typedef void (*seer_f32_block_fn)(int64_t kc, const float *a, size_t lda, int nr, const float *panel,
                                  size_t panel_stride, int np, float *c, size_t ldc, const float *prev, size_t ldp,
                                  const float *bias);

typedef struct seer_f32_kernel {
    seer_f32_block_fn block;
    int rows, panels; /* largest nr and np the block takes */
    const char *name;
    /* K values per pass, a multiple of SEER_F32_KC_SUM: a block of panels'
     * K slice is a quarter of L2 (streamed from L2 by each block of rows,
     * whose outputs stay in L1 between the runs of SEER_F32_KC_SUM). */
    int64_t kc;
    int row_block; /* activation rows whose K slice stays in L2 while every block of panels meets them */
} seer_f32_kernel;

/* The kernel of the current SIMD level (seer_simd_level()). */
seer_f32_kernel seer_f32_kernel_get(void);

static inline size_t seer_f32_panel_floats(int64_t n_in) { return (size_t)n_in * SEER_F32_PANEL_COLS; }

/* Rows [o0, o0 + 16) of w into `panel` (seer_f32_panel_floats(n_in));
 * tmp: 16 · n_in floats of the caller's (dequantized rows). F32 and F16
 * weights in file order are read in place. */
void seer_f32_panel_pack(const struct seer_weight *w, int64_t o0, float *panel, float *tmp);

/* kern->block over kc values in runs of SEER_F32_KC_SUM, the outputs
 * adding up in a buffer of the block's own, the last run written to c
 * (plus bias[0, cols) where bias is not NULL): straight from the kernel's
 * registers where the block's columns are all of c's, else only the first
 * `cols` columns (the product's last outputs may end inside the block)
 * are read (when adding) and copied back. Why a buffer: rows of c lie n_out floats
 * apart (4 KiB multiples for 1024 or 3072 outputs), and adding every run
 * straight into c took K = 4096 products to 0.67 of the FMA peak, against
 * 0.90 through the buffer (one Sapphire Rapids core). */
void seer_f32_block_runs(const seer_f32_kernel *kern, int64_t kc, const float *a, size_t lda, int nr,
                         const float *panel, size_t panel_stride, int np, float *c, size_t ldc, int64_t cols, bool add,
                         const float *bias);

/* f32 activations as the packed operand (gemm_f32_packed.c). Panels for n
 * outputs over k: seer_f32_packed_floats(n, k) floats, outputs past n zero.
 * b is f32, or F16 (an F16 KV cache) when f16; ldb counts elements. */
size_t seer_f32_packed_floats(int64_t n, int64_t k);
/* Output o is row o of b (k values, rows ldb apart) times scale: for
 * c = a·bᵀ (the attention's scores, 1/√d folded into the keys). */
void seer_f32_pack_rows(const void *b, bool f16, size_t ldb, int64_t n, int64_t k, float scale, float *panels);
/* Output o is column o of b (k rows of n, ldb apart): for c = a·b (the
 * attention's values). */
void seer_f32_pack_cols(const void *b, bool f16, size_t ldb, int64_t k, int64_t n, float *panels);
/* Rows [k0, k1) of b only, into the lines [k0, k1) of panels packed over
 * packed_k >= k1: an operand packed a row at a time as its rows are made
 * (a triangular solve's, each row solved from those before it). */
void seer_f32_pack_cols_lines(const void *b, bool f16, size_t ldb, int64_t k0, int64_t k1, int64_t n, float *panels,
                              int64_t packed_k);
/* Values a row is widened by at a time while packed (a stack buffer). */
#define SEER_F32_PACK_RUN 64
/* c[m × n] (rows ldc apart) = (or += when add) a[m × k] (rows lda apart)
 * · the packed operand, on the calling thread; touches only the n columns.
 * Also the weight products' loop (a group of packed weight panels). */
void seer_f32_gemm_packed(const seer_f32_kernel *kern, int64_t m, int64_t n, int64_t k, const float *a, size_t lda,
                          const float *panels, float *c, size_t ldc, bool add);
/* c = (or += when add) a · the first k values of an operand packed over
 * packed_k >= k (its panels packed_k values long): a prompt tile's values,
 * multiplied from a longer tile's packing; a triangular solve's rows against
 * the rows solved so far. */
void seer_f32_gemm_packed_prefix(const seer_f32_kernel *kern, int64_t m, int64_t n, int64_t k, const float *a,
                                 size_t lda, const float *panels, int64_t packed_k, float *c, size_t ldc, bool add);
/* c = a · the packed operand + bias[0, n) on every row: the bias joins each
 * output as it is written the last time (the same float sum as adding it
 * after the product). */
void seer_f32_gemm_packed_bias(const seer_f32_kernel *kern, int64_t m, int64_t n, int64_t k, const float *a,
                               size_t lda, const float *panels, float *c, size_t ldc, const float *bias);

/* One ISA's block, built by gemm_f32_block.inc in gemm_f32_<isa>.c. */
void seer_f32_block_scalar(int64_t kc, const float *a, size_t lda, int nr, const float *panel, size_t panel_stride,
                           int np, float *c, size_t ldc, const float *prev, size_t ldp, const float *bias);
void seer_f32_block_avx2(int64_t kc, const float *a, size_t lda, int nr, const float *panel, size_t panel_stride,
                         int np, float *c, size_t ldc, const float *prev, size_t ldp, const float *bias);
void seer_f32_block_avx512(int64_t kc, const float *a, size_t lda, int nr, const float *panel, size_t panel_stride,
                           int np, float *c, size_t ldc, const float *prev, size_t ldp, const float *bias);
void seer_f32_block_neon(int64_t kc, const float *a, size_t lda, int nr, const float *panel, size_t panel_stride,
                         int np, float *c, size_t ldc, const float *prev, size_t ldp, const float *bias);

/* dst[16 k + c] = src[c][k] for k, c < 16: sixteen runs of 16 values
 * (floats, or F16 when f16) from 16 rows into a panel's 16 lines, with
 * AVX-512 or AVX2 + F16C (a weight panel's pack; scalar, one value at a
 * time, it was 5% of an exact image encode). */
typedef void (*seer_f32_transpose_fn)(const void *const src[16], bool f16, float *dst);
void seer_f32_transpose16_avx512(const void *const src[16], bool f16, float *dst);
void seer_f32_transpose16_avx2(const void *const src[16], bool f16, float *dst);
/* The vector transpose of this CPU, or NULL. */
seer_f32_transpose_fn seer_f32_transpose16_get(void);

#endif
