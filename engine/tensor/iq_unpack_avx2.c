/* The low-bit i-quants' unpacking (iq_unpack.h) with AVX2: each run of 32
 * as tensor/iq_x86.h gathers it, the same values as the scalar unpacking
 * at about a tenth of its time (the int8 GEMM's packer unpacks every
 * weight of a prompt's pass). */
#include "tensor/iq_unpack.h"

#include "seer/cpu.h"
#include "seer/tensor.h"

#if defined(__x86_64__) && defined(__AVX2__) && defined(__F16C__)
#include "tensor/iq_x86.h"

#define IQ_UNPACK_AVX2(name, block, type)                                                                         \
    static void unpack_##name##_avx2(const void *b, seer_iq_block *o) {                                           \
        const seer_iq_grids *g = seer_iq_grids_get();                                                             \
        for (int ib = 0; ib < 8; ib++) {                                                                          \
            const iq_run r = name##_run(b, ib, g);                                                                \
            _mm256_storeu_si256((__m256i *)(o->q + 32 * ib), _mm256_sign_epi8(r.u, r.s));                        \
            o->ls[2 * ib] = (uint8_t)r.ls_lo;                                                                     \
            o->ls[2 * ib + 1] = (uint8_t)r.ls_hi;                                                                 \
        }                                                                                                         \
        o->d = name##_d(b);                                                                                       \
    }
SEER_IQ_TYPES(IQ_UNPACK_AVX2)

seer_iq_unpack_fn seer_iq_unpacker_fast(int type) {
    if (seer_simd_level() < SEER_SIMD_AVX2) return seer_iq_unpacker(type);
    switch (type) {
#define IQ_UNPACK_CASE(name, block, type)                                                                         \
    case type: return unpack_##name##_avx2;
        SEER_IQ_TYPES(IQ_UNPACK_CASE)
    default: return NULL;
    }
}
#else
seer_iq_unpack_fn seer_iq_unpacker_fast(int type) { return seer_iq_unpacker(type); }
#endif
