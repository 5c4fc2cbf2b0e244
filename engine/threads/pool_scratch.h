/* Scratch buffers owned by a pool, for kernels that need working memory on
 * every call (the matmul): grown on first use, reused afterwards, freed with
 * the pool. Only the caller thread may request them (outside seer_pool_run). */
#ifndef SEER_POOL_SCRATCH_H
#define SEER_POOL_SCRATCH_H

#include <stddef.h>

#include "seer/threadpool.h"

enum {
    SEER_SCRATCH_MATMUL_ACT = 0,   /* activations converted to the vec_dot type */
    SEER_SCRATCH_MATMUL_TILE = 1,  /* per-thread dequantized weight tiles */
    SEER_SCRATCH_MATMUL_QROW = 2,  /* per-thread quantized activation row */
    SEER_SCRATCH_MATMUL_ACT_D = 3, /* int8 GEMM: activation block scales */
    SEER_SCRATCH_MATMUL_ACT_S = 4, /* int8 GEMM: activation block sums (K-quant mins) */
    SEER_POOL_SCRATCH_SLOTS = 6,
};

typedef struct seer_pool_scratch {
    void *data;
    size_t size;
} seer_pool_scratch;

/* 64-byte aligned buffer of at least `bytes`; NULL on allocation failure or
 * when p is NULL. The previous contents are not preserved when it grows. */
void *seer_pool_scratch_get(seer_pool *p, int slot, size_t bytes);

/* The growing rule both owners of slots share (the pool's, and each
 * thread's own in thread_scratch.c): a slot under `bytes` is replaced by a
 * 64-byte aligned buffer a quarter larger. NULL on allocation failure. */
void *seer_scratch_slot_get(seer_pool_scratch *s, size_t bytes);

#endif
