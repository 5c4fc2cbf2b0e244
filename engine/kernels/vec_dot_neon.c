/* aarch64's SIMD level: NEON with the ARMv8.2 dot-product instructions
 * (built with +dotprod, entered only when the CPU says it has them,
 * engine/util/cpu.c). First the decode kernels: 16 interleaved rows of
 * Q8_0, Q4_K, Q5_K or Q6_K (a Q4_K_M or Q5_K_M file's types) against one
 * activation row, where a group's 4 bytes of 16 rows (interleave_internal.h) meet 4
 * activation bytes in one SDOT by lane. Integer sums are exact and the
 * float steps are the scalar kernels' in the same order, so the results
 * are bit-identical to them; every other type stays on the scalar kernels. */
#include "kernels/vec_dot_internal.h"

#if defined(__aarch64__) && defined(__ARM_FEATURE_DOTPROD)
#include <arm_neon.h>
#include <stdbool.h>

/* Four SDOTs into the sums of 4 rows: v[k] holds 4 bytes of each row for
 * group k, y's lane k the 4 activation bytes of that group. */
static inline int32x4_t dot_4_groups(int32x4_t acc, const int8x16_t v[4], int8x16_t y) {
    acc = vdotq_laneq_s32(acc, v[0], y, 0);
    acc = vdotq_laneq_s32(acc, v[1], y, 1);
    acc = vdotq_laneq_s32(acc, v[2], y, 2);
    return vdotq_laneq_s32(acc, v[3], y, 3);
}

/* Sixteen interleaved Q8_0 rows (block_q8_0x16) × Q8_0: the scalar
 * dot16_q8_0's sums, one SDOT per 4 rows and 4 bytes. */
static void dot16_q8_0(int64_t n, const void *w, const void *a, float out[SEER_ILV_ROWS]) {
    const block_q8_0x16 *x = w;
    const block_q8_0 *y = a;
    float32x4_t acc[4] = {vdupq_n_f32(0), vdupq_n_f32(0), vdupq_n_f32(0), vdupq_n_f32(0)};
    for (int64_t b = 0; b < n / 32; b++) {
        const block_q8_0x16 *u = x + b / 2;
        const int s = (int)(b % 2);
        const int8x16_t yv[2] = {vld1q_s8(y[b].qs), vld1q_s8(y[b].qs + 16)};
        const float dy = seer_fp16_to_f32(y[b].d);
        for (int q = 0; q < 4; q++) {
            int32x4_t sum = vdupq_n_s32(0);
            for (int g = 0; g < 8; g += 4) {
                int8x16_t v[4];
                for (int k = 0; k < 4; k++) v[k] = vld1q_s8(u->qs[s][g + k][4 * q]);
                sum = dot_4_groups(sum, v, yv[g / 4]);
            }
            const float32x4_t d = vmulq_n_f32(vcvt_f32_f16(vreinterpret_f16_u16(vld1_u16(u->d[s] + 4 * q))), dy);
            acc[q] = vaddq_f32(acc[q], vmulq_f32(vcvtq_f32_s32(sum), d));
        }
    }
    for (int q = 0; q < 4; q++) vst1q_f32(out + 4 * q, acc[q]);
}

/* One quants chunk c of 16 interleaved Q4_K rows: low nibbles against
 * activations 64c.., high nibbles against 64c + 32.. (rows 4q.. in lo[q],
 * hi[q]). Q5_K's rows pass their fifth bits qh (NULL for Q4_K): bits 2c
 * and 2c + 1 of each byte add 16 to the low and the high nibble. */
static void q45_K_chunk(const uint8_t qs[8][SEER_ILV_ROWS][4], const uint8_t (*qh)[SEER_ILV_ROWS][4], int c,
                        const int8_t *y, int32x4_t lo[4], int32x4_t hi[4]) {
    const uint8x16_t low_mask = vdupq_n_u8(0xF), sixteen = vdupq_n_u8(16);
    const uint8x16_t bit_lo = vdupq_n_u8((uint8_t)(1 << (2 * c))), bit_hi = vdupq_n_u8((uint8_t)(2 << (2 * c)));
    const int8x16_t ylo[2] = {vld1q_s8(y), vld1q_s8(y + 16)}, yhi[2] = {vld1q_s8(y + 32), vld1q_s8(y + 48)};
    for (int q = 0; q < 4; q++) {
        lo[q] = hi[q] = vdupq_n_s32(0);
        for (int g = 0; g < 8; g += 4) {
            int8x16_t vlo[4], vhi[4];
            for (int k = 0; k < 4; k++) {
                const uint8x16_t v = vld1q_u8(qs[g + k][4 * q]);
                uint8x16_t l = vandq_u8(v, low_mask), h = vshrq_n_u8(v, 4);
                if (qh) {
                    const uint8x16_t bits = vld1q_u8(qh[g + k][4 * q]);
                    l = vorrq_u8(l, vandq_u8(vtstq_u8(bits, bit_lo), sixteen));
                    h = vorrq_u8(h, vandq_u8(vtstq_u8(bits, bit_hi), sixteen));
                }
                vlo[k] = vreinterpretq_s8_u8(l);
                vhi[k] = vreinterpretq_s8_u8(h);
            }
            lo[q] = dot_4_groups(lo[q], vlo, ylo[g / 4]);
            hi[q] = dot_4_groups(hi[q], vhi, yhi[g / 4]);
        }
    }
}

/* Four rows' bytes (rows 4q..4q+3 of a 16-row array) widened to 32 bits. */
static inline int32x4_t widen4(const uint8_t *p) {
    return vreinterpretq_s32_u32(vmovl_u16(vget_low_u16(vmovl_u8(vld1_u8(p)))));
}

/* Sixteen interleaved Q4_K rows (block_q4_Kx16), or Q5_K rows
 * (block_q5_Kx16, q5 set), × Q8_K: the scalar dot16_q4_K's / dot16_q5_K's
 * sums (scales and mins per row and sub-block, applied to the exact
 * integer dots). */
static void dot16_q45_K(int64_t n, const void *w, const void *a, bool q5, float out[SEER_ILV_ROWS]) {
    const block_q8_K *y = a;
    float32x4_t acc[4], acc_mins[4];
    for (int q = 0; q < 4; q++) acc[q] = acc_mins[q] = vdupq_n_f32(0);
    for (int64_t i = 0; i < n / QK_K; i++) {
        const block_q4_Kx16 *x = q5 ? &((const block_q5_Kx16 *)w)[i].low : (const block_q4_Kx16 *)w + i;
        const uint8_t(*qh)[SEER_ILV_ROWS][4] = q5 ? ((const block_q5_Kx16 *)w)[i].qh : NULL;
        int32x4_t isum[4], msum[4];
        for (int q = 0; q < 4; q++) isum[q] = msum[q] = vdupq_n_s32(0);
        for (int c = 0; c < 4; c++) {
            int32x4_t lo[4], hi[4];
            q45_K_chunk(x->qs[c], qh, c, y[i].qs + 64 * c, lo, hi);
            const int sub_lo = y[i].bsums[4 * c] + y[i].bsums[4 * c + 1];
            const int sub_hi = y[i].bsums[4 * c + 2] + y[i].bsums[4 * c + 3];
            const uint8x16x2_t mins = vld2q_u8(x->mins[c][0]); /* [0]: sub-block 2c of each row, [1]: 2c + 1 */
            uint8_t min_lo[SEER_ILV_ROWS], min_hi[SEER_ILV_ROWS];
            vst1q_u8(min_lo, mins.val[0]);
            vst1q_u8(min_hi, mins.val[1]);
            for (int q = 0; q < 4; q++) {
                isum[q] = vmlaq_s32(isum[q], lo[q], widen4(x->scales[2 * c] + 4 * q));
                isum[q] = vmlaq_s32(isum[q], hi[q], widen4(x->scales[2 * c + 1] + 4 * q));
                msum[q] = vmlaq_n_s32(msum[q], widen4(min_lo + 4 * q), sub_lo);
                msum[q] = vmlaq_n_s32(msum[q], widen4(min_hi + 4 * q), sub_hi);
            }
        }
        for (int q = 0; q < 4; q++) {
            const float32x4_t d = vcvt_f32_f16(vreinterpret_f16_u16(vld1_u16(x->d + 4 * q)));
            const float32x4_t dmin = vcvt_f32_f16(vreinterpret_f16_u16(vld1_u16(x->dmin + 4 * q)));
            acc[q] = vaddq_f32(acc[q], vmulq_f32(vmulq_n_f32(d, y[i].d), vcvtq_f32_s32(isum[q])));
            acc_mins[q] = vaddq_f32(acc_mins[q], vmulq_f32(vmulq_n_f32(dmin, y[i].d), vcvtq_f32_s32(msum[q])));
        }
    }
    for (int q = 0; q < 4; q++) vst1q_f32(out + 4 * q, vsubq_f32(acc[q], acc_mins[q]));
}

static void dot16_q4_K(int64_t n, const void *w, const void *a, float out[SEER_ILV_ROWS]) {
    dot16_q45_K(n, w, a, false, out);
}
static void dot16_q5_K(int64_t n, const void *w, const void *a, float out[SEER_ILV_ROWS]) {
    dot16_q45_K(n, w, a, true, out);
}

/* Four rows' signed bytes (rows 4q..4q+3 of a 16-row array) widened. */
static inline int32x4_t widen4_s8(const int8_t *p) { return vmovl_s16(vget_low_s16(vmovl_s8(vld1_s8(p)))); }

/* Sixteen interleaved Q6_K rows (block_q6_Kx16) × Q8_K: the scalar
 * dot16_q6_K's sums. Per half h, 4 bytes j of ql chunks 0 and 1 and of qh
 * give weights 128h + 32t + 4j.. for t = 0..3; groups of 16 (j < 4 or not)
 * take their own scale. */
static void dot16_q6_K(int64_t n, const void *w, const void *a, float out[SEER_ILV_ROWS]) {
    const block_q6_Kx16 *x = w;
    const block_q8_K *y = a;
    const uint8x16_t low4 = vdupq_n_u8(0xF), low2 = vdupq_n_u8(3);
    const int8x16_t offset = vdupq_n_s8(32);
    float32x4_t acc[4];
    for (int q = 0; q < 4; q++) acc[q] = vdupq_n_f32(0);
    for (int64_t i = 0; i < n / QK_K; i++) {
        int32x4_t isum[4];
        for (int q = 0; q < 4; q++) isum[q] = vdupq_n_s32(0);
        for (int h = 0; h < 2; h++) {
            int8x16_t yv[4][2]; /* [t][j / 4]: activations 128h + 32t + 16(j / 4).. */
            for (int t = 0; t < 4; t++)
                for (int half = 0; half < 2; half++) yv[t][half] = vld1q_s8(y[i].qs + 128 * h + 32 * t + 16 * half);
            for (int q = 0; q < 4; q++)
                for (int half = 0; half < 2; half++) {
                    int8x16_t v[4][4]; /* [t][k]: weights of bytes j = 4 half + k */
                    for (int k = 0; k < 4; k++) {
                        const uint8_t(*b)[SEER_ILV_ROWS][4] = x[i].q[h][4 * half + k];
                        const uint8x16_t ql0 = vld1q_u8(b[0][4 * q]), ql1 = vld1q_u8(b[1][4 * q]);
                        const uint8x16_t qh = vld1q_u8(b[2][4 * q]);
                        const uint8x16_t u[4] = {
                            vorrq_u8(vandq_u8(ql0, low4), vshlq_n_u8(vandq_u8(qh, low2), 4)),
                            vorrq_u8(vandq_u8(ql1, low4), vshlq_n_u8(vandq_u8(vshrq_n_u8(qh, 2), low2), 4)),
                            vorrq_u8(vshrq_n_u8(ql0, 4), vshlq_n_u8(vandq_u8(vshrq_n_u8(qh, 4), low2), 4)),
                            vorrq_u8(vshrq_n_u8(ql1, 4), vshlq_n_u8(vshrq_n_u8(qh, 6), 4)),
                        };
                        for (int t = 0; t < 4; t++) v[t][k] = vsubq_s8(vreinterpretq_s8_u8(u[t]), offset);
                    }
                    for (int t = 0; t < 4; t++) {
                        const int32x4_t sum = dot_4_groups(vdupq_n_s32(0), v[t], yv[t][half]);
                        isum[q] = vmlaq_s32(isum[q], sum, widen4_s8(x[i].scales[8 * h + 2 * t + half] + 4 * q));
                    }
                }
        }
        for (int q = 0; q < 4; q++) {
            const float32x4_t d = vcvt_f32_f16(vreinterpret_f16_u16(vld1_u16(x[i].d + 4 * q)));
            acc[q] = vaddq_f32(acc[q], vmulq_f32(vmulq_n_f32(d, y[i].d), vcvtq_f32_s32(isum[q])));
        }
    }
    for (int q = 0; q < 4; q++) vst1q_f32(out + 4 * q, acc[q]);
}

void seer_vec_dot_fill_neon(seer_vec_dot_fn t[SEER_TYPE_COUNT], seer_vec_dot4_fn t4[SEER_TYPE_COUNT],
                            seer_vec_dot16_fn t16[SEER_TYPE_COUNT]) {
    (void)t;
    (void)t4;
    t16[SEER_TYPE_Q8_0] = dot16_q8_0;
    t16[SEER_TYPE_Q4_K] = dot16_q4_K;
    t16[SEER_TYPE_Q5_K] = dot16_q5_K;
    t16[SEER_TYPE_Q6_K] = dot16_q6_K;
}
#else
void seer_vec_dot_fill_neon(seer_vec_dot_fn t[SEER_TYPE_COUNT], seer_vec_dot4_fn t4[SEER_TYPE_COUNT],
                            seer_vec_dot16_fn t16[SEER_TYPE_COUNT]) {
    (void)t;
    (void)t4;
    (void)t16;
}
#endif
