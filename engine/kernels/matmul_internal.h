/* Shared bits of the matmul implementation. */
#ifndef SEER_MATMUL_INTERNAL_H
#define SEER_MATMUL_INTERNAL_H

/* Makes OpenBLAS single-threaded (our pool does the splitting); idempotent. */
void seer_blas_init(void);

#endif
