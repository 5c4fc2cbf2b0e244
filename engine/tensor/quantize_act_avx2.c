/* AVX2 versions of the activation quantizers Q8_0 and Q8_K (quantize_act.c).
 * Decode quantizes each activation row on one core while the others wait,
 * so their speed shows in every token. Bit-identical to the scalar code:
 * the same maxima, the same rounded products (no fused multiply-add), and
 * rounding to nearest even, which is what seer_round_nearest computes. */
#include "tensor/quantize_internal.h"

#if defined(__x86_64__) && defined(__AVX2__) && defined(__F16C__)
#include <immintrin.h>

#include "tensor/blocks.h"

static inline float hmax(__m256 v) {
    __m128 m = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    m = _mm_max_ps(m, _mm_movehl_ps(m, m));
    m = _mm_max_ss(m, _mm_movehdup_ps(m));
    return _mm_cvtss_f32(m);
}

static inline __m256 abs_ps(__m256 v) { return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), v); }

/* max|x| of n floats (a multiple of 8), taken as max(|x|, m): VMAXPS
 * returns its second operand when either is NaN, so NaNs are passed over as
 * the scalar comparison does. */
static inline float absmax(const float *x, int n) {
    __m256 m = _mm256_setzero_ps();
    for (int k = 0; k < n; k += 8) m = _mm256_max_ps(abs_ps(_mm256_loadu_ps(x + k)), m);
    return hmax(m);
}

/* 32 floats · scale, rounded to nearest even, as 32 bytes (|values| <= 127;
 * a NaN becomes 0, as seer_round_nearest makes of the default NaN). */
static inline __m256i round_pack32(const float *x, __m256 scale) {
    __m256i q[4];
    for (int k = 0; k < 4; k++) {
        __m256 v = _mm256_mul_ps(_mm256_loadu_ps(x + 8 * k), scale);
        v = _mm256_and_ps(v, _mm256_cmp_ps(v, v, _CMP_ORD_Q));
        q[k] = _mm256_cvtps_epi32(_mm256_round_ps(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
    }
    /* packs work per 128-bit lane: restore element order afterwards */
    __m256i w = _mm256_packs_epi16(_mm256_packs_epi32(q[0], q[1]), _mm256_packs_epi32(q[2], q[3]));
    return _mm256_permutevar8x32_epi32(w, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
}

/* 8 vectors' maxima reduced at once, lane by lane of one vector (halves,
 * pairs and single lanes of two vectors combined at each step: 7 steps
 * for 8 maxima where one alone takes 3, none waiting on the one before).
 * The steps leave v[s]'s maximum in lane tree_slot[s], its own inverse. */
static const int tree_slot[8] = {0, 2, 1, 3, 4, 6, 5, 7};
static inline __m256 max8(const __m256 v[8]) {
    __m256 t[4], u[2];
#pragma GCC unroll 4
    for (int i = 0; i < 4; i++)
        t[i] = _mm256_max_ps(_mm256_permute2f128_ps(v[i], v[i + 4], 0x20), _mm256_permute2f128_ps(v[i], v[i + 4], 0x31));
#pragma GCC unroll 2
    for (int i = 0; i < 2; i++) {
        const __m256d a = _mm256_castps_pd(t[i]), b = _mm256_castps_pd(t[i + 2]);
        u[i] = _mm256_max_ps(_mm256_castpd_ps(_mm256_unpacklo_pd(a, b)), _mm256_castpd_ps(_mm256_unpackhi_pd(a, b)));
    }
    return _mm256_max_ps(_mm256_shuffle_ps(u[0], u[1], 0x88), _mm256_shuffle_ps(u[0], u[1], 0xDD));
}

/* Eight blocks at x into y: their maxima, scales and F16 scales eight at a
 * time, the same operations on the same values as one block at a time
 * (which took 7.1 ns a block on a Zen 5 core at SEER_SIMD=avx2, this 4.5). */
static inline void q8_0_blocks8(const float *x, block_q8_0 *y) {
    __m256 v[8];
#pragma GCC unroll 8
    for (int s = 0; s < 8; s++) {
        const float *xb = x + QK8_0 * tree_slot[s];
        __m256 m = _mm256_setzero_ps();
#pragma GCC unroll 4
        for (int k = 0; k < QK8_0; k += 8) m = _mm256_max_ps(abs_ps(_mm256_loadu_ps(xb + k)), m);
        v[s] = m;
    }
    const __m256 amax = max8(v), k127 = _mm256_set1_ps(127.f);
    float id[8];
    uint16_t d[8];
    _mm256_storeu_ps(id, _mm256_and_ps(_mm256_div_ps(k127, amax), _mm256_cmp_ps(amax, _mm256_setzero_ps(), _CMP_NEQ_UQ)));
    _mm_storeu_si128((__m128i *)d, _mm256_cvtps_ph(_mm256_div_ps(amax, k127), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
#pragma GCC unroll 8
    for (int b = 0; b < 8; b++) {
        y[b].d = d[b];
        _mm256_storeu_si256((__m256i *)y[b].qs, round_pack32(x + QK8_0 * b, _mm256_set1_ps(id[b])));
    }
}

static void q8_0(const float *x, void *dst, int64_t n) {
    block_q8_0 *y = dst;
    int64_t i = 0;
    for (; i + 8 <= n / QK8_0; i += 8, x += 8 * QK8_0) q8_0_blocks8(x, y + i);
    for (; i < n / QK8_0; i++, x += QK8_0) {
        float amax = absmax(x, QK8_0);
        float d = amax / 127.f, id = amax != 0 ? 127.f / amax : 0.f;
        y[i].d = seer_f32_to_fp16(d);
        _mm256_storeu_si256((__m256i *)y[i].qs, round_pack32(x, _mm256_set1_ps(id)));
    }
}

/* The index of the first of x's elements whose magnitude is amax (one of
 * them has it: amax is their maximum), the one the scalar code keeps,
 * eight at a time (one by one, the search took a third of the time). */
static inline int first_of_magnitude(const float *x, float amax) {
    const __m256 m = _mm256_set1_ps(amax);
    for (int k = 0;; k += 8) {
        int hit = _mm256_movemask_ps(_mm256_cmp_ps(abs_ps(_mm256_loadu_ps(x + k)), m, _CMP_EQ_OQ));
        if (hit) return k + __builtin_ctz((unsigned)hit);
    }
}

static void q8_K(const float *x, void *dst, int64_t n) {
    block_q8_K *y = dst;
    for (int64_t i = 0; i < n / QK_K; i++, x += QK_K) {
        float amax = absmax(x, QK_K);
        if (amax == 0) {
            memset(&y[i], 0, sizeof y[i]);
            continue;
        }
        float iscale = -127.f / x[first_of_magnitude(x, amax)];
        __m256 s = _mm256_set1_ps(iscale);
        for (int k = 0; k < QK_K; k += 32) {
            /* -127/max · x stays within ±127 (the scalar code's clamp to 127 never bites) */
            __m256i q = round_pack32(x + k, s);
            _mm256_storeu_si256((__m256i *)(y[i].qs + k), q);
            /* sums of each 16: widen to 16 bits, add pairs, then fold to 2 per 16 */
            __m256i w = _mm256_madd_epi16(_mm256_maddubs_epi16(_mm256_set1_epi8(1), q), _mm256_set1_epi16(1));
            /* w: 8 int32, lanes 0-3 elements 0..15 (4 each), 4-7 elements 16..31 */
            __m128i lo = _mm256_castsi256_si128(w), hi = _mm256_extracti128_si256(w, 1);
            __m128i t = _mm_hadd_epi32(lo, hi);
            t = _mm_hadd_epi32(t, t);
            y[i].bsums[k / 16] = (int16_t)_mm_cvtsi128_si32(t);
            y[i].bsums[k / 16 + 1] = (int16_t)_mm_extract_epi32(t, 1);
        }
        y[i].d = 1 / iscale;
    }
}

bool seer_quantize_act_avx2(int type, const float *src, void *dst, int64_t n) {
    switch (type) {
    case SEER_TYPE_Q8_0: q8_0(src, dst, n); return true;
    case SEER_TYPE_Q8_K: q8_K(src, dst, n); return true;
    default: return false;
    }
}
#else
bool seer_quantize_act_avx2(int type, const float *src, void *dst, int64_t n) {
    (void)type; (void)src; (void)dst; (void)n;
    return false;
}
#endif
