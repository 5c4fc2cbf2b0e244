/* The low-bit i-quants' runs of 32 weights as AVX2 vectors, for the files
 * built with -mavx2 that read them (the dot kernels, vec_dot_iq_x86.inc;
 * dequantize_avx2.c; iq_unpack_avx2.c): four codebook points of 8 bytes
 * (IQ3: eight of 4) gathered into one vector with their signs beside them,
 * IQ1's offsets added, and the scales of the run's two halves of 16. The
 * signed values are iq_unpack.h's q, so every reader gives the scalar
 * code's bits. */
#ifndef SEER_TENSOR_IQ_X86_H
#define SEER_TENSOR_IQ_X86_H

#include <immintrin.h>
#include <string.h>

#include "tensor/blocks.h"
#include "tensor/iq_grids_internal.h"
#include "tensor/iq_unpack.h" /* SEER_IQ_TYPES */

/* A run's values are u with the signs of s (_mm256_sign_epi8(u, s)): u
 * unsigned (< 128), s negative where the value is, never zero where u is
 * not. The dot kernels multiply u by the activations with s's signs (one
 * unsigned × signed product), the dequantization takes the signed values. */
typedef struct iq_run {
    __m256i u, s;
    int ls_lo, ls_hi; /* the scales of the two halves of 16 */
} iq_run;

static inline long long iq_point8(const int8_t (*grid)[8], int index) {
    long long v;
    memcpy(&v, grid[index], 8);
    return v;
}
static inline int iq_point4(const int8_t (*grid)[4], int index) {
    int v;
    memcpy(&v, grid[index], 4);
    return v;
}
static inline __m256i iq_points8(const int8_t (*grid)[8], int i0, int i1, int i2, int i3) {
    return _mm256_set_epi64x(iq_point8(grid, i3), iq_point8(grid, i2), iq_point8(grid, i1), iq_point8(grid, i0));
}
static inline __m256i iq_points4(const int8_t (*grid)[4], const int i[8]) {
    return _mm256_set_epi32(iq_point4(grid, i[7]), iq_point4(grid, i[6]), iq_point4(grid, i[5]), iq_point4(grid, i[4]),
                            iq_point4(grid, i[3]), iq_point4(grid, i[2]), iq_point4(grid, i[1]), iq_point4(grid, i[0]));
}
static inline uint32_t iq_u32(const void *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* Byte j -1 where bit j of sign_bits is set, else 1. */
static inline __m256i iq_sign_bytes(uint32_t sign_bits) {
    const __m256i pick = _mm256_set_epi64x(0x0303030303030303LL, 0x0202020202020202LL, 0x0101010101010101LL, 0);
    const __m256i bit = _mm256_set1_epi64x(0x8040201008040201LL);
    const __m256i bytes = _mm256_shuffle_epi8(_mm256_set1_epi32((int)sign_bits), pick);
    return _mm256_or_si256(_mm256_cmpeq_epi8(_mm256_and_si256(bytes, bit), bit), _mm256_set1_epi8(1));
}
/* The signs of four 7-bit sign sets (bits 0..27 of packed): a table load
 * each (1.3-1.5x the kernel's speed against expanding their bits). */
static inline __m256i iq_masks7x4(const seer_iq_grids *g, uint32_t packed) {
    return _mm256_set_epi64x(g->masks7[(packed >> 21) & 127], g->masks7[(packed >> 14) & 127],
                             g->masks7[(packed >> 7) & 127], g->masks7[packed & 127]);
}
static inline iq_run iq_run_of(__m256i u, __m256i s, int ls_lo, int ls_hi) { return (iq_run){u, s, ls_lo, ls_hi}; }
/* IQ1: 8 · point (each -1, 0 or 1) plus the offsets' signs per byte. */
static inline iq_run iq1_run_of(__m256i points, __m256i offsets, int ls_lo, int ls_hi) {
    const __m256i v = _mm256_add_epi8(_mm256_sign_epi8(_mm256_set1_epi8(8), points), offsets);
    return iq_run_of(_mm256_abs_epi8(v), v, ls_lo, ls_hi);
}

static inline iq_run iq2_xxs_run(const block_iq2_xxs *x, int ib, const seer_iq_grids *g) {
    const uint8_t *b = (const uint8_t *)x->qs + 8 * ib;
    const uint32_t packed = iq_u32(b + 4);
    const int ls = (int)(2 * (packed >> 28) + 1);
    return iq_run_of(iq_points8(g->iq2xxs, b[0], b[1], b[2], b[3]), iq_masks7x4(g, packed), ls, ls);
}

static inline iq_run iq2_xs_run(const block_iq2_xs *x, int ib, const seer_iq_grids *g) {
    const uint16_t *q = x->qs + 4 * ib;
    const __m256i s = _mm256_set_epi64x(g->masks7[q[3] >> 9], g->masks7[q[2] >> 9], g->masks7[q[1] >> 9],
                                        g->masks7[q[0] >> 9]);
    const __m256i u = iq_points8(g->iq2xs, q[0] & 511, q[1] & 511, q[2] & 511, q[3] & 511);
    return iq_run_of(u, s, 2 * (x->scales[ib] & 15) + 1, 2 * (x->scales[ib] >> 4) + 1);
}

static inline iq_run iq2_s_run(const block_iq2_s *x, int ib, const seer_iq_grids *g) {
    const uint8_t *qs = x->qs + 4 * ib;
    const int h = x->qh[ib];
    const __m256i u = iq_points8(g->iq2s, qs[0] | ((h << 8) & 0x300), qs[1] | ((h << 6) & 0x300),
                                 qs[2] | ((h << 4) & 0x300), qs[3] | ((h << 2) & 0x300));
    return iq_run_of(u, iq_sign_bytes(iq_u32(x->qs + 32 + 4 * ib)), 2 * (x->scales[ib] & 15) + 1,
                     2 * (x->scales[ib] >> 4) + 1);
}

static inline iq_run iq3_xxs_run(const block_iq3_xxs *x, int ib, const seer_iq_grids *g) {
    const uint8_t *qs = x->qs + 8 * ib;
    const uint32_t packed = iq_u32(x->qs + 64 + 4 * ib);
    const int ls = (int)(2 * (packed >> 28) + 1);
    const int index[8] = {qs[0], qs[1], qs[2], qs[3], qs[4], qs[5], qs[6], qs[7]};
    return iq_run_of(iq_points4(g->iq3xxs, index), iq_masks7x4(g, packed), ls, ls);
}

static inline iq_run iq3_s_run(const block_iq3_s *x, int ib, const seer_iq_grids *g) {
    const uint8_t *qs = x->qs + 8 * ib;
    const int h = x->qh[ib]; /* bit k: the ninth index bit of point k */
    const int index[8] = {qs[0] | ((h << 8) & 256), qs[1] | ((h << 7) & 256), qs[2] | ((h << 6) & 256),
                          qs[3] | ((h << 5) & 256), qs[4] | ((h << 4) & 256), qs[5] | ((h << 3) & 256),
                          qs[6] | ((h << 2) & 256), qs[7] | ((h << 1) & 256)};
    const int ls = 2 * ((x->scales[ib / 2] >> 4 * (ib % 2)) & 15) + 1;
    return iq_run_of(iq_points4(g->iq3s, index), iq_sign_bytes(iq_u32(x->signs + 4 * ib)), ls, ls);
}

static inline iq_run iq1_s_run(const block_iq1_s *x, int ib, const seer_iq_grids *g) {
    const uint8_t *qs = x->qs + 4 * ib;
    const int h = x->qh[ib];
    const __m256i points = iq_points8(g->iq1s, qs[0] | (h & 7) << 8, qs[1] | ((h >> 3) & 7) << 8,
                                      qs[2] | ((h >> 6) & 7) << 8, qs[3] | ((h >> 9) & 7) << 8);
    const int ls = 2 * ((h >> 12) & 7) + 1;
    return iq1_run_of(points, _mm256_set1_epi8(h & 0x8000 ? -1 : 1), ls, ls);
}

static inline iq_run iq1_m_run(const block_iq1_m *x, int ib, const seer_iq_grids *g) {
    const uint8_t *qs = x->qs + 4 * ib;
    const int h0 = x->qh[2 * ib], h1 = x->qh[2 * ib + 1];
    const __m256i points = iq_points8(g->iq1s, qs[0] | (h0 & 7) << 8, qs[1] | ((h0 >> 4) & 7) << 8,
                                      qs[2] | (h1 & 7) << 8, qs[3] | ((h1 >> 4) & 7) << 8);
    const long long plus = 0x0101010101010101LL, minus = -1LL; /* each run of 8's offset sign */
    const __m256i offsets = _mm256_set_epi64x(h1 & 0x80 ? minus : plus, h1 & 0x08 ? minus : plus,
                                              h0 & 0x80 ? minus : plus, h0 & 0x08 ? minus : plus);
    uint16_t sc;
    memcpy(&sc, x->scales + 2 * (ib / 2), 2);
    const int s = sc >> 6 * (ib % 2);
    return iq1_run_of(points, offsets, 2 * (s & 7) + 1, 2 * ((s >> 3) & 7) + 1);
}

/* The block's float factor d (iq_unpack.h). */
static inline float iq_h2f(uint16_t h) { return _cvtsh_ss(h); }
static inline float iq2_xxs_d(const block_iq2_xxs *x) { return iq_h2f(x->d) * 0.125f; }
static inline float iq2_xs_d(const block_iq2_xs *x) { return iq_h2f(x->d) * 0.125f; }
static inline float iq2_s_d(const block_iq2_s *x) { return iq_h2f(x->d) * 0.125f; }
static inline float iq3_xxs_d(const block_iq3_xxs *x) { return iq_h2f(x->d) * 0.25f; }
static inline float iq3_s_d(const block_iq3_s *x) { return iq_h2f(x->d); }
static inline float iq1_s_d(const block_iq1_s *x) { return iq_h2f(x->d) * 0.125f; }
static inline float iq1_m_d(const block_iq1_m *x) { return iq_h2f(seer_iq1_m_scale(x)) * 0.125f; }

#endif
