/* Test helper: builds quantized blocks from their logical contents (scales,
 * mins, integer quants), written directly from each format's definition, and
 * evaluates the values those blocks stand for in double precision. It is the
 * independent side the engine's (de)quantizers and dot products are checked
 * against. */
#ifndef SEER_TEST_TENSOR_PACK_H
#define SEER_TEST_TENSOR_PACK_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "seer/tensor.h"

/* Logical block: value(e) depends on the type, see pack_block. */
typedef struct logical_block {
    float d, dmin;    /* as stored (fp16-representable for fp16 fields) */
    int sc[16], mn[16];
    int q[256];
} logical_block;

static uint32_t pack_rng = 12345;
static inline uint32_t rnd_u32(void) {
    pack_rng ^= pack_rng << 13; pack_rng ^= pack_rng >> 17; pack_rng ^= pack_rng << 5;
    return pack_rng;
}
static inline int rnd_int(int lo, int hi) { return lo + (int)(rnd_u32() % (uint32_t)(hi - lo + 1)); }
static inline float rnd_float(float lo, float hi) { return lo + (hi - lo) * (float)(rnd_u32() >> 8) / 16777216.0f; }
static inline float fp16_round(float f) { return seer_fp16_to_f32(seer_f32_to_fp16(f)); }

static inline void put_u16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static inline void put_f16(uint8_t *p, float f) { put_u16(p, seer_f32_to_fp16(f)); }

/* Random logical block of `type` with quants in the format's range. */
static inline void random_logical(int type, logical_block *b) {
    memset(b, 0, sizeof *b);
    b->d = fp16_round(rnd_float(0.001f, 0.05f));
    b->dmin = fp16_round(rnd_float(0.0f, 0.02f));
    for (int i = 0; i < 16; i++) { b->sc[i] = 0; b->mn[i] = 0; }
    for (int e = 0; e < 256; e++) b->q[e] = 0;
    switch (type) {
    case SEER_TYPE_Q4_0: case SEER_TYPE_Q4_1: for (int e = 0; e < 32; e++) b->q[e] = rnd_int(0, 15); break;
    case SEER_TYPE_Q5_0: case SEER_TYPE_Q5_1: for (int e = 0; e < 32; e++) b->q[e] = rnd_int(0, 31); break;
    case SEER_TYPE_Q8_0: case SEER_TYPE_Q8_1: for (int e = 0; e < 32; e++) b->q[e] = rnd_int(-127, 127); break;
    case SEER_TYPE_Q2_K:
        for (int g = 0; g < 16; g++) { b->sc[g] = rnd_int(0, 15); b->mn[g] = rnd_int(0, 15); }
        for (int e = 0; e < 256; e++) b->q[e] = rnd_int(0, 3);
        break;
    case SEER_TYPE_Q3_K:
        for (int g = 0; g < 16; g++) b->sc[g] = rnd_int(-32, 31);
        for (int e = 0; e < 256; e++) b->q[e] = rnd_int(-4, 3);
        break;
    case SEER_TYPE_Q4_K: case SEER_TYPE_Q5_K:
        for (int g = 0; g < 8; g++) { b->sc[g] = rnd_int(0, 63); b->mn[g] = rnd_int(0, 63); }
        for (int e = 0; e < 256; e++) b->q[e] = rnd_int(0, type == SEER_TYPE_Q4_K ? 15 : 31);
        break;
    case SEER_TYPE_Q6_K:
        for (int g = 0; g < 16; g++) b->sc[g] = rnd_int(-128, 127);
        for (int e = 0; e < 256; e++) b->q[e] = rnd_int(-32, 31);
        break;
    case SEER_TYPE_IQ4_NL: for (int e = 0; e < 32; e++) b->q[e] = rnd_int(0, 15); break;
    case SEER_TYPE_IQ4_XS:
        for (int g = 0; g < 8; g++) b->sc[g] = rnd_int(-32, 31);
        for (int e = 0; e < 256; e++) b->q[e] = rnd_int(0, 15);
        break;
    case SEER_TYPE_Q8_K:
        b->d = rnd_float(0.001f, 0.05f); /* a float, not fp16 */
        for (int e = 0; e < 256; e++) b->q[e] = rnd_int(-127, 127);
        break;
    default: break;
    }
}

/* The IQ4 formats' 16 values (ggml's kvalues_iq4nl), written out here so
 * the tests do not read the engine's own table. */
static const int iq4_table[16] = {-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113};

/* Value of element e of a logical block, straight from the format math. */
static inline double logical_value(int type, const logical_block *b, int e) {
    double d = b->d, dmin = b->dmin;
    switch (type) {
    case SEER_TYPE_IQ4_NL: return d * iq4_table[b->q[e]];
    case SEER_TYPE_IQ4_XS: return d * b->sc[e / 32] * iq4_table[b->q[e]];
    case SEER_TYPE_Q4_0: return d * (b->q[e] - 8);
    case SEER_TYPE_Q5_0: return d * (b->q[e] - 16);
    case SEER_TYPE_Q4_1: case SEER_TYPE_Q5_1: return d * b->q[e] + dmin; /* dmin holds m */
    case SEER_TYPE_Q8_0: case SEER_TYPE_Q8_1: case SEER_TYPE_Q8_K: return d * b->q[e];
    case SEER_TYPE_Q2_K: return d * b->sc[e / 16] * b->q[e] - dmin * b->mn[e / 16];
    case SEER_TYPE_Q3_K: case SEER_TYPE_Q6_K: return d * b->sc[e / 16] * b->q[e];
    case SEER_TYPE_Q4_K: case SEER_TYPE_Q5_K: return d * b->sc[e / 32] * b->q[e] - dmin * b->mn[e / 32];
    default: return 0;
    }
}

/* Writes the block bytes (seer_type_get(type)->block_bytes) for b. */
static inline void pack_block(int type, const logical_block *b, uint8_t *out) {
    size_t nbytes = seer_type_get(type)->block_bytes;
    memset(out, 0, nbytes);
    switch (type) {
    case SEER_TYPE_Q4_0: case SEER_TYPE_Q4_1: {
        int off = type == SEER_TYPE_Q4_0 ? 2 : 4;   /* d [, m], qs[16] */
        put_f16(out, b->d);
        if (type == SEER_TYPE_Q4_1) put_f16(out + 2, b->dmin);
        for (int j = 0; j < 16; j++) out[off + j] = (uint8_t)(b->q[j] | (b->q[j + 16] << 4));
        break;
    }
    case SEER_TYPE_Q5_0: case SEER_TYPE_Q5_1: {
        int off = type == SEER_TYPE_Q5_0 ? 2 : 4;   /* d [, m], qh[4], qs[16] */
        put_f16(out, b->d);
        if (type == SEER_TYPE_Q5_1) put_f16(out + 2, b->dmin);
        uint32_t qh = 0;
        for (int j = 0; j < 32; j++) qh |= (uint32_t)(b->q[j] >> 4) << j;
        for (int k = 0; k < 4; k++) out[off + k] = (uint8_t)(qh >> (8 * k));
        for (int j = 0; j < 16; j++) out[off + 4 + j] = (uint8_t)((b->q[j] & 15) | ((b->q[j + 16] & 15) << 4));
        break;
    }
    case SEER_TYPE_Q8_0: case SEER_TYPE_Q8_1: {
        int off = type == SEER_TYPE_Q8_0 ? 2 : 4;   /* d [, s], qs[32] */
        put_f16(out, b->d);
        if (type == SEER_TYPE_Q8_1) {
            int sum = 0;
            for (int j = 0; j < 32; j++) sum += b->q[j];
            put_f16(out + 2, b->d * (float)sum);
        }
        for (int j = 0; j < 32; j++) out[off + j] = (uint8_t)(int8_t)b->q[j];
        break;
    }
    case SEER_TYPE_Q2_K: {                            /* scales[16], qs[64], d, dmin */
        for (int g = 0; g < 16; g++) out[g] = (uint8_t)(b->sc[g] | (b->mn[g] << 4));
        for (int e = 0; e < 256; e++) {
            int half = e / 128, plane = (e % 128) / 32, l = e % 32;
            out[16 + 32 * half + l] |= (uint8_t)(b->q[e] << (2 * plane));
        }
        put_f16(out + 80, b->d);
        put_f16(out + 82, b->dmin);
        break;
    }
    case SEER_TYPE_Q3_K: {                            /* hmask[32], qs[64], scales[12], d */
        for (int e = 0; e < 256; e++) {
            int half = e / 128, plane = (e % 128) / 32, l = e % 32, u = b->q[e] + 4;
            out[32 + 32 * half + l] |= (uint8_t)((u & 3) << (2 * plane));
            if (u >> 2) out[l] |= (uint8_t)(1 << (4 * half + plane));
        }
        for (int g = 0; g < 16; g++) {
            int u = b->sc[g] + 32;
            out[96 + g % 8] |= (uint8_t)((u & 15) << (g < 8 ? 0 : 4));
            out[96 + 8 + g % 4] |= (uint8_t)((u >> 4) << (2 * (g / 4)));
        }
        put_f16(out + 108, b->d);
        break;
    }
    case SEER_TYPE_Q4_K: case SEER_TYPE_Q5_K: {       /* d, dmin, scales[12], [qh[32],] qs[128] */
        put_f16(out, b->d);
        put_f16(out + 2, b->dmin);
        uint8_t *s = out + 4;
        for (int j = 0; j < 4; j++) {
            s[j] = (uint8_t)((b->sc[j] & 63) | ((b->sc[j + 4] >> 4) << 6));
            s[j + 4] = (uint8_t)((b->mn[j] & 63) | ((b->mn[j + 4] >> 4) << 6));
            s[j + 8] = (uint8_t)((b->sc[j + 4] & 15) | ((b->mn[j + 4] & 15) << 4));
        }
        uint8_t *qh = out + 16, *qs = out + (type == SEER_TYPE_Q5_K ? 48 : 16);
        for (int e = 0; e < 256; e++) {
            int c = e / 64, hi = (e % 64) / 32, l = e % 32;
            qs[32 * c + l] |= (uint8_t)((b->q[e] & 15) << (4 * hi));
            if (type == SEER_TYPE_Q5_K && (b->q[e] >> 4)) qh[l] |= (uint8_t)(1 << (2 * c + hi));
        }
        break;
    }
    case SEER_TYPE_Q6_K: {                            /* ql[128], qh[64], scales[16], d */
        for (int e = 0; e < 256; e++) {
            int n = e / 128, k = (e % 128) / 32, l = e % 32, u = b->q[e] + 32;
            int qli = 64 * n + l + (k & 1) * 32;
            out[qli] |= (uint8_t)((u & 15) << (k >= 2 ? 4 : 0));
            out[128 + 32 * n + l] |= (uint8_t)((u >> 4) << (2 * k));
        }
        for (int g = 0; g < 16; g++) out[192 + g] = (uint8_t)(int8_t)b->sc[g];
        put_f16(out + 208, b->d);
        break;
    }
    case SEER_TYPE_IQ4_NL:                            /* d, qs[16] as Q4_0 */
        put_f16(out, b->d);
        for (int j = 0; j < 16; j++) out[2 + j] = (uint8_t)(b->q[j] | (b->q[j + 16] << 4));
        break;
    case SEER_TYPE_IQ4_XS: {                          /* d, scales_h, scales_l[4], qs[128] */
        put_f16(out, b->d);
        uint16_t h = 0;
        for (int g = 0; g < 8; g++) {
            int u = b->sc[g] + 32;
            out[4 + g / 2] |= (uint8_t)((u & 15) << (4 * (g % 2)));
            h |= (uint16_t)((u >> 4) << (2 * g));
        }
        put_u16(out + 2, h);
        for (int g = 0; g < 8; g++)
            for (int j = 0; j < 16; j++) out[8 + 16 * g + j] = (uint8_t)(b->q[32 * g + j] | (b->q[32 * g + j + 16] << 4));
        break;
    }
    case SEER_TYPE_Q8_K: {                            /* float d, qs[256], int16 bsums[16] */
        memcpy(out, &b->d, 4);
        for (int e = 0; e < 256; e++) out[4 + e] = (uint8_t)(int8_t)b->q[e];
        for (int g = 0; g < 16; g++) {
            int sum = 0;
            for (int l = 0; l < 16; l++) sum += b->q[16 * g + l];
            put_u16(out + 260 + 2 * g, (uint16_t)(int16_t)sum);
        }
        break;
    }
    default: break;
    }
}

/* Byte offset in a block of the F16 offset its values carry beside
 * scale · quant (K-quants' dmin, Q4_1's and Q5_1's m); -1 for none. */
static inline int block_offset_field(int type) {
    switch (type) {
    case SEER_TYPE_Q2_K: return 82;
    case SEER_TYPE_Q4_K: case SEER_TYPE_Q5_K: case SEER_TYPE_Q4_1: case SEER_TYPE_Q5_1: return 2;
    default: return -1;
    }
}

/* What a dot kernel's rounding goes with, for a row w of `type` against
 * activations a of its vec_dot type: Σ (|scale · quant| + |offset|) · |a|.
 * The kernels sum the two terms of each weight apart in floats, so |w| alone
 * is far too small where they cancel (Q2_K with every quant and scale at its
 * maximum: 45 d - 15 dmin). |scale · quant| + |offset| is max(|w|, |w with
 * the offset's sign flipped|). */
static inline double dot_rounding_magnitude(int type, const uint8_t *w, const void *a, int64_t n) {
    const seer_type_info *ti = seer_type_get(type);
    float *wf = malloc(sizeof(float) * (size_t)n), *af = malloc(sizeof(float) * (size_t)n);
    seer_dequantize_row(type, w, wf, n);
    for (int64_t i = 0; i < n; i++) wf[i] = fabsf(wf[i]);
    int at = block_offset_field(type);
    if (at >= 0) {
        size_t bytes = seer_row_bytes(type, n);
        uint8_t *flipped = malloc(bytes);
        memcpy(flipped, w, bytes);
        for (int64_t b = 0; b < n / ti->block_size; b++) flipped[(size_t)b * ti->block_bytes + (size_t)at + 1] ^= 0x80;
        seer_dequantize_row(type, flipped, af, n);
        for (int64_t i = 0; i < n; i++) wf[i] = fmaxf(wf[i], fabsf(af[i]));
        free(flipped);
    }
    seer_dequantize_row(ti->vec_dot_type, a, af, n);
    double mag = 0;
    for (int64_t i = 0; i < n; i++) mag += (double)wf[i] * fabs((double)af[i]);
    free(wf);
    free(af);
    return mag;
}

#endif
