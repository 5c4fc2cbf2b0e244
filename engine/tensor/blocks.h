/* Block layouts of the quantized types, byte for byte as in GGUF files
 * (ggml's formats). Every field is at most 2-byte aligned except Q8_K's
 * float scale, which only ever lives in our own activation buffers. */
#ifndef SEER_TENSOR_BLOCKS_H
#define SEER_TENSOR_BLOCKS_H

#include <stdint.h>
#include <string.h>

#define QK4_0 32
#define QK4_1 32
#define QK5_0 32
#define QK5_1 32
#define QK8_0 32
#define QK8_1 32
#define QK_K 256

typedef struct { uint16_t d; uint8_t qs[16]; } block_q4_0;               /* x = (q - 8) d */
typedef struct { uint16_t d, m; uint8_t qs[16]; } block_q4_1;            /* x = q d + m */
typedef struct { uint16_t d; uint8_t qh[4]; uint8_t qs[16]; } block_q5_0; /* x = (q - 16) d */
typedef struct { uint16_t d, m; uint8_t qh[4]; uint8_t qs[16]; } block_q5_1;
typedef struct { uint16_t d; int8_t qs[32]; } block_q8_0;                /* x = q d */
typedef struct { uint16_t d, s; int8_t qs[32]; } block_q8_1;             /* s = d * sum(q) */

/* The two weights byte j (0..15) of a Q4_0 / Q4_1 / Q5_0 / Q5_1 block's
 * nibbles holds: weight j in the low nibble, weight j + 16 in the high one,
 * each with its fifth bit (bit j / j + 16 of the block's qh, read as a
 * little-endian word; 0 for the four-bit types) as bit 4, less offset
 * (Q4_0 8, Q5_0 16, the types with mins 0). Every scalar reader of these
 * blocks (dot kernels, dequantization, the int8 GEMM's packer) takes its
 * values from here. */
static inline int seer_q45_lo(uint8_t q, uint32_t qh, int j, int offset) {
    return ((q & 0xF) | (int)(((qh >> j) & 1) << 4)) - offset;
}
static inline int seer_q45_hi(uint8_t q, uint32_t qh, int j, int offset) {
    return ((q >> 4) | (int)(((qh >> (j + 16)) & 1) << 4)) - offset;
}

/* K-quants: super-blocks of 256 with sub-block scales. */
typedef struct {
    uint8_t scales[16]; /* low nibble scale, high nibble min, per 16 values */
    uint8_t qs[64];     /* 2-bit quants */
    uint16_t d, dmin;
} block_q2_K;
typedef struct {
    uint8_t hmask[32];  /* high bit of each 3-bit quant */
    uint8_t qs[64];     /* low 2 bits */
    uint8_t scales[12]; /* 16 six-bit scales, offset 32 */
    uint16_t d;
} block_q3_K;
typedef struct {
    uint16_t d, dmin;
    uint8_t scales[12]; /* 8 six-bit scales and 8 six-bit mins */
    uint8_t qs[128];
} block_q4_K;
typedef struct {
    uint16_t d, dmin;
    uint8_t scales[12];
    uint8_t qh[32];
    uint8_t qs[128];
} block_q5_K;
typedef struct {
    uint8_t ql[128];   /* low 4 bits */
    uint8_t qh[64];    /* high 2 bits */
    int8_t scales[16]; /* per 16 values */
    uint16_t d;
} block_q6_K;
typedef struct {
    float d;
    int8_t qs[256];
    int16_t bsums[16]; /* sum of each group of 16 quants */
} block_q8_K;

/* Non-linear 4-bit quants: each nibble picks one of 16 fixed values
 * (seer_iq4_values), times the block's scale. IQ4_NL: blocks of 32 laid
 * out as Q4_0 (low nibbles the first 16 values, high nibbles the next 16).
 * IQ4_XS: super-blocks of 256, eight such sub-blocks, each with a 6-bit
 * scale (offset 32) split into a low nibble (scales_l) and 2 high bits
 * (scales_h). */
typedef struct { uint16_t d; uint8_t qs[16]; } block_iq4_nl;
typedef struct {
    uint16_t d;
    uint16_t scales_h;
    uint8_t scales_l[4];
    uint8_t qs[128];
} block_iq4_xs;
extern const int8_t seer_iq4_values[16];

/* The 32 values of an IQ4 block from its 16 bytes of nibbles (low nibbles
 * first). */
static inline void seer_iq4_unpack32(const uint8_t *qs, int8_t q[32]) {
    for (int j = 0; j < 16; j++) {
        q[j] = seer_iq4_values[qs[j] & 0xF];
        q[j + 16] = seer_iq4_values[qs[j] >> 4];
    }
}

/* Scale of IQ4_XS sub-block ib (0..7), offset removed: -32..31. */
static inline int seer_iq4_xs_scale(const block_iq4_xs *b, int ib) {
    return (((b->scales_l[ib / 2] >> 4 * (ib % 2)) & 0xF) | (((b->scales_h >> 2 * ib) & 3) << 4)) - 32;
}

/* The low-bit i-quants: super-blocks of 256 whose runs of 8 (IQ1, IQ2) or
 * 4 (IQ3) weights are points of a fixed codebook (tensor/iq_grids_internal.h),
 * with signs, scales per 16 or 32 weights and one F16 scale per block (IQ1_M:
 * spread over the top nibbles of its scales). tensor/iq_unpack.h reads them. */
typedef struct { uint16_t d; uint16_t qs[32]; } block_iq2_xxs;
typedef struct { uint16_t d; uint16_t qs[32]; uint8_t scales[8]; } block_iq2_xs;
typedef struct { uint16_t d; uint8_t qs[64]; uint8_t qh[8]; uint8_t scales[8]; } block_iq2_s;
typedef struct { uint16_t d; uint8_t qs[96]; } block_iq3_xxs;
typedef struct { uint16_t d; uint8_t qs[64]; uint8_t qh[8]; uint8_t signs[32]; uint8_t scales[4]; } block_iq3_s;
typedef struct { uint16_t d; uint8_t qs[32]; uint16_t qh[8]; } block_iq1_s;
typedef struct { uint8_t qs[32]; uint8_t qh[16]; uint8_t scales[8]; } block_iq1_m;

/* IQ1_M's F16 block scale, kept in the top nibbles of its four scale words. */
static inline uint16_t seer_iq1_m_scale(const block_iq1_m *b) {
    uint16_t sc[4];
    memcpy(sc, b->scales, sizeof sc);
    return (uint16_t)((sc[0] >> 12) | ((sc[1] >> 8) & 0x00f0) | ((sc[2] >> 4) & 0x0f00) | (sc[3] & 0xf000));
}

_Static_assert(sizeof(block_iq2_xxs) == 66, "iq2_xxs");
_Static_assert(sizeof(block_iq2_xs) == 74, "iq2_xs");
_Static_assert(sizeof(block_iq2_s) == 82, "iq2_s");
_Static_assert(sizeof(block_iq3_xxs) == 98, "iq3_xxs");
_Static_assert(sizeof(block_iq3_s) == 110, "iq3_s");
_Static_assert(sizeof(block_iq1_s) == 50, "iq1_s");
_Static_assert(sizeof(block_iq1_m) == 56, "iq1_m");
_Static_assert(sizeof(block_iq4_nl) == 18, "iq4_nl");
_Static_assert(sizeof(block_iq4_xs) == 136, "iq4_xs");
_Static_assert(sizeof(block_q4_0) == 18, "q4_0");
_Static_assert(sizeof(block_q4_1) == 20, "q4_1");
_Static_assert(sizeof(block_q5_0) == 22, "q5_0");
_Static_assert(sizeof(block_q5_1) == 24, "q5_1");
_Static_assert(sizeof(block_q8_0) == 34, "q8_0");
_Static_assert(sizeof(block_q8_1) == 36, "q8_1");
_Static_assert(sizeof(block_q2_K) == 84, "q2_K");
_Static_assert(sizeof(block_q3_K) == 110, "q3_K");
_Static_assert(sizeof(block_q4_K) == 144, "q4_K");
_Static_assert(sizeof(block_q5_K) == 176, "q5_K");
_Static_assert(sizeof(block_q6_K) == 210, "q6_K");
_Static_assert(sizeof(block_q8_K) == 292, "q8_K");

/* Scale and min j (0..7) of a Q4_K/Q5_K super-block: 6 bits each, the first
 * four stored plainly, the last four split into nibbles plus the top bits
 * of the first four. */
static inline void seer_k4_scale_min(int j, const uint8_t *q, uint8_t *sc, uint8_t *m) {
    if (j < 4) {
        *sc = q[j] & 63;
        *m = q[j + 4] & 63;
    } else {
        *sc = (uint8_t)((q[j + 4] & 0xF) | ((q[j - 4] >> 6) << 4));
        *m = (uint8_t)((q[j + 4] >> 4) | ((q[j] >> 6) << 4));
    }
}

/* All eight scales and mins of a Q4_K/Q5_K super-block at once, with 32-bit
 * word operations (same result as seer_k4_scale_min for j = 0..7). */
static inline void seer_k4_unpack(const uint8_t *s, uint8_t sc[8], uint8_t m[8]) {
    uint32_t a, b, c;
    memcpy(&a, s, 4);
    memcpy(&b, s + 4, 4);
    memcpy(&c, s + 8, 4);
    uint32_t sc_lo = a & 0x3F3F3F3Fu, m_lo = b & 0x3F3F3F3Fu;
    uint32_t sc_hi = (c & 0x0F0F0F0Fu) | ((a >> 2) & 0x30303030u);
    uint32_t m_hi = ((c >> 4) & 0x0F0F0F0Fu) | ((b >> 2) & 0x30303030u);
    memcpy(sc, &sc_lo, 4);
    memcpy(sc + 4, &sc_hi, 4);
    memcpy(m, &m_lo, 4);
    memcpy(m + 4, &m_hi, 4);
}

/* The 16 signed scales of a Q3_K super-block (stored 6-bit, offset 32):
 * low nibbles in bytes 0-7 (scales 0-7 low, 8-15 high nibble), the top two
 * bits of scale i in byte 8 + i%4 at bit 2·(i/4). Done on 32-bit words. */
static inline void seer_q3k_scales(const uint8_t *s, int8_t out[16]) {
    uint32_t a, b, c, w[4];
    memcpy(&a, s, 4);
    memcpy(&b, s + 4, 4);
    memcpy(&c, s + 8, 4);
    w[0] = (a & 0x0F0F0F0Fu) | ((c & 0x03030303u) << 4);
    w[1] = (b & 0x0F0F0F0Fu) | (((c >> 2) & 0x03030303u) << 4);
    w[2] = ((a >> 4) & 0x0F0F0F0Fu) | (((c >> 4) & 0x03030303u) << 4);
    w[3] = ((b >> 4) & 0x0F0F0F0Fu) | (((c >> 6) & 0x03030303u) << 4);
    uint8_t u[16];
    memcpy(u, w, 16);
    for (int i = 0; i < 16; i++) out[i] = (int8_t)(u[i] - 32);
}

/* The inverse of seer_q3k_scales: every bit of the 12 bytes is a scale's,
 * so packing the unpacked scales gives the bytes back. */
static inline void seer_q3k_pack_scales(const int8_t sc[16], uint8_t s[12]) {
    memset(s, 0, 12);
    for (int j = 0; j < 16; j++) {
        const int u = sc[j] + 32;
        s[j % 8] |= (uint8_t)((u & 0xF) << (4 * (j / 8)));
        s[8 + j % 4] |= (uint8_t)((u >> 4) << (2 * (j / 4)));
    }
}

#endif
