/* F16 weights on AMX-BF16 tiles (gemm_f16_internal.h): the packing of
 * weights and activations into BF16 hi/lo parts and the tile kernel. */
#include "kernels/gemm_f16_internal.h"

#include <stdlib.h>
#include <string.h>

#include "seer/matmul.h"
#include "seer/tensor.h"

/* The BF16 hi and lo parts of an F16 value: hi its FP32 form's upper half
 * (truncated), lo what is left, which has at most 3 significant bits and
 * so is a BF16 exactly. */
static inline void split_f16(uint16_t h, uint16_t *hi, uint16_t *lo) {
    float v = seer_fp16_to_f32(h), vh, rest;
    uint32_t bits;
    memcpy(&bits, &v, 4);
    bits &= 0xFFFF0000u;
    memcpy(&vh, &bits, 4);
    rest = v - vh;
    uint32_t rbits;
    memcpy(&rbits, &rest, 4);
    *hi = (uint16_t)(bits >> 16);
    *lo = (uint16_t)(rbits >> 16);
}

static void act_split_scalar(const uint16_t *f16, int64_t n_in, uint16_t *hi, uint16_t *lo) {
    const int64_t kp = seer_f16_k_padded(n_in);
    for (int64_t k = 0; k < n_in; k++) split_f16(f16[k], &hi[k], &lo[k]);
    for (int64_t k = n_in; k < kp; k++) hi[k] = lo[k] = 0;
}

/* B tile layout: row i holds, for each column c, the pair (k = 2i, 2i + 1)
 * of weight row c: the 32-bit word at [i][c]. */
static void panel_pack_scalar(const seer_weight *w, int64_t o0, uint8_t *panel) {
    const int64_t kp = seer_f16_k_padded(w->n_in), steps = kp / 32;
    uint32_t *words = (uint32_t *)panel;
    memset(panel, 0, seer_f16_panel_bytes(w->n_in));
    for (int c = 0; c < 16 && o0 + c < w->n_out; c++) {
        const uint16_t *row = (const uint16_t *)((const char *)w->data + (size_t)(o0 + c) * w->row_bytes);
        for (int64_t s = 0; s < steps; s++) {
            uint32_t *hi = words + s * 512, *lo = hi + 256;
            for (int i = 0; i < 16; i++) {
                uint16_t h[2] = {0, 0}, l[2] = {0, 0};
                for (int t = 0; t < 2; t++) {
                    const int64_t k = 32 * s + 2 * i + t;
                    if (k < w->n_in) split_f16(row[k], &h[t], &l[t]);
                }
                hi[16 * i + c] = (uint32_t)h[0] | (uint32_t)h[1] << 16;
                lo[16 * i + c] = (uint32_t)l[0] | (uint32_t)l[1] << 16;
            }
        }
    }
}

#if defined(__x86_64__) && defined(__AMX_TILE__) && defined(__AMX_BF16__) && defined(__linux__)
#include <immintrin.h>

#include "kernels/amx_tiles.h"

/* 16 F16 values as FP32, their BF16 hi parts (truncated) and what is left
 * (exact: at most 3 significant bits), both as FP32 bit patterns whose
 * upper halves are the BF16 values. */
static inline void split16(__m256i h, __m512i *hi, __m512i *lo) {
    const __m512 v = _mm512_cvtph_ps(h);
    const __m512i top = _mm512_set1_epi32((int)0xFFFF0000u);
    *hi = _mm512_and_si512(_mm512_castps_si512(v), top);
    *lo = _mm512_and_si512(_mm512_castps_si512(_mm512_sub_ps(v, _mm512_castsi512_ps(*hi))), top);
}

/* 32 consecutive K values (as two vectors of FP32 bit patterns, the BF16 in
 * the upper halves) as 16 words of BF16 pairs (k = 2i low, 2i + 1 high). */
static inline __m512i pairs(__m512i k0_15, __m512i k16_31) {
    const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    const __m512i odd = _mm512_add_epi32(even, _mm512_set1_epi32(1));
    const __m512i lo = _mm512_srli_epi32(_mm512_permutex2var_epi32(k0_15, even, k16_31), 16);
    return _mm512_or_si512(lo, _mm512_permutex2var_epi32(k0_15, odd, k16_31));
}

void seer_f16_act_split(const uint16_t *f16, int64_t n_in, uint16_t *hi, uint16_t *lo) {
    if (n_in % 32) {
        act_split_scalar(f16, n_in, hi, lo);
        return;
    }
    for (int64_t k = 0; k < n_in; k += 16) {
        __m512i h, l;
        split16(_mm256_loadu_si256((const void *)(f16 + k)), &h, &l);
        _mm256_storeu_si256((void *)(hi + k), _mm512_cvtepi32_epi16(_mm512_srli_epi32(h, 16)));
        _mm256_storeu_si256((void *)(lo + k), _mm512_cvtepi32_epi16(_mm512_srli_epi32(l, 16)));
    }
}

/* Each weight row's 32 K values of a step become 16 pair words, which go
 * down column c of the B tile (word i to row i): one scatter per row. */
void seer_f16_panel_pack(const seer_weight *w, int64_t o0, uint8_t *panel) {
    if (w->n_in % 32 || o0 + 16 > w->n_out) {
        panel_pack_scalar(w, o0, panel);
        return;
    }
    const int64_t steps = w->n_in / 32;
    const __m512i down = _mm512_mullo_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                                           _mm512_set1_epi32(16));
    for (int c = 0; c < 16; c++) {
        const uint16_t *row = (const uint16_t *)((const char *)w->data + (size_t)(o0 + c) * w->row_bytes);
        for (int64_t s = 0; s < steps; s++) {
            __m512i h0, l0, h1, l1;
            split16(_mm256_loadu_si256((const void *)(row + 32 * s)), &h0, &l0);
            split16(_mm256_loadu_si256((const void *)(row + 32 * s + 16)), &h1, &l1);
            uint32_t *tile = (uint32_t *)(panel + 2048 * s) + c;
            _mm512_i32scatter_epi32(tile, down, pairs(h0, h1), 4);
            _mm512_i32scatter_epi32(tile + 256, down, pairs(l0, l1), 4);
        }
    }
}

/* Tiles: 0, 1 the sums for panel 0 and 1; 2, 3 the activations' hi and lo
 * (nr rows × 32 K); 4, 5 panel 0's hi and lo B tiles; 6, 7 panel 1's. */
void seer_f16_panels_amx(int64_t k_padded, const uint8_t *panel0, const uint8_t *panel1, const uint16_t *act_hi,
                         const uint16_t *act_lo, size_t stride, int nr, float *out0, float *out1) {
    seer_tile_config cfg;
    seer_tile_config_init(&cfg);
    for (int t = 0; t < 8; t++) cfg.colsb[t] = 64, cfg.rows[t] = t < 4 ? (uint8_t)nr : 16;
    seer_tile_config_load(&cfg);
    _tile_zero(0);
    _tile_zero(1);
    const long a_stride = (long)(stride * sizeof(uint16_t));
    for (int64_t s = 0; s < k_padded / 32; s++) {
        _tile_loadd(2, act_hi + 32 * s, a_stride);
        _tile_loadd(3, act_lo + 32 * s, a_stride);
        _tile_loadd(4, panel0 + 2048 * s, 64);
        _tile_loadd(5, panel0 + 2048 * s + 1024, 64);
        if (!panel1) {
            _tile_dpbf16ps(0, 2, 4);
            _tile_dpbf16ps(0, 2, 5);
            _tile_dpbf16ps(0, 3, 4);
            _tile_dpbf16ps(0, 3, 5);
            continue;
        }
        /* the two panels' sums in turn: each product waits less for the last one into its tile */
        _tile_loadd(6, panel1 + 2048 * s, 64);
        _tile_loadd(7, panel1 + 2048 * s + 1024, 64);
        _tile_dpbf16ps(0, 2, 4);
        _tile_dpbf16ps(1, 2, 6);
        _tile_dpbf16ps(0, 2, 5);
        _tile_dpbf16ps(1, 2, 7);
        _tile_dpbf16ps(0, 3, 4);
        _tile_dpbf16ps(1, 3, 6);
        _tile_dpbf16ps(0, 3, 5);
        _tile_dpbf16ps(1, 3, 7);
    }
    _tile_stored(0, out0, 64);
    if (panel1) _tile_stored(1, out1, 64);
    _tile_release();
}
#else
void seer_f16_act_split(const uint16_t *f16, int64_t n_in, uint16_t *hi, uint16_t *lo) { act_split_scalar(f16, n_in, hi, lo); }
void seer_f16_panel_pack(const seer_weight *w, int64_t o0, uint8_t *panel) { panel_pack_scalar(w, o0, panel); }

void seer_f16_panels_amx(int64_t k_padded, const uint8_t *panel0, const uint8_t *panel1, const uint16_t *act_hi,
                         const uint16_t *act_lo, size_t stride, int nr, float *out0, float *out1) {
    (void)k_padded; (void)panel0; (void)panel1; (void)act_hi; (void)act_lo; (void)stride; (void)nr; (void)out0;
    (void)out1;
    abort(); /* never handed out: seer_amx_bf16_ready() is false */
}
#endif
