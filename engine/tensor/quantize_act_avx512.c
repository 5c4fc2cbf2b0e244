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
    return _mm512_cvt_roundps_epi32(ordered, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
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

/* One reduction step (the lanes' maximum, or their int32 sum) of a and b. */
static inline __m512 combine(__m512 a, __m512 b, const bool add) {
    if (!add) return _mm512_max_ps(a, b);
    return _mm512_castsi512_ps(_mm512_add_epi32(_mm512_castps_si512(a), _mm512_castps_si512(b)));
}

/* 16 vectors reduced at once (their maxima, or their int32 sums), lane
 * by lane of one vector: halves, quarters, pairs and single lanes of two
 * vectors combined at each step, 15 steps for 16 reductions where one
 * reduction alone takes 4, and no step waits on the one before it. The
 * steps leave the results in the lane order tree_slot, its own inverse:
 * v[s] is reduced into lane tree_slot[s]. */
static const int tree_slot[16] = {0, 2, 1, 3, 8, 10, 9, 11, 4, 6, 5, 7, 12, 14, 13, 15};
static inline __m512 reduce16(const __m512 v[16], const bool add) {
    __m512 t[8], u[4], w[2];
#pragma GCC unroll 8
    for (int i = 0; i < 8; i++)
        t[i] = combine(_mm512_shuffle_f32x4(v[i], v[i + 8], 0x44), _mm512_shuffle_f32x4(v[i], v[i + 8], 0xEE), add);
#pragma GCC unroll 4
    for (int i = 0; i < 4; i++)
        u[i] = combine(_mm512_shuffle_f32x4(t[i], t[i + 4], 0x88), _mm512_shuffle_f32x4(t[i], t[i + 4], 0xDD), add);
#pragma GCC unroll 2
    for (int i = 0; i < 2; i++) {
        const __m512d a = _mm512_castps_pd(u[i]), b = _mm512_castps_pd(u[i + 2]);
        w[i] = combine(_mm512_castpd_ps(_mm512_unpacklo_pd(a, b)), _mm512_castpd_ps(_mm512_unpackhi_pd(a, b)), add);
    }
    return combine(_mm512_shuffle_ps(w[0], w[1], 0x88), _mm512_shuffle_ps(w[0], w[1], 0xDD), add);
}

/* 16 blocks of 32 at x for seer_q8_0_gemm_row_avx512: the blocks' maxima,
 * scales and sums reduced 16 at a time, the same operations on the same
 * values as q8_0_block. One block at a time (its own reductions and
 * scalar divisions) took 7.0 ns a block on a Zen 5 core, this 2.9 (16
 * rows of 1536 in cache). */
static inline void q8_0_gemm_blocks16(const float *x, __m128i flip, uint8_t *u8, float *d, int32_t *corr,
                                      int corr_mul) {
    __m512 v[16];
#pragma GCC unroll 16
    for (int s = 0; s < 16; s++) {
        const float *xb = x + QK8_0 * tree_slot[s];
        v[s] = _mm512_max_ps(abs_ps(_mm512_loadu_ps(xb + 16)), _mm512_max_ps(abs_ps(_mm512_loadu_ps(xb)), _mm512_setzero_ps()));
    }
    const __m512 amax = reduce16(v, false), k127 = _mm512_set1_ps(127.f);
    float id[16];
    _mm512_storeu_ps(id, _mm512_maskz_div_ps(_mm512_cmp_ps_mask(amax, _mm512_setzero_ps(), _CMP_NEQ_UQ), k127, amax));
    _mm512_storeu_ps(d, _mm512_cvtph_ps(_mm512_cvtps_ph(_mm512_div_ps(amax, k127), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)));
#pragma GCC unroll 16
    for (int s = 0; s < 16; s++) {
        const int b = tree_slot[s];
        const __m512 sb = _mm512_set1_ps(id[b]);
        const __m512i q0 = round16(x + QK8_0 * b, sb), q1 = round16(x + QK8_0 * b + 16, sb);
        _mm_storeu_si128((__m128i *)(u8 + QK8_0 * b), _mm_xor_si128(_mm512_cvtsepi32_epi8(q0), flip));
        _mm_storeu_si128((__m128i *)(u8 + QK8_0 * b + 16), _mm_xor_si128(_mm512_cvtsepi32_epi8(q1), flip));
        v[s] = _mm512_castsi512_ps(_mm512_add_epi32(q0, q1));
    }
    if (corr) _mm512_storeu_si512(corr, _mm512_mullo_epi32(_mm512_castps_si512(reduce16(v, true)), _mm512_set1_epi32(corr_mul)));
}

void seer_q8_0_gemm_row_avx512(const float *x, int64_t n, uint8_t offset, uint8_t *u8, float *d, int32_t *corr,
                               int corr_mul) {
    const __m128i flip = _mm_set1_epi8((char)offset);
    const int64_t nb = n / QK8_0;
    int64_t i = 0;
    for (; i + 16 <= nb; i += 16)
        q8_0_gemm_blocks16(x + QK8_0 * i, flip, u8 + QK8_0 * i, d + i, corr ? corr + i : NULL, corr_mul);
    for (; i < nb; i++) { /* the last blocks one at a time */
        __m512i q[2];
        const float *xb = x + QK8_0 * i;
        d[i] = _mm_cvtss_f32(_mm_cvtph_ps(_mm_cvtsi32_si128(q8_0_block(xb, q))));
        _mm_storeu_si128((__m128i *)(u8 + QK8_0 * i), _mm_xor_si128(_mm512_cvtsepi32_epi8(q[0]), flip));
        _mm_storeu_si128((__m128i *)(u8 + QK8_0 * i + 16), _mm_xor_si128(_mm512_cvtsepi32_epi8(q[1]), flip));
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

void seer_q8_K_gemm_row_avx512(const float *x, int64_t n, uint8_t offset, uint8_t *u8, float *d, int16_t *sums,
                               bool sums_by_16) {
    const __m128i flip = _mm_set1_epi8((char)offset);
    for (int64_t i = 0; i < n / QK_K; i++, x += QK_K, u8 += QK_K, d += QK_K / 32) {
        const float amax = absmax(x, QK_K);
        const float iscale = amax == 0 ? 0 : -127.f / x[first_of_magnitude(x, amax)];
        const __m512 s = _mm512_set1_ps(iscale);
        __m512 v[16]; /* the quants by 16, in tree_slot order for their sums */
#pragma GCC unroll 16
        for (int k = 0; k < 16; k++) {
            const __m512i q = amax == 0 ? _mm512_setzero_si512() : round16(x + 16 * tree_slot[k], s);
            _mm_storeu_si128((__m128i *)(u8 + 16 * tree_slot[k]), _mm_xor_si128(_mm512_cvtsepi32_epi8(q), flip));
            v[k] = _mm512_castsi512_ps(q);
        }
        const float scale = amax == 0 ? 0 : 1 / iscale;
        for (int b = 0; b < QK_K / 32; b++) d[b] = scale;
        if (!sums) continue;
        int32_t by16[16];
        _mm512_storeu_si512(by16, _mm512_castps_si512(reduce16(v, true)));
        if (sums_by_16) {
            _mm256_storeu_si256((__m256i *)(sums + 16 * i), _mm512_cvtepi32_epi16(_mm512_loadu_si512(by16)));
        } else {
            for (int b = 0; b < QK_K / 32; b++) sums[8 * i + b] = (int16_t)(by16[2 * b] + by16[2 * b + 1]);
        }
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

void seer_q8_K_gemm_row_avx512(const float *x, int64_t n, uint8_t offset, uint8_t *u8, float *d, int16_t *sums,
                               bool sums_by_16) {
    (void)x; (void)n; (void)offset; (void)u8; (void)d; (void)sums; (void)sums_by_16;
}
#endif
