/* What OpenBLAS runs here. It picks its kernels when it loads, from the
 * CPU or from OPENBLAS_CORETYPE (which some machines set to an older CPU's
 * name). Since 2026-12-05 none of seer's own work goes through it (the
 * encoders, attention, the gated-delta layers' products and triangular
 * solve and MiniCPM-V's resampler run on seer's own FP32 GEMM); `seer
 * bench` still times OpenBLAS's sgemm as a reference figure, which a
 * narrower kernel set than the CPU runs lowers with nothing else to tell,
 * so seer info, the chat and seer bench say which one runs. */
#ifndef SEER_BLAS_H
#define SEER_BLAS_H

#include <stddef.h>

typedef struct seer_blas_info {
    const char *core;     /* OpenBLAS's name for its kernel set ("Haswell", "SkylakeX", ...) */
    int threads;          /* its thread count */
    int vector_bits;      /* widest vectors those kernels use (0: not known for this name) */
    int cpu_vector_bits;  /* widest vectors the CPU runs (x86-64: 128, 256 or 512; 0 elsewhere) */
} seer_blas_info;

seer_blas_info seer_blas_describe(void);

/* The kernel-set width of an OpenBLAS core name (x86-64 names; 0 when unknown). */
int seer_blas_core_vector_bits(const char *core);

/* "OpenBLAS Haswell (256-bit), 2 BLAS threads" (no width when unknown),
 * as seer info and the chat's /stats show it. */
void seer_blas_format(const seer_blas_info *b, char *buf, size_t cap);

/* Writes a one-line warning into buf and returns 1 when the kernels are
 * narrower than the CPU's vectors; 0 (buf empty) otherwise. */
int seer_blas_narrower_warning(const seer_blas_info *b, char *buf, size_t cap);

#endif
