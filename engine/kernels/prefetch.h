/* How far ahead of its reads a stream of weights asks for the next lines
 * (the decode kernels, vec_dot_x86.inc, and seer bench's bandwidth probe):
 * one distance into L1 and one into L2, in bytes, chosen once per CPU
 * (prefetch.c says what was measured where). */
#ifndef SEER_KERNELS_PREFETCH_H
#define SEER_KERNELS_PREFETCH_H

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

#endif
