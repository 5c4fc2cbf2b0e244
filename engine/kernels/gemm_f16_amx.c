/* F16 weights on AMX-BF16 tiles (gemm_f16_internal.h): the packing of
 * weights and activations into BF16 hi/lo parts and the tile kernel. */
#include "kernels/amx_enabled.h"
#include "kernels/gemm_f16_internal.h"

#include <stdlib.h>

#include "seer/matmul.h"
#include "seer/tensor.h"

#if defined(SEER_AMX_BF16_BUILT)
#include <immintrin.h>

#include "kernels/amx_tiles.h"
#include "kernels/prefetch.h"
#include "kernels/transpose16.h"

/* K index k of a row's hi part in the tile-block layout (its lo part is
 * 512 further: the step's lo tile). */
static inline int64_t act_at(int64_t k) { return k / 32 * 1024 + k % 32; }

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

/* The first n of 16 F16 values at p, zero after (n <= 0: all zero): the
 * masked lanes are not read, so a row's end may be the buffer's. */
static inline __m256i load16(const uint16_t *p, int64_t n) {
    if (n >= 16) return _mm256_loadu_si256((const void *)p);
    return _mm256_maskz_loadu_epi16(n > 0 ? (__mmask16)((1u << n) - 1) : 0, p);
}

void seer_f16_act_split(const uint16_t *f16, int64_t n_in, uint16_t *row) {
    for (int64_t k = 0; k < seer_f16_k_padded(n_in); k += 16) {
        __m512i h, l;
        split16(load16(f16 + k, n_in - k), &h, &l);
        _mm256_storeu_si256((void *)(row + act_at(k)), _mm512_cvtepi32_epi16(_mm512_srli_epi32(h, 16)));
        _mm256_storeu_si256((void *)(row + act_at(k) + 512), _mm512_cvtepi32_epi16(_mm512_srli_epi32(l, 16)));
    }
}

/* Each weight row's 32 K values of a step become 16 pair words, a row of
 * a 16 x 16 word matrix whose transpose is the B tile (word i of row c to
 * tile row i, column c). Rows past n_out and K past n_in are zero (a
 * scalar loop did those panels, and for a K such as the patch embedding's
 * 1176 all of them: a tenth of Qwen2.5-VL's encode). */
void seer_f16_panel_pack(const seer_weight *w, int64_t o0, uint8_t *panel) {
    const int64_t n_in = w->n_in, steps = seer_f16_k_padded(n_in) / 32;
    const int rows = w->n_out - o0 < 16 ? (int)(w->n_out - o0) : 16;
    const uint16_t *first = (const uint16_t *)((const char *)w->data + (size_t)o0 * w->row_bytes);
    const size_t row_elems = w->row_bytes / sizeof(uint16_t);
    const void *ahead[16]; /* the 16 rows read at once: asked for ahead (prefetch.h) */
    for (int c = 0; c < 16; c++) ahead[c] = c < rows ? first + (size_t)c * row_elems : NULL;
    for (int64_t s = 0; s < steps; s++) {
        __m512i hi[16], lo[16], tile[16];
        const int64_t rest = n_in - 32 * s;
        seer_prefetch_rows_ahead(ahead, (size_t)s * 64, 64);
        for (int c = 0; c < 16; c++) {
            const uint16_t *row = first + (size_t)(c < rows ? c : 0) * row_elems + 32 * s; /* past n_out: nothing read */
            __m512i h0, l0, h1, l1;
            split16(load16(row, c < rows ? rest : 0), &h0, &l0);
            split16(load16(row + 16, c < rows ? rest - 16 : 0), &h1, &l1);
            hi[c] = pairs(h0, h1);
            lo[c] = pairs(l0, l1);
        }
        __m512i *dst = (__m512i *)(panel + 2048 * s);
        seer_transpose16_epi32(hi, tile);
        for (int i = 0; i < 16; i++) _mm512_storeu_si512(dst + i, tile[i]);
        seer_transpose16_epi32(lo, tile);
        for (int i = 0; i < 16; i++) _mm512_storeu_si512(dst + 16 + i, tile[i]);
    }
}

/* The tiles: sums 0, 1 (rows 0-15 × panels 0, 1) and 2, 3 (TWO: rows
 * 16-31), B tiles 4, 5 (panels 0, 1), A tiles 6, 7 (rows 0-15, 16-31).
 * With two parts a tile is reloaded right after the last product of its
 * turn that reads it, a product or two before the next turn's first that
 * reads the new data. A load put just before the product that reads it
 * (as before) left the tiles idle for its whole latency: it cannot start
 * before the products still reading the old tile are done. kernel-bench,
 * F16 exact, 1600 rows, three alternated rounds on one Sapphire Rapids
 * core (two): 1280 -> 3424 301-329 -> 343-402 GFLOP/s (587-635 -> 682-772),
 * 3424 -> 1280 257-279 -> 304-329 (439-483 -> 536-620); with no loads in
 * the loop at all (wrong, a bound) about 470. */
static inline __attribute__((always_inline)) void load_a(int t, const uint16_t *a, const bool TWO) {
    if (t == 6) _tile_loadd(6, a, 64);
    else if (TWO) _tile_loadd(7, a, 64); /* one row tile: 7 is not used */
}

/* One turn of four products whose A tiles change next (a0, a1 their new
 * data; NULL: nothing more to load). */
static inline __attribute__((always_inline)) void turn_then_a(const uint16_t *a0, const uint16_t *a1, const bool TWO) {
    _tile_dpbf16ps(0, 6, 4);
    _tile_dpbf16ps(1, 6, 5);
    if (a0) load_a(6, a0, TWO);
    if (TWO) {
        _tile_dpbf16ps(2, 7, 4);
        _tile_dpbf16ps(3, 7, 5);
        if (a1) load_a(7, a1, TWO);
    }
}

/* One turn whose B tiles change next (b0, b1; NULL: none), and with them
 * the A tiles when a0 is not NULL (the next step's first turn). */
static inline __attribute__((always_inline)) void turn_then_b(const uint8_t *b0, const uint8_t *b1, const uint16_t *a0,
                                                              const uint16_t *a1, const bool TWO) {
    _tile_dpbf16ps(0, 6, 4);
    if (TWO) _tile_dpbf16ps(2, 7, 4);
    if (b0) _tile_loadd(4, b0, 64);
    _tile_dpbf16ps(1, 6, 5);
    if (a0) load_a(6, a0, TWO);
    if (TWO) _tile_dpbf16ps(3, 7, 5);
    if (b1) _tile_loadd(5, b1, 64);
    if (a1) load_a(7, a1, TWO);
}

/* One step (32 K) of two parts with its A tiles' hi parts at a0, a1 (lo
 * 512 elements on) and its B tiles' at b0, b1 (lo 1024 bytes on), hi·hi
 * already loaded; next_*: the next step's (NULL after the last). The
 * pairings go hi·hi, lo·hi, lo·lo, hi·lo, so each turn reloads one side's
 * tiles: 10 tile loads a step instead of 12 (alone, without the loads
 * moved up, no faster). */
static inline __attribute__((always_inline)) void step_products(const uint16_t *a0, const uint16_t *a1, const uint8_t *b0,
                                                                const uint8_t *b1, const uint16_t *next_a0,
                                                                const uint16_t *next_a1, const uint8_t *next_b0,
                                                                const uint8_t *next_b1, const bool TWO) {
    turn_then_a(a0 + 512, a1 + 512, TWO);
    turn_then_b(b0 + 1024, b1 + 1024, NULL, NULL, TWO);
    turn_then_a(a0, a1, TWO);
    turn_then_b(next_b0, next_b1, next_a0, next_a1, TWO);
}

/* One part (BF16 products): the four tiles loaded as each turn begins,
 * which measured faster here than loads moved up (a BF16 encode of
 * test-1.jpeg, two threads: 2.3-2.4 s against 2.5-2.7). */
static inline __attribute__((always_inline)) void step_products_one_part(const uint16_t *a0, const uint16_t *a1,
                                                                         const uint8_t *b0, const uint8_t *b1,
                                                                         const bool TWO) {
    _tile_loadd(4, b0, 64);
    _tile_loadd(5, b1, 64);
    _tile_loadd(6, a0, 64);
    _tile_dpbf16ps(0, 6, 4);
    _tile_dpbf16ps(1, 6, 5);
    if (TWO) {
        _tile_loadd(7, a1, 64);
        _tile_dpbf16ps(2, 7, 4);
        _tile_dpbf16ps(3, 7, 5);
    }
}

/* 32 rows × 2 panels is the most the eight tiles hold with four sums; it
 * reads a B tile per two rows of tiles and an A tile per two panels,
 * which 16 rows a call (two A tiles per four products) did not: 1600 ×
 * 3424 × 1280 on one Sapphire Rapids core, 253 -> 324 GFLOP/s. */
static inline __attribute__((always_inline)) void tile_panels(int64_t k_padded, const uint8_t *panel0,
                                                              const uint8_t *panel1, const uint16_t *act, int nr,
                                                              float *out, const int PARTS, const bool TWO) {
    const int n0 = nr < 16 ? nr : 16;
    seer_tile_config cfg;
    seer_tile_config_init(&cfg);
    for (int t = 0; t < 8; t++) cfg.colsb[t] = 64;
    cfg.rows[0] = cfg.rows[1] = cfg.rows[6] = (uint8_t)n0;
    cfg.rows[2] = cfg.rows[3] = cfg.rows[7] = (uint8_t)(TWO ? nr - 16 : 1);
    cfg.rows[4] = cfg.rows[5] = 16;
    seer_tile_config_use(&cfg);
    _tile_zero(0);
    _tile_zero(1);
    if (TWO) {
        _tile_zero(2);
        _tile_zero(3);
    }
    const uint16_t *act1 = act + 16 * PARTS * k_padded; /* the next tile block */
    const int64_t steps = k_padded / 32;
    if (PARTS == 2) { /* the first step's hi·hi tiles: each step loads the next one's */
        _tile_loadd(4, panel0, 64);
        _tile_loadd(5, panel1, 64);
        load_a(6, act, TWO);
        load_a(7, act1, TWO);
    }
    for (int64_t s = 0; s < steps; s++) {
        const bool more = s + 1 < steps;
        const uint16_t *a0 = act + 512 * PARTS * s, *a1 = act1 + 512 * PARTS * s;
        const uint8_t *b0 = panel0 + 1024 * PARTS * s, *b1 = panel1 + 1024 * PARTS * s;
        if (PARTS == 1) step_products_one_part(a0, a1, b0, b1, TWO);
        else step_products(a0, a1, b0, b1, more ? a0 + 1024 : NULL, more ? a1 + 1024 : NULL, more ? b0 + 2048 : NULL,
                           more ? b1 + 2048 : NULL, TWO);
    }
    _tile_stored(0, out, 64);
    _tile_stored(1, out + 256, 64);
    if (TWO) {
        _tile_stored(2, out + 512, 64);
        _tile_stored(3, out + 768, 64);
    }
}

void seer_tile_panels_amx(int64_t k_padded, int parts, const uint8_t *panel0, const uint8_t *panel1,
                          const uint16_t *act, int nr, float *out) {
    if (!panel1) panel1 = panel0;
    if (parts == 2 && nr > 16) tile_panels(k_padded, panel0, panel1, act, nr, out, 2, true);
    else if (parts == 2) tile_panels(k_padded, panel0, panel1, act, nr, out, 2, false);
    else if (nr > 16) tile_panels(k_padded, panel0, panel1, act, nr, out, 1, true);
    else tile_panels(k_padded, panel0, panel1, act, nr, out, 1, false);
}
#else
/* never handed out: seer_amx_bf16_ready() is false */
void seer_f16_act_split(const uint16_t *f16, int64_t n_in, uint16_t *row) {
    (void)f16; (void)n_in; (void)row;
    abort();
}
void seer_f16_panel_pack(const seer_weight *w, int64_t o0, uint8_t *panel) {
    (void)w; (void)o0; (void)panel;
    abort();
}
void seer_tile_panels_amx(int64_t k_padded, int parts, const uint8_t *panel0, const uint8_t *panel1,
                          const uint16_t *act, int nr, float *out) {
    (void)k_padded; (void)parts; (void)panel0; (void)panel1; (void)act; (void)nr; (void)out;
    abort();
}
#endif
