/* Weight matrix products: the hot path of decoder and vision encoder. */
#ifndef SEER_MATMUL_H
#define SEER_MATMUL_H

#include "seer/tensor.h"
#include "seer/threadpool.h"

/* A weight matrix used in place: n_out rows of n_in elements of `type`.
 * (A GGUF tensor with ne = [n_in, n_out].) */
typedef struct seer_weight {
    int type;
    int64_t n_in, n_out;
    const void *data;
    size_t row_bytes;
    /* A copy in groups of 16 rows for the decode kernels
     * (seer_weight_interleave; not owned), or NULL. When set, every product and row
     * read goes to it and `data` is not touched again, so its pages can be
     * given back. */
    void *interleaved;
} seer_weight;

struct gguf_tensor;
/* Wraps a 2-D GGUF tensor. Returns false when the tensor is not 2-D (or ne[2..]≠1). */
bool seer_weight_from_tensor(seer_weight *w, const struct gguf_tensor *t);

/* y[i][o] = sum_k x[i][k] * W[o][k]  (+ bias[o] if bias != NULL)
 * x: n_rows × n_in floats, y: n_rows × n_out floats. Uses quantized dot
 * products for few rows (decode) and blocked GEMM for many (prefill, ViT).
 * Numerics follow llama.cpp's CPU backend: the activations are first
 * rounded to the weight type's vec_dot type (F16 for F16 weights, Q8_0 for
 * Q8_0/Q4_0/Q5_0, Q8_1 for Q4_1/Q5_1, Q8_K for K-quants; F32 stays exact).
 * A row's result does not depend on the thread count. Scratch comes from
 * buffers owned by the pool (grown on first use only); pool may be NULL
 * (single-threaded, scratch from the heap). */
void seer_matmul(seer_pool *pool, const seer_weight *w, const float *x, int64_t n_rows,
                 float *y, const float *bias);

/* seer_matmul for a batch of independent rows (an image encoder's): the
 * GEMM takes float weights from fewer rows than in a decoder's prompt,
 * where the step and batch paths must agree bit for bit. */
void seer_matmul_batch(seer_pool *pool, const seer_weight *w, const float *x, int64_t n_rows, float *y,
                       const float *bias);
/* seer_matmul_batch for x whose every value is an F16 value already (as
 * seer_f32_round_fp16_row leaves it, e.g. rounded by the pass that made
 * x, while in cache): the same results, without the pass over x that
 * rounds it for F16 weights (4% of a SmolVLM encode at two threads). */
void seer_matmul_batch_f16_in(seer_pool *pool, const seer_weight *w, const float *x, int64_t n_rows, float *y,
                              const float *bias);
/* seer_matmul at reduced precision, for those who want speed (the vision
 * encoder's --vision-precision bf16): with enough rows for the batched
 * algorithm and a weight seer_matmul_bf16_takes, the weights and the
 * activations are rounded to BF16 (8 significant bits) and multiplied by
 * the CPU's BF16 dot products, summed in FP32; every other product is
 * exactly seer_matmul's. Rows' results do not depend on the thread count. */
void seer_matmul_bf16(seer_pool *pool, const seer_weight *w, const float *x, int64_t n_rows, float *y,
                      const float *bias);
/* Whether this CPU has the BF16 dot products (x86-64 AVX512-BF16, when
 * SEER_SIMD allows AVX-512), and whether seer_matmul_bf16 rounds w's
 * products (F16, F32 and BF16 weights on such a CPU). */
bool seer_matmul_bf16_ready(void);
bool seer_matmul_bf16_takes(const seer_weight *w);

/* Where a product splits its rows over the pool (Q8_0 weights read in
 * place on AMX), it does so with seer_pool_split in multiples of this
 * many rows; a pass over the same rows split the same way finds them in
 * its own core's cache. */
#define SEER_MATMUL_ROW_GRAIN 16

/* Several weights of the same type and input width applied to the same x
 * (Q, K and V; gate and up; the gate and up of every expert a decode step
 * chose): y[i] = x · w[i]^T (+ bias[i]; bias may be NULL). Up to
 * SEER_MATMUL_MAX_PARTS weights: the activations are quantized once for all
 * of them; for few rows (decode) all output rows also go out in one
 * dispatch. Results are exactly those of one seer_matmul per weight. */
#define SEER_MATMUL_MAX_PARTS 16
void seer_matmul_multi(seer_pool *pool, int n, const seer_weight *const w[], const float *x, int64_t n_rows,
                       float *const y[], const float *const bias[]);
/* seer_matmul_multi for n_rows rows taken from a batch of batch_rows (a
 * prompt's rows that chose one expert): where the batch's own rows take
 * the int8 GEMM, so do a few of these if it reads w in place (how few
 * depends on w's type and row length). Same
 * numbers as seer_matmul_multi at batch_rows below its GEMM's rows. */
void seer_matmul_multi_share(seer_pool *pool, int n, const seer_weight *const w[], const float *x, int64_t n_rows,
                             int64_t batch_rows, float *const y[], const float *const bias[]);

/* For callers that split a prompt's rows over the pool themselves and take
 * their rows through several steps in one dispatch (the decoder): y = x ·
 * w[i]^T (+ bias[i]) for n_rows rows on the calling thread alone, the same
 * numbers seer_matmul_multi gives them (per-row results do not depend on
 * how rows are grouped). Only for weights seer_matmul_rows_supported takes:
 * Q8_0 read in place on AMX, where nothing is packed per product, so
 * threads lose nothing by each reading all the weights. scratch: at least
 * seer_matmul_rows_scratch_bytes(n_rows, w[0]->n_in) bytes, 64-aligned,
 * the calling thread's own. At most SEER_MATMUL_MAX_PARTS weights, all with the same n_in. */
bool seer_matmul_rows_supported(const seer_weight *w);
size_t seer_matmul_rows_scratch_bytes(int64_t n_rows, int64_t n_in);
void seer_matmul_rows(int n, const seer_weight *const w[], const float *x, int64_t n_rows, float *const y[],
                      const float *const bias[], void *scratch);

/* Plain f32 GEMM through BLAS: C[m][n] = alpha * A[m][k] · op(B) + beta * C,
 * with op(B) = B^T when b_transposed (B stored [n][k]) else B ([k][n]).
 * lda/ldb/ldc are row strides. Parallel over the pool. */
void seer_sgemm(seer_pool *pool, int64_t m, int64_t n, int64_t k, float alpha, const float *a, int64_t lda,
                const float *b, int64_t ldb, bool b_transposed, float beta, float *c, int64_t ldc);

/* Reads one row (e.g. a token embedding) as floats. */
void seer_weight_get_row(const seer_weight *w, int64_t row, float *dst);

/* Bytes of w in the interleaved layout of the decode kernels, or 0 when
 * its type has none (Q4_K, Q6_K and Q8_0 have one), n_out is not a
 * multiple of 16, it is interleaved already, or SEER_INTERLEAVE leaves its
 * type out (for A/B measurements: "0" leaves out all types, a list such as
 * "Q4_K,Q6_K" keeps only those). */
size_t seer_weight_interleaved_bytes(const seer_weight *w);
/* Copies w into that layout at dst (64-byte aligned, owned by the caller),
 * in parallel over the pool (may be NULL). Results stay what llama.cpp
 * computes (its float sums go in another order). */
void seer_weight_interleave(seer_weight *w, void *dst, seer_pool *pool);
struct gguf_file;
/* seer_weight_interleave, then the file's pages of w (mapped from g) given
 * back: the copy serves every product and row read from then on. Returns
 * the bytes written at dst, 0 when w stays in the file's layout. */
size_t seer_weight_interleave_from_file(seer_weight *w, void *dst, seer_pool *pool, const struct gguf_file *g);
/* Whether an image encoder's products of w run faster from that layout,
 * read by the several-row int8 dot kernels: where the CPU has no int8 GEMM
 * for w's type (no AVX-512), which would widen it into FP32 panels as it
 * does F16. */
bool seer_matmul_batch_interleave(const seer_weight *w);
/* Bytes of one group of 16 of w's rows in that layout (0 when its type has
 * none): row r's group starts (r / 16) groups into the copy. */
size_t seer_weight_group_bytes(const seer_weight *w);
/* Block `block` (of the type's block_size elements) of row `row` in the
 * file's layout: from w->data, or from the interleaved copy when there is
 * one (bit-exact). */
void seer_weight_read_block(const seer_weight *w, int64_t row, int64_t block, void *dst);

#endif
