/* The int8 GEMM for Q6_K weights on AMX tiles, the way gemm_q45_K_amx.c
 * takes Q4_K: the block scales go into the weights so that a super-block's
 * sums stay in the tiles. A Q6_K weight is d · s · (q - 32) with s a signed
 * byte per 16 weights and q - 32 in [-32, 31]; s is written in three
 * signed base-8 digits, s = p0 + 8 p1 + 64 p2 with each p in [-3, 4], and
 * (q - 32) · p fits a signed byte ([-128, 124]; with digits in [-4, 3]
 * (-32) · (-4) would not), so per call the interleaved groups
 * (block_q6_Kx16) are unpacked into three B tiles per 64 weights and
 * C0 + 8 C1 + 64 C2 is exactly Σ s · (q - 32) · a over the super-block;
 * only that is scaled by d in float. There are no mins. Activations are
 * Q8_K, signed (TDPBSSD). 16 activation rows a call: three accumulator
 * tiles, one A and three B take 7 of the 8 tiles. */
#include "kernels/amx_enabled.h"
#include "kernels/gemm_q8_internal.h"
#include "kernels/interleave_internal.h"

#include <string.h>

/* A super-block of 16 weight rows, as the kernel reads it. */
typedef struct {
    /* [digit][step of 64 weights][quad row][weight row][4 products] */
    int8_t b[3][4][16][SEER_ILV_ROWS][4];
    float d[SEER_ILV_ROWS];
} q6_K_amx_sb;

_Static_assert(sizeof(q6_K_amx_sb) == SEER_Q6_K_AMX_SB_BYTES, "q6_K_amx_sb");

#if defined(SEER_AMX_INT8_BUILT) && defined(__AVX512VNNI__)
#include <immintrin.h>

#include "kernels/amx_tiles.h"

/* q · w for the 16 rows' w (3-bit two's complement: bit masks m0, m1 and
 * m2, weight -4), byte-wise; the bytes wrap, but the true product fits
 * one, so the sum of the parts comes out right. The kernel's q is 32 less
 * the quant and w minus the digit: their product is (quant - 32) · digit. */
static inline __m512i times_digit(__m512i q, __mmask64 m0, __mmask64 m1, __mmask64 m2) {
    const __m512i q2 = _mm512_add_epi8(q, q), q4 = _mm512_add_epi8(q2, q2);
    __m512i t = _mm512_maskz_mov_epi8(m0, q);
    t = _mm512_mask_add_epi8(t, m1, t, q2);
    return _mm512_mask_sub_epi8(t, m2, t, q4);
}

void seer_q6_K_amx_pack(const uint8_t *group, int64_t n_sb, uint8_t *panel) {
    const __m512i m4 = _mm512_set1_epi8(0x0F), three = _mm512_set1_epi8(3), thirty_two = _mm512_set1_epi8(32);
    const __m512i three32 = _mm512_set1_epi32(3), seven = _mm512_set1_epi32(7);
    for (int64_t sb = 0; sb < n_sb; sb++) {
        const block_q6_Kx16 *x = (const block_q6_Kx16 *)group + sb;
        q6_K_amx_sb *p = (q6_K_amx_sb *)panel + sb;
        /* per group of 16 weights, each digit's negation's three bit masks
         * over the rows' 4-byte columns */
        __mmask64 mask[16][3][3];
        for (int g16 = 0; g16 < 16; g16++) {
            const __m512i s = _mm512_cvtepi8_epi32(_mm_load_si128((const __m128i *)x->scales[g16]));
            const __m512i p0 = _mm512_sub_epi32(_mm512_and_si512(_mm512_add_epi32(s, three32), seven), three32);
            const __m512i s1 = _mm512_srai_epi32(_mm512_sub_epi32(s, p0), 3);
            const __m512i p1 = _mm512_sub_epi32(_mm512_and_si512(_mm512_add_epi32(s1, three32), seven), three32);
            const __m512i p2 = _mm512_srai_epi32(_mm512_sub_epi32(s1, p1), 3);
            const __m512i digit[3] = {p0, p1, p2};
            for (int i = 0; i < 3; i++) {
                const __m512i w = _mm512_and_si512(_mm512_sub_epi32(_mm512_setzero_si512(), digit[i]), seven);
                const __m512i bytes = _mm512_mullo_epi32(w, _mm512_set1_epi32(0x01010101)); /* in each byte of the column */
                for (int bit = 0; bit < 3; bit++)
                    mask[g16][i][bit] = _mm512_test_epi8_mask(bytes, _mm512_set1_epi8((char)(1 << bit)));
            }
        }
        for (int h = 0; h < 2; h++)
            for (int g = 0; g < 8; g++) {
                const __m512i qh = _mm512_load_si512((const void *)x->q[h][g][2]);
                for (int s = 0; s < 2; s++) {
                    const __m512i ql = _mm512_load_si512((const void *)x->q[h][g][s]);
                    for (int hi = 0; hi < 2; hi++) {
                        /* weights 128h + 64hi + 32s + 4g..+3: step j = 2h + hi, quad row 8s + g */
                        const int j = 2 * h + hi, m = 8 * s + g, g16 = 4 * j + m / 4;
                        const __m512i lo4 = hi ? _mm512_and_si512(_mm512_srli_epi16(ql, 4), m4) : _mm512_and_si512(ql, m4);
                        const __m512i top = _mm512_and_si512(_mm512_srli_epi16(qh, 2 * (s + 2 * hi)), three);
                        const __m512i q = _mm512_sub_epi8(thirty_two, _mm512_or_si512(lo4, _mm512_slli_epi16(top, 4)));
                        for (int i = 0; i < 3; i++)
                            _mm512_store_si512((void *)p->b[i][j][m],
                                               times_digit(q, mask[g16][i][0], mask[g16][i][1], mask[g16][i][2]));
                    }
                }
            }
        _mm512_store_ps(p->d, _mm512_cvtph_ps(_mm256_load_si256((const __m256i *)x->d)));
    }
}

/* Tiles: 0-2 the sums of digits 0-2, 3 the activations (64 bytes of K),
 * 4-6 the digits' B tiles. */
static void configure(int nr) {
    seer_tile_config cfg;
    seer_tile_config_init(&cfg);
    for (int t = 0; t < 7; t++) cfg.colsb[t] = 64, cfg.rows[t] = t < 4 ? (uint8_t)nr : 16;
    seer_tile_config_use(&cfg);
}

/* np panels (panel_stride bytes apart) a super-block at a time, as
 * gemm_q45_K_amx.c takes them: the activation tile of each K step comes
 * from L1 for all panels but the first; panel i's results at out + 256 i. */
void seer_q6_K_amx(int64_t n_sb, const uint8_t *panel, size_t panel_stride, int np, const int8_t *act,
                   size_t act_stride, const float *act_d, size_t d_stride, int nr, float *out) {
    int32_t c[2][3][16 * 16] __attribute__((aligned(64))); /* [turn][digit] the stored sums */
    const int64_t steps = n_sb * np;
    configure(nr);
    /* the two turns of gemm_q45_K_amx.c: tiles on step s, floats on s - 1 */
    for (int64_t s = 0; s <= steps; s++) {
        const int t = (int)(s & 1);
        if (s < steps) {
            const int64_t sb = s / np;
            const q6_K_amx_sb *p = (const q6_K_amx_sb *)(panel + (size_t)(s % np) * panel_stride) + sb;
            _tile_zero(0);
            _tile_zero(1);
            _tile_zero(2);
            for (int j = 0; j < 4; j++) {
                _tile_loadd(3, act + 256 * sb + 64 * j, (long)act_stride);
                _tile_loadd(4, p->b[0][j], 64);
                _tile_dpbssd(0, 3, 4);
                _tile_loadd(5, p->b[1][j], 64);
                _tile_dpbssd(1, 3, 5);
                _tile_loadd(6, p->b[2][j], 64);
                _tile_dpbssd(2, 3, 6);
            }
        }
        if (s > 0) {
            const int64_t sb = (s - 1) / np;
            const int pi = (int)((s - 1) % np);
            const q6_K_amx_sb *p = (const q6_K_amx_sb *)(panel + (size_t)pi * panel_stride) + sb;
            const __m512 d = _mm512_load_ps(p->d);
            for (int r = 0; r < nr; r++) {
                const __m512i s0 = _mm512_load_si512((const void *)(c[1 - t][0] + 16 * r));
                const __m512i s1 = _mm512_load_si512((const void *)(c[1 - t][1] + 16 * r));
                const __m512i s2 = _mm512_load_si512((const void *)(c[1 - t][2] + 16 * r));
                const __m512i sum = _mm512_add_epi32(s0, _mm512_slli_epi32(_mm512_add_epi32(s1, _mm512_slli_epi32(s2, 3)), 3));
                const __m512 v = _mm512_mul_ps(d, _mm512_cvtepi32_ps(sum));
                const __m512 ad = _mm512_set1_ps(act_d[r * d_stride + 8 * sb]);
                float *o = out + (size_t)pi * SEER_Q6_K_AMX_ROWS * SEER_ILV_ROWS + 16 * r;
                _mm512_storeu_ps(o, sb > 0 ? _mm512_fmadd_ps(v, ad, _mm512_loadu_ps(o)) : _mm512_mul_ps(v, ad));
            }
        }
        if (s < steps) {
            _tile_stored(0, c[t][0], 64);
            _tile_stored(1, c[t][1], 64);
            _tile_stored(2, c[t][2], 64);
        }
    }
}
#else
void seer_q6_K_amx_pack(const uint8_t *group, int64_t n_sb, uint8_t *panel) {
    (void)group; (void)n_sb; (void)panel;
}
void seer_q6_K_amx(int64_t n_sb, const uint8_t *panel, size_t panel_stride, int np, const int8_t *act,
                   size_t act_stride, const float *act_d, size_t d_stride, int nr, float *out) {
    (void)n_sb; (void)panel; (void)panel_stride; (void)np; (void)act; (void)act_stride; (void)act_d; (void)d_stride; (void)nr; (void)out;
}
#endif
