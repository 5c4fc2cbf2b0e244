/* aarch64's SIMD level: NEON with the ARMv8.2 dot-product instructions
 * (built with +dotprod, entered only when the CPU says it has them,
 * engine/util/cpu.c). The kernels of 16 interleaved rows of Q8_0, Q4_K,
 * Q5_K, Q6_K, Q3_K, Q2_K (the K-quant files' types), Q5_0 (MoE experts whose
 * rows are not whole super-blocks), Q4_0, Q5_1, Q4_1, IQ4_NL or IQ4_XS, where a group's 4 bytes
 * of 16 rows (interleave_internal.h) meet 4 activation bytes in one SDOT
 * by lane: against one activation row (decode) or up to four (prompts,
 * each weight vector unpacked once for all of them, instead of
 * dequantizing the matrix for sgemm). Integer sums are exact and the float
 * steps are the scalar kernels' in the same order, so every row's results
 * are bit-identical to them. The low-bit i-quants' rows (not interleaved)
 * take their unpacked super-blocks' products by SDOT; every other type
 * stays on the scalar kernels. */
#include "kernels/vec_dot_internal.h"

#if defined(__aarch64__) && defined(__ARM_FEATURE_DOTPROD)
#include <arm_neon.h>
#include <stdbool.h>

#include "kernels/iq_dot_row.h"

/* Four SDOTs into the sums of 4 rows: v[k] holds 4 bytes of each row for
 * group k, y's lane k the 4 activation bytes of that group. */
static inline int32x4_t dot_4_groups(int32x4_t acc, const int8x16_t v[4], int8x16_t y) {
    acc = vdotq_laneq_s32(acc, v[0], y, 0);
    acc = vdotq_laneq_s32(acc, v[1], y, 1);
    acc = vdotq_laneq_s32(acc, v[2], y, 2);
    return vdotq_laneq_s32(acc, v[3], y, 3);
}

/* Activation row r of a kernel's NR rows, act_stride bytes apart. */
#define ACT_ROW(type, a, act_stride, r) ((const type *)((const char *)(a) + (size_t)(r) * (act_stride)))

/* A kernel's float sums: acc[r][q] holds weight rows 4q..4q+3 against
 * activation row r (of NR). */
static inline __attribute__((always_inline)) void acc_zero(float32x4_t acc[][4], const int NR) {
    #pragma GCC unroll 4
    for (int r = 0; r < NR; r++)
        for (int q = 0; q < 4; q++) acc[r][q] = vdupq_n_f32(0);
}
static inline __attribute__((always_inline)) void acc_store(float *out, float32x4_t acc[][4], const int NR) {
    #pragma GCC unroll 4
    for (int r = 0; r < NR; r++)
        for (int q = 0; q < 4; q++) vst1q_f32(out + 16 * r + 4 * q, acc[r][q]);
}

/* Super-block i of NR rows of Q8_K activations. */
static inline __attribute__((always_inline)) void q8_K_rows(const void *a, size_t act_stride, int64_t i, const int NR,
                                                            const block_q8_K *y[]) {
    #pragma GCC unroll 4
    for (int r = 0; r < NR; r++) y[r] = ACT_ROW(block_q8_K, a, act_stride, r) + i;
}

/* acc[r][q] += (the four rows' F16 scales d16 · row r's Q8_K scale) ·
 * isum[r]: a super-block's integer sums into the float sums, the scalar
 * kernels' float step. */
static inline __attribute__((always_inline)) void q8_K_step(float32x4_t acc[][4], int q, const uint16_t *d16,
                                                            const block_q8_K *const y[], const int32x4_t isum[],
                                                            const int NR) {
    const float32x4_t d = vcvt_f32_f16(vreinterpret_f16_u16(vld1_u16(d16)));
    #pragma GCC unroll 4
    for (int r = 0; r < NR; r++)
        acc[r][q] = vaddq_f32(acc[r][q], vmulq_f32(vmulq_n_f32(d, y[r]->d), vcvtq_f32_s32(isum[r])));
}

/* Sixteen interleaved Q8_0 rows (block_q8_0x16) × NR rows of Q8_0
 * activations: the scalar dot16_q8_0's sums for each, one SDOT per 4
 * weight rows and 4 bytes; a weight vector loaded once serves the NR rows
 * (NR = 1: decode, NR up to 4: prompts). */
static inline __attribute__((always_inline)) void dot16xn_q8_0(int64_t n, const void *w, const void *a,
                                                               size_t act_stride, const int NR, float *out) {
    const block_q8_0x16 *x = w;
    float32x4_t acc[SEER_DOT16_MAX_ROWS][4];
    acc_zero(acc, NR);
    for (int64_t b = 0; b < n / 32; b++) {
        const block_q8_0x16 *u = x + b / 2;
        const int s = (int)(b % 2);
        for (int q = 0; q < 4; q++) {
            int8x16_t v[8];
            #pragma GCC unroll 8
            for (int k = 0; k < 8; k++) v[k] = vld1q_s8(u->qs[s][k][4 * q]);
            const float32x4_t d = vcvt_f32_f16(vreinterpret_f16_u16(vld1_u16(u->d[s] + 4 * q)));
            #pragma GCC unroll 4
            for (int r = 0; r < NR; r++) {
                const block_q8_0 *y = ACT_ROW(block_q8_0, a, act_stride, r) + b;
                int32x4_t sum = dot_4_groups(vdupq_n_s32(0), v, vld1q_s8(y->qs));
                sum = dot_4_groups(sum, v + 4, vld1q_s8(y->qs + 16));
                const float32x4_t dd = vmulq_n_f32(d, seer_fp16_to_f32(y->d));
                acc[r][q] = vaddq_f32(acc[r][q], vmulq_f32(vcvtq_f32_s32(sum), dd));
            }
        }
    }
    acc_store(out, acc, NR);
}

/* Bytes 4q.. of 16 interleaved Q4_K rows' quants (one 16-byte vector: 4
 * bytes of rows 4q..4q+3) as their low and high nibbles. Q5_K's rows pass
 * their fifth bits qh (NULL for Q4_K): bits 2c and 2c + 1 of each byte add
 * 16 to the low and the high nibble in chunk c. */
static inline int8x16_t q45_K_nibbles(const uint8_t *qs, const uint8_t *qh, int c, int8x16_t *hi) {
    const uint8x16_t v = vld1q_u8(qs), sixteen = vdupq_n_u8(16);
    uint8x16_t l = vandq_u8(v, vdupq_n_u8(0xF)), h = vshrq_n_u8(v, 4);
    if (qh) {
        const uint8x16_t bits = vld1q_u8(qh);
        l = vorrq_u8(l, vandq_u8(vtstq_u8(bits, vdupq_n_u8((uint8_t)(1 << (2 * c)))), sixteen));
        h = vorrq_u8(h, vandq_u8(vtstq_u8(bits, vdupq_n_u8((uint8_t)(2 << (2 * c)))), sixteen));
    }
    *hi = vreinterpretq_s8_u8(h);
    return vreinterpretq_s8_u8(l);
}

/* Four rows' bytes (rows 4q..4q+3 of a 16-row array) widened to 32 bits. */
static inline int32x4_t widen4(const uint8_t *p) {
    return vreinterpretq_s32_u32(vmovl_u16(vget_low_u16(vmovl_u8(vld1_u8(p)))));
}

/* Sixteen interleaved Q4_K rows (block_q4_Kx16), or Q5_K rows
 * (block_q5_Kx16, q5 set), × NR rows of Q8_K: for each activation row the
 * scalar dot16_q4_K's / dot16_q5_K's sums (scales and mins per row and
 * sub-block, applied to the exact integer dots, then the same float steps).
 * Four weight rows at a time (4q..4q+3) through a super-block, so that
 * the NR rows' sums stay in registers; the super-block's 2.3 KiB are read
 * in order on the first pass and from L1 on the others. */
static inline __attribute__((always_inline)) void dot16xn_q45_K(int64_t n, const void *w, const void *a,
                                                                size_t act_stride, const int NR, const bool q5,
                                                                float *out) {
    float32x4_t acc[SEER_DOT16_MAX_ROWS][4], acc_mins[SEER_DOT16_MAX_ROWS][4];
    acc_zero(acc, NR);
    acc_zero(acc_mins, NR);
    for (int64_t i = 0; i < n / QK_K; i++) {
        const block_q4_Kx16 *x = q5 ? &((const block_q5_Kx16 *)w)[i].low : (const block_q4_Kx16 *)w + i;
        const uint8_t(*qh)[SEER_ILV_ROWS][4] = q5 ? ((const block_q5_Kx16 *)w)[i].qh : NULL;
        const block_q8_K *y[SEER_DOT16_MAX_ROWS];
        int sub[SEER_DOT16_MAX_ROWS][8]; /* activation sums of the 8 sub-blocks of 32 */
        #pragma GCC unroll 4
        for (int r = 0; r < NR; r++) {
            y[r] = ACT_ROW(block_q8_K, a, act_stride, r) + i;
            for (int s = 0; s < 8; s++) sub[r][s] = y[r]->bsums[2 * s] + y[r]->bsums[2 * s + 1];
        }
        for (int q = 0; q < 4; q++) {
            int32x4_t isum[SEER_DOT16_MAX_ROWS], msum[SEER_DOT16_MAX_ROWS];
            #pragma GCC unroll 4
            for (int r = 0; r < NR; r++) isum[r] = msum[r] = vdupq_n_s32(0);
            for (int c = 0; c < 4; c++) {
                int32x4_t lo[SEER_DOT16_MAX_ROWS], hi[SEER_DOT16_MAX_ROWS];
                #pragma GCC unroll 4
                for (int r = 0; r < NR; r++) lo[r] = hi[r] = vdupq_n_s32(0);
                #pragma GCC unroll 2
                for (int g = 0; g < 8; g += 4) {
                    int8x16_t vlo[4], vhi[4];
                    #pragma GCC unroll 4
                    for (int k = 0; k < 4; k++)
                        vlo[k] = q45_K_nibbles(x->qs[c][g + k][4 * q], qh ? qh[g + k][4 * q] : NULL, c, &vhi[k]);
                    #pragma GCC unroll 4
                    for (int r = 0; r < NR; r++) {
                        lo[r] = dot_4_groups(lo[r], vlo, vld1q_s8(y[r]->qs + 64 * c + 4 * g));
                        hi[r] = dot_4_groups(hi[r], vhi, vld1q_s8(y[r]->qs + 64 * c + 32 + 4 * g));
                    }
                }
                /* mins[c][row] is the pair (sub-block 2c, 2c + 1): one 32-bit lane a row */
                const uint32x4_t pairs = vreinterpretq_u32_u16(vmovl_u8(vld1_u8(x->mins[c][4 * q])));
                const int32x4_t min_lo = vreinterpretq_s32_u32(vandq_u32(pairs, vdupq_n_u32(0xFFFF)));
                const int32x4_t min_hi = vreinterpretq_s32_u32(vshrq_n_u32(pairs, 16));
                const int32x4_t sc_lo = widen4(x->scales[2 * c] + 4 * q), sc_hi = widen4(x->scales[2 * c + 1] + 4 * q);
                #pragma GCC unroll 4
                for (int r = 0; r < NR; r++) {
                    isum[r] = vmlaq_s32(vmlaq_s32(isum[r], lo[r], sc_lo), hi[r], sc_hi);
                    msum[r] = vmlaq_n_s32(vmlaq_n_s32(msum[r], min_lo, sub[r][2 * c]), min_hi, sub[r][2 * c + 1]);
                }
            }
            q8_K_step(acc, q, x->d + 4 * q, y, isum, NR);
            q8_K_step(acc_mins, q, x->dmin + 4 * q, y, msum, NR);
        }
    }
    #pragma GCC unroll 4
    for (int r = 0; r < NR; r++)
        for (int q = 0; q < 4; q++) vst1q_f32(out + 16 * r + 4 * q, vsubq_f32(acc[r][q], acc_mins[r][q]));
}

static inline __attribute__((always_inline)) void dot16xn_q4_K(int64_t n, const void *w, const void *a,
                                                               size_t act_stride, const int NR, float *out) {
    dot16xn_q45_K(n, w, a, act_stride, NR, false, out);
}
static inline __attribute__((always_inline)) void dot16xn_q5_K(int64_t n, const void *w, const void *a,
                                                               size_t act_stride, const int NR, float *out) {
    dot16xn_q45_K(n, w, a, act_stride, NR, true, out);
}

/* Four rows' signed bytes (rows 4q..4q+3 of a 16-row array) widened. */
static inline int32x4_t widen4_s8(const int8_t *p) { return vmovl_s16(vget_low_s16(vmovl_s8(vld1_s8(p)))); }

/* Runs t = 0..3 (weights 128h + 32t + 4j..) of rows 4q..4q+3 of a Q6_K
 * super-block of 16 rows from byte run j of half h, as signed values. */
static inline void q6_K_runs(const block_q6_Kx16 *x, int h, int j, int q, int8x16_t v[4]) {
    const uint8x16_t low4 = vdupq_n_u8(0xF), low2 = vdupq_n_u8(3);
    const uint8_t(*b)[SEER_ILV_ROWS][4] = x->q[h][j];
    const uint8x16_t ql0 = vld1q_u8(b[0][4 * q]), ql1 = vld1q_u8(b[1][4 * q]), qh = vld1q_u8(b[2][4 * q]);
    const uint8x16_t u[4] = {
        vorrq_u8(vandq_u8(ql0, low4), vshlq_n_u8(vandq_u8(qh, low2), 4)),
        vorrq_u8(vandq_u8(ql1, low4), vshlq_n_u8(vandq_u8(vshrq_n_u8(qh, 2), low2), 4)),
        vorrq_u8(vshrq_n_u8(ql0, 4), vshlq_n_u8(vandq_u8(vshrq_n_u8(qh, 4), low2), 4)),
        vorrq_u8(vshrq_n_u8(ql1, 4), vshlq_n_u8(vshrq_n_u8(qh, 6), 4)),
    };
    #pragma GCC unroll 4
    for (int t = 0; t < 4; t++) v[t] = vsubq_s8(vreinterpretq_s8_u8(u[t]), vdupq_n_s8(32));
}

/* The same for Q3_K (block_q3_Kx16's qs and hmask): the low bits 2t of
 * qs chunk h, the third bit 4h + t of hmask (set: +4), less 4; Q2_K
 * (hmask NULL): the low bits, its values. */
static inline void q23_K_runs(const uint8_t (*qs)[8][SEER_ILV_ROWS][4], const uint8_t (*hmask)[SEER_ILV_ROWS][4], int h,
                              int j, int q, int8x16_t v[4]) {
    const uint8x16_t low2 = vdupq_n_u8(3), four = vdupq_n_u8(4);
    const uint8x16_t b = vld1q_u8(qs[h][j][4 * q]), hm = hmask ? vld1q_u8(hmask[j][4 * q]) : vdupq_n_u8(0);
    #pragma GCC unroll 4
    for (int t = 0; t < 4; t++) {
        const uint8x16_t low = vandq_u8(vshlq_u8(b, vdupq_n_s8((int8_t)(-2 * t))), low2);
        const uint8x16_t high = vandq_u8(vtstq_u8(hm, vdupq_n_u8((uint8_t)(1u << (4 * h + t)))), four);
        v[t] = hmask ? vsubq_s8(vreinterpretq_s8_u8(vorrq_u8(low, high)), vreinterpretq_s8_u8(four)) : vreinterpretq_s8_u8(low);
    }
}

/* 4 rows' scales of one group as 32-bit lanes: signed bytes (Q6_K, Q3_K),
 * or the low nibbles of Q2_K's scale bytes (bits 2); and Q2_K's mins,
 * the high nibbles. */
static inline int32x4_t widen4_u8(const uint8_t *p) {
    return vreinterpretq_s32_u32(vmovl_u16(vget_low_u16(vmovl_u8(vld1_u8(p)))));
}
static inline int32x4_t k16_scales4(const uint8_t *p, int bits) {
    return bits == 2 ? vandq_s32(widen4_u8(p), vdupq_n_s32(0xF)) : widen4_s8((const int8_t *)p);
}
static inline int32x4_t k16_mins4(const uint8_t *p) { return vshrq_n_s32(widen4_u8(p), 4); }

/* Sixteen interleaved rows of a K-quant of 16 groups of 16 (bits 6: Q6_K,
 * 3: Q3_K, 2: Q2_K) × NR rows of Q8_K: the scalar dot16_k16's sums for
 * each. Per half h, byte run j gives weights 128h + 32t + 4j.. for
 * t = 0..3; groups of 16 (j < 4 or not) take their own scale (Q2_K: and
 * its min times the group's activation sum comes off with dmin). Four
 * weight rows at a time, as Q4_K's kernel. */
static inline __attribute__((always_inline)) void dot16xn_k16(int64_t n, const void *w, const void *a,
                                                              size_t act_stride, const int NR, const int bits,
                                                              float *out) {
    const size_t unit_bytes = bits == 6 ? sizeof(block_q6_Kx16) : bits == 3 ? sizeof(block_q3_Kx16) : sizeof(block_q2_Kx16);
    float32x4_t acc[SEER_DOT16_MAX_ROWS][4];
    acc_zero(acc, NR);
    for (int64_t i = 0; i < n / QK_K; i++) {
        const void *unit = (const char *)w + (size_t)i * unit_bytes;
        const block_q6_Kx16 *x6 = unit;
        const block_q3_Kx16 *x3 = unit;
        const block_q2_Kx16 *x2 = unit;
        const uint8_t(*scales)[SEER_ILV_ROWS] =
            bits == 6 ? (const void *)x6->scales : bits == 3 ? (const void *)x3->scales : (const void *)x2->scales;
        const uint16_t *d16 = bits == 6 ? x6->d : bits == 3 ? x3->d : x2->d;
        const block_q8_K *y[SEER_DOT16_MAX_ROWS];
        q8_K_rows(a, act_stride, i, NR, y);
        for (int q = 0; q < 4; q++) {
            int32x4_t isum[SEER_DOT16_MAX_ROWS], msum[SEER_DOT16_MAX_ROWS];
            #pragma GCC unroll 4
            for (int r = 0; r < NR; r++) isum[r] = msum[r] = vdupq_n_s32(0);
            for (int h = 0; h < 2; h++)
                for (int half = 0; half < 2; half++) {
                    int8x16_t v[4][4]; /* [t][k]: weights of byte run j = 4 half + k */
                    #pragma GCC unroll 4
                    for (int k = 0; k < 4; k++) {
                        int8x16_t runs[4];
                        if (bits == 6) q6_K_runs(x6, h, 4 * half + k, q, runs);
                        else if (bits == 3) q23_K_runs(x3->qs, x3->hmask, h, 4 * half + k, q, runs);
                        else q23_K_runs(x2->qs, NULL, h, 4 * half + k, q, runs);
                        #pragma GCC unroll 4
                        for (int t = 0; t < 4; t++) v[t][k] = runs[t];
                    }
                    #pragma GCC unroll 4
                    for (int t = 0; t < 4; t++) {
                        const int grp = 8 * h + 2 * t + half;
                        const int32x4_t sc = k16_scales4(scales[grp] + 4 * q, bits);
                        const int32x4_t m = k16_mins4(scales[grp] + 4 * q); /* Q2_K's */
                        #pragma GCC unroll 4
                        for (int r = 0; r < NR; r++) {
                            const int8x16_t yv = vld1q_s8(y[r]->qs + 128 * h + 32 * t + 16 * half);
                            isum[r] = vmlaq_s32(isum[r], dot_4_groups(vdupq_n_s32(0), v[t], yv), sc);
                            if (bits == 2) msum[r] = vmlaq_s32(msum[r], m, vdupq_n_s32(y[r]->bsums[grp]));
                        }
                    }
                }
            q8_K_step(acc, q, d16 + 4 * q, y, isum, NR);
            if (bits == 2) { /* acc − dmin · y->d · msum: the step with −msum, exact */
                #pragma GCC unroll 4
                for (int r = 0; r < NR; r++) msum[r] = vnegq_s32(msum[r]);
                q8_K_step(acc, q, x2->dmin + 4 * q, y, msum, NR);
            }
        }
    }
    acc_store(out, acc, NR);
}

static inline __attribute__((always_inline)) void dot16xn_q6_K(int64_t n, const void *w, const void *a,
                                                               size_t act_stride, const int NR, float *out) {
    dot16xn_k16(n, w, a, act_stride, NR, 6, out);
}
static inline __attribute__((always_inline)) void dot16xn_q3_K(int64_t n, const void *w, const void *a,
                                                               size_t act_stride, const int NR, float *out) {
    dot16xn_k16(n, w, a, act_stride, NR, 3, out);
}
static inline __attribute__((always_inline)) void dot16xn_q2_K(int64_t n, const void *w, const void *a,
                                                               size_t act_stride, const int NR, float *out) {
    dot16xn_k16(n, w, a, act_stride, NR, 2, out);
}

/* Sixteen interleaved Q5_0 rows (block_q5_0x16, q5) or Q4_0 rows
 * (block_q4_0x16) × NR rows of Q8_0 activations: the scalar dot16_q450's
 * sums for each. Rows 4q..4q+3's fifth bits (qh, 4 bytes a row) line up
 * with their quant bytes: run g's bits sit at bit g (low nibbles) and 4 + g
 * (high) of each byte, shifted to bit 4 and or-ed in; minus 16 (Q4_0:
 * minus 8) the weights are signed and SDOT takes them as they are. IQ4_NL
 * rows (nl, Q4_0's layout): the nibbles' values by TBL. Q5_1 / Q4_1 rows
 * (min) × Q8_1: the values as they are (at most 31), and the block's min
 * times the activations' d · Σ a added with the scaled sum. */
static inline __attribute__((always_inline)) void dot16xn_q450(int64_t n, const void *w, const void *a,
                                                               size_t act_stride, const int NR, const bool q5,
                                                               const bool nl, const bool min, float *out) {
    const uint8x16_t low4 = vdupq_n_u8(0xF), bit4 = vdupq_n_u8(0x10);
    const int8x16_t offset = vdupq_n_s8(min ? 0 : q5 ? 16 : 8), values = vld1q_s8(seer_iq4_values);
    float32x4_t acc[SEER_DOT16_MAX_ROWS][4];
    acc_zero(acc, NR);
    for (int64_t b = 0; b < n / 32; b++) {
        const seer_q450_block u = seer_q450_block_at(w, b, q5, min);
        for (int q = 0; q < 4; q++) {
            const uint8x16_t qh = q5 ? vreinterpretq_u8_u32(vld1q_u32(u.qh + 4 * q)) : vdupq_n_u8(0);
            int8x16_t lo[4], hi[4];
            #pragma GCC unroll 4
            for (int g = 0; g < 4; g++) {
                const uint8x16_t v = vld1q_u8(u.qs[g][4 * q]);
                uint8x16_t l = vandq_u8(v, low4), h = vshrq_n_u8(v, 4);
                if (q5) {
                    l = vorrq_u8(l, vandq_u8(vshlq_u8(qh, vdupq_n_s8((int8_t)(4 - g))), bit4));
                    h = vorrq_u8(h, vandq_u8(vshlq_u8(qh, vdupq_n_s8((int8_t)-g)), bit4));
                }
                lo[g] = nl ? vqtbl1q_s8(values, l) : vsubq_s8(vreinterpretq_s8_u8(l), offset);
                hi[g] = nl ? vqtbl1q_s8(values, h) : vsubq_s8(vreinterpretq_s8_u8(h), offset);
            }
            const float32x4_t d = vcvt_f32_f16(vreinterpret_f16_u16(vld1_u16(u.d + 4 * q)));
            const float32x4_t m = min ? vcvt_f32_f16(vreinterpret_f16_u16(vld1_u16(u.m + 4 * q))) : vdupq_n_f32(0);
            #pragma GCC unroll 4
            for (int r = 0; r < NR; r++) {
                const seer_act32 y = seer_act32_at(ACT_ROW(char, a, act_stride, r), b, min);
                int32x4_t sum = dot_4_groups(vdupq_n_s32(0), lo, vld1q_s8(y.qs));
                sum = dot_4_groups(sum, hi, vld1q_s8(y.qs + 16));
                float32x4_t scaled = vmulq_f32(vcvtq_f32_s32(sum), vmulq_n_f32(d, seer_fp16_to_f32(y.d)));
                if (min) scaled = vaddq_f32(scaled, vmulq_n_f32(m, seer_fp16_to_f32(y.s)));
                acc[r][q] = vaddq_f32(acc[r][q], scaled);
            }
        }
    }
    acc_store(out, acc, NR);
}
#define Q450_XN(t, q5, nl, min)                                                                                      \
    static inline __attribute__((always_inline)) void dot16xn_##t(int64_t n, const void *w, const void *a,         \
                                                                  size_t act_stride, const int NR, float *out) {    \
        dot16xn_q450(n, w, a, act_stride, NR, q5, nl, min, out);                                                    \
    }
Q450_XN(q5_0, true, false, false)
Q450_XN(q4_0, false, false, false)
Q450_XN(iq4_nl, false, true, false)
Q450_XN(q5_1, true, false, true)
Q450_XN(q4_1, false, false, true)
#undef Q450_XN

/* Sixteen interleaved IQ4_XS rows (block_iq4_xsx16) × NR rows of Q8_K:
 * the scalar dot16_iq4_xs's sums for each. A table lookup (TBL) turns each
 * nibble into its non-linear value; per sub-block of 32 the low nibbles of
 * groups g = 0..3 meet activations 32ib + 4g.., the high ones 32ib + 16 +
 * 4g.., and the sum takes the row's 6-bit scale. Four weight rows at a
 * time, as Q4_K's kernel. */
static inline __attribute__((always_inline)) void dot16xn_iq4_xs(int64_t n, const void *w, const void *a,
                                                                 size_t act_stride, const int NR, float *out) {
    const block_iq4_xsx16 *x = w;
    const int8x16_t values = vld1q_s8(seer_iq4_values);
    const uint8x16_t low4 = vdupq_n_u8(0xF);
    float32x4_t acc[SEER_DOT16_MAX_ROWS][4];
    acc_zero(acc, NR);
    for (int64_t i = 0; i < n / QK_K; i++) {
        const block_q8_K *y[SEER_DOT16_MAX_ROWS];
        q8_K_rows(a, act_stride, i, NR, y);
        for (int q = 0; q < 4; q++) {
            int32x4_t isum[SEER_DOT16_MAX_ROWS];
            #pragma GCC unroll 4
            for (int r = 0; r < NR; r++) isum[r] = vdupq_n_s32(0);
            for (int ib = 0; ib < 8; ib++) {
                int8x16_t lo[4], hi[4];
                #pragma GCC unroll 4
                for (int g = 0; g < 4; g++) {
                    const uint8x16_t v = vld1q_u8(x[i].qs[ib][g][4 * q]);
                    lo[g] = vqtbl1q_s8(values, vandq_u8(v, low4));
                    hi[g] = vqtbl1q_s8(values, vshrq_n_u8(v, 4));
                }
                const int32x4_t sc = widen4_s8(x[i].scales[ib] + 4 * q);
                #pragma GCC unroll 4
                for (int r = 0; r < NR; r++) {
                    int32x4_t s = dot_4_groups(vdupq_n_s32(0), lo, vld1q_s8(y[r]->qs + 32 * ib));
                    s = dot_4_groups(s, hi, vld1q_s8(y[r]->qs + 32 * ib + 16));
                    isum[r] = vmlaq_s32(isum[r], s, sc);
                }
            }
            q8_K_step(acc, q, x[i].d + 4 * q, y, isum, NR);
        }
    }
    acc_store(out, acc, NR);
}

/* The decode kernels (one activation row) and the prompts' (1..4). */
#define DOT16_KERNELS(t) DOT16_ONE_AND_ROWS(dot16_##t, dot16_rows_##t, dot16xn_##t)
DOT16_KERNELS(q8_0)
DOT16_KERNELS(q4_K)
DOT16_KERNELS(q5_K)
DOT16_KERNELS(q6_K)
DOT16_KERNELS(q3_K)
DOT16_KERNELS(q2_K)
DOT16_KERNELS(q5_0)
DOT16_KERNELS(q4_0)
DOT16_KERNELS(iq4_nl)
DOT16_KERNELS(q5_1)
DOT16_KERNELS(q4_1)
DOT16_KERNELS(iq4_xs)

seer_vec_dot16_rows_fn seer_vec_dot16_rows_neon(int type) {
    return type == SEER_TYPE_Q4_K   ? dot16_rows_q4_K
           : type == SEER_TYPE_Q5_K ? dot16_rows_q5_K
           : type == SEER_TYPE_Q6_K ? dot16_rows_q6_K
           : type == SEER_TYPE_Q3_K ? dot16_rows_q3_K
           : type == SEER_TYPE_Q2_K ? dot16_rows_q2_K
           : type == SEER_TYPE_Q8_0 ? dot16_rows_q8_0
           : type == SEER_TYPE_Q5_0 ? dot16_rows_q5_0
           : type == SEER_TYPE_Q4_0 ? dot16_rows_q4_0
           : type == SEER_TYPE_IQ4_NL ? dot16_rows_iq4_nl
           : type == SEER_TYPE_Q5_1   ? dot16_rows_q5_1
           : type == SEER_TYPE_Q4_1   ? dot16_rows_q4_1
           : type == SEER_TYPE_IQ4_XS ? dot16_rows_iq4_xs
                                    : NULL;
}

/* A low-bit i-quant super-block's Σ ls·Σ q·q8 (iq_unpack.h): its 16
 * groups' products by SDOT, each times its scale (the scalar kernel's byte
 * by byte loop was two thirds of its instructions); the rows by
 * iq_dot_row.h, so the scalar kernel's bits. These are never interleaved. */
static int iq_block_sum(const seer_iq_block *u, const int8_t q8[256]) {
    int32x4_t acc = vdupq_n_s32(0);
    for (int g = 0; g < 16; g++) {
        const int32x4_t s = vdotq_s32(vdupq_n_s32(0), vld1q_s8(u->q + 16 * g), vld1q_s8(q8 + 16 * g));
        acc = vmlaq_n_s32(acc, s, u->ls[g]);
    }
    return vaddvq_s32(acc);
}
#define IQ_DOT_UNPACKER seer_iq_unpacker_fast
#define IQ_DOT_BLOCK_SUM iq_block_sum
SEER_IQ_TYPES(SEER_IQ_DOT_ROW_KERNEL)

void seer_vec_dot_fill_neon(seer_vec_dot_fn t[SEER_TYPE_COUNT], seer_vec_dot4_fn t4[SEER_TYPE_COUNT],
                            seer_vec_dot16_fn t16[SEER_TYPE_COUNT]) {
    (void)t4;
#define DOT_IQ_ENTRY(name, block, type) t[type] = dot_##name;
    SEER_IQ_TYPES(DOT_IQ_ENTRY)
    t16[SEER_TYPE_Q8_0] = dot16_q8_0;
    t16[SEER_TYPE_Q4_K] = dot16_q4_K;
    t16[SEER_TYPE_Q5_K] = dot16_q5_K;
    t16[SEER_TYPE_Q6_K] = dot16_q6_K;
    t16[SEER_TYPE_Q3_K] = dot16_q3_K;
    t16[SEER_TYPE_Q2_K] = dot16_q2_K;
    t16[SEER_TYPE_Q5_0] = dot16_q5_0;
    t16[SEER_TYPE_Q4_0] = dot16_q4_0;
    t16[SEER_TYPE_IQ4_NL] = dot16_iq4_nl;
    t16[SEER_TYPE_Q5_1] = dot16_q5_1;
    t16[SEER_TYPE_Q4_1] = dot16_q4_1;
    t16[SEER_TYPE_IQ4_XS] = dot16_iq4_xs;
}
#else
seer_vec_dot16_rows_fn seer_vec_dot16_rows_neon(int type) {
    (void)type;
    return NULL;
}
void seer_vec_dot_fill_neon(seer_vec_dot_fn t[SEER_TYPE_COUNT], seer_vec_dot4_fn t4[SEER_TYPE_COUNT],
                            seer_vec_dot16_fn t16[SEER_TYPE_COUNT]) {
    (void)t;
    (void)t4;
    (void)t16;
}
#endif
