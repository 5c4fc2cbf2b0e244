/* A low-bit i-quant row × Q8_K for the kernels that read unpacked
 * super-blocks (vec_dot_scalar.c, vec_dot_neon.c): each super-block
 * unpacked (iq_unpack.h), its integer sum Σ ls·Σ q·q8 by the file's own
 * block sum, times d and the activations' scale, the products summed in
 * order, each rounded in its own statement (clang contracts a + b·c within
 * one into an FMA where the build has one), so every kernel built from
 * this, and the x86 ones (vec_dot_iq_x86.inc), give the same bits. */
#ifndef SEER_KERNELS_IQ_DOT_ROW_H
#define SEER_KERNELS_IQ_DOT_ROW_H

#include <stddef.h>
#include <stdint.h>

#include "tensor/blocks.h"
#include "tensor/iq_unpack.h"

/* Σ over the 16 groups of ls[g] · Σ q·q8 (exact in an int: |q| <= 62). */
typedef int (*seer_iq_block_sum_fn)(const seer_iq_block *u, const int8_t q8[256]);

static inline float seer_iq_dot_row(seer_iq_unpack_fn unpack, seer_iq_block_sum_fn block_sum, size_t block_bytes,
                                    int64_t n, const void *w, const void *a) {
    const uint8_t *x = w;
    const block_q8_K *y = a;
    seer_iq_block u;
    float sum = 0;
    for (int64_t i = 0; i < n / QK_K; i++, x += block_bytes) {
        unpack(x, &u);
        const float block = (float)block_sum(&u, y[i].qs) * (u.d * y[i].d);
        sum += block;
    }
    return sum;
}

/* For SEER_IQ_TYPES: dot_<name>, its blocks unpacked by IQ_DOT_UNPACKER(type)
 * and summed by IQ_DOT_BLOCK_SUM, both defined by the including file. */
#define SEER_IQ_DOT_ROW_KERNEL(name, block, type)                                                                 \
    static float dot_##name(int64_t n, const void *w, const void *a) {                                            \
        return seer_iq_dot_row(IQ_DOT_UNPACKER(type), IQ_DOT_BLOCK_SUM, sizeof(block), n, w, a);                  \
    }

#endif
