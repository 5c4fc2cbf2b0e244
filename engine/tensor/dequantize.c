/* Row dequantization for every supported type: blocks -> floats, following
 * each format's definition (see blocks.h). */
#include <string.h>

#include "seer/tensor.h"
#include "tensor/blocks.h"
#include "tensor/dequantize_internal.h"
#include "tensor/iq_unpack.h"

#define H2F seer_fp16_to_f32

static void dq_q4_0(const block_q4_0 *b, float *y, int64_t nb) {
    for (int64_t i = 0; i < nb; i++, y += 32) {
        float d = H2F(b[i].d);
        for (int j = 0; j < 16; j++) {
            y[j] = (float)seer_q45_lo(b[i].qs[j], 0, j, 8) * d;
            y[j + 16] = (float)seer_q45_hi(b[i].qs[j], 0, j, 8) * d;
        }
    }
}

static void dq_q4_1(const block_q4_1 *b, float *y, int64_t nb) {
    for (int64_t i = 0; i < nb; i++, y += 32) {
        float d = H2F(b[i].d), m = H2F(b[i].m);
        for (int j = 0; j < 16; j++) {
            y[j] = (float)seer_q45_lo(b[i].qs[j], 0, j, 0) * d + m;
            y[j + 16] = (float)seer_q45_hi(b[i].qs[j], 0, j, 0) * d + m;
        }
    }
}

static inline uint32_t load_u32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void dq_q5_0(const block_q5_0 *b, float *y, int64_t nb) {
    for (int64_t i = 0; i < nb; i++, y += 32) {
        float d = H2F(b[i].d);
        uint32_t qh = load_u32(b[i].qh);
        for (int j = 0; j < 16; j++) {
            y[j] = (float)seer_q45_lo(b[i].qs[j], qh, j, 16) * d;
            y[j + 16] = (float)seer_q45_hi(b[i].qs[j], qh, j, 16) * d;
        }
    }
}

static void dq_q5_1(const block_q5_1 *b, float *y, int64_t nb) {
    for (int64_t i = 0; i < nb; i++, y += 32) {
        float d = H2F(b[i].d), m = H2F(b[i].m);
        uint32_t qh = load_u32(b[i].qh);
        for (int j = 0; j < 16; j++) {
            y[j] = (float)seer_q45_lo(b[i].qs[j], qh, j, 0) * d + m;
            y[j + 16] = (float)seer_q45_hi(b[i].qs[j], qh, j, 0) * d + m;
        }
    }
}

static void dq_q8_0(const block_q8_0 *b, float *y, int64_t nb) {
    for (int64_t i = 0; i < nb; i++, y += 32) {
        float d = H2F(b[i].d);
        for (int j = 0; j < 32; j++) y[j] = (float)b[i].qs[j] * d;
    }
}

static void dq_q8_1(const block_q8_1 *b, float *y, int64_t nb) {
    for (int64_t i = 0; i < nb; i++, y += 32) {
        float d = H2F(b[i].d);
        for (int j = 0; j < 32; j++) y[j] = (float)b[i].qs[j] * d;
    }
}

static void dq_q2_K(const block_q2_K *b, float *y, int64_t nb) {
    for (int64_t i = 0; i < nb; i++) {
        float d = H2F(b[i].d), dmin = H2F(b[i].dmin);
        const uint8_t *q = b[i].qs;
        int is = 0;
        /* Two halves of 128; each 32-byte run of q holds four 2-bit planes,
         * every plane being two groups of 16 with their own scale/min. */
        for (int half = 0; half < 2; half++, q += 32) {
            for (int shift = 0; shift < 8; shift += 2) {
                for (int g = 0; g < 2; g++, is++) {
                    uint8_t sc = b[i].scales[is];
                    float dl = d * (float)(sc & 0xF), ml = dmin * (float)(sc >> 4);
                    for (int l = 0; l < 16; l++) *y++ = dl * (float)((q[16 * g + l] >> shift) & 3) - ml;
                }
            }
        }
    }
}

static void dq_q3_K(const block_q3_K *b, float *y, int64_t nb) {
    for (int64_t i = 0; i < nb; i++) {
        float d = H2F(b[i].d);
        int8_t scales[16];
        seer_q3k_scales(b[i].scales, scales);
        const uint8_t *q = b[i].qs, *hm = b[i].hmask;
        uint8_t m = 1;
        int is = 0;
        for (int half = 0; half < 2; half++, q += 32) {
            for (int shift = 0; shift < 8; shift += 2, m <<= 1) {
                for (int g = 0; g < 2; g++, is++) {
                    float dl = d * (float)scales[is];
                    for (int l = 0; l < 16; l++) {
                        int k = 16 * g + l;
                        int v = ((q[k] >> shift) & 3) - ((hm[k] & m) ? 0 : 4);
                        *y++ = dl * (float)v;
                    }
                }
            }
        }
    }
}

static void dq_q4_K(const block_q4_K *b, float *y, int64_t nb) {
    for (int64_t i = 0; i < nb; i++) {
        float d = H2F(b[i].d), dmin = H2F(b[i].dmin);
        const uint8_t *q = b[i].qs;
        for (int j = 0; j < 8; j += 2, q += 32) {
            uint8_t sc, m;
            seer_k4_scale_min(j, b[i].scales, &sc, &m);
            float d1 = d * sc, m1 = dmin * m;
            seer_k4_scale_min(j + 1, b[i].scales, &sc, &m);
            float d2 = d * sc, m2 = dmin * m;
            for (int l = 0; l < 32; l++) *y++ = d1 * (float)(q[l] & 0xF) - m1;
            for (int l = 0; l < 32; l++) *y++ = d2 * (float)(q[l] >> 4) - m2;
        }
    }
}

static void dq_q5_K(const block_q5_K *b, float *y, int64_t nb) {
    for (int64_t i = 0; i < nb; i++) {
        float d = H2F(b[i].d), dmin = H2F(b[i].dmin);
        const uint8_t *ql = b[i].qs, *qh = b[i].qh;
        uint8_t u1 = 1, u2 = 2;
        for (int j = 0; j < 8; j += 2, ql += 32, u1 <<= 2, u2 <<= 2) {
            uint8_t sc, m;
            seer_k4_scale_min(j, b[i].scales, &sc, &m);
            float d1 = d * sc, m1 = dmin * m;
            seer_k4_scale_min(j + 1, b[i].scales, &sc, &m);
            float d2 = d * sc, m2 = dmin * m;
            for (int l = 0; l < 32; l++) *y++ = d1 * (float)((ql[l] & 0xF) + ((qh[l] & u1) ? 16 : 0)) - m1;
            for (int l = 0; l < 32; l++) *y++ = d2 * (float)((ql[l] >> 4) + ((qh[l] & u2) ? 16 : 0)) - m2;
        }
    }
}

static void dq_q6_K(const block_q6_K *b, float *y, int64_t nb) {
    for (int64_t i = 0; i < nb; i++) {
        float d = H2F(b[i].d);
        const uint8_t *ql = b[i].ql, *qh = b[i].qh;
        const int8_t *sc = b[i].scales;
        for (int n = 0; n < 2; n++, y += 128, ql += 64, qh += 32, sc += 8) {
            for (int l = 0; l < 32; l++) {
                int is = l / 16;
                int q1 = ((ql[l] & 0xF) | (((qh[l] >> 0) & 3) << 4)) - 32;
                int q2 = ((ql[l + 32] & 0xF) | (((qh[l] >> 2) & 3) << 4)) - 32;
                int q3 = ((ql[l] >> 4) | (((qh[l] >> 4) & 3) << 4)) - 32;
                int q4 = ((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4)) - 32;
                y[l] = d * (float)sc[is + 0] * (float)q1;
                y[l + 32] = d * (float)sc[is + 2] * (float)q2;
                y[l + 64] = d * (float)sc[is + 4] * (float)q3;
                y[l + 96] = d * (float)sc[is + 6] * (float)q4;
            }
        }
    }
}

static void dq_q8_K(const block_q8_K *b, float *y, int64_t nb) {
    for (int64_t i = 0; i < nb; i++, y += QK_K)
        for (int j = 0; j < QK_K; j++) y[j] = b[i].d * (float)b[i].qs[j];
}

/* 32 values from 16 bytes of IQ4 nibbles times d. */
static void dq_iq4_32(const uint8_t *qs, float d, float *y) {
    int8_t q[32];
    seer_iq4_unpack32(qs, q);
    for (int j = 0; j < 32; j++) y[j] = d * q[j];
}

static void dq_iq4_nl(const block_iq4_nl *b, float *y, int64_t nb) {
    for (int64_t i = 0; i < nb; i++, y += 32) dq_iq4_32(b[i].qs, seer_fp16_to_f32(b[i].d), y);
}

static void dq_iq4_xs(const block_iq4_xs *b, float *y, int64_t nb) {
    for (int64_t i = 0; i < nb; i++) {
        const float d = seer_fp16_to_f32(b[i].d);
        for (int ib = 0; ib < 8; ib++, y += 32) dq_iq4_32(b[i].qs + 16 * ib, d * (float)seer_iq4_xs_scale(&b[i], ib), y);
    }
}

/* The low-bit i-quants, through their unpacking (iq_unpack.h). */
static void dq_iq(seer_iq_unpack_fn unpack, const uint8_t *b, size_t block_bytes, float *y, int64_t nb) {
    seer_iq_block u;
    for (int64_t i = 0; i < nb; i++, b += block_bytes, y += QK_K) {
        unpack(b, &u);
        for (int g = 0; g < 16; g++) {
            const float dl = u.d * (float)u.ls[g];
            for (int k = 16 * g; k < 16 * g + 16; k++) y[k] = dl * (float)u.q[k];
        }
    }
}

void seer_dequantize_row_scalar(int type, const void *src, float *dst, int64_t n) {
    const seer_type_info *ti = seer_type_get(type);
    if (!ti || n <= 0) return;
    int64_t nb = n / ti->block_size;
    const seer_iq_unpack_fn unpack = seer_iq_unpacker(type);
    if (unpack) {
        dq_iq(unpack, src, ti->block_bytes, dst, nb);
        return;
    }
    switch (type) {
    case SEER_TYPE_F32: memcpy(dst, src, (size_t)n * sizeof(float)); break;
    case SEER_TYPE_F16: {
        const uint16_t *h = src;
        for (int64_t i = 0; i < n; i++) dst[i] = seer_fp16_to_f32(h[i]);
        break;
    }
    case SEER_TYPE_BF16: {
        const uint16_t *h = src;
        for (int64_t i = 0; i < n; i++) dst[i] = seer_bf16_to_f32(h[i]);
        break;
    }
    case SEER_TYPE_Q4_0: dq_q4_0(src, dst, nb); break;
    case SEER_TYPE_Q4_1: dq_q4_1(src, dst, nb); break;
    case SEER_TYPE_Q5_0: dq_q5_0(src, dst, nb); break;
    case SEER_TYPE_Q5_1: dq_q5_1(src, dst, nb); break;
    case SEER_TYPE_Q8_0: dq_q8_0(src, dst, nb); break;
    case SEER_TYPE_Q8_1: dq_q8_1(src, dst, nb); break;
    case SEER_TYPE_Q2_K: dq_q2_K(src, dst, nb); break;
    case SEER_TYPE_Q3_K: dq_q3_K(src, dst, nb); break;
    case SEER_TYPE_Q4_K: dq_q4_K(src, dst, nb); break;
    case SEER_TYPE_Q5_K: dq_q5_K(src, dst, nb); break;
    case SEER_TYPE_Q6_K: dq_q6_K(src, dst, nb); break;
    case SEER_TYPE_Q8_K: dq_q8_K(src, dst, nb); break;
    case SEER_TYPE_IQ4_NL: dq_iq4_nl(src, dst, nb); break;
    case SEER_TYPE_IQ4_XS: dq_iq4_xs(src, dst, nb); break;
    default: break;
    }
}

/* Whether the AVX2 versions may run (the one SIMD switch, seer/cpu.h). */
bool seer_tensor_have_avx2(void) { return seer_simd_level() >= SEER_SIMD_AVX2; }

void seer_dequantize_row(int type, const void *src, float *dst, int64_t n) {
    if (seer_tensor_have_avx2() && n > 0 && seer_dequantize_row_avx2(type, src, dst, n)) return;
    seer_dequantize_row_scalar(type, src, dst, n);
}
