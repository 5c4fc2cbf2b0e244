/* A 16 x 16 matrix of 32-bit words transposed in registers, for the
 * packing of B tiles and BF16 panels (16 weight rows' K pairs become 16
 * vectors of one pair from every row): pairs within 128-bit lanes, then
 * pairs of pairs, then the lanes themselves: forty-eight shuffles where a
 * scatter per weight row stored one word at a time. */
#ifndef SEER_KERNELS_TRANSPOSE16_H
#define SEER_KERNELS_TRANSPOSE16_H

#if defined(__x86_64__)
#include <immintrin.h>

__attribute__((target("avx512f"))) static inline void seer_transpose16_epi32(const __m512i r[16], __m512i out[16]) {
    __m512i t[16], u[16];
    for (int k = 0; k < 8; k++) {
        t[2 * k] = _mm512_unpacklo_epi32(r[2 * k], r[2 * k + 1]);
        t[2 * k + 1] = _mm512_unpackhi_epi32(r[2 * k], r[2 * k + 1]);
    }
    /* u[4k + j], lane L: column 4L + j of rows 4k .. 4k + 3 */
    for (int k = 0; k < 4; k++) {
        u[4 * k] = _mm512_unpacklo_epi64(t[4 * k], t[4 * k + 2]);
        u[4 * k + 1] = _mm512_unpackhi_epi64(t[4 * k], t[4 * k + 2]);
        u[4 * k + 2] = _mm512_unpacklo_epi64(t[4 * k + 1], t[4 * k + 3]);
        u[4 * k + 3] = _mm512_unpackhi_epi64(t[4 * k + 1], t[4 * k + 3]);
    }
    for (int j = 0; j < 4; j++) {
        const __m512i v0 = _mm512_shuffle_i32x4(u[j], u[4 + j], 0x44), v1 = _mm512_shuffle_i32x4(u[j], u[4 + j], 0xEE);
        const __m512i v2 = _mm512_shuffle_i32x4(u[8 + j], u[12 + j], 0x44);
        const __m512i v3 = _mm512_shuffle_i32x4(u[8 + j], u[12 + j], 0xEE);
        out[j] = _mm512_shuffle_i32x4(v0, v2, 0x88);
        out[4 + j] = _mm512_shuffle_i32x4(v0, v2, 0xDD);
        out[8 + j] = _mm512_shuffle_i32x4(v1, v3, 0x88);
        out[12 + j] = _mm512_shuffle_i32x4(v1, v3, 0xDD);
    }
}
#endif

#endif
