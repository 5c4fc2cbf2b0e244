/* Block layouts of the quantized types, byte for byte as in GGUF files
 * (ggml's formats). Every field is at most 2-byte aligned except Q8_K's
 * float scale, which only ever lives in our own activation buffers. */
#ifndef SEER_TENSOR_BLOCKS_H
#define SEER_TENSOR_BLOCKS_H

#include <stdint.h>

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

/* The 16 signed scales of a Q3_K super-block (stored 6-bit, offset 32). */
static inline void seer_q3k_scales(const uint8_t *s, int8_t out[16]) {
    for (int i = 0; i < 16; i++) {
        int lo, hi;
        if (i < 8) lo = s[i % 8] & 0xF;
        else lo = s[i % 8] >> 4;
        hi = (s[8 + (i % 4)] >> (2 * (i / 4))) & 3;
        out[i] = (int8_t)((lo | (hi << 4)) - 32);
    }
}

#endif
