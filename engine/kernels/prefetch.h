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

/* The int8 GEMM's in-place kernels (gemm_q45_K_groups_avx512.c,
 * gemm_q450_groups_avx512.c) read a panel group's weights from memory on
 * their first pass over its rows and from L2 after. That first pass reads
 * two groups' streams at the kernel's pace, which the hardware prefetchers
 * alone served at about a third of the read bandwidth: a mixture of
 * experts' prompt, where each expert's weights come once from memory for
 * 8-60 rows, ran its products 20-30% below the same products on cached
 * weights. On that pass the kernels ask for each line they read this far
 * ahead into L2 (one Zen 5 core, 128 experts' 2816 x 1408 Q4_K, 32 rows
 * each, best of five alternated: 1-4 KiB ahead within 3% of each other;
 * a super-block's lines asked for at once at its start slower than
 * nothing). Later passes ask for nothing: their lines are in L2.
 * Two groups side by side are two streams that move together, and the
 * pair after them starts past both: where a group's line ahead falls past
 * its own end, it is asked for in the next pair (pair_skip: the other
 * group's bytes; 0 for one group alone). Before, a narrow group's lines
 * ahead fell in its partner, already being read: 2048 x 512 Q4_K (an
 * expert's down product), 8 rows, one Zen 5 core, 96 MB of such
 * matrices in turn, alternated, 246-258 -> 398-423 GOP/s; 2048 x 768
 * 248-291 -> 390-495; 2816 x 704 Q5_0 222 -> 285, Q8_0 273-293 -> 351-390;
 * 1408 x 2816 Q4_K (whose groups are long) 408-427 -> 462-488; one matrix
 * in cache level. 3 KiB ahead is as good at 512 wide, 4 KiB better at
 * 704-2048. */
#define SEER_GROUPS_AHEAD 4096
static inline void seer_prefetch_group_line(const void *line, const void *group_end, size_t pair_skip) {
    const char *ahead = (const char *)line + SEER_GROUPS_AHEAD;
    if (ahead >= (const char *)group_end) ahead += pair_skip;
    __builtin_prefetch(ahead, 0, 2);
}

#endif
