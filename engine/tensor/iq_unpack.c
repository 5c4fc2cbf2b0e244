/* The low-bit i-quants' blocks unpacked (iq_unpack.h). The layouts, per run
 * of 32 weights (ib): IQ2_XXS eight bytes, four codebook indices then four
 * 7-bit sign sets and a 4-bit scale; IQ2_XS four 16-bit words of a 9-bit
 * index and a 7-bit sign set, scales per 16 in nibbles; IQ2_S four index
 * bytes with two high bits each in qh, a sign byte per 8; IQ3_XXS eight
 * index bytes (4 weights each) and a word of four sign sets and the scale;
 * IQ3_S the same with a ninth index bit in qh and sign bytes; IQ1_S four
 * index bytes with three high bits each, a 3-bit scale and the offset's
 * sign in a 16-bit word; IQ1_M the same with the high bits, the offset
 * signs per 8 in qh and 3-bit scales per 16. A 7-bit sign set has an eighth
 * sign that makes the number of minus signs even. */
#include <string.h>

#include "seer/tensor.h"
#include "tensor/blocks.h"
#include "tensor/iq_grids_internal.h"
#include "tensor/iq_unpack.h"

static inline uint32_t u32_at(const void *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* Eight values as one vector (NEON / SSE2 from GCC's vector types: byte
 * by byte, the signs took ten instructions a weight on aarch64). */
typedef int8_t i8x8 __attribute__((vector_size(8)));
typedef uint8_t u8x8 __attribute__((vector_size(8)));

/* The 8 values at p (two points of 4: p and p2) with the signs' bits, to q:
 * value j negated where bit j of signs is set. */
static inline void put_signed(int8_t *q, const int8_t *p, const int8_t *p2, uint8_t signs) {
    const u8x8 bits = {1, 2, 4, 8, 16, 32, 64, 128};
    const i8x8 minus = (i8x8)((u8x8){signs, signs, signs, signs, signs, signs, signs, signs} & bits) != 0;
    i8x8 v;
    memcpy(&v, p, p2 ? 4 : 8);
    if (p2) memcpy((int8_t *)&v + 4, p2, 4);
    v = v * (minus | 1);
    memcpy(q, &v, 8);
}

/* IQ2_XS's and IQ2_S's scales: a nibble per 16 weights, low nibble first. */
static void scales_per16(const uint8_t scales[8], uint8_t ls[16]) {
    for (int ib = 0; ib < 8; ib++) {
        ls[2 * ib] = (uint8_t)(2 * (scales[ib] & 15) + 1);
        ls[2 * ib + 1] = (uint8_t)(2 * (scales[ib] >> 4) + 1);
    }
}

static void unpack_iq2_xxs(const void *block, seer_iq_block *o) {
    const block_iq2_xxs *b = block;
    const seer_iq_grids *g = seer_iq_grids_get();
    const uint8_t *bytes = (const uint8_t *)b->qs;
    for (int ib = 0; ib < 8; ib++) {
        const uint32_t packed = u32_at(bytes + 8 * ib + 4);
        for (int l = 0; l < 4; l++)
            put_signed(o->q + 32 * ib + 8 * l, g->iq2xxs[bytes[8 * ib + l]], NULL, g->signs7[(packed >> 7 * l) & 127]);
        o->ls[2 * ib] = o->ls[2 * ib + 1] = (uint8_t)(2 * (packed >> 28) + 1);
    }
    o->d = seer_fp16_to_f32(b->d) * 0.125f;
}

static void unpack_iq2_xs(const void *block, seer_iq_block *o) {
    const block_iq2_xs *b = block;
    const seer_iq_grids *g = seer_iq_grids_get();
    for (int r = 0; r < 32; r++) put_signed(o->q + 8 * r, g->iq2xs[b->qs[r] & 511], NULL, g->signs7[b->qs[r] >> 9]);
    scales_per16(b->scales, o->ls);
    o->d = seer_fp16_to_f32(b->d) * 0.125f;
}

static void unpack_iq2_s(const void *block, seer_iq_block *o) {
    const block_iq2_s *b = block;
    const seer_iq_grids *g = seer_iq_grids_get();
    for (int r = 0; r < 32; r++) {
        const int index = b->qs[r] | ((b->qh[r / 4] << (8 - 2 * (r % 4))) & 0x300);
        put_signed(o->q + 8 * r, g->iq2s[index], NULL, b->qs[32 + r]);
    }
    scales_per16(b->scales, o->ls);
    o->d = seer_fp16_to_f32(b->d) * 0.125f;
}

static void unpack_iq3_xxs(const void *block, seer_iq_block *o) {
    const block_iq3_xxs *b = block;
    const seer_iq_grids *g = seer_iq_grids_get();
    for (int ib = 0; ib < 8; ib++) {
        const uint32_t packed = u32_at(b->qs + 64 + 4 * ib);
        for (int l = 0; l < 4; l++) {
            put_signed(o->q + 32 * ib + 8 * l, g->iq3xxs[b->qs[8 * ib + 2 * l]], g->iq3xxs[b->qs[8 * ib + 2 * l + 1]],
                       g->signs7[(packed >> 7 * l) & 127]);
        }
        o->ls[2 * ib] = o->ls[2 * ib + 1] = (uint8_t)(2 * (packed >> 28) + 1);
    }
    o->d = seer_fp16_to_f32(b->d) * 0.25f;
}

static void unpack_iq3_s(const void *block, seer_iq_block *o) {
    const block_iq3_s *b = block;
    const seer_iq_grids *g = seer_iq_grids_get();
    for (int ib = 0; ib < 8; ib++) {
        const uint8_t *qs = b->qs + 8 * ib;
        for (int l = 0; l < 4; l++) {
            const int i1 = qs[2 * l] | ((b->qh[ib] << (8 - 2 * l)) & 256);
            const int i2 = qs[2 * l + 1] | ((b->qh[ib] << (7 - 2 * l)) & 256);
            put_signed(o->q + 32 * ib + 8 * l, g->iq3s[i1], g->iq3s[i2], b->signs[4 * ib + l]);
        }
        o->ls[2 * ib] = o->ls[2 * ib + 1] = (uint8_t)(2 * ((b->scales[ib / 2] >> 4 * (ib % 2)) & 15) + 1);
    }
    o->d = seer_fp16_to_f32(b->d);
}

/* IQ1's run of 8: 8 · point + offset sign (the offset is ±1/8 of a step). */
static inline void put_iq1(int8_t *q, const int8_t *p, int offset) {
    i8x8 v;
    memcpy(&v, p, 8);
    v = v * 8 + (int8_t)offset;
    memcpy(q, &v, 8);
}

static void unpack_iq1_s(const void *block, seer_iq_block *o) {
    const block_iq1_s *b = block;
    const seer_iq_grids *g = seer_iq_grids_get();
    for (int ib = 0; ib < 8; ib++) {
        const uint32_t h = b->qh[ib];
        const int offset = h & 0x8000 ? -1 : 1;
        for (int l = 0; l < 4; l++)
            put_iq1(o->q + 32 * ib + 8 * l, g->iq1s[b->qs[4 * ib + l] | ((h >> 3 * l) & 7) << 8], offset);
        o->ls[2 * ib] = o->ls[2 * ib + 1] = (uint8_t)(2 * ((h >> 12) & 7) + 1);
    }
    o->d = seer_fp16_to_f32(b->d) * 0.125f;
}

static void unpack_iq1_m(const void *block, seer_iq_block *o) {
    const block_iq1_m *b = block;
    const seer_iq_grids *g = seer_iq_grids_get();
    uint16_t sc[4];
    memcpy(sc, b->scales, sizeof sc);
    for (int ib = 0; ib < 8; ib++) {
        for (int l = 0; l < 4; l++) {
            const uint32_t h = b->qh[2 * ib + l / 2] >> 4 * (l % 2); /* this run's 3 index bits, then its sign */
            put_iq1(o->q + 32 * ib + 8 * l, g->iq1s[b->qs[4 * ib + l] | (h & 7) << 8], h & 8 ? -1 : 1);
        }
        o->ls[2 * ib] = (uint8_t)(2 * ((sc[ib / 2] >> 6 * (ib % 2)) & 7) + 1);
        o->ls[2 * ib + 1] = (uint8_t)(2 * ((sc[ib / 2] >> (6 * (ib % 2) + 3)) & 7) + 1);
    }
    o->d = seer_fp16_to_f32(seer_iq1_m_scale(b)) * 0.125f;
}

seer_iq_unpack_fn seer_iq_unpacker(int type) {
    switch (type) {
#define IQ_UNPACK_CASE(name, block, type)                                                                         \
    case type: return unpack_##name;
        SEER_IQ_TYPES(IQ_UNPACK_CASE)
    default: return NULL;
    }
}
