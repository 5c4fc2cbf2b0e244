/* The i-quant formats' codebooks (IQ1_S / IQ1_M, IQ2_XXS, IQ2_XS, IQ2_S,
 * IQ3_XXS, IQ3_S). A block stores, for each run of 8 (IQ1, IQ2) or 4 (IQ3)
 * weights, the index of a point of its type's codebook; the points are
 * fixed by the file format. iq_grids_data.c keeps each point as a 16-bit
 * code of level numbers (tools/iq-grids/make_iq_grids.py writes it from
 * the format's definition); seer_iq_grids() has them as values. */
#ifndef SEER_TENSOR_IQ_GRIDS_INTERNAL_H
#define SEER_TENSOR_IQ_GRIDS_INTERNAL_H

#include <stdint.h>

extern const uint16_t seer_iq2xxs_codes[256];
extern const uint16_t seer_iq2xs_codes[512];
extern const uint16_t seer_iq2s_codes[1024];
extern const uint16_t seer_iq3xxs_codes[256];
extern const uint16_t seer_iq3s_codes[512];
extern const uint16_t seer_iq1s_codes[2048];

/* The points as signed bytes (IQ2: 8, 25, 43; IQ3_XXS: 4 .. 62; IQ3_S:
 * 1 .. 15; IQ1: -1, 0, 1). */
typedef struct seer_iq_grids {
    int8_t iq2xxs[256][8];
    int8_t iq2xs[512][8];
    int8_t iq2s[1024][8];
    int8_t iq3xxs[256][4];
    int8_t iq3s[512][4];
    int8_t iq1s[2048][8];
    /* A 7-bit sign set's 8 signs: the eighth makes the count of minus
     * signs (set bits) even. */
    uint8_t signs7[128];
    /* The same as 8 bytes, -1 for a minus sign and 1 for a plus (the SIMD
     * kernels' sign vectors). */
    int64_t masks7[128];
} seer_iq_grids;

/* Expanded once, on first use (thread-safe). */
const seer_iq_grids *seer_iq_grids_get(void);

#endif
