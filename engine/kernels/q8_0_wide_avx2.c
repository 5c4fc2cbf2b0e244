/* Q8_0 prompts at plain AVX2 in 16-bit products (q8_0_wide_internal.h:
 * why, and the layouts). */
#include "kernels/q8_0_wide_internal.h"

#include "seer/cpu.h"

#if defined(__x86_64__) && defined(__AVX2__) && defined(__FMA__) && defined(__F16C__)
#include <immintrin.h>
#include <string.h>

#include "kernels/interleave_internal.h"
#include "kernels/vec_dot_internal.h"

bool seer_q8_0_wide_takes(int type, int level) {
    return type == SEER_TYPE_Q8_0 && level == SEER_SIMD_AVX2 && seer_cpu_avx2_build() == SEER_AVX2_PLAIN;
}

void seer_q8_0_wide_group(int64_t n, const void *group, void *wide) {
    const block_q8_0x16 *x = group;
    const int64_t nb = n / 32;
    int16_t *q = wide;
    float *d = (float *)(q + nb * 512);
    /* a run's 8 rows x 4 bytes: each 128-bit lane's 4 rows, their first
     * pair of values then their second */
    const __m256i pairs = _mm256_setr_epi8(0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15, 0, 1, 4, 5, 8, 9, 12,
                                           13, 2, 3, 6, 7, 10, 11, 14, 15);
    for (int64_t b = 0; b < nb; b++) {
        const block_q8_0x16 *u = x + b / 2;
        const int s = (int)(b % 2);
        _mm256_storeu_ps(d + 16 * b, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)u->d[s])));
        _mm256_storeu_ps(d + 16 * b + 8, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(u->d[s] + 8))));
        for (int h = 0; h < 2; h++)
            for (int g = 0; g < 8; g++) {
                const __m256i v = _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)u->qs[s][g][8 * h]), pairs);
                /* rows 0-3's first pairs, 4-7's, then the second pairs */
                const __m256i rows = _mm256_permute4x64_epi64(v, 0xD8);
                int16_t *dst = q + 512 * b + 256 * h + 32 * g; /* pairs 2g and 2g + 1 */
                _mm256_storeu_si256((__m256i *)dst, _mm256_cvtepi8_epi16(_mm256_castsi256_si128(rows)));
                _mm256_storeu_si256((__m256i *)(dst + 16), _mm256_cvtepi8_epi16(_mm256_extracti128_si256(rows, 1)));
            }
    }
}

void seer_q8_0_wide_act_row(int64_t n, const void *row, void *wide) {
    const block_q8_0 *y = row;
    const int64_t nb = n / 32;
    int16_t *a = wide;
    float *d = (float *)(a + n);
    for (int64_t b = 0; b < nb; b++) {
        _mm256_storeu_si256((__m256i *)(a + 32 * b), _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)y[b].qs)));
        _mm256_storeu_si256((__m256i *)(a + 32 * b + 16),
                            _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(y[b].qs + 16))));
        d[b] = seer_q8_0_row_scale(row, n, b);
    }
}

/* Each block: per row and half, 16 VPMADDWD of the pairs against the
 * row's pair broadcast, each broadcast serving both halves; then the
 * several-row kernel's float step, acc += (d · d_act) · sum. The float
 * sums stay in memory: with them in registers beside 8 integer sums, two
 * weight vectors and a broadcast, AVX2's 16 ran out. */
static inline __attribute__((always_inline)) void wide_rows_xn(int64_t n, const void *group, const void *act,
                                                               size_t act_stride, const int NR, float *out) {
    const int64_t nb = n / 32;
    const int16_t *q = group;
    const float *dw = (const float *)(q + nb * 512);
    float acc[4][SEER_ILV_ROWS];
    memset(acc, 0, sizeof acc);
    for (int64_t b = 0; b < nb; b++) {
        const int16_t *qb = q + 512 * b;
        __m256i sum[4][2];
#pragma GCC unroll 4
        for (int r = 0; r < NR; r++) sum[r][0] = sum[r][1] = _mm256_setzero_si256();
#pragma GCC unroll 16
        for (int p = 0; p < 16; p++) {
            const __m256i w0 = _mm256_loadu_si256((const __m256i *)(qb + 16 * p));
            const __m256i w1 = _mm256_loadu_si256((const __m256i *)(qb + 256 + 16 * p));
#pragma GCC unroll 4
            for (int r = 0; r < NR; r++) {
                int32_t pair;
                memcpy(&pair, (const char *)act + (size_t)r * act_stride + 64 * b + 4 * p, sizeof pair);
                const __m256i bc = _mm256_set1_epi32(pair);
                sum[r][0] = _mm256_add_epi32(sum[r][0], _mm256_madd_epi16(w0, bc));
                sum[r][1] = _mm256_add_epi32(sum[r][1], _mm256_madd_epi16(w1, bc));
                /* chains: GCC's tree of adds kept every product live (spilled) */
                __asm__("" : "+x"(sum[r][0]), "+x"(sum[r][1]));
            }
        }
        const __m256 d0 = _mm256_loadu_ps(dw + 16 * b), d1 = _mm256_loadu_ps(dw + 16 * b + 8);
#pragma GCC unroll 4
        for (int r = 0; r < NR; r++) {
            const float *row = (const float *)((const char *)act + (size_t)r * act_stride);
            const __m256 da = _mm256_set1_ps(row[n / 2 + b]); /* the scales after the n int16 */
            _mm256_storeu_ps(acc[r], _mm256_fmadd_ps(_mm256_mul_ps(d0, da), _mm256_cvtepi32_ps(sum[r][0]),
                                                     _mm256_loadu_ps(acc[r])));
            _mm256_storeu_ps(acc[r] + 8, _mm256_fmadd_ps(_mm256_mul_ps(d1, da), _mm256_cvtepi32_ps(sum[r][1]),
                                                         _mm256_loadu_ps(acc[r] + 8)));
        }
    }
    memcpy(out, acc, sizeof(float) * SEER_ILV_ROWS * (size_t)NR);
}

DOT16_ROWS(wide_rows, wide_rows_xn)

void seer_q8_0_wide_rows(int64_t n, const void *group, const void *act, size_t act_stride, int nr, float *out) {
    wide_rows(n, group, act, act_stride, nr, out);
}

#else
bool seer_q8_0_wide_takes(int type, int level) {
    (void)type, (void)level;
    return false;
}
void seer_q8_0_wide_group(int64_t n, const void *group, void *wide) { (void)n, (void)group, (void)wide; }
void seer_q8_0_wide_act_row(int64_t n, const void *row, void *wide) { (void)n, (void)row, (void)wide; }
void seer_q8_0_wide_rows(int64_t n, const void *group, const void *act, size_t act_stride, int nr, float *out) {
    (void)n, (void)group, (void)act, (void)act_stride, (void)nr, (void)out;
}
#endif
