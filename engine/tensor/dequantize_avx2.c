/* AVX2 dequantization of the common weight types, for the prefill path that
 * expands weight tiles to f32. Results are bit-identical to the scalar code
 * (same multiplies, no fused multiply-add). */
#include "seer/tensor.h"
#include "tensor/dequantize_internal.h"

#if defined(__x86_64__) && defined(__AVX2__) && defined(__F16C__)
#include <immintrin.h>
#include <string.h>

#include "tensor/blocks.h"
#include "tensor/iq_x86.h"

static inline float h2f(uint16_t h) { return _cvtsh_ss(h); }

static inline void store_scaled_bytes32(float *y, __m256i q, __m256 d) {
    /* q: 32 signed bytes in element order */
    __m128i lo = _mm256_castsi256_si128(q), hi = _mm256_extracti128_si256(q, 1);
    _mm256_storeu_ps(y + 0, _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(lo)), d));
    _mm256_storeu_ps(y + 8, _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(_mm_srli_si128(lo, 8))), d));
    _mm256_storeu_ps(y + 16, _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(hi)), d));
    _mm256_storeu_ps(y + 24, _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(_mm_srli_si128(hi, 8))), d));
}

/* 32 signed bytes q, the first 16 times d_lo and the next 16 times d_hi. */
static inline void store_halves_scaled(float *y, __m256i q, float d_lo, float d_hi) {
    __m128i lo = _mm256_castsi256_si128(q), hi = _mm256_extracti128_si256(q, 1);
    const __m256 dl = _mm256_set1_ps(d_lo), dh = _mm256_set1_ps(d_hi);
    _mm256_storeu_ps(y + 0, _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(lo)), dl));
    _mm256_storeu_ps(y + 8, _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(_mm_srli_si128(lo, 8))), dl));
    _mm256_storeu_ps(y + 16, _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(hi)), dh));
    _mm256_storeu_ps(y + 24, _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(_mm_srli_si128(hi, 8))), dh));
}

/* 32 unsigned bytes q: y = d·q − m (two roundings, like the scalar code) */
static inline void store_affine_bytes32(float *y, __m256i q, __m256 d, __m256 m) {
    __m128i lo = _mm256_castsi256_si128(q), hi = _mm256_extracti128_si256(q, 1);
    __m128i parts[4] = {lo, _mm_srli_si128(lo, 8), hi, _mm_srli_si128(hi, 8)};
    for (int k = 0; k < 4; k++) {
        __m256 v = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(parts[k]));
        _mm256_storeu_ps(y + 8 * k, _mm256_sub_ps(_mm256_mul_ps(d, v), m));
    }
}

static inline __m256i nibbles_32(const uint8_t *q) {
    __m128i b = _mm_loadu_si128((const __m128i *)q);
    return _mm256_and_si256(_mm256_set_m128i(_mm_srli_epi16(b, 4), b), _mm256_set1_epi8(0x0F));
}

static inline __m256i bits_to_bytes(uint32_t bits) {
    __m256i v = _mm256_set1_epi32((int)bits);
    const __m256i pick = _mm256_set_epi64x(0x0303030303030303LL, 0x0202020202020202LL, 0x0101010101010101LL, 0);
    v = _mm256_shuffle_epi8(v, pick);
    const __m256i bit = _mm256_set1_epi64x(0x8040201008040201LL);
    return _mm256_cmpeq_epi8(_mm256_and_si256(v, bit), bit);
}

static void dq_q8_0(const void *src, float *y, int64_t nb) {
    const block_q8_0 *b = src;
    for (int64_t i = 0; i < nb; i++, y += 32)
        store_scaled_bytes32(y, _mm256_loadu_si256((const __m256i *)b[i].qs), _mm256_set1_ps(h2f(b[i].d)));
}

static void dq_q4_0(const void *src, float *y, int64_t nb) {
    const block_q4_0 *b = src;
    for (int64_t i = 0; i < nb; i++, y += 32)
        store_scaled_bytes32(y, _mm256_sub_epi8(nibbles_32(b[i].qs), _mm256_set1_epi8(8)), _mm256_set1_ps(h2f(b[i].d)));
}

static void dq_q5_0(const void *src, float *y, int64_t nb) {
    const block_q5_0 *b = src;
    for (int64_t i = 0; i < nb; i++, y += 32) {
        uint32_t qh;
        memcpy(&qh, b[i].qh, 4);
        __m256i q = _mm256_or_si256(nibbles_32(b[i].qs), _mm256_andnot_si256(bits_to_bytes(qh), _mm256_set1_epi8((char)0xF0)));
        store_scaled_bytes32(y, q, _mm256_set1_ps(h2f(b[i].d)));
    }
}

static void dq_q4_K(const void *src, float *y, int64_t nb) {
    const block_q4_K *b = src;
    const __m256i m4 = _mm256_set1_epi8(0x0F);
    for (int64_t i = 0; i < nb; i++) {
        float d = h2f(b[i].d), dmin = h2f(b[i].dmin);
        for (int c = 0; c < 4; c++, y += 64) {
            uint8_t sc, m;
            __m256i q = _mm256_loadu_si256((const __m256i *)(b[i].qs + 32 * c));
            seer_k4_scale_min(2 * c, b[i].scales, &sc, &m);
            store_affine_bytes32(y, _mm256_and_si256(q, m4), _mm256_set1_ps(d * sc), _mm256_set1_ps(dmin * m));
            seer_k4_scale_min(2 * c + 1, b[i].scales, &sc, &m);
            store_affine_bytes32(y + 32, _mm256_and_si256(_mm256_srli_epi16(q, 4), m4), _mm256_set1_ps(d * sc),
                                 _mm256_set1_ps(dmin * m));
        }
    }
}

static void dq_q6_K(const void *src, float *y, int64_t nb) {
    const block_q6_K *b = src;
    const __m256i m4 = _mm256_set1_epi8(0x0F), m3 = _mm256_set1_epi8(3), off = _mm256_set1_epi8(32);
    for (int64_t i = 0; i < nb; i++) {
        float d = h2f(b[i].d);
        for (int h = 0; h < 2; h++, y += 128) {
            const uint8_t *ql = b[i].ql + 64 * h;
            __m256i qh = _mm256_loadu_si256((const __m256i *)(b[i].qh + 32 * h));
            __m256i l0 = _mm256_loadu_si256((const __m256i *)ql), l1 = _mm256_loadu_si256((const __m256i *)(ql + 32));
            __m256i u[4];
            u[0] = _mm256_or_si256(_mm256_and_si256(l0, m4), _mm256_slli_epi16(_mm256_and_si256(qh, m3), 4));
            u[1] = _mm256_or_si256(_mm256_and_si256(l1, m4), _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(qh, 2), m3), 4));
            u[2] = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(l0, 4), m4),
                                   _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(qh, 4), m3), 4));
            u[3] = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(l1, 4), m4),
                                   _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(qh, 6), m3), 4));
            for (int k = 0; k < 4; k++) {
                __m256i q = _mm256_sub_epi8(u[k], off);
                const int8_t *sc = b[i].scales + 8 * h + 2 * k;
                /* scalar: (d·sc)·q, so scale first, then the quant */
                __m256 d0 = _mm256_set1_ps(d * (float)sc[0]), d1 = _mm256_set1_ps(d * (float)sc[1]);
                __m128i lo = _mm256_castsi256_si128(q), hi = _mm256_extracti128_si256(q, 1);
                float *o = y + 32 * k;
                _mm256_storeu_ps(o + 0, _mm256_mul_ps(d0, _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(lo))));
                _mm256_storeu_ps(o + 8, _mm256_mul_ps(d0, _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(_mm_srli_si128(lo, 8)))));
                _mm256_storeu_ps(o + 16, _mm256_mul_ps(d1, _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(hi))));
                _mm256_storeu_ps(o + 24, _mm256_mul_ps(d1, _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(_mm_srli_si128(hi, 8)))));
            }
        }
    }
}

static void dq_f16(const void *src, float *y, int64_t n) {
    const uint16_t *h = src;
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) _mm256_storeu_ps(y + i, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(h + i))));
    for (; i < n; i++) y[i] = h2f(h[i]);
}

static void dq_bf16(const void *src, float *y, int64_t n) {
    const uint16_t *h = src;
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256i v = _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(h + i)));
        _mm256_storeu_ps(y + i, _mm256_castsi256_ps(_mm256_slli_epi32(v, 16)));
    }
    for (; i < n; i++) y[i] = seer_bf16_to_f32(h[i]);
}

/* The low-bit i-quants: each run of 32 as tensor/iq_x86.h gathers it,
 * each half times d · its scale (the scalar code's two multiplies). */
#define IQ_DEQUANT(name, block, type)                                                                             \
    static void dq_##name(const void *src, float *y, int64_t nb) {                                                \
        const block *x = src;                                                                                     \
        const seer_iq_grids *g = seer_iq_grids_get();                                                             \
        for (int64_t i = 0; i < nb; i++) {                                                                        \
            const float d = name##_d(x + i);                                                                      \
            for (int ib = 0; ib < 8; ib++, y += 32) {                                                             \
                const iq_run r = name##_run(x + i, ib, g);                                                        \
                store_halves_scaled(y, _mm256_sign_epi8(r.u, r.s), d * (float)r.ls_lo, d * (float)r.ls_hi);       \
            }                                                                                                     \
        }                                                                                                         \
    }
SEER_IQ_TYPES(IQ_DEQUANT)

bool seer_dequantize_row_avx2(int type, const void *src, float *dst, int64_t n) {
    switch (type) {
#define IQ_CASE(name, block, type)                                                                                \
    case type: dq_##name(src, dst, n / QK_K); return true;
    SEER_IQ_TYPES(IQ_CASE)
    case SEER_TYPE_F16: dq_f16(src, dst, n); return true;
    case SEER_TYPE_BF16: dq_bf16(src, dst, n); return true;
    case SEER_TYPE_Q8_0: dq_q8_0(src, dst, n / 32); return true;
    case SEER_TYPE_Q4_0: dq_q4_0(src, dst, n / 32); return true;
    case SEER_TYPE_Q5_0: dq_q5_0(src, dst, n / 32); return true;
    case SEER_TYPE_Q4_K: dq_q4_K(src, dst, n / QK_K); return true;
    case SEER_TYPE_Q6_K: dq_q6_K(src, dst, n / QK_K); return true;
    default: return false;
    }
}
#else
bool seer_dequantize_row_avx2(int type, const void *src, float *dst, int64_t n) {
    (void)type; (void)src; (void)dst; (void)n;
    return false;
}
#endif
