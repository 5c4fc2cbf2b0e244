/* The peak kernels of seer bench (peak.c, peak_neon.c). */
#ifndef SEER_BENCH_PEAK_INTERNAL_H
#define SEER_BENCH_PEAK_INTERNAL_H

#include <stdint.h>

enum { SEER_PEAK_FP32, SEER_PEAK_INT8, SEER_PEAK_BF16, SEER_PEAK_AMX_INT8, SEER_PEAK_AMX_BF16, SEER_PEAK_KINDS };

typedef struct seer_peak_kernel {
    double (*fn)(int64_t iters); /* NULL: the CPU has no such instructions */
    double ops_per_iter;         /* multiplies and adds one iteration does */
    const char *name;
} seer_peak_kernel;

/* The widest kernel of each kind this CPU runs. */
void seer_bench_peak_kernels(seer_peak_kernel out[SEER_PEAK_KINDS]);
/* The AMX kinds (peak_amx.c), where the tiles are ready; else untouched. */
void seer_bench_peak_kernels_amx(seer_peak_kernel out[SEER_PEAK_KINDS]);

#endif
