/* Prefetch distances per CPU. Decode streams every weight row once per
 * token. On some CPUs the hardware prefetchers alone leave a core waiting on
 * memory (measured on a Xeon with AVX-512: Q8_0 rows streamed at 8.5 GB/s,
 * Q4_K at 5.4, against 15 GB/s for a plain read of the same buffer); asking
 * for the bytes ahead as each 64 bytes are read brings them to 12-14 GB/s
 * and costs nothing measurable when the rows are cached. How far ahead
 * depends on the core:
 * - Intel (Sapphire Rapids Xeon, 2026-11-25, a 1 GB stream of interleaved
 *   Q6_K groups, one core | two): one L1 prefetch per super-block's lines in
 *   a burst at its start, 1 KiB ahead, 12.3 | 21-25 GB/s (a burst waits for
 *   the core's few line-fill buffers); one per 64 bytes read, L1 only, 2 KiB
 *   ahead 13.7-14.8 | 27-30; L1 1 KiB + L2 4 KiB 14.9-15.5 | 30.3-30.7
 *   (probe 32.4); L2 8 KiB or more ahead, or L1 alone 4 KiB ahead, slower;
 *   512-2048 / 2560-6144 no better.
 * - AMD (Zen 4 EPYC, 2026-11-26, seer bench generation, one thread, runs
 *   alternated): 1 KiB / 4 KiB gave Qwen2.5-VL-3B Q4_K_M 9.6-9.9 tok/s and
 *   LLaVA-1.5-7B 4.0-4.3; 512 / 2048 11.2 and 4.8-5.0; 256 / 2048 10.6-11.0
 *   and 4.6-5.3 (two threads 16.4-18.8 against 12.8-16.9); 512 / 3072 10.7-11.0
 *   and 4.8-4.9; an L2 distance of 8 KiB 8.1-8.8 and 8.8. Zen's L2 takes
 *   the lines late if asked for far ahead, and its own prefetchers cover
 *   more of the stream. The AVX2 kernels (no VNNI: more instructions a
 *   line) want the opposite, lines far ahead into L2 (2026-11-26, later,
 *   SEER_PREFETCH alternated run by run, SEER_SIMD=avx2, one thread):
 *   1 KiB / 4 KiB 7.1-7.6 tok/s, 2 KiB / 8 KiB 9.7-9.9, 2 KiB / 16 KiB
 *   10.2-12.5, 4 KiB / 16 KiB 10.0-10.4, 3 KiB / 16 KiB 8.9-9.7, 1 KiB /
 *   12-16 KiB 8.4-10.8; the AVX-512 kernels in the same sitting: 256 B /
 *   2 KiB 10.9-11.3, 256 B / 8-16 KiB 5.0-7.1, 2 KiB / 16 KiB 6.9-8.0.
 *   No software prefetch at all for the AVX-512 kernels (2026-11-27) read
 *   faster on one thread in a single process alternating the settings
 *   (Qwen2.5-VL-shaped groups: 23.4-25.3 GB/s against 21.5-23.7) but lost
 *   badly on two threads (seer bench, alternated with llama.cpp's 14.4-15.6
 *   tok/s: 12.2-15.3 against 17.8-21.9 at 256 B / 2 KiB), so it stayed.
 *   Measured again on 2026-12-07 with the Zen 5 method below
 *   (prefetch-sweep, medians of 80-600 tokens, rounds in turn), 256 /
 *   2048 against 0 / 0 (each request for the line the kernel is about to
 *   read), tok/s: Qwen2.5-VL-3B Q4_K_M one thread 11.1 -> 12.0 and
 *   11.6 -> 11.9, two 13.7 -> 13.9, 15.5 -> 15.5, 16.1 -> 16.2; its
 *   Q5_K_M 10.6 -> 11.2 and 16.5 -> 18.4; LLaVA-1.5-7B Q4_K_M one thread
 *   5.2 -> 5.6 and 5.6 -> 5.9, two 7.1 -> 7.5 and 7.9 -> 7.8; SmolVLM-256M
 *   Q8_0 141 -> 144, 150 -> 146, 154 -> 155 and 179 -> 175, 205 -> 205,
 *   198 -> 199 (4096 / 4096 behind both on Qwen2.5-VL; 64 / 64, 128 /
 *   512, 0 / 1024 and 64 / 2048 too: one thread 11.5-12.3 against 12.9,
 *   two 14.5-15.2 against 15.3). The requests still count: kernels built
 *   without them (both builds' kernels switched every two tokens) were
 *   slower, Qwen2.5-VL one thread 12.4 -> 11.5, LLaVA 5.6 -> 5.0 and two
 *   threads 7.3 -> 6.8. The K-quants gain 2-8% at one thread, SmolVLM's
 *   Q8_0 is level, and two threads are level within that VM's swings, so
 *   Zen 4 now asks for each line as it reaches it at the AVX-512 level
 *   (the AVX2 level keeps its distances).
 * - AMD Zen 5 (EPYC, family 0x1A, 2026-12-04) wants the opposite of Zen 4
 *   at the AVX-512 level: both lines 4 KiB ahead (the L2 request then
 *   lands on the L1 one's line). A program decoding token by token in one
 *   process with the distances switched every two tokens (240 tokens;
 *   tools/kernel-bench/prefetch-sweep.sh is such a program;
 *   medians; synthetic Qwen2.5-VL-3B Q4_K_M and Q5_K_M, SmolVLM-256M
 *   Q8_0), 256 / 2048 against 4096 / 4096, tok/s: Q4_K_M one thread
 *   14.3 -> 16.2, two 26.3 -> 29.3; Q5_K_M 11.4 -> 13.0 and 22.5 -> 25.8;
 *   SmolVLM 178 -> 182 and 293 -> 303. 1 KiB / 4 KiB and 2 KiB / 4 KiB
 *   lay between; 3 KiB / 3 KiB a little behind; 5-6 KiB level; 8 KiB /
 *   16 KiB, 4 KiB / 16 KiB and 2 KiB / 8 KiB behind 4 KiB / 8 KiB, which
 *   was level with 4 KiB / 4 KiB on the K-quants and 5-7% behind on
 *   SmolVLM. Later AMD families get these values too (untimed).
 * Other CPUs get Intel's values. SEER_PREFETCH=L1,L2 fixes both
 * for every level (for measuring). */
#include "kernels/prefetch.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

seer_prefetch_distances seer_prefetch_at[SEER_SIMD_LEVELS] = {{1024, 4096}, {1024, 4096}, {1024, 4096}};

static void choose(void) {
#if defined(__x86_64__)
    const int amd = seer_cpu_amd_family();
    if (amd) {
        /* Zen 5 and later: far ahead into L1; Zen 4: each line as it is reached (above) */
        seer_prefetch_at[SEER_SIMD_AVX512] = amd >= 0x1A ? (seer_prefetch_distances){4096, 4096}
                                                         : (seer_prefetch_distances){0, 0};
        seer_prefetch_at[SEER_SIMD_AVX2] = (seer_prefetch_distances){2048, 16384};
    }
#endif
    /* SEER_PREFETCH=L1,L2 (bytes) sets both for every level: for measuring
     * another CPU's best distances without rebuilding. */
    const char *env = getenv("SEER_PREFETCH");
    int l1, l2;
    if (env && sscanf(env, "%d,%d", &l1, &l2) == 2 && l1 >= 0 && l2 >= 0 && l1 <= (1 << 20) && l2 <= (1 << 20))
        for (int k = 0; k < SEER_SIMD_LEVELS; k++) seer_prefetch_at[k] = (seer_prefetch_distances){l1, l2};
}

void seer_prefetch_choose(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, choose);
}
