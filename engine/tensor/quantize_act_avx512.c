/* AVX-512 versions of the activation quantizers Q8_0 and Q8_K
 * (quantize_act.c), a block of 32 in two vectors: every prompt product
 * quantizes its activation rows first, and on SmolVLM-256M's 576-wide rows
 * the AVX2 quantizer and the per-block work after it were 6% of a 128-token
 * prompt on one Zen 5 core. Bit-identical to the scalar code for the same
 * reasons as the AVX2 versions (quantize_act_avx2.c): the same maxima, the
 * same rounded products (no fused multiply-add), rounding to nearest even,
 * NaNs passed over in the maxima and quantized to 0. */
#include "tensor/quantize_internal.h"

#if defined(__x86_64__) && defined(__AVX512F__) && defined(__AVX512BW__)
#include <immintrin.h>

#include "tensor/blocks.h"

static inline __m512 abs_ps(__m512 v) { return _mm512_castsi512_ps(_mm512_and_si512(_mm512_castps_si512(v), _mm512_set1_epi32(0x7FFFFFFF))); }

/* max(|x|, m) over n floats (a multiple of 16): VMAXPS returns its second
 * operand when either is NaN, so NaNs are passed over. */
static inline float absmax(const float *x, int n) {
    __m512 m = _mm512_setzero_ps();
    for (int k = 0; k < n; k += 16) m = _mm512_max_ps(abs_ps(_mm512_loadu_ps(x + k)), m);
    return _mm512_reduce_max_ps(m);
}

/* 16 floats · scale rounded to nearest even as int32 (a NaN becomes 0). */
static inline __m512i round16(const float *x, __m512 scale) {
    const __m512 v = _mm512_mul_ps(_mm512_loadu_ps(x), scale);
    const __m512 ordered = _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(v, v, _CMP_ORD_Q), v);
    return _mm512_cvtps_epi32(_mm512_roundscale_ps(ordered, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
}

/* F16C's conversion: round to nearest even, as seer_f32_to_fp16 for every non-NaN value. */
static inline uint16_t to_fp16(float f) { return (uint16_t)_mm_extract_epi16(_mm_cvtps_ph(_mm_set_ss(f), _MM_FROUND_TO_NEAREST_INT), 0); }

/* One block of 32: its F16 scale, and its quants as two vectors of int32. */
static inline uint16_t q8_0_block(const float *x, __m512i q[2]) {
    const float amax = absmax(x, QK8_0);
    const float d = amax / 127.f, id = amax != 0 ? 127.f / amax : 0.f;
    const __m512 s = _mm512_set1_ps(id);
    q[0] = round16(x, s);
    q[1] = round16(x + 16, s);
    return to_fp16(d);
}

static void q8_0(const float *x, void *dst, int64_t n) {
    block_q8_0 *y = dst;
    for (int64_t i = 0; i < n / QK8_0; i++, x += QK8_0) {
        __m512i q[2];
        y[i].d = q8_0_block(x, q);
        _mm_storeu_si128((__m128i *)y[i].qs, _mm512_cvtsepi32_epi8(q[0]));
        _mm_storeu_si128((__m128i *)(y[i].qs + 16), _mm512_cvtsepi32_epi8(q[1]));
    }
}

void seer_q8_0_gemm_row_avx512(const float *x, int64_t n, uint8_t offset, uint8_t *u8, float *d, int32_t *corr,
                               int corr_mul) {
    const __m128i flip = _mm_set1_epi8((char)offset);
    for (int64_t i = 0; i < n / QK8_0; i++, x += QK8_0) {
        __m512i q[2];
        const uint16_t h = q8_0_block(x, q);
        d[i] = _mm_cvtss_f32(_mm_cvtph_ps(_mm_cvtsi32_si128(h)));
        _mm_storeu_si128((__m128i *)(u8 + 32 * i), _mm_xor_si128(_mm512_cvtsepi32_epi8(q[0]), flip));
        _mm_storeu_si128((__m128i *)(u8 + 32 * i + 16), _mm_xor_si128(_mm512_cvtsepi32_epi8(q[1]), flip));
        if (corr) corr[i] = corr_mul * _mm512_reduce_add_epi32(_mm512_add_epi32(q[0], q[1]));
    }
}

/* The index of the first of x's elements whose magnitude is amax (one of
 * them has it), the one the scalar code keeps. */
static inline int first_of_magnitude(const float *x, float amax) {
    const __m512 m = _mm512_set1_ps(amax);
    for (int k = 0;; k += 16) {
        const __mmask16 hit = _mm512_cmp_ps_mask(abs_ps(_mm512_loadu_ps(x + k)), m, _CMP_EQ_OQ);
        if (hit) return k + __builtin_ctz(hit);
    }
}

static void q8_K(const float *x, void *dst, int64_t n) {
    block_q8_K *y = dst;
    for (int64_t i = 0; i < n / QK_K; i++, x += QK_K) {
        const float amax = absmax(x, QK_K);
        if (amax == 0) {
            memset(&y[i], 0, sizeof y[i]);
            continue;
        }
        const float iscale = -127.f / x[first_of_magnitude(x, amax)];
        const __m512 s = _mm512_set1_ps(iscale);
        for (int k = 0; k < QK_K; k += 16) {
            /* -127/max · x stays within ±127 (the scalar code's clamp to 127 never bites) */
            const __m512i q = round16(x + k, s);
            _mm_storeu_si128((__m128i *)(y[i].qs + k), _mm512_cvtsepi32_epi8(q));
            y[i].bsums[k / 16] = (int16_t)_mm512_reduce_add_epi32(q);
        }
        y[i].d = 1 / iscale;
    }
}

bool seer_quantize_act_avx512(int type, const float *src, void *dst, int64_t n) {
    switch (type) {
    case SEER_TYPE_Q8_0: q8_0(src, dst, n); return true;
    case SEER_TYPE_Q8_K: q8_K(src, dst, n); return true;
    default: return false;
    }
}
#else
bool seer_quantize_act_avx512(int type, const float *src, void *dst, int64_t n) {
    (void)type; (void)src; (void)dst; (void)n;
    return false;
}

void seer_q8_0_gemm_row_avx512(const float *x, int64_t n, uint8_t offset, uint8_t *u8, float *d, int32_t *corr,
                               int corr_mul) {
    (void)x; (void)n; (void)offset; (void)u8; (void)d; (void)corr; (void)corr_mul;
}
#endif
