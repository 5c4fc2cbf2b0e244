/* The int8 GEMM's super-block kernel reading Q4_K and Q5_K weights in
 * place, from the interleaved groups decode reads (block_q4_Kx16,
 * block_q5_Kx16), instead of from panels unpacked per call
 * (gemm_q8_pack_avx512.c). Packing wrote two bytes of panel per byte of
 * group and took 40% as long as the products at the 32 rows an expert of a
 * mixture-of-experts prompt sees; in place, nothing is written and the
 * groups take half the cache the panels did.
 *
 * The nibbles are unsigned, so they are VPDPBUSD's unsigned operand and
 * the activations its signed one (Q8_K's quants as they are, no +128):
 * there is no correction to take off. One 64-byte load of qs[c][g] holds
 * vector g of blocks 2c (low nibbles) and 2c + 1 (high nibbles, multiplied
 * in place as 16 times their value, the 16 folded into that block's scale:
 * exact, as both are powers of two away from the packed kernel's values;
 * Q5_K adds each fifth bit as 16, its high nibbles shifted down first).
 * Each block's int32 sums, the float scale steps, the mins' integer dot
 * product and the activation scale are those of seer_q8_panels_sb_avx512
 * in the same order: the results are bit-identical to it (test_interleave
 * compares the products through the file's layout and the groups). */
#include "kernels/compiler_barrier.h"
#include "kernels/gemm_q8_internal.h"
#include "kernels/interleave_internal.h"
#include "kernels/prefetch.h"

#if defined(__x86_64__) && defined(__AVX512VNNI__) && defined(__AVX512VL__)
#include <immintrin.h>

#define MAX_NR 6

/* NG groups (1 or 2) × NR activation rows (1..MAX_NR / NG). Q5: Q5_K
 * groups, whose fifth bits add 16 to a nibble's value (the high nibbles are
 * then shifted down first: 16 times 31 no longer fits a byte). */
static inline __attribute__((always_inline)) void q45_K_groups(int64_t n_sb, const uint8_t *const grp[2],
                                                               const int8_t *act, size_t act_stride,
                                                               const float *act_d, const int16_t *act_sums,
                                                               size_t d_stride, float *const out[2], bool ahead,
                                                               const int NR, const int NG, const bool Q5) {
    const __m512i m4 = _mm512_set1_epi8(0x0F), sixteen = _mm512_set1_epi8(16);
    const size_t SB_BYTES = Q5 ? sizeof(block_q5_Kx16) : sizeof(block_q4_Kx16);
    const int HEAD_LINES = (int)(SB_BYTES - sizeof(((block_q4_Kx16 *)0)->qs)) / 64;
    const size_t pair_skip = NG == 2 ? (size_t)(grp[1] - grp[0]) : 0;
    const uint8_t *const grp_end[2] = {grp[0] + pair_skip, NG == 2 ? grp[1] + pair_skip : NULL};
    for (int64_t sb = 0; sb < n_sb; sb++) {
        const block_q4_Kx16 *x[2];
        const uint8_t(*qh[2])[SEER_ILV_ROWS][4];
#pragma GCC unroll 2
        for (int gi = 0; gi < NG; gi++) {
            x[gi] = Q5 ? &((const block_q5_Kx16 *)grp[gi])[sb].low : (const block_q4_Kx16 *)grp[gi] + sb;
            qh[gi] = Q5 ? ((const block_q5_Kx16 *)grp[gi])[sb].qh : NULL;
        }
        __m512 acc[2][MAX_NR];
#pragma GCC unroll 2
        for (int gi = 0; gi < NG; gi++)
#pragma GCC unroll 6
            for (int r = 0; r < NR; r++) acc[gi][r] = _mm512_setzero_ps();
#pragma GCC unroll 1
        for (int c = 0; c < 4; c++) {
            /* Block 2c (low nibbles) over all 8 vectors, then block 2c + 1
             * (high nibbles): one block's sums at a time leave registers
             * for six rows of two groups, so a weight vector unpacked once
             * serves 6 rows instead of 3. */
#pragma GCC unroll 1
            for (int h = 0; h < 2; h++) {
                /* Two groups' weight vectors are loaded again for block
                 * 2c + 1, not kept from block 2c: GCC kept all 16 in
                 * registers across the two blocks and moved the 12 float
                 * accumulators to the stack, a load and a store each per
                 * block. Reloading costs 16 loads that the two blocks' 192
                 * products hide (six rows, one Zen 5 core, 128 rows, medians
                 * of alternated rounds: 2048 wide 0.55-0.72 -> 0.68-0.76 of
                 * the int8 peak, 11008 wide 0.52-0.66 -> 0.63-0.71; the same
                 * bits). One group's 8 fit beside its 6 accumulators:
                 * reloading them slowed Q5_K by 4%. */
                if (NG == 2) seer_compiler_barrier();
                const int8_t *a = act + 256 * sb + 64 * c + 32 * h;
                const __m512i bit = _mm512_set1_epi8((char)((1 + h) << (2 * c)));
                __m512i s[2][MAX_NR]; /* [group][row] */
#pragma GCC unroll 2
                for (int gi = 0; gi < NG; gi++)
#pragma GCC unroll 6
                    for (int r = 0; r < NR; r++) s[gi][r] = _mm512_setzero_si512();
#pragma GCC unroll 8
                for (int g = 0; g < 8; g++) {
                    __m512i w[2];
#pragma GCC unroll 2
                    for (int gi = 0; gi < NG; gi++) {
                        const __m512i q = _mm512_load_si512((const void *)x[gi]->qs[c][g]);
                        if (ahead && h == 0) { /* the super-block's lines ahead, one a vector: */
                            seer_prefetch_group_line(x[gi]->qs[c][g], grp_end[gi], pair_skip); /* its nibbles' */
                            if (8 * c + g < HEAD_LINES) /* its fifth bits', scales' and mins' */
                                seer_prefetch_group_line(grp[gi] + sb * SB_BYTES + 64 * (8 * c + g), grp_end[gi], pair_skip);
                        }
                        if (Q5) {
                            const __m512i bits = _mm512_load_si512((const void *)qh[gi][g]);
                            w[gi] = _mm512_and_si512(h ? _mm512_srli_epi16(q, 4) : q, m4);
                            w[gi] = _mm512_mask_add_epi8(w[gi], _mm512_test_epi8_mask(bits, bit), w[gi], sixteen);
                        } else {
                            w[gi] = h ? _mm512_andnot_si512(m4, q) : _mm512_and_si512(q, m4);
                        }
                    }
#pragma GCC unroll 6
                    for (int r = 0; r < NR; r++) {
                        const __m512i bc = _mm512_set1_epi32(seer_load_i32(a + r * act_stride + 4 * g));
#pragma GCC unroll 2
                        for (int gi = 0; gi < NG; gi++) s[gi][r] = _mm512_dpbusd_epi32(s[gi][r], w[gi], bc);
                    }
                }
#pragma GCC unroll 2
                for (int gi = 0; gi < NG; gi++) {
                    const __m512 d = _mm512_cvtph_ps(_mm256_load_si256((const __m256i *)x[gi]->d));
                    const __m512 sc =
                        _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm_load_si128((const __m128i *)x[gi]->scales[2 * c + h])));
                    /* Q4_K's high nibbles were multiplied in place as 16 times their value */
                    const __m512 dh = _mm512_mul_ps(Q5 || !h ? d : _mm512_mul_ps(d, _mm512_set1_ps(1.0f / 16)), sc);
#pragma GCC unroll 6
                    for (int r = 0; r < NR; r++) acc[gi][r] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(s[gi][r]), dh, acc[gi][r]);
                }
            }
        }
#pragma GCC unroll 2
        for (int gi = 0; gi < NG; gi++) {
            __m512i mv[4]; /* the blocks' mins as 16-bit pairs (2c, 2c + 1) per row */
#pragma GCC unroll 4
            for (int c = 0; c < 4; c++) mv[c] = _mm512_cvtepu8_epi16(_mm256_load_si256((const __m256i *)x[gi]->mins[c]));
            const __m512 dmin = _mm512_cvtph_ps(_mm256_load_si256((const __m256i *)x[gi]->dmin));
#pragma GCC unroll 6
            for (int r = 0; r < NR; r++) {
                const int16_t *sums = act_sums + r * d_stride + 8 * sb;
                __m512i t = _mm512_madd_epi16(mv[0], _mm512_set1_epi32(seer_load_i32(sums)));
#pragma GCC unroll 4
                for (int c = 1; c < 4; c++) t = _mm512_dpwssd_epi32(t, mv[c], _mm512_set1_epi32(seer_load_i32(sums + 2 * c)));
                acc[gi][r] = _mm512_fnmadd_ps(dmin, _mm512_cvtepi32_ps(t), acc[gi][r]);
            }
            seer_q8_sb_scale_out(acc[gi], NR, act_d, d_stride, sb, out[gi]);
        }
    }
}

#define CALL(NR, NG, Q5) q45_K_groups(n_sb, grp, act, act_stride, act_d, act_sums, d_stride, out, ahead, NR, NG, Q5)

static void one_group(bool q5, int64_t n_sb, const uint8_t *const grp[2], const int8_t *act, size_t act_stride,
                      const float *act_d, const int16_t *act_sums, size_t d_stride, int nr, float *const out[2],
                      bool ahead) {
    if (q5) SEER_Q8_ROWS_DISPATCH(nr, CALL, 1, true)
    else SEER_Q8_ROWS_DISPATCH(nr, CALL, 1, false)
}

/* Two Q4_K groups six rows at a time (12 int32 sums of one block, 12 float
 * accumulators, 2 weight vectors in registers): each unpacked weight vector
 * serves six rows. Before, two groups took three rows with both blocks of a
 * vector's bytes summed at once (24 sums): one Intel Xeon core (family 6
 * model 207), 4096 x 2048 x 512 rows, CPU time, best of 8 alternated runs:
 * 342 -> 382 GOP/s, two cores 655 -> 735 (llvm-mca: 91 -> 77 cycles per
 * 96 VPDPBUSD). Q5_K, whose weight vectors take more to unpack, keeps one
 * group six rows at a time: two groups six rows 368 -> 352 GOP/s there, two
 * groups three rows slower on a Zen 5 core (2048 x 2048, 32 rows: 0.59
 * against 0.50 ms). */
static void two_q4_K_groups(int64_t n_sb, const uint8_t *const grp[2], const int8_t *act, size_t act_stride,
                            const float *act_d, const int16_t *act_sums, size_t d_stride, int nr, float *const out[2],
                            bool ahead) {
    SEER_Q8_ROWS_DISPATCH(nr, CALL, 2, false)
}

void seer_q8_groups_q45_K_avx512(bool q5, int64_t n_blocks, const uint8_t *group0, const uint8_t *group1,
                                 const int8_t *act, size_t act_stride, const float *act_d, const int16_t *act_sums,
                                 size_t d_stride, int nr, float *out0, float *out1, bool ahead) {
    const int64_t n_sb = n_blocks / 8;
    if (!group1 || q5) {
        one_group(q5, n_sb, (const uint8_t *const[2]){group0, NULL}, act, act_stride, act_d, act_sums, d_stride, nr,
                  (float *const[2]){out0, NULL}, ahead);
        if (group1)
            one_group(q5, n_sb, (const uint8_t *const[2]){group1, NULL}, act, act_stride, act_d, act_sums, d_stride,
                      nr, (float *const[2]){out1, NULL}, ahead);
        return;
    }
    two_q4_K_groups(n_sb, (const uint8_t *const[2]){group0, group1}, act, act_stride, act_d, act_sums, d_stride, nr,
                    (float *const[2]){out0, out1}, ahead);
}

bool seer_q8_groups_avx512_built(void) { return true; }
#else
void seer_q8_groups_q45_K_avx512(bool q5, int64_t n_blocks, const uint8_t *group0, const uint8_t *group1,
                                 const int8_t *act, size_t act_stride, const float *act_d, const int16_t *act_sums,
                                 size_t d_stride, int nr, float *out0, float *out1, bool ahead) {
    (void)q5; (void)n_blocks; (void)group0; (void)group1; (void)act; (void)act_stride; (void)act_d; (void)act_sums;
    (void)d_stride; (void)nr; (void)out0; (void)out1; (void)ahead;
}
bool seer_q8_groups_avx512_built(void) { return false; }
#endif
