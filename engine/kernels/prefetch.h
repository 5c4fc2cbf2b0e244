/* How far ahead of its reads a stream of weights asks for the next lines
 * (the decode kernels, vec_dot_x86.inc, and seer bench's bandwidth probe):
 * one distance into L1 and one into L2, in bytes, chosen once per CPU
 * (prefetch.c says what was measured where). */
#ifndef SEER_KERNELS_PREFETCH_H
#define SEER_KERNELS_PREFETCH_H

#include <stddef.h>

#include "seer/cpu.h"

typedef struct seer_prefetch_distances {
    int l1, l2;
} seer_prefetch_distances;

/* Read by the kernels on every line, one entry per SIMD level (the
 * slower kernels of a lower level want the lines further ahead); set by
 * seer_prefetch_choose(). */
extern seer_prefetch_distances seer_prefetch_at[SEER_SIMD_LEVELS];

/* Sets seer_prefetch_at for this CPU (idempotent, thread-safe); the
 * kernels' dispatch tables call it before handing out a kernel. */
void seer_prefetch_choose(void);

/* Packing 16 weight rows into panels reads 16 streams at once, more than
 * the hardware prefetchers follow: as a pack's step moves from byte `at`
 * to `at + step` of every row, it asks for the lines it enters 256 bytes
 * ahead (F16 3420 x 1280 packed for the FP32 GEMM: 8.5 -> 15.3 GB/s on a
 * Zen 5 core; the pack was 3-5% of an encode). Rows that are NULL are
 * zeros and skipped; a prefetch past the end of a row never faults. */
static inline void seer_prefetch_rows_ahead(const void *const rows[16], size_t at, size_t step) {
    for (size_t line = (at + 63) / 64 * 64; line < at + step; line += 64)
        for (int c = 0; c < 16; c++)
            if (rows[c]) __builtin_prefetch((const char *)rows[c] + line + 256);
}

#endif
