/* The int8 GEMM's panel kernel reading Q4_0, Q5_0, Q4_1, Q5_1 and Q8_0
 * weights in place, from the interleaved groups decode reads
 * (block_q4_0x16, block_q5_0x16, block_q4_1x16, block_q5_1x16,
 * block_q8_0x16), instead of from panels
 * unpacked per call (gemm_q8_pack_avx512.c): the same idea as the Q4_K
 * groups kernel (gemm_q45_K_groups_avx512.c), for the types without
 * super-blocks (Gemma 4's Q5_0 experts' down projection, whose 704 inputs
 * are no multiple of 256, and Q4_0 files).
 *
 * The values (nibble, plus 16 where the fifth bit is set) are unsigned,
 * so they are VPDPBUSD's unsigned operand and the activations' quants its
 * signed one. Q4_0 and Q5_0 store value - 8 and value - 16: each block's
 * int32 sum starts from minus that offset times the activation block's
 * sum (act_corr, per row and block; a subtraction after the sum instead
 * cost 12 more instructions a block: Q8_0 2048 x 2048 at 128 rows, one
 * Zen 5 core, 638 -> 660 GOP/s), so it ends as the packed kernel's sum less
 * its correction, integer for integer; Q4_1 and Q5_1 store the values as
 * they are, with the mins' term per block as the packed kernel adds it.
 * The float steps are seer_q8_panel_avx512's, in its order: the results
 * are bit-identical to it (test_interleave compares them). */
#include "kernels/gemm_q8_internal.h"
#include "kernels/interleave_internal.h"
#include "kernels/prefetch.h"

#if defined(__x86_64__) && defined(__AVX512VNNI__) && defined(__AVX512VL__)
#include <immintrin.h>

#define MAX_NR 6

_Static_assert(offsetof(block_q8_0x16, d) == 0 && offsetof(block_q4_0x16, d) == 0 && offsetof(block_q5_0x16, d) == 0 &&
                   offsetof(block_q4_1x16, d) == 0 && offsetof(block_q5_1x16, d) == 0,
               "a pair of blocks starts with its first block's scales");

/* NG groups (1, 2) × NR activation rows (1..6): two groups six rows at a
 * time, each broadcast activation serving both groups' vectors (one Zen 5
 * core, 2048 x 2048, one group -> two: Q4_0 32 rows 0.59 -> 0.50 ms, 96
 * rows 1.95 -> 1.57; Q4_1 0.67 -> 0.58, 2.05 -> 1.74; Q5_0 32 rows 0.63 ->
 * 0.54; Q5_1 0.73 -> 0.62; Q8_0 32 rows 0.66 -> 0.55, 128 rows 2.54 ->
 * 2.03, 512 rows 10.6 -> 8.9. Two groups three rows at a time, the Q4_K
 * kernel's first shape, had been no faster than one group six rows: Q5_0
 * 704 x 2816 at 32 rows 408-413 against 413-419 GOP/s). Q5: fifth bits;
 * MIN: mins. Q8: Q8_0 groups, whose signed quants become VPDPBUSD's
 * unsigned operand as q + 128 (one XOR a vector), the offset 128 then
 * taken off as Q4_0's 8 is. */
static inline __attribute__((always_inline)) void q450_groups(int64_t n_blocks, const uint8_t *const grp[2],
                                                              const int8_t *act, size_t act_stride, const float *act_d,
                                                              const int32_t *act_corr, const float *act_s,
                                                              size_t d_stride, float *const out[2], bool ahead,
                                                              const int NR, const int NG, const bool Q5,
                                                              const bool MIN, const bool Q8) {
    const __m512i m4 = _mm512_set1_epi8(0x0F), sixteen = _mm512_set1_epi8(16), top = _mm512_set1_epi8((char)0x80);
    /* a pair of blocks' lines before its quants: scales (and mins, fifth bits) */
    const int HEAD_LINES = Q8 ? (int)(offsetof(block_q8_0x16, qs) / 64) : seer_q450_head_lines(Q5, MIN);
    const size_t pair_skip = NG == 2 ? (size_t)(grp[1] - grp[0]) : 0;
    const uint8_t *const grp_end[2] = {grp[0] + pair_skip, NG == 2 ? grp[1] + pair_skip : NULL};
    __m512 acc[2][MAX_NR];
#pragma GCC unroll 2
    for (int gi = 0; gi < NG; gi++)
#pragma GCC unroll 6
        for (int r = 0; r < NR; r++) acc[gi][r] = _mm512_setzero_ps();
    for (int64_t b = 0; b < n_blocks; b++) {
        const block_q8_0x16 *q8[2];
        seer_q450_block blk[2];
#pragma GCC unroll 2
        for (int gi = 0; gi < NG; gi++) {
            q8[gi] = (const block_q8_0x16 *)grp[gi] + b / 2;
            blk[gi] = Q8 ? (seer_q450_block){q8[gi]->d[b % 2], NULL, NULL, NULL} : seer_q450_block_at(grp[gi], b, Q5, MIN);
        }
        if (ahead && b % 2 == 0) /* the pair's head lines ahead (its first bytes: d); its quants' as they are read */
            for (int gi = 0; gi < NG; gi++)
                for (int l = 0; l < HEAD_LINES; l++) seer_prefetch_group_line((const uint8_t *)blk[gi].d + 64 * l, grp_end[gi], pair_skip);
        __m512i qh[2];
#pragma GCC unroll 2
        for (int gi = 0; gi < NG; gi++) qh[gi] = Q5 ? _mm512_load_si512((const void *)blk[gi].qh) : _mm512_setzero_si512();
        const int8_t *a = act + 32 * b;
        __m512i s[2][MAX_NR];
#pragma GCC unroll 2
        for (int gi = 0; gi < NG; gi++)
#pragma GCC unroll 6
            for (int r = 0; r < NR; r++) s[gi][r] = MIN ? _mm512_setzero_si512() : _mm512_set1_epi32(act_corr[r * d_stride + b]);
#pragma GCC unroll 8
        for (int g = 0; g < 8 && Q8; g++) { /* weights 4g..4g+3 */
            __m512i w[2];
#pragma GCC unroll 2
            for (int gi = 0; gi < NG; gi++) {
                w[gi] = _mm512_xor_si512(_mm512_load_si512((const void *)q8[gi]->qs[b % 2][g]), top);
                if (ahead) seer_prefetch_group_line(q8[gi]->qs[b % 2][g], grp_end[gi], pair_skip);
            }
#pragma GCC unroll 6
            for (int r = 0; r < NR; r++) {
                const __m512i bc = _mm512_set1_epi32(seer_load_i32(a + r * act_stride + 4 * g));
#pragma GCC unroll 2
                for (int gi = 0; gi < NG; gi++) s[gi][r] = _mm512_dpbusd_epi32(s[gi][r], w[gi], bc);
            }
        }
#pragma GCC unroll 4
        for (int g = 0; g < 4 && !Q8; g++) { /* weights 4g.. (low nibbles) and 16 + 4g.. (high) */
            __m512i lo[2], hi[2];
#pragma GCC unroll 2
            for (int gi = 0; gi < NG; gi++) {
                const __m512i q = _mm512_load_si512((const void *)blk[gi].qs[g]);
                if (ahead) seer_prefetch_group_line(blk[gi].qs[g], grp_end[gi], pair_skip);
                lo[gi] = _mm512_and_si512(q, m4), hi[gi] = _mm512_and_si512(_mm512_srli_epi16(q, 4), m4);
                if (Q5) {
                    lo[gi] = _mm512_mask_add_epi8(lo[gi], _mm512_test_epi8_mask(qh[gi], _mm512_set1_epi8((char)(1 << g))), lo[gi], sixteen);
                    hi[gi] = _mm512_mask_add_epi8(hi[gi], _mm512_test_epi8_mask(qh[gi], _mm512_set1_epi8((char)(16 << g))), hi[gi], sixteen);
                }
            }
#pragma GCC unroll 6
            for (int r = 0; r < NR; r++) {
                const __m512i bl = _mm512_set1_epi32(seer_load_i32(a + r * act_stride + 4 * g));
                const __m512i bh = _mm512_set1_epi32(seer_load_i32(a + r * act_stride + 16 + 4 * g));
#pragma GCC unroll 2
                for (int gi = 0; gi < NG; gi++) {
                    s[gi][r] = _mm512_dpbusd_epi32(s[gi][r], lo[gi], bl);
                    s[gi][r] = _mm512_dpbusd_epi32(s[gi][r], hi[gi], bh);
                }
            }
        }
#pragma GCC unroll 2
        for (int gi = 0; gi < NG; gi++) {
            const __m512 d = _mm512_cvtph_ps(_mm256_load_si256((const __m256i *)blk[gi].d));
#pragma GCC unroll 6
            for (int r = 0; r < NR; r++) {
                acc[gi][r] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(s[gi][r]), _mm512_mul_ps(d, _mm512_set1_ps(act_d[r * d_stride + b])),
                                             acc[gi][r]);
            }
            if (MIN) { /* + m · the activation block's scaled sum: the packed kernel's acc - (-m) · s */
                const __m512 m = _mm512_cvtph_ps(_mm256_load_si256((const __m256i *)blk[gi].m));
#pragma GCC unroll 6
                for (int r = 0; r < NR; r++) acc[gi][r] = _mm512_fmadd_ps(m, _mm512_set1_ps(act_s[r * d_stride + b]), acc[gi][r]);
            }
        }
    }
#pragma GCC unroll 2
    for (int gi = 0; gi < NG; gi++)
#pragma GCC unroll 6
        for (int r = 0; r < NR; r++) _mm512_storeu_ps(out[gi] + 16 * r, acc[gi][r]);
}

#define CALL(NR, NG, Q5, MIN, Q8)                                                                                     \
    q450_groups(n_blocks, grp, act, act_stride, act_d, act_corr, act_s, d_stride, out, ahead, NR, NG, Q5, MIN, Q8)
#define ROWS(NG, Q5, MIN, Q8) SEER_Q8_ROWS_DISPATCH(nr, CALL, NG, Q5, MIN, Q8)

/* grp[0] and grp[1] together, or grp[0] alone (grp[1] NULL). */
static void groups_rows(int type, int64_t n_blocks, const uint8_t *const grp[2], const int8_t *act, size_t act_stride,
                        const float *act_d, const int32_t *act_corr, const float *act_s, size_t d_stride, int nr,
                        float *const out[2], bool ahead) {
    const bool q5 = type == SEER_TYPE_Q5_0 || type == SEER_TYPE_Q5_1, min = type == SEER_TYPE_Q4_1 || type == SEER_TYPE_Q5_1;
    if (type == SEER_TYPE_Q8_0) {
        if (grp[1]) ROWS(2, false, false, true)
        else ROWS(1, false, false, true)
    } else if (grp[1]) {
        if (q5 && min) ROWS(2, true, true, false)
        else if (q5) ROWS(2, true, false, false)
        else if (min) ROWS(2, false, true, false)
        else ROWS(2, false, false, false)
    } else {
        if (q5 && min) ROWS(1, true, true, false)
        else if (q5) ROWS(1, true, false, false)
        else if (min) ROWS(1, false, true, false)
        else ROWS(1, false, false, false)
    }
}

void seer_q8_groups_q450_avx512(int type, int64_t n_blocks, const uint8_t *group0, const uint8_t *group1,
                                const int8_t *act, size_t act_stride, const float *act_d, const int32_t *act_corr,
                                const float *act_s, size_t d_stride, int nr, float *out0, float *out1, bool ahead) {
    groups_rows(type, n_blocks, (const uint8_t *const[2]){group0, group1}, act, act_stride, act_d, act_corr, act_s,
                d_stride, nr, (float *const[2]){out0, out1}, ahead);
}
#else
void seer_q8_groups_q450_avx512(int type, int64_t n_blocks, const uint8_t *group0, const uint8_t *group1,
                                const int8_t *act, size_t act_stride, const float *act_d, const int32_t *act_corr,
                                const float *act_s, size_t d_stride, int nr, float *out0, float *out1, bool ahead) {
    (void)type; (void)n_blocks; (void)group0; (void)group1; (void)act; (void)act_stride; (void)act_d;
    (void)act_corr; (void)act_s; (void)d_stride; (void)nr; (void)out0; (void)out1; (void)ahead;
}
#endif
