/* IEEE half and bfloat16 conversions, round to nearest even (what F16C and
 * ggml's converters produce). */
#include <math.h>
#include <string.h>

#include "seer/tensor.h"

static inline uint32_t f32_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline float bits_f32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

float seer_fp16_to_f32(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000) << 16;
    uint32_t exp = (h >> 10) & 0x1F, mant = h & 0x3FF;
    if (exp == 0) {
        /* zero or subnormal: mant * 2^-24, exact in float */
        float v = (float)mant * 5.9604644775390625e-8f;
        return bits_f32(f32_bits(v) | sign);
    }
    if (exp == 31) return bits_f32(sign | 0x7F800000u | (mant << 13));
    return bits_f32(sign | ((exp + 112) << 23) | (mant << 13));
}

uint16_t seer_f32_to_fp16(float f) {
    uint32_t x = f32_bits(f);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
    uint32_t ax = x & 0x7FFFFFFFu;
    if (ax > 0x7F800000u) return sign | 0x7E00; /* NaN stays NaN */
    if (ax >= 0x477FF000u) return sign | 0x7C00; /* ≥ 65520 rounds to infinity */
    if (ax < 0x38800000u) {
        /* Below 2^-14 the result is subnormal: adding 0.5 puts the value's
         * 2^-24 units in the low mantissa bits, rounded by the FPU. */
        float t = bits_f32(ax) + 0.5f;
        return sign | (uint16_t)(f32_bits(t) - 0x3F000000u);
    }
    uint32_t r = ax - (112u << 23);            /* rebias exponent 127 -> 15 */
    r += 0xFFFu + ((r >> 13) & 1u);           /* round to nearest even */
    return sign | (uint16_t)(r >> 13);
}

float seer_bf16_to_f32(uint16_t h) { return bits_f32((uint32_t)h << 16); }

uint16_t seer_f32_to_bf16(float f) {
    uint32_t x = f32_bits(f);
    if ((x & 0x7FFFFFFFu) > 0x7F800000u) return (uint16_t)((x >> 16) | 64); /* quiet NaN */
    return (uint16_t)((x + 0x7FFFu + ((x >> 16) & 1u)) >> 16);
}
