/* A low-bit i-quant super-block (IQ1_S, IQ1_M, IQ2_XXS, IQ2_XS, IQ2_S,
 * IQ3_XXS, IQ3_S) as 256 signed bytes with an integer scale per 16 and one
 * float for the block: weight k = d · ls[k / 16] · q[k], exactly what the
 * format's dequantization gives. Every i-quant reads the same way after
 * this: the dot kernels' integer sums Σ ls·Σ q·q8 are exactly the format's
 * (IQ1's ±1/8 offsets are folded into q as 8·point ± 1, its d carrying the
 * 1/8; the types' 1/8 and 1/4 factors, powers of two, ride in d without
 * rounding). */
#ifndef SEER_TENSOR_IQ_UNPACK_H
#define SEER_TENSOR_IQ_UNPACK_H

#include <stdbool.h>
#include <stdint.h>

/* X(name, block struct, type id) for each of them: one list from which
 * the unpackers, the dot kernels and their tables are written. */
#define SEER_IQ_TYPES(X)                                                                                          \
    X(iq2_xxs, block_iq2_xxs, SEER_TYPE_IQ2_XXS)                                                                  \
    X(iq2_xs, block_iq2_xs, SEER_TYPE_IQ2_XS)                                                                     \
    X(iq2_s, block_iq2_s, SEER_TYPE_IQ2_S)                                                                        \
    X(iq3_xxs, block_iq3_xxs, SEER_TYPE_IQ3_XXS)                                                                  \
    X(iq3_s, block_iq3_s, SEER_TYPE_IQ3_S)                                                                        \
    X(iq1_s, block_iq1_s, SEER_TYPE_IQ1_S)                                                                        \
    X(iq1_m, block_iq1_m, SEER_TYPE_IQ1_M)

typedef struct seer_iq_block {
    int8_t q[256];  /* |q| <= 62 */
    uint8_t ls[16]; /* odd, 1..31 */
    float d;
} seer_iq_block;

typedef void (*seer_iq_unpack_fn)(const void *block, seer_iq_block *out);

/* The unpacker of an i-quant type, NULL for any other type. */
seer_iq_unpack_fn seer_iq_unpacker(int type);
/* The same values from the widest SIMD level allowed (iq_unpack_avx2.c). */
seer_iq_unpack_fn seer_iq_unpacker_fast(int type);

#endif
