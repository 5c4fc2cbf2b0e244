/* Plain f32 GEMM through BLAS, split over the pool along the larger output
 * dimension (each worker calls single-threaded sgemm on its slice). */
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

static void sgemm_task(void *ctx, int ith, int nth) {
    const sgemm_job *j = ctx;
    int64_t len = j->split_n ? j->n : j->m;
    /* Slices in multiples of 16 so BLAS kernels see full register tiles. */
    int64_t units = (len + 15) / 16, u0, u1;
    seer_pool_range(units, ith, nth, &u0, &u1);
    int64_t s0 = u0 * 16, s1 = u1 * 16 < len ? u1 * 16 : len;
    if (s1 <= s0) return;
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
    seer_pool_run(pool, sgemm_task, &j);
}
