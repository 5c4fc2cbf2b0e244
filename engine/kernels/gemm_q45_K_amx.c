/* The int8 GEMM for Q4_K and Q5_K weights on AMX tiles, summing whole
 * super-blocks in the tiles.
 *
 * A tile store costs more than the product before it (on Sapphire Rapids
 * a 16 x 16 x 64 TDPBSUD issues every ~15 cycles, a TILESTORED takes ~23),
 * so the panel kernel (gemm_q8_amx.c), which stores the sums of every block
 * of 32 to apply that block's float scale, ran slower than VPDPBUSD. Here
 * the block scales go into the weights instead: a K-quant's 6-bit block
 * scale sc is 8 sh + sl (3 bits each) and a quant q (< 32) times either
 * part fits a byte (<= 217), so per call the interleaved groups
 * (block_q4_Kx16, block_q5_Kx16) are unpacked into two B tiles per 64
 * weights, q·sl and q·sh (one 16-bit multiply makes two bytes: no carry
 * crosses them). A super-block's sums then stay in the tiles, C' + 8 C'' is
 * exactly Σ sc · (block sum), and only that is scaled by the super-block's
 * d in float (llama.cpp's K-quant dot products keep those sums in integers
 * too); the mins' term is the super-block kernel's integer dot product of
 * the mins and the activation blocks' sums. Activations are Q8_K, signed
 * (TDPBSUD: signed A, unsigned B, no correction). */
#include "kernels/amx_enabled.h"
#include "kernels/gemm_q8_internal.h"
#include "kernels/interleave_internal.h"

#include <string.h>

/* A super-block of 16 weight rows, as the kernel reads it. */
typedef struct {
    /* [scale part: sl, sh][chunk of 64 weights][quad row: 0-7 the chunk's
     * first block, 8-15 its second][weight row][4 quants] */
    uint8_t b[2][4][16][SEER_ILV_ROWS][4];
    float d[SEER_ILV_ROWS], dmin[SEER_ILV_ROWS];
    int16_t mins[4][SEER_ILV_ROWS][2]; /* blocks (2c, 2c + 1) per row */
} q45_K_amx_sb;

_Static_assert(sizeof(q45_K_amx_sb) == SEER_Q45_K_AMX_SB_BYTES, "q45_K_amx_sb");

#if defined(SEER_AMX_INT8_BUILT) && defined(__AVX512VNNI__)
#include <immintrin.h>

#include "kernels/amx_tiles.h"

void seer_q45_K_amx_pack(bool q5, const uint8_t *group, int64_t n_sb, uint8_t *panel) {
    const __m512i m4 = _mm512_set1_epi8(0x0F), sixteen = _mm512_set1_epi8(16), seven = _mm512_set1_epi16(7);
    for (int64_t sb = 0; sb < n_sb; sb++) {
        const block_q4_Kx16 *x = q5 ? &((const block_q5_Kx16 *)group)[sb].low : (const block_q4_Kx16 *)group + sb;
        q45_K_amx_sb *p = (q45_K_amx_sb *)panel + sb;
        for (int c = 0; c < 4; c++) {
            /* each block's scale per row, in both 16-bit halves of the row's 4 bytes */
            __m512i sl[2], sh[2];
            for (int h = 0; h < 2; h++) {
                const __m512i s = _mm512_cvtepu8_epi32(_mm_load_si128((const __m128i *)x->scales[2 * c + h]));
                const __m512i s2 = _mm512_or_si512(s, _mm512_slli_epi32(s, 16));
                sl[h] = _mm512_and_si512(s2, seven);
                sh[h] = _mm512_srli_epi16(s2, 3);
            }
            const __m512i bit_lo = _mm512_set1_epi8((char)(1 << (2 * c))), bit_hi = _mm512_set1_epi8((char)(2 << (2 * c)));
            for (int g = 0; g < 8; g++) {
                const __m512i q = _mm512_load_si512((const void *)x->qs[c][g]);
                __m512i lo = _mm512_and_si512(q, m4), hi = _mm512_and_si512(_mm512_srli_epi16(q, 4), m4);
                if (q5) {
                    const __m512i bits = _mm512_load_si512((const void *)((const block_q5_Kx16 *)group)[sb].qh[g]);
                    lo = _mm512_mask_add_epi8(lo, _mm512_test_epi8_mask(bits, bit_lo), lo, sixteen);
                    hi = _mm512_mask_add_epi8(hi, _mm512_test_epi8_mask(bits, bit_hi), hi, sixteen);
                }
                _mm512_store_si512((void *)p->b[0][c][g], _mm512_mullo_epi16(lo, sl[0]));
                _mm512_store_si512((void *)p->b[1][c][g], _mm512_mullo_epi16(lo, sh[0]));
                _mm512_store_si512((void *)p->b[0][c][8 + g], _mm512_mullo_epi16(hi, sl[1]));
                _mm512_store_si512((void *)p->b[1][c][8 + g], _mm512_mullo_epi16(hi, sh[1]));
            }
            _mm512_store_si512((void *)p->mins[c], _mm512_cvtepu8_epi16(_mm256_load_si256((const __m256i *)x->mins[c])));
        }
        _mm512_store_ps(p->d, _mm512_cvtph_ps(_mm256_load_si256((const __m256i *)x->d)));
        _mm512_store_ps(p->dmin, _mm512_cvtph_ps(_mm256_load_si256((const __m256i *)x->dmin)));
    }
}

/* Tiles: 0-1 rows 0-15's C' and C'', 2-3 rows 16-31's, 4-5 their
 * activations (64 bytes of K), 6-7 the B tiles of sl and sh. */
static void configure(int nr) {
    const int n0 = nr < 16 ? nr : 16, n1 = nr - n0;
    seer_tile_config cfg;
    seer_tile_config_init(&cfg);
    for (int t = 0; t < 8; t++) cfg.colsb[t] = 64;
    cfg.rows[0] = cfg.rows[1] = cfg.rows[4] = (uint8_t)n0;
    cfg.rows[2] = cfg.rows[3] = cfg.rows[5] = (uint8_t)(n1 ? n1 : 1);
    cfg.rows[6] = cfg.rows[7] = 16;
    seer_tile_config_use(&cfg);
}

/* One super-block's float steps for rows [r0, r1) of the stored sums. */
static inline __attribute__((always_inline)) void scale_sb(const q45_K_amx_sb *p, int64_t sb, const int32_t *c1,
                                                           const int32_t *c2, int r0, int r1, const float *act_d,
                                                           const int16_t *act_sums, size_t d_stride, float *out) {
    const __m512 d = _mm512_load_ps(p->d), dmin = _mm512_load_ps(p->dmin);
    __m512i mv[4];
    for (int i = 0; i < 4; i++) mv[i] = _mm512_load_si512((const void *)p->mins[i]);
    for (int r = r0; r < r1; r++) {
        const __m512i s = _mm512_add_epi32(_mm512_load_si512((const void *)(c1 + 16 * (r - r0))),
                                           _mm512_slli_epi32(_mm512_load_si512((const void *)(c2 + 16 * (r - r0))), 3));
        const int16_t *sums = act_sums + r * d_stride + 8 * sb;
        __m512i t = _mm512_madd_epi16(mv[0], _mm512_set1_epi32(seer_load_i32(sums)));
        for (int i = 1; i < 4; i++) t = _mm512_dpwssd_epi32(t, mv[i], _mm512_set1_epi32(seer_load_i32(sums + 2 * i)));
        const __m512 v = _mm512_fnmadd_ps(dmin, _mm512_cvtepi32_ps(t), _mm512_mul_ps(d, _mm512_cvtepi32_ps(s)));
        const __m512 ad = _mm512_set1_ps(act_d[r * d_stride + 8 * sb]);
        float *o = out + 16 * r;
        _mm512_storeu_ps(o, sb ? _mm512_fmadd_ps(v, ad, _mm512_loadu_ps(o)) : _mm512_mul_ps(v, ad));
    }
}

/* TWO: rows 16-31 too (tiles 2, 3, 5). np panels (panel_stride bytes
 * apart) a super-block at a time: each step's activation tiles, read from
 * L2 (16 rows n_in bytes apart) for the first panel, come from L1 for the
 * others (one panel a call before: one Intel Xeon core, 10240 x 2560 at
 * 512 rows, 698-730 -> 749-842 GOP/s; docs/performance.md). */
static inline __attribute__((always_inline)) void q45_K_amx(int64_t n_sb, const uint8_t *panel, size_t panel_stride,
                                                            int np, const int8_t *act, size_t act_stride,
                                                            const float *act_d, const int16_t *act_sums,
                                                            size_t d_stride, int nr, float *out, const bool TWO) {
    int32_t c[2][4][16 * 16] __attribute__((aligned(64))); /* [turn][tile] the stored sums */
    const int8_t *act1 = act + 16 * act_stride;
    const int64_t steps = n_sb * np;
    configure(nr);
    /* step s (super-block s / np of panel s % np) runs on the tiles while
     * step s - 1's sums, stored the turn before, take their float steps */
    for (int64_t s = 0; s <= steps; s++) {
        const int t = (int)(s & 1);
        if (s < steps) {
            const int64_t sb = s / np;
            const q45_K_amx_sb *p = (const q45_K_amx_sb *)(panel + (size_t)(s % np) * panel_stride) + sb;
            _tile_zero(0);
            _tile_zero(1);
            if (TWO) {
                _tile_zero(2);
                _tile_zero(3);
            }
            for (int k = 0; k < 4; k++) {
                _tile_loadd(4, act + 256 * sb + 64 * k, (long)act_stride);
                _tile_loadd(6, p->b[0][k], 64);
                _tile_dpbsud(0, 4, 6);
                _tile_loadd(7, p->b[1][k], 64);
                _tile_dpbsud(1, 4, 7);
                if (TWO) {
                    _tile_loadd(5, act1 + 256 * sb + 64 * k, (long)act_stride);
                    _tile_dpbsud(2, 5, 6);
                    _tile_dpbsud(3, 5, 7);
                }
            }
        }
        if (s > 0) {
            const int64_t sb = (s - 1) / np;
            const int pi = (int)((s - 1) % np);
            const q45_K_amx_sb *p = (const q45_K_amx_sb *)(panel + (size_t)pi * panel_stride) + sb;
            float *o = out + (size_t)pi * SEER_Q45_K_AMX_ROWS * SEER_ILV_ROWS;
            scale_sb(p, sb, c[1 - t][0], c[1 - t][1], 0, nr < 16 ? nr : 16, act_d, act_sums, d_stride, o);
            if (TWO) scale_sb(p, sb, c[1 - t][2], c[1 - t][3], 16, nr, act_d, act_sums, d_stride, o);
        }
        if (s < steps) {
            _tile_stored(0, c[t][0], 64);
            _tile_stored(1, c[t][1], 64);
            if (TWO) {
                _tile_stored(2, c[t][2], 64);
                _tile_stored(3, c[t][3], 64);
            }
        }
    }
}

void seer_q45_K_amx(int64_t n_sb, const uint8_t *panel, size_t panel_stride, int np, const int8_t *act,
                    size_t act_stride, const float *act_d, const int16_t *act_sums, size_t d_stride, int nr,
                    float *out) {
    if (nr > 16) q45_K_amx(n_sb, panel, panel_stride, np, act, act_stride, act_d, act_sums, d_stride, nr, out, true);
    else q45_K_amx(n_sb, panel, panel_stride, np, act, act_stride, act_d, act_sums, d_stride, nr, out, false);
}
#else
void seer_q45_K_amx_pack(bool q5, const uint8_t *group, int64_t n_sb, uint8_t *panel) {
    (void)q5; (void)group; (void)n_sb; (void)panel;
}
void seer_q45_K_amx(int64_t n_sb, const uint8_t *panel, size_t panel_stride, int np, const int8_t *act,
                    size_t act_stride, const float *act_d, const int16_t *act_sums, size_t d_stride, int nr,
                    float *out) {
    (void)n_sb; (void)panel; (void)panel_stride; (void)np; (void)act; (void)act_stride; (void)act_d; (void)act_sums; (void)d_stride; (void)nr;
    (void)out;
}
#endif
