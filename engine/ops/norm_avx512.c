/* norm.c's steps at AVX-512, eight doubles at a time, each giving the
 * portable code's results bit for bit: its SSE2 pairs were 2.8% of a
 * SmolVLM-256M prompt on one Zen 5 core and 2.2% of its image encode
 * (RMSNorm 2.4x as fast here, 128 x 576; LayerNorm 1.9x with the sums
 * alone). */
#include "ops/norm_avx512.h"

#if defined(__x86_64__) && defined(__AVX512F__)
#include <immintrin.h>

/* Element i in lane i mod 8, the lanes added in the order of the portable
 * code's four pairs of sums: the same double. */
double seer_norm_sum_avx512(const float *x, int64_t n, double c, int pow) {
    const __m512d cv = _mm512_set1_pd(c);
    __m512d a = _mm512_setzero_pd();
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m512d v = _mm512_sub_pd(_mm512_cvtps_pd(_mm256_loadu_ps(x + i)), cv);
        a = _mm512_add_pd(a, pow == 2 ? _mm512_mul_pd(v, v) : v);
    }
    double l[8];
    _mm512_storeu_pd(l, a);
    /* the portable code's (a[0] + a[1]) + (a[2] + a[3]) over pairs, then its two lanes */
    double s = ((l[0] + l[2]) + (l[4] + l[6])) + ((l[1] + l[3]) + (l[5] + l[7]));
    for (; i < n; i++) s += pow == 2 ? ((double)x[i] - c) * ((double)x[i] - c) : (double)x[i] - c;
    return s;
}

/* ((x - mean)·inv in double, to float)·w + b, as the portable code rounds
 * it, for the first n - n % 8 elements; returns how many it did. */
int64_t seer_layernorm_out_avx512(const float *x, float *out, const float *w, const float *b, int64_t n, double mean,
                                  double inv) {
    const __m512d m = _mm512_set1_pd(mean), s = _mm512_set1_pd(inv);
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 v = _mm512_cvtpd_ps(_mm512_mul_pd(_mm512_sub_pd(_mm512_cvtps_pd(_mm256_loadu_ps(x + i)), m), s));
        if (w) v = _mm256_mul_ps(v, _mm256_loadu_ps(w + i));
        if (b) v = _mm256_add_ps(v, _mm256_loadu_ps(b + i));
        _mm256_storeu_ps(out + i, v);
    }
    return i;
}

/* (x·scale)·w, two roundings as the portable code's, for the first
 * n - n % 16 elements; returns how many it did. Its four-float vectors
 * were 0.56% of a Gemma 4 E4B decode step's caller (eight norms a layer). */
int64_t seer_rmsnorm_out_avx512(float *x, const float *w, float scale, int64_t n) {
    const __m512 s = _mm512_set1_ps(scale);
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m512 v = _mm512_mul_ps(_mm512_loadu_ps(x + i), s);
        if (w) v = _mm512_mul_ps(v, _mm512_loadu_ps(w + i));
        _mm512_storeu_ps(x + i, v);
    }
    return i;
}
#else
int64_t seer_rmsnorm_out_avx512(float *x, const float *w, float scale, int64_t n) {
    (void)x; (void)w; (void)scale; (void)n;
    return 0;
}

int64_t seer_layernorm_out_avx512(const float *x, float *out, const float *w, const float *b, int64_t n, double mean,
                                  double inv) {
    (void)x; (void)out; (void)w; (void)b; (void)n; (void)mean; (void)inv;
    return 0;
}

double seer_norm_sum_avx512(const float *x, int64_t n, double c, int pow) {
    (void)x; (void)n; (void)c; (void)pow;
    return 0;
}
#endif
