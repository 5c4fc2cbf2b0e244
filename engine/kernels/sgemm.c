/* Plain f32 GEMM through BLAS, split over the pool along the larger output
 * dimension (each worker calls single-threaded sgemm on the slices it takes). */
#include <cblas.h>

#include "kernels/matmul_internal.h"
#include "seer/matmul.h"

typedef struct sgemm_job {
    int64_t m, n, k;
    float alpha, beta;
    const float *a, *b;
    float *c;
    int64_t lda, ldb, ldc;
    bool bt, split_n;
} sgemm_job;

/* Columns (or rows) [s0, s1) of C. */
static void sgemm_range(void *ctx, int64_t s0, int64_t s1, int ith) {
    (void)ith;
    const sgemm_job *j = ctx;
    CBLAS_TRANSPOSE tb = j->bt ? CblasTrans : CblasNoTrans;
    if (j->split_n) {
        const float *b = j->bt ? j->b + s0 * j->ldb : j->b + s0;
        cblas_sgemm(CblasRowMajor, CblasNoTrans, tb, (int)j->m, (int)(s1 - s0), (int)j->k, j->alpha, j->a, (int)j->lda,
                    b, (int)j->ldb, j->beta, j->c + s0, (int)j->ldc);
    } else {
        cblas_sgemm(CblasRowMajor, CblasNoTrans, tb, (int)(s1 - s0), (int)j->n, (int)j->k, j->alpha, j->a + s0 * j->lda,
                    (int)j->lda, j->b, (int)j->ldb, j->beta, j->c + s0 * j->ldc, (int)j->ldc);
    }
}

void seer_sgemm(seer_pool *pool, int64_t m, int64_t n, int64_t k, float alpha, const float *a, int64_t lda,
                const float *b, int64_t ldb, bool b_transposed, float beta, float *c, int64_t ldc) {
    if (m <= 0 || n <= 0) return;
    seer_blas_init();
    sgemm_job j = {.m = m, .n = n, .k = k, .alpha = alpha, .beta = beta, .a = a, .b = b, .c = c,
                   .lda = lda, .ldb = ldb, .ldc = ldc, .bt = b_transposed, .split_n = n >= m};
    /* Slices in multiples of 16 so BLAS kernels see full register tiles, two
     * a thread, cut where the sizes and thread count alone say: OpenBLAS
     * rounds an output differently at different slice widths, and with
     * slices cut by the timing the same image encoded twice gave different
     * embeddings on a loaded Zen 3 (MiniCPM-V's resampler attention). */
    const int64_t span = j.split_n ? n : m, slices = 2 * (int64_t)seer_pool_size(pool);
    seer_pool_for_fixed(pool, span, ((span + slices - 1) / slices + 15) / 16 * 16, sgemm_range, &j);
}
