/* AVX-512 (VL/BW + VNNI) dot products: the shared x86 kernels with VPDPBUSD
 * doing the byte products and their 4-way sums in one instruction. */
#include "kernels/vec_dot_internal.h"
#include "kernels/gemm_bf16_internal.h"
#include "kernels/gemm_q8_internal.h"

#include <string.h>

#if defined(__x86_64__) && defined(__AVX512VNNI__) && defined(__AVX512VL__) && defined(__F16C__)
#include <immintrin.h>

#define KERNEL(name) name##_avx512
#define PREFETCH_LEVEL SEER_SIMD_AVX512
#define X86_VNNI 1
static inline __m256i dot_u8s8_acc(__m256i acc, __m256i u, __m256i s) { return _mm256_dpbusd_epi32(acc, u, s); }
static inline __m256i dot_u8s8(__m256i u, __m256i s) { return dot_u8s8_acc(_mm256_setzero_si256(), u, s); }
#include "kernels/vec_dot_x86.inc"

/* Q4_K × Q8_K with 512-bit vectors. A 32-byte chunk of nibbles holds two
 * sub-blocks (low nibbles, then high); broadcast to both halves and shifted
 * by 0 and 4 it lines up with 64 consecutive activations, so the
 * activations are used as loaded (no lane shuffles: on some cores shuffles
 * are what this kernel waits on). VPDPBUSD gives int32 lanes of at most
 * 4·15·127 (16 bits); lane l of sub-blocks s and s+2 go into one 32-bit lane
 * and one VPMADDWD scales both and adds them. The mins term is a vector of
 * the 8 sub-blocks' mins · activation sums, accumulated in floats. Single-
 * token decode of Q4_K weights is bound by these instructions, not by
 * memory, on one core. */
static float dot_q4_K_512(int64_t n, const void *w, const void *a) {
    const block_q4_K *x = w;
    const block_q8_K *y = a;
    const __m512i m4 = _mm512_set1_epi8(0x0F);
    /* scales in the order 0 2 1 3 4 6 5 7 (pairs s, s+2) */
    const __m128i scale_order = _mm_setr_epi8(0, 2, 1, 3, 4, 6, 5, 7, -1, -1, -1, -1, -1, -1, -1, -1);
    /* 32-bit lanes 0-7 take scale pair 2h, lanes 8-15 pair 2h+1 */
    const __m512i pick0 = _mm512_set_epi32(1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0);
    const __m512i pick1 = _mm512_set_epi32(3, 3, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2);
    __m256 acc = _mm256_setzero_ps(), acc_mins = _mm256_setzero_ps();
    for (int64_t i = 0; i < n / QK_K; i++) {
        prefetch_ahead(x + i, sizeof *x);
        uint8_t sc_mins[16];
        seer_k4_unpack(x[i].scales, sc_mins, sc_mins + 8);
        __m256i mins_dot = k4_mins_lanes(y[i].bsums, sc_mins + 8);
        acc_mins = _mm256_fmadd_ps(_mm256_set1_ps(y[i].d * h2f(x[i].dmin)), _mm256_cvtepi32_ps(mins_dot), acc_mins);
        __m512i pairs = _mm512_castsi128_si512(_mm_cvtepu8_epi16(_mm_shuffle_epi8(_mm_loadl_epi64((const __m128i *)sc_mins), scale_order)));
        __m512i sumi = _mm512_setzero_si512();
        for (int h = 0; h < 2; h++) {
            __m512i d[2];
            for (int k = 0; k < 2; k++) { /* chunk 2h+k: sub-blocks 4h+2k, 4h+2k+1 */
                __m512i q = _mm512_broadcast_i64x4(_mm256_loadu_si256((const __m256i *)(x[i].qs + 64 * h + 32 * k)));
                __m512i u = _mm512_and_si512(_mm512_mask_srli_epi16(q, 0xFFFF0000u, q, 4), m4);
                d[k] = _mm512_dpbusd_epi32(_mm512_setzero_si512(), u,
                                           _mm512_loadu_si512((const void *)(y[i].qs + 128 * h + 64 * k)));
            }
            __m512i both = _mm512_mask_blend_epi16(0xAAAAAAAA, d[0], _mm512_slli_epi32(d[1], 16));
            sumi = _mm512_add_epi32(sumi, _mm512_madd_epi16(both, _mm512_permutexvar_epi32(h ? pick1 : pick0, pairs)));
        }
        /* lane j + lane 8+j: every sub-block's j-th group of 4, scaled: the
         * 256-bit kernel's lane j exactly (integers) */
        __m256i sum8 = _mm256_add_epi32(_mm512_castsi512_si256(sumi), _mm512_extracti64x4_epi64(sumi, 1));
        acc = _mm256_fmadd_ps(_mm256_set1_ps(y[i].d * h2f(x[i].d)), _mm256_cvtepi32_ps(sum8), acc);
    }
    return hsum_ps(acc) - hsum_ps(acc_mins);
}

/* Q6_K × Q8_K with 512-bit vectors: one load of 64 low-nibble bytes covers
 * two 32-element chunks, the 2-bit high parts come from one 32-byte load
 * shifted per half, and VPDPBUSD multiplies the unsigned 6-bit values
 * (value + 32) by the activations; the 32·Σ activations correction comes
 * from the block sums. Each int32 lane is scaled by its group of 16's
 * scale; lanes j and 8+j add up to the 256-bit kernel's lane j, so the
 * float steps and the result are the same as its. */
static float dot_q6_K_512(int64_t n, const void *w, const void *a) {
    const block_q6_K *x = w;
    const block_q8_K *y = a;
    const __m512i m4 = _mm512_set1_epi8(0x0F), m3 = _mm512_set1_epi8(3);
    /* the chunk in the low 256 bits takes high bits 0-1 (or 4-5), the one in the high 256 bits 2-3 (6-7) */
    const __m512i shift_lo = _mm512_inserti64x4(_mm512_setzero_si512(), _mm256_set1_epi16(2), 1);
    const __m512i shift_hi = _mm512_inserti64x4(_mm512_set1_epi16(4), _mm256_set1_epi16(6), 1);
    /* lane l of a 64-element run starting at group g0 takes scale g0 + l/4 */
    const __m512i run = _mm512_set_epi32(3, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0);
    __m256 acc = _mm256_setzero_ps();
    for (int64_t i = 0; i < n / QK_K; i++) {
        prefetch_ahead(x + i, sizeof *x);
        __m128i sc = _mm_loadu_si128((const __m128i *)x[i].scales);
        __m512i scales = _mm512_cvtepi8_epi32(sc);
        int sub = 32 * bsums_dot16_s8(y[i].bsums, sc);
        __m512i sumi = _mm512_setzero_si512();
        for (int h = 0; h < 2; h++) {
            __m512i ql = _mm512_loadu_si512((const void *)(x[i].ql + 64 * h));
            __m512i qh = _mm512_broadcast_i64x4(_mm256_loadu_si256((const __m256i *)(x[i].qh + 32 * h)));
            __m512i u_lo = _mm512_or_si512(_mm512_and_si512(ql, m4),
                                           _mm512_slli_epi16(_mm512_and_si512(_mm512_srlv_epi16(qh, shift_lo), m3), 4));
            __m512i u_hi = _mm512_or_si512(_mm512_and_si512(_mm512_srli_epi16(ql, 4), m4),
                                           _mm512_slli_epi16(_mm512_and_si512(_mm512_srlv_epi16(qh, shift_hi), m3), 4));
            __m512i d_lo = _mm512_dpbusd_epi32(_mm512_setzero_si512(), u_lo,
                                               _mm512_loadu_si512((const void *)(y[i].qs + 128 * h)));
            __m512i d_hi = _mm512_dpbusd_epi32(_mm512_setzero_si512(), u_hi,
                                               _mm512_loadu_si512((const void *)(y[i].qs + 128 * h + 64)));
            __m512i s_lo = _mm512_permutexvar_epi32(_mm512_add_epi32(run, _mm512_set1_epi32(8 * h)), scales);
            __m512i s_hi = _mm512_permutexvar_epi32(_mm512_add_epi32(run, _mm512_set1_epi32(8 * h + 4)), scales);
            sumi = _mm512_add_epi32(sumi, _mm512_add_epi32(_mm512_mullo_epi32(d_lo, s_lo), _mm512_mullo_epi32(d_hi, s_hi)));
        }
        __m256i sum8 = _mm256_add_epi32(_mm512_castsi512_si256(sumi), _mm512_extracti64x4_epi64(sumi, 1));
        __m256 s = _mm256_cvtepi32_ps(_mm256_sub_epi32(sum8, _mm256_setr_epi32(sub, 0, 0, 0, 0, 0, 0, 0)));
        acc = _mm256_fmadd_ps(_mm256_set1_ps(y[i].d * h2f(x[i].d)), s, acc);
    }
    return hsum_ps(acc);
}

/* The one-row kernel (decode) and the several-row one of a type's
 * dot16xn_TYPE_512 (DOT16_ROWS, vec_dot_x86.inc), with the most rows the
 * latter takes a call (seer_vec_dot16_rows_avx512_most reads it). */
#define DOT16_KERNELS(t)                                                                                          \
    DOT16_ONE_AND_ROWS(dot16_##t##_512, dot16_rows_##t##_512, dot16xn_##t##_512)                                  \
    enum { dot16_rows_##t##_512_most = 4 };
#define DOT16_KERNELS6(t)                                                                                         \
    DOT16_ONE_AND_ROWS6(dot16_##t##_512, dot16_rows_##t##_512, dot16xn_##t##_512)                                 \
    enum { dot16_rows_##t##_512_most = 6 };
#define DOT16_ROWS_512 6

/* Sixteen interleaved Q4_K rows × NR rows of Q8_K activations (rows
 * act_stride bytes apart) with 512-bit vectors: one lane per weight row
 * of the whole group (the 256-bit kernel's two halves at once). The high
 * nibbles are multiplied in place, as 16× their value (VPDPBUSD does not
 * saturate and a sub-block's sum still fits in 32 bits), and the sums
 * shifted back once per sub-block. With NR > 1 (prompts without AMX) each
 * weight vector loaded and split into nibbles serves NR activation rows,
 * whose 4-byte runs VPDPBUSD takes as broadcast memory operands; each
 * row's float steps are exactly those of NR = 1, so a prompt's rows get
 * the numbers decode gives them. Q5 (block_q5_Kx16): the same with each
 * nibble's fifth bit added as 16 where qh has it (a byte mask test and a
 * masked add per half; the high values then no longer fit in place and
 * are shifted down first), except at one row (decode), where each half's
 * fifth bits are summed apart: qh's byte holds the bit of one value in
 * each of the 8 blocks, so bit 2c (2c + 1) masked out of it is 0 or
 * 2^(2c) (2^(2c+1)), VPDPBUSD's unsigned operand as it is; that sum,
 * shifted to 16 times the bits' own once per sub-block, is added to the
 * nibbles' (exactly the integers of the other way). Two more VPDPBUSD a
 * vector for an AND each instead of a mask test, a masked add and a
 * shift: one Zen 5 core, 1024 x 2048, CPU time, 67 matrices in turn from
 * memory, one row 75-80 -> 84-87 GOP/s; at 2-4 rows slower (150 -> 135,
 * 220 -> 170), so those keep the masks. Qwen2.5-VL-3B's layout as Q5_K_M,
 * `seer bench -p 1 -n 64 -r 3`, three alternated rounds: one thread
 * 11.3-12.5 -> 12.3-12.7 tok/s, two threads 20.9-21.6 -> 22.2-23.1. */
/* v times 2^s (s > 0) or divided by 2^-s (s < 0, v a multiple of it). */
static inline __m512i shift_epi32(__m512i v, int s) {
    return s > 0 ? _mm512_slli_epi32(v, (unsigned)s) : s < 0 ? _mm512_srai_epi32(v, (unsigned)-s) : v;
}

static inline __attribute__((always_inline)) void dot16xn_q45_K_512(int64_t n, const void *w, const void *a,
                                                                    size_t act_stride, const int NR, const int Q5,
                                                                    float *out) {
    const __m512i m4 = _mm512_set1_epi8(0x0F), sixteen = _mm512_set1_epi8(16);
    const bool apart = Q5 && NR == 1; /* Q5's fifth bits summed apart (one row: see above) */
    __m512 acc[DOT16_ROWS_512], acc_mins[DOT16_ROWS_512];
    #pragma GCC unroll 6
    for (int r = 0; r < NR; r++) acc[r] = acc_mins[r] = _mm512_setzero_ps();
    const char *pf = w;
    int32_t pairs[Q8_K_PAIRS_AHEAD][SEER_DOT16_MAX_ROWS][4]; /* the mins' multipliers (q8_K_pair_sums) */
    for (int64_t i = 0; i < n / QK_K; i++) {
        const block_q4_Kx16 *x = Q5 ? &((const block_q5_Kx16 *)w)[i].low : (const block_q4_Kx16 *)w + i;
        const uint8_t(*qh)[SEER_ILV_ROWS][4] = Q5 ? ((const block_q5_Kx16 *)w)[i].qh : NULL;
        /* Q5's bits are the group's first lines */
        stream_prefetch(&pf, Q4_KX16_HEAD_LINES + (Q5 ? (int)(sizeof ((block_q5_Kx16 *)0)->qh / 64) : 0));
        const block_q8_K *y[DOT16_ROWS_512];
        #pragma GCC unroll 6
        for (int r = 0; r < NR; r++) y[r] = (const block_q8_K *)((const char *)a + (size_t)r * act_stride) + i;
        const int32_t(*pair_sums)[4] = q8_K_pairs_at(a, act_stride, NR, n / QK_K, i, pairs);
        __m512i isum[DOT16_ROWS_512], msum[DOT16_ROWS_512];
        #pragma GCC unroll 6
        for (int r = 0; r < NR; r++) isum[r] = msum[r] = _mm512_setzero_si512();
        /* The chunks one at a time, as the AVX2 kernel takes them: unrolled
         * four times, GCC kept the weight vectors and the rows' sums on the
         * stack. One Zen 5 core, CPU time, 11008 x 2048: Q4_K four rows in
         * cache 283-329 -> 498-520 GOP/s, eight 321-330 -> 523-530; Q5_K four
         * rows 248-286 -> 440-442; one row from memory (16 such matrices)
         * not slower, Q4_K 26.9-33.3 -> 31.2-33.0 GB/s, two cores 54.1-58.5
         * -> 63.1-69.4. Integer sums only: the float steps are unchanged. */
        #pragma GCC unroll 1
        for (int c = 0; c < 4; c++) {
            __m512i lo[DOT16_ROWS_512], hi[DOT16_ROWS_512], fifth_lo[DOT16_ROWS_512], fifth_hi[DOT16_ROWS_512];
            #pragma GCC unroll 6
            for (int r = 0; r < NR; r++) lo[r] = hi[r] = fifth_lo[r] = fifth_hi[r] = _mm512_setzero_si512();
            #pragma GCC unroll 8
            for (int g = 0; g < 8; g++) {
                stream_prefetch(&pf, 1);
                __m512i q = _mm512_loadu_si512((const void *)x->qs[c][g][0]);
                SEER_IN_REGISTER(q); /* one load, not one per use: see compiler_barrier.h */
                __m512i q_lo = _mm512_and_si512(q, m4), q_hi = _mm512_andnot_si512(m4, q), b_lo = q_lo, b_hi = q_hi;
                if (Q5) {
                    const __m512i bits = _mm512_loadu_si512((const void *)qh[g][0]);
                    const __m512i bit_lo = _mm512_set1_epi8((char)(1 << (2 * c))), bit_hi = _mm512_set1_epi8((char)(2 << (2 * c)));
                    if (apart) {
                        b_lo = _mm512_and_si512(bits, bit_lo);
                        b_hi = _mm512_and_si512(bits, bit_hi);
                    } else { /* the fifth bits added to the values, the high ones shifted down first */
                        q_lo = _mm512_mask_add_epi8(q_lo, _mm512_test_epi8_mask(bits, bit_lo), q_lo, sixteen);
                        q_hi = _mm512_and_si512(_mm512_srli_epi16(q, 4), m4);
                        q_hi = _mm512_mask_add_epi8(q_hi, _mm512_test_epi8_mask(bits, bit_hi), q_hi, sixteen);
                    }
                }
                #pragma GCC unroll 6
                for (int r = 0; r < NR; r++) {
                    const uint8_t *qa = (const uint8_t *)y[r]->qs + 64 * c + 4 * g;
                    const __m512i a_lo = _mm512_set1_epi32((int)load_u32(qa)), a_hi = _mm512_set1_epi32((int)load_u32(qa + 32));
                    lo[r] = _mm512_dpbusd_epi32(lo[r], q_lo, a_lo);
                    hi[r] = _mm512_dpbusd_epi32(hi[r], q_hi, a_hi);
                    if (apart) {
                        fifth_lo[r] = _mm512_dpbusd_epi32(fifth_lo[r], b_lo, a_lo);
                        fifth_hi[r] = _mm512_dpbusd_epi32(fifth_hi[r], b_hi, a_hi);
                    }
                }
            }
            __m512i sc_lo = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)x->scales[2 * c]));
            __m512i sc_hi = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)x->scales[2 * c + 1]));
            __m512i mins = _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)x->mins[c][0]));
            #pragma GCC unroll 6
            for (int r = 0; r < NR; r++) {
                __m512i l = lo[r], h = Q5 && !apart ? hi[r] : _mm512_srai_epi32(hi[r], 4);
                if (apart) { /* the fifth bits' sums as 16 times their own (exact: multiples of 2^(2c), 2^(2c+1)) */
                    l = _mm512_add_epi32(l, shift_epi32(fifth_lo[r], 4 - 2 * c));
                    h = _mm512_add_epi32(h, shift_epi32(fifth_hi[r], 3 - 2 * c));
                }
                isum[r] = _mm512_add_epi32(isum[r], _mm512_add_epi32(_mm512_mullo_epi32(l, sc_lo),
                                                                     _mm512_mullo_epi32(h, sc_hi)));
                msum[r] = _mm512_add_epi32(msum[r], _mm512_madd_epi16(mins, _mm512_set1_epi32(pair_sums[r][c])));
            }
        }
        __m512 d16 = _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)x->d));
        __m512 dmin16 = _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)x->dmin));
        #pragma GCC unroll 6
        for (int r = 0; r < NR; r++) {
            __m512 yd = _mm512_set1_ps(y[r]->d);
            acc[r] = _mm512_fmadd_ps(_mm512_mul_ps(d16, yd), _mm512_cvtepi32_ps(isum[r]), acc[r]);
            acc_mins[r] = _mm512_fmadd_ps(_mm512_mul_ps(dmin16, yd), _mm512_cvtepi32_ps(msum[r]), acc_mins[r]);
        }
    }
    #pragma GCC unroll 6
    for (int r = 0; r < NR; r++) _mm512_storeu_ps(out + SEER_ILV_ROWS * r, _mm512_sub_ps(acc[r], acc_mins[r]));
}

static inline __attribute__((always_inline)) void dot16xn_q4_K_512(int64_t n, const void *w, const void *a,
                                                                   size_t act_stride, const int NR, float *out) {
    dot16xn_q45_K_512(n, w, a, act_stride, NR, 0, out);
}
static inline __attribute__((always_inline)) void dot16xn_q5_K_512(int64_t n, const void *w, const void *a,
                                                                   size_t act_stride, const int NR, float *out) {
    dot16xn_q45_K_512(n, w, a, act_stride, NR, 1, out);
}

DOT16_KERNELS6(q4_K)
DOT16_KERNELS6(q5_K)

/* Four runs of 4 weights of 16 Q6_K rows from 192 bytes at p (two ql
 * loads, one qh: q[h][g] of block_q6_Kx16), as unsigned value + 32: run t
 * goes with the activations at +32t. */
static inline void q6_K_runs_512(const uint8_t *p, __m512i u[4]) {
    const __m512i m4 = _mm512_set1_epi8(0x0F), m30 = _mm512_set1_epi8(0x30);
    __m512i q0 = _mm512_loadu_si512((const void *)p), q1 = _mm512_loadu_si512((const void *)(p + 64));
    __m512i qh = _mm512_loadu_si512((const void *)(p + 128));
    SEER_IN_REGISTER(q0);
    SEER_IN_REGISTER(q1);
    SEER_IN_REGISTER(qh);
    u[0] = _mm512_or_si512(_mm512_and_si512(q0, m4), _mm512_and_si512(_mm512_slli_epi16(qh, 4), m30));
    u[1] = _mm512_or_si512(_mm512_and_si512(q1, m4), _mm512_and_si512(_mm512_slli_epi16(qh, 2), m30));
    u[2] = _mm512_or_si512(_mm512_and_si512(_mm512_srli_epi16(q0, 4), m4), _mm512_and_si512(qh, m30));
    u[3] = _mm512_or_si512(_mm512_and_si512(_mm512_srli_epi16(q1, 4), m4), _mm512_and_si512(_mm512_srli_epi16(qh, 2), m30));
}

/* Runs j and j + 2 (j 0 or 1) of those four alone, from two of the
 * loads: the six-row kernel's half of a run's sums (dot16xn_k16_512). */
static inline void q6_K_run_pair_512(const uint8_t *p, int j, __m512i u[2]) {
    const __m512i m4 = _mm512_set1_epi8(0x0F), m30 = _mm512_set1_epi8(0x30);
    const __m512i q = _mm512_loadu_si512((const void *)(p + 64 * j)), qh = _mm512_loadu_si512((const void *)(p + 128));
    u[0] = _mm512_or_si512(_mm512_and_si512(q, m4), _mm512_and_si512(_mm512_slli_epi16(qh, 4 - 2 * j), m30));
    u[1] = _mm512_or_si512(_mm512_and_si512(_mm512_srli_epi16(q, 4), m4),
                           _mm512_and_si512(j ? _mm512_srli_epi16(qh, 2) : qh, m30));
}

/* Four runs of 4 weights of 16 Q3_K rows from qs[c][g] and hmask[g] of
 * block_q3_Kx16, as unsigned value + 4 (the low bits, 4 where the third
 * bit is set): run t goes with the activations at +32t, as Q6_K's. Q2_K
 * (hmask NULL): the low bits alone, its values. */
static inline void q23_K_runs_512(const uint8_t *qs, const uint8_t *hmask, int c, __m512i u[4]) {
    const __m512i low2 = _mm512_set1_epi8(3), four = _mm512_set1_epi8(4);
    __m512i q = _mm512_loadu_si512((const void *)qs);
    __m512i h = hmask ? _mm512_loadu_si512((const void *)hmask) : _mm512_setzero_si512();
    SEER_IN_REGISTER(q);
    if (hmask) SEER_IN_REGISTER(h);
#pragma GCC unroll 4
    for (int t = 0; t < 4; t++) {
        const __m512i low = _mm512_and_si512(t ? _mm512_srli_epi16(q, 2 * t) : q, low2);
        u[t] = hmask ? _mm512_mask_add_epi8(low, _mm512_test_epi8_mask(h, _mm512_set1_epi8((char)(1 << (4 * c + t)))), low, four)
                     : low;
    }
}

/* A super-block's integer sums of 16 rows (isum[r], activation row r)
 * into the float accumulators: weight scales d (F16) times y[r]->d. */
static inline __attribute__((always_inline)) void q8_K_sums_into(__m512 acc[], const uint16_t d[SEER_ILV_ROWS],
                                                                 const block_q8_K *const y[], const __m512i isum[],
                                                                 const int NR) {
    const __m512 d16 = _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)d));
#pragma GCC unroll 6
    for (int r = 0; r < NR; r++)
        acc[r] = _mm512_fmadd_ps(_mm512_mul_ps(d16, _mm512_set1_ps(y[r]->d)), _mm512_cvtepi32_ps(isum[r]), acc[r]);
}

/* isum + scale · (s − offset · activation sum), per row, for group grp. */
static inline __m512i k_group_scaled_512(__m512i isum, __m512i s, const int8_t scales[SEER_ILV_ROWS], int offset,
                                         const block_q8_K *y, int grp) {
    __m512i sc = _mm512_cvtepi8_epi32(_mm_loadu_si128((const __m128i *)scales));
    return _mm512_add_epi32(isum, _mm512_mullo_epi32(_mm512_sub_epi32(s, _mm512_set1_epi32(offset * y->bsums[grp])), sc));
}

/* Run g of chunk h of a Q6_K / Q3_K / Q2_K unit (dot16xn_k16_512): its
 * four runs of 4 weights against each activation row, into s[r][t].
 * Q3_K's loop over g stays rolled: unrolled four times, GCC spilled the
 * sums and runs to the stack (641 stack operands in the four-row kernel).
 * One Zen 5 core, 11008 x 2048 Q3_K, CPU time: four rows in cache 209-220
 * -> 276-287 GOP/s; one row from memory (12 such matrices, alternated
 * three times) 19.7-25.4 -> 23.8-32.7 GB/s, two cores 22.5-42.4 ->
 * 45.7-51.8. Q6_K and Q2_K lost with it rolled (Q6_K one row from memory
 * 37-38 -> 32-34 GB/s, Q2_K four rows 371 -> 326 GOP/s). */
static inline __attribute__((always_inline)) void k16_run_sums_512(const void *unit, const char **pf,
                                                                   const block_q8_K *const y[4], int h, int g,
                                                                   const int NR, const int BITS, __m512i s[4][4]) {
    __m512i u[4];
    if (BITS == 6) {
        stream_prefetch(pf, 3);
        q6_K_runs_512(((const block_q6_Kx16 *)unit)->q[h][g][0][0], u);
    } else if (BITS == 3) {
        const block_q3_Kx16 *x3 = unit;
        stream_prefetch(pf, h == 0 ? 2 : 1); /* chunk 1 reads the third bits again */
        q23_K_runs_512(x3->qs[h][g][0], x3->hmask[g][0], h, u);
    } else {
        stream_prefetch(pf, 1);
        q23_K_runs_512(((const block_q2_Kx16 *)unit)->qs[h][g][0], NULL, h, u);
    }
#pragma GCC unroll 4
    for (int r = 0; r < NR; r++) {
        const uint8_t *q8 = (const uint8_t *)y[r]->qs + 128 * h + 4 * g;
#pragma GCC unroll 4
        for (int t = 0; t < 4; t++) s[r][t] = _mm512_dpbusd_epi32(s[r][t], u[t], _mm512_set1_epi32((int)load_u32(q8 + 32 * t)));
    }
}

/* Sixteen interleaved rows of a K-quant of 16 groups of 16 (BITS 6: Q6_K,
 * 3: Q3_K, 2: Q2_K) × NR rows of Q8_K activations with 512-bit vectors,
 * one lane per weight row: VPDPBUSD sums each run of 4 weights (unsigned:
 * Q6_K's value + 32, Q3_K's + 4, Q2_K's as they are) against its 4
 * activations into the accumulator of the run's group; a group's sum less
 * the offset times its activation sum (the block sums) is scaled per lane
 * by the row's scale (Q2_K: the scale's nibble, and min · activation sum
 * comes off with dmin). The group is read front to back, one stream
 * (Q3_K's third bits twice, the second time from L1); with NR > 1 the
 * weights unpacked once serve every activation row, whose float steps are
 * those of NR = 1 (as dot16xn_q4_K_512). */
static inline __attribute__((always_inline)) void dot16xn_k16_512(int64_t n, const void *w, const void *a,
                                                                  size_t act_stride, const int NR, const int BITS,
                                                                  float *out) {
    const int offset = BITS == 6 ? 32 : BITS == 3 ? 4 : 0;
    const size_t unit_bytes = BITS == 6 ? sizeof(block_q6_Kx16) : BITS == 3 ? sizeof(block_q3_Kx16) : sizeof(block_q2_Kx16);
    __m512 acc[DOT16_ROWS_512];
#pragma GCC unroll 6
    for (int r = 0; r < NR; r++) acc[r] = _mm512_setzero_ps();
    const char *pf = w;
    for (int64_t i = 0; i < n / QK_K; i++) {
        const void *unit = (const char *)w + (size_t)i * unit_bytes;
        const block_q6_Kx16 *x6 = unit;
        const block_q3_Kx16 *x3 = unit;
        const block_q2_Kx16 *x2 = unit;
        if (BITS == 3) stream_prefetch(&pf, Q3_KX16_HEAD_LINES);
        if (BITS == 2) stream_prefetch(&pf, Q2_KX16_HEAD_LINES);
        const block_q8_K *y[DOT16_ROWS_512];
        __m512i isum[DOT16_ROWS_512], msum[DOT16_ROWS_512];
#pragma GCC unroll 6
        for (int r = 0; r < NR; r++) {
            y[r] = (const block_q8_K *)((const char *)a + (size_t)r * act_stride) + i;
            isum[r] = msum[r] = _mm512_setzero_si512();
        }
#pragma GCC unroll 2
        for (int h = 0; h < 2; h++)
#pragma GCC unroll 2
            for (int half = 0; half < 2; half++) { /* weights 16·half .. 16·half + 15 of each run of 32 */
                if (BITS == 6 && NR > 4) { /* six rows' sums of four runs do not fit the registers: two runs a pass */
#pragma GCC unroll 2
                    for (int j = 0; j < 2; j++) {
                        __m512i s2[DOT16_ROWS_512][2];
#pragma GCC unroll 6
                        for (int r = 0; r < NR; r++) s2[r][0] = s2[r][1] = _mm512_setzero_si512();
#pragma GCC unroll 4
                        for (int g = 4 * half; g < 4 * half + 4; g++) {
                            if (j == 0) stream_prefetch(&pf, 3);
                            __m512i u[2];
                            q6_K_run_pair_512(x6->q[h][g][0][0], j, u);
#pragma GCC unroll 6
                            for (int r = 0; r < NR; r++) {
                                const uint8_t *q8 = (const uint8_t *)y[r]->qs + 128 * h + 4 * g + 32 * j;
#pragma GCC unroll 2
                                for (int k = 0; k < 2; k++)
                                    s2[r][k] = _mm512_dpbusd_epi32(s2[r][k], u[k], _mm512_set1_epi32((int)load_u32(q8 + 64 * k)));
                            }
                        }
#pragma GCC unroll 2
                        for (int k = 0; k < 2; k++) {
                            const int grp = 8 * h + half + 2 * (j + 2 * k); /* run j + 2k's group */
#pragma GCC unroll 6
                            for (int r = 0; r < NR; r++)
                                isum[r] = k_group_scaled_512(isum[r], s2[r][k], x6->scales[grp], offset, y[r], grp);
                        }
                    }
                    continue;
                }
                __m512i s[4][4];
#pragma GCC unroll 4
                for (int r = 0; r < NR; r++) s[r][0] = s[r][1] = s[r][2] = s[r][3] = _mm512_setzero_si512();
                if (BITS == 3) { /* Q3_K's runs take more registers: see k16_run_sums_512 */
#pragma GCC unroll 1
                    for (int g = 4 * half; g < 4 * half + 4; g++) k16_run_sums_512(unit, &pf, y, h, g, NR, BITS, s);
                } else {
#pragma GCC unroll 4
                    for (int g = 4 * half; g < 4 * half + 4; g++) k16_run_sums_512(unit, &pf, y, h, g, NR, BITS, s);
                }
#pragma GCC unroll 4
                for (int t = 0; t < 4; t++) {
                    const int grp = 8 * h + half + 2 * t; /* run t's group */
                    if (BITS == 2) {
                        const __m512i sc = _mm512_and_si512(
                            _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)x2->scales[grp])), _mm512_set1_epi32(0xF));
#pragma GCC unroll 4
                        for (int r = 0; r < NR; r++) isum[r] = _mm512_add_epi32(isum[r], _mm512_mullo_epi32(s[r][t], sc));
                    } else {
                        const int8_t *sc = BITS == 3 ? x3->scales[grp] : x6->scales[grp];
#pragma GCC unroll 4
                        for (int r = 0; r < NR; r++) isum[r] = k_group_scaled_512(isum[r], s[r][t], sc, offset, y[r], grp);
                    }
                }
            }
        if (BITS == 6) stream_prefetch(&pf, Q6_KX16_TAIL_LINES);
        q8_K_sums_into(acc, BITS == 6 ? x6->d : BITS == 3 ? x3->d : x2->d, y, isum, NR);
        if (BITS == 2) { /* less dmin · y->d · Σ min · activation sum, the mins (high nibbles) in pairs of groups */
#pragma GCC unroll 8
            for (int k = 0; k < 8; k++) {
                const __m128i g0 = _mm_loadu_si128((const __m128i *)x2->scales[2 * k]);
                const __m128i g1 = _mm_loadu_si128((const __m128i *)x2->scales[2 * k + 1]);
                const __m512i mins = _mm512_srli_epi16(
                    _mm512_cvtepu8_epi16(_mm256_set_m128i(_mm_unpackhi_epi8(g0, g1), _mm_unpacklo_epi8(g0, g1))), 4);
#pragma GCC unroll 4
                for (int r = 0; r < NR; r++)
                    msum[r] = _mm512_add_epi32(
                        msum[r], _mm512_madd_epi16(mins, _mm512_set1_epi32((int)load_u32((const uint8_t *)(y[r]->bsums + 2 * k)))));
            }
            const __m512 dmin = _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)x2->dmin));
#pragma GCC unroll 4
            for (int r = 0; r < NR; r++)
                acc[r] = _mm512_fnmadd_ps(_mm512_mul_ps(dmin, _mm512_set1_ps(y[r]->d)), _mm512_cvtepi32_ps(msum[r]), acc[r]);
        }
    }
#pragma GCC unroll 6
    for (int r = 0; r < NR; r++) _mm512_storeu_ps(out + SEER_ILV_ROWS * r, acc[r]);
}

static inline __attribute__((always_inline)) void dot16xn_q6_K_512(int64_t n, const void *w, const void *a,
                                                                   size_t act_stride, const int NR, float *out) {
    dot16xn_k16_512(n, w, a, act_stride, NR, 6, out);
}
static inline __attribute__((always_inline)) void dot16xn_q3_K_512(int64_t n, const void *w, const void *a,
                                                                   size_t act_stride, const int NR, float *out) {
    dot16xn_k16_512(n, w, a, act_stride, NR, 3, out);
}
static inline __attribute__((always_inline)) void dot16xn_q2_K_512(int64_t n, const void *w, const void *a,
                                                                   size_t act_stride, const int NR, float *out) {
    dot16xn_k16_512(n, w, a, act_stride, NR, 2, out);
}

DOT16_KERNELS6(q6_K)
DOT16_KERNELS(q3_K)
DOT16_KERNELS(q2_K)

/* Sixteen interleaved Q8_0 rows × NR rows of Q8_0 activations with
 * 512-bit vectors. VPDPBUSD wants one unsigned side: the weights flipped
 * to w + 128 (an XOR, once for all NR rows) give Σ w·a + 128 Σ a, and the
 * activations' sum comes off once per block. */
static inline __attribute__((always_inline)) void dot16xn_q8_0_512(int64_t n, const void *w, const void *a,
                                                                   size_t act_stride, const int NR, float *out) {
    const block_q8_0x16 *x = w;
    const __m512i flip = _mm512_set1_epi8((char)0x80);
    __m512 acc[DOT16_ROWS_512];
#pragma GCC unroll 6
    for (int r = 0; r < NR; r++) acc[r] = _mm512_setzero_ps();
    const char *pf = w;
    for (int64_t b = 0; b < n / 32; b++) {
        const block_q8_0x16 *u = x + b / 2;
        int s = (int)(b % 2);
        if (s == 0) stream_prefetch(&pf, Q8_0X16_HEAD_LINES);
        const block_q8_0 *y[DOT16_ROWS_512];
        __m512i sum[DOT16_ROWS_512];
#pragma GCC unroll 6
        for (int r = 0; r < NR; r++) {
            y[r] = (const block_q8_0 *)((const char *)a + (size_t)r * act_stride) + b;
            sum[r] = _mm512_setzero_si512();
        }
#pragma GCC unroll 8
        for (int g = 0; g < 8; g++) {
            stream_prefetch(&pf, 1);
            __m512i q = _mm512_xor_si512(_mm512_loadu_si512((const void *)u->qs[s][g][0]), flip);
#pragma GCC unroll 6
            for (int r = 0; r < NR; r++)
                sum[r] = _mm512_dpbusd_epi32(sum[r], q, _mm512_set1_epi32((int)load_u32((const uint8_t *)y[r]->qs + 4 * g)));
        }
        __m512 d16 = _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)u->d[s]));
#pragma GCC unroll 6
        for (int r = 0; r < NR; r++) {
            const int sum_a = q8_0_act_block_sum(a, act_stride, r, n, b, y[r]->qs);
            __m512i isum = _mm512_sub_epi32(sum[r], _mm512_set1_epi32(128 * sum_a));
            const __m512 dd = _mm512_mul_ps(d16, _mm512_set1_ps(q8_0_act_block_scale(a, act_stride, r, n, b, y[r]->d)));
            acc[r] = _mm512_fmadd_ps(dd, _mm512_cvtepi32_ps(isum), acc[r]);
        }
    }
#pragma GCC unroll 6
    for (int r = 0; r < NR; r++) _mm512_storeu_ps(out + SEER_ILV_ROWS * r, acc[r]);
}
DOT16_KERNELS6(q8_0)

/* Sixteen interleaved Q5_0 rows (q5), Q4_0 rows or IQ4_NL rows (nl) × NR
 * rows of Q8_0 activations, or Q5_1 / Q4_1 rows (min) × Q8_1, with 512-bit
 * vectors: dot16xn_q450's steps with one lane per row of the group;
 * IQ4_NL's nibbles looked up (one byte shuffle) in the table shifted by
 * 128, so its offset is 128. */
static inline __attribute__((always_inline)) void dot16xn_q450_512(int64_t n, const void *w, const void *a,
                                                                   size_t act_stride, const int NR, const bool q5,
                                                                   const bool nl, const bool min, float *out) {
    const __m512i low4 = _mm512_set1_epi8(0x0F), bit4 = _mm512_set1_epi8(0x10);
    const __m512i table = _mm512_broadcast_i32x4(iq4_values_shifted());
    const int offset = min ? 0 : nl ? 128 : q5 ? 16 : 8;
    __m512 acc[DOT16_ROWS_512];
#pragma GCC unroll 6
    for (int r = 0; r < NR; r++) acc[r] = _mm512_setzero_ps();
    const char *pf = w;
    for (int64_t b = 0; b < n / 32; b++) {
        const seer_q450_block u = seer_q450_block_at(w, b, q5, min);
        if (b % 2 == 0) stream_prefetch(&pf, seer_q450_head_lines(q5, min));
        seer_act32 y[DOT16_ROWS_512];
        __m512i sum[DOT16_ROWS_512];
#pragma GCC unroll 6
        for (int r = 0; r < NR; r++) {
            y[r] = seer_act32_at((const char *)a + (size_t)r * act_stride, b, min);
            sum[r] = _mm512_setzero_si512();
        }
        const __m512i qh = q5 ? _mm512_loadu_si512((const void *)u.qh) : _mm512_setzero_si512();
#pragma GCC unroll 4
        for (int g = 0; g < 4; g++) {
            stream_prefetch(&pf, 1);
            const __m512i q = _mm512_loadu_si512((const void *)u.qs[g][0]);
            __m512i lo = _mm512_and_si512(q, low4), hi = _mm512_and_si512(_mm512_srli_epi16(q, 4), low4);
            if (q5) { /* | (bits & 16): ternary op 0xF8 = A | (B & C) */
                lo = _mm512_ternarylogic_epi32(lo, _mm512_sll_epi32(qh, _mm_cvtsi32_si128(4 - g)), bit4, 0xF8);
                hi = _mm512_ternarylogic_epi32(hi, _mm512_srl_epi32(qh, _mm_cvtsi32_si128(g)), bit4, 0xF8);
            }
            if (nl) {
                lo = _mm512_shuffle_epi8(table, lo);
                hi = _mm512_shuffle_epi8(table, hi);
            }
#pragma GCC unroll 6
            for (int r = 0; r < NR; r++) {
                sum[r] = _mm512_dpbusd_epi32(sum[r], lo, _mm512_set1_epi32((int)load_u32((const uint8_t *)y[r].qs + 4 * g)));
                sum[r] = _mm512_dpbusd_epi32(sum[r], hi, _mm512_set1_epi32((int)load_u32((const uint8_t *)y[r].qs + 16 + 4 * g)));
            }
        }
        const __m512 d16 = _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)u.d));
        const __m512 m16 = min ? _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)u.m)) : _mm512_setzero_ps();
#pragma GCC unroll 6
        for (int r = 0; r < NR; r++) {
            const int sum_a = !offset ? 0
                              : q8_0_act_block_sum(a, act_stride, r, n, b, y[r].qs);
            const __m512i isum = offset ? _mm512_sub_epi32(sum[r], _mm512_set1_epi32(offset * sum_a)) : sum[r];
            const __m512 dd = _mm512_mul_ps(d16, _mm512_set1_ps(min ? h2f(y[r].d) : q8_0_act_block_scale(a, act_stride, r, n, b, y[r].d)));
            if (min) /* the block's d · sum + m · s, then added, as the row kernels */
                acc[r] = _mm512_add_ps(acc[r], _mm512_fmadd_ps(dd, _mm512_cvtepi32_ps(isum),
                                                               _mm512_mul_ps(m16, _mm512_set1_ps(h2f(y[r].s)))));
            else
                acc[r] = _mm512_fmadd_ps(dd, _mm512_cvtepi32_ps(isum), acc[r]);
        }
    }
#pragma GCC unroll 6
    for (int r = 0; r < NR; r++) _mm512_storeu_ps(out + SEER_ILV_ROWS * r, acc[r]);
}
#define Q450_XN_512(t, q5, nl, min, K)                                                                                \
    static inline __attribute__((always_inline)) void dot16xn_##t##_512(int64_t n, const void *w, const void *a,   \
                                                                        size_t act_stride, const int NR,            \
                                                                        float *out) {                               \
        dot16xn_q450_512(n, w, a, act_stride, NR, q5, nl, min, out);                                                \
    }                                                                                                               \
    K(t)
Q450_XN_512(q5_0, true, false, false, DOT16_KERNELS6)
Q450_XN_512(q4_0, false, false, false, DOT16_KERNELS6)
Q450_XN_512(iq4_nl, false, true, false, DOT16_KERNELS6)
Q450_XN_512(q5_1, true, false, true, DOT16_KERNELS6)
Q450_XN_512(q4_1, false, false, true, DOT16_KERNELS6)
#undef Q450_XN_512

/* Sixteen interleaved IQ4_XS rows (block_iq4_xsx16) × NR rows of Q8_K
 * activations with 512-bit vectors: one byte shuffle per run looks the
 * nibbles up in the table shifted by 128 (an XOR), unsigned bytes for
 * VPDPBUSD, so a sub-block's sums are Σ v·a + 128 Σ a and the activations'
 * sum comes from their block sums. Then dot16xn_iq4_xs's integer steps. */
static inline __attribute__((always_inline)) void dot16xn_iq4_xs_512(int64_t n, const void *w, const void *a,
                                                                     size_t act_stride, const int NR, float *out) {
    const block_iq4_xsx16 *x = w;
    const __m512i table = _mm512_broadcast_i32x4(iq4_values_shifted());
    const __m512i low4 = _mm512_set1_epi8(0x0F);
    __m512 acc[DOT16_ROWS_512];
#pragma GCC unroll 6
    for (int r = 0; r < NR; r++) acc[r] = _mm512_setzero_ps();
    const char *pf = w;
    for (int64_t i = 0; i < n / QK_K; i++) {
        const block_iq4_xsx16 *u = x + i;
        stream_prefetch(&pf, IQ4_XSX16_HEAD_LINES);
        const block_q8_K *y[DOT16_ROWS_512];
        __m512i isum[DOT16_ROWS_512];
#pragma GCC unroll 6
        for (int r = 0; r < NR; r++) {
            y[r] = (const block_q8_K *)((const char *)a + (size_t)r * act_stride) + i;
            isum[r] = _mm512_setzero_si512();
        }
        for (int ib = 0; ib < 8; ib++) {
            __m512i sum[DOT16_ROWS_512];
#pragma GCC unroll 6
            for (int r = 0; r < NR; r++) sum[r] = _mm512_setzero_si512();
#pragma GCC unroll 4
            for (int g = 0; g < 4; g++) {
                stream_prefetch(&pf, 1);
                const __m512i q = _mm512_loadu_si512((const void *)u->qs[ib][g][0]);
                const __m512i lo = _mm512_shuffle_epi8(table, _mm512_and_si512(q, low4));
                const __m512i hi = _mm512_shuffle_epi8(table, _mm512_and_si512(_mm512_srli_epi16(q, 4), low4));
#pragma GCC unroll 6
                for (int r = 0; r < NR; r++) {
                    const uint8_t *q8 = (const uint8_t *)y[r]->qs + 32 * ib + 4 * g;
                    sum[r] = _mm512_dpbusd_epi32(sum[r], lo, _mm512_set1_epi32((int)load_u32(q8)));
                    sum[r] = _mm512_dpbusd_epi32(sum[r], hi, _mm512_set1_epi32((int)load_u32(q8 + 16)));
                }
            }
            const __m512i sc = _mm512_cvtepi8_epi32(_mm_loadu_si128((const __m128i *)u->scales[ib]));
#pragma GCC unroll 6
            for (int r = 0; r < NR; r++) {
                const int corr = 128 * (y[r]->bsums[2 * ib] + y[r]->bsums[2 * ib + 1]);
                isum[r] = _mm512_add_epi32(isum[r], _mm512_mullo_epi32(_mm512_sub_epi32(sum[r], _mm512_set1_epi32(corr)), sc));
            }
        }
        q8_K_sums_into(acc, u->d, y, isum, NR);
    }
#pragma GCC unroll 6
    for (int r = 0; r < NR; r++) _mm512_storeu_ps(out + SEER_ILV_ROWS * r, acc[r]);
}
DOT16_KERNELS6(iq4_xs)

/* BF16 × BF16 on AVX512-BF16: VDPBF16PS adds two products into each float
 * lane, 32 values of the row an instruction, where the shared kernel widens
 * each half of a load to floats first (two more instructions a vector, at
 * 256 bits). The products are exact in FP32 either way; the sums run in
 * another order (llama.cpp's kernel on these CPUs uses the same
 * instruction), and denormals are flushed, as the engine's jobs flush them
 * anyway (threads/denormals.h). SmolVLM-256M's layout as BF16, one Zen 5
 * core / two, tok/s, three alternated rounds: 80.6-86.7 -> 83.0-88.7 /
 * 119-126 -> 130-150. Four accumulators: a row of 576 values is 18
 * instructions, each waiting on its lane's last. */
__attribute__((target("avx512bf16"))) static float dot_bf16_512(int64_t n, const void *w, const void *a) {
    const uint16_t *x = w, *y = a;
    __m512 s[4] = {_mm512_setzero_ps(), _mm512_setzero_ps(), _mm512_setzero_ps(), _mm512_setzero_ps()};
    int64_t i = 0;
    for (; i + 128 <= n; i += 128) {
        prefetch_ahead(x + i, 128 * sizeof *x);
#pragma GCC unroll 4
        for (int k = 0; k < 4; k++)
            s[k] = _mm512_dpbf16_ps(s[k], (__m512bh)_mm512_loadu_si512(x + i + 32 * k),
                                    (__m512bh)_mm512_loadu_si512(y + i + 32 * k));
    }
    for (int k = 0; i < n; i += 32, k++) { /* the last 0-127 values, the row's tail masked */
        const __mmask32 m = n - i >= 32 ? (__mmask32)0xFFFFFFFFu : (__mmask32)((1u << (n - i)) - 1);
        s[k] = _mm512_dpbf16_ps(s[k], (__m512bh)_mm512_maskz_loadu_epi16(m, x + i),
                                (__m512bh)_mm512_maskz_loadu_epi16(m, y + i));
    }
    return _mm512_reduce_add_ps(_mm512_add_ps(_mm512_add_ps(s[0], s[1]), _mm512_add_ps(s[2], s[3])));
}

/* The types with 512-bit interleaved-group kernels (DOT16_KERNELS,
 * DOT16_KERNELS6), X(TYPE, name): one list for the one-row kernel, the
 * several-row one and the rows it takes. */
#define DOT16_512_TYPES(X)                                                                                        \
    X(Q4_K, q4_K) X(Q5_K, q5_K) X(Q6_K, q6_K) X(Q3_K, q3_K) X(Q2_K, q2_K) X(Q8_0, q8_0) X(Q5_0, q5_0)            \
    X(Q4_0, q4_0) X(IQ4_NL, iq4_nl) X(Q5_1, q5_1) X(Q4_1, q4_1) X(IQ4_XS, iq4_xs)

void seer_vec_dot_fill_avx512(seer_vec_dot_fn t[SEER_TYPE_COUNT], seer_vec_dot4_fn t4[SEER_TYPE_COUNT],
                              seer_vec_dot16_fn t16[SEER_TYPE_COUNT]) {
    seer_x86_fill_avx512(t, t4, t16);
    if (seer_bf16_gemm_ready()) t[SEER_TYPE_BF16] = dot_bf16_512; /* the CPU runs AVX512-BF16 */
    t[SEER_TYPE_Q4_K] = dot_q4_K_512;
    t[SEER_TYPE_Q6_K] = dot_q6_K_512;
#define ONE_KERNEL(T, t) t16[SEER_TYPE_##T] = dot16_##t##_512;
    DOT16_512_TYPES(ONE_KERNEL)
#undef ONE_KERNEL
}

seer_vec_dot16_rows_fn seer_vec_dot16_rows_avx512(int type) {
    switch (type) {
#define ROWS_KERNEL(T, t)                                                                                         \
    case SEER_TYPE_##T: return dot16_rows_##t##_512;
        DOT16_512_TYPES(ROWS_KERNEL)
#undef ROWS_KERNEL
    default: return NULL;
    }
}

int seer_vec_dot16_rows_avx512_most(int type) {
    switch (type) {
#define ROWS_MOST(T, t)                                                                                           \
    case SEER_TYPE_##T: return dot16_rows_##t##_512_most;
        DOT16_512_TYPES(ROWS_MOST)
#undef ROWS_MOST
    default: return 4;
    }
}

#else
void seer_vec_dot_fill_avx512(seer_vec_dot_fn t[SEER_TYPE_COUNT], seer_vec_dot4_fn t4[SEER_TYPE_COUNT],
                          seer_vec_dot16_fn t16[SEER_TYPE_COUNT]) {
    (void)t;
    (void)t4;
    (void)t16;
}
void seer_x86_fill_avx512(seer_vec_dot_fn t[SEER_TYPE_COUNT], seer_vec_dot4_fn t4[SEER_TYPE_COUNT],
                          seer_vec_dot16_fn t16[SEER_TYPE_COUNT]) {
    (void)t;
    (void)t4;
    (void)t16;
}
seer_vec_dot16_rows_fn seer_x86_dot16_rows_avx512(int type) {
    (void)type;
    return NULL;
}
seer_vec_dot16_rows_fn seer_vec_dot16_rows_avx512(int type) {
    (void)type;
    return NULL;
}
int seer_vec_dot16_rows_avx512_most(int type) {
    (void)type;
    return 4;
}
#endif
