/* The int8 GEMM panel kernel on AMX tiles against the AVX-512 one: the same
 * floats, bit for bit, for 1 to 16 activation rows, with and without mins,
 * on random panels and on panels at the extremes of the int8 range (the
 * sums a tile accumulates must not saturate where VPDPBUSD's do not). Then
 * the kernel that reads interleaved Q8_0 groups in place with signed
 * activations against the panel kernel on the same group packed,
 * activations +128; then the Q4_K / Q5_K and Q6_K tile kernels against
 * exact sums.
 * Skipped (and said so) on a CPU or OS without AMX-INT8. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/gemm_q8_internal.h"
#include "kernels/interleave_internal.h"
#include "seer/matmul.h"
#include "seer/cpu.h"
#include "testlib.h"

enum { NB = 24, ROWS = 16, R = SEER_Q8_PANEL_ROWS };

static uint32_t state = 12345;
static uint32_t next(void) { return state = state * 1664525u + 1013904223u; }

enum { K_SB = 3, K_ROWS = SEER_Q45_K_AMX_ROWS };

/* Quant k (0..255) of super-block x's row `col`, as block_q4_K / block_q5_K
 * define it (chunk c = k / 64: low nibbles for its first 32, high for the
 * rest; Q5_K's fifth bit 2c or 2c + 1 of qh byte k % 32). */
static int k_quant(const block_q4_Kx16 *x, const uint8_t (*qh)[SEER_ILV_ROWS][4], int col, int k) {
    const int c = k / 64, kk = k % 64, i = kk % 32, high = kk >= 32;
    const uint8_t byte = x->qs[c][i / 4][col][i % 4];
    int q = high ? byte >> 4 : byte & 15;
    if (qh) q += 16 * ((qh[i / 4][col][i % 4] >> (2 * c + high)) & 1);
    return q;
}

/* Q6_K's quant k (0..255) less 32 of super-block x's row `col`, as
 * block_q6_K defines it (interleave_internal.h's layout). */
static int q6_quant(const block_q6_Kx16 *x, int col, int k) {
    const int h = k / 128, hi = (k % 128) / 64, s = (k % 64) / 32, l = k % 32;
    const uint8_t ql = x->q[h][l / 4][s][col][l % 4], qh = x->q[h][l / 4][2][col][l % 4];
    return ((hi ? ql >> 4 : ql & 15) | (((qh >> (2 * (s + 2 * hi))) & 3) << 4)) - 32;
}

/* Q6_K groups on AMX tiles (the scales as three base-8 digits in the
 * quants) against the exact sum in double, 1..16 rows, random and extreme
 * (scales -128 and 127, quants at both ends) super-blocks, 1..
 * SEER_K_AMX_PANELS groups a call as the Q4_K check below. */
static void check_q6_K(bool extreme) {
    enum { P = SEER_K_AMX_PANELS };
    const size_t panel_bytes = SEER_Q6_K_AMX_SB_BYTES * K_SB;
    block_q6_Kx16 *groups = aligned_alloc(64, sizeof(block_q6_Kx16) * K_SB * P);
    uint8_t *panels = aligned_alloc(64, panel_bytes * P);
    uint8_t *bytes = (uint8_t *)groups;
    for (size_t i = 0; i < sizeof(block_q6_Kx16) * K_SB * P; i++)
        bytes[i] = extreme ? ((next() >> 7) & 1 ? 0xFF : 0) : (uint8_t)(next() >> 13);
    for (int sb = 0; sb < K_SB * P; sb++)
        for (int col = 0; col < 16; col++) {
            groups[sb].d[col] = (uint16_t)(0x2C00 + (next() >> 23) + ((next() >> 4) & 0x8000));
            if (extreme)
                for (int g = 0; g < 16; g++) groups[sb].scales[g][col] = (next() >> 9) & 1 ? 127 : -128;
        }
    const int64_t nb = 8 * K_SB, n_in = 32 * nb;
    int8_t *act = malloc((size_t)(16 * n_in));
    float act_d[16 * 8 * K_SB];
    for (int i = 0; i < 16 * n_in; i++) act[i] = extreme ? (int8_t)((next() >> 9) & 1 ? 127 : -127) : (int8_t)((int)(next() >> 20) % 255 - 127);
    for (int i = 0; i < 16 * nb; i++) act_d[i] = (float)(1 + (i / 8) % 13) / 977.0f;
    for (int i = 0; i < P; i++) seer_q6_K_amx_pack((const uint8_t *)(groups + K_SB * i), K_SB, panels + panel_bytes * (size_t)i);
    for (int nr = 1; nr <= 16; nr++) {
        const int np = 1 + (nr + extreme) % P;
        float got[P][16 * R];
        seer_q6_K_amx(K_SB, panels, panel_bytes, np, act, (size_t)n_in, act_d, (size_t)nb, nr, got[0]);
        for (int i = 0; i < np; i++) {
            const block_q6_Kx16 *group = groups + K_SB * i;
            int bad = 0;
            for (int r = 0; r < nr; r++)
                for (int col = 0; col < R; col++) {
                    double want = 0, mag = 0;
                    for (int sb = 0; sb < K_SB; sb++) {
                        double sum = 0, sum_mag = 0;
                        for (int k = 0; k < 256; k++) {
                            const double t = (double)group[sb].scales[k / 16][col] * q6_quant(&group[sb], col, k) *
                                             act[r * n_in + 256 * sb + k];
                            sum += t, sum_mag += fabs(t);
                        }
                        const double d = seer_fp16_to_f32(group[sb].d[col]), ad = act_d[r * nb + 8 * sb];
                        want += ad * d * sum, mag += fabs(ad * d) * sum_mag;
                    }
                    bad += !(fabs(got[i][R * r + col] - want) <= 2e-6 * mag);
                }
            CHECK_MSG(bad == 0, "Q6_K on AMX, %d rows, panel %d of %d, extreme %d: %d of %d outputs off the exact sums", nr,
                      i, np, extreme, bad, nr * R);
        }
    }
    free(groups);
    free(panels);
    free(act);
}

/* Q4_K and Q5_K groups on AMX tiles (unpacked with the block scales in the
 * quants) against the exact sum in double, and the AVX-512 super-block
 * kernel against the same, 1..32 rows, random and extreme (quants,
 * scales, mins and activations at their largest) super-blocks. Each call
 * takes 1..SEER_K_AMX_PANELS packed groups (different weights, one
 * stride apart), as the GEMM gives it. */
static void check_q45_K(bool q5, bool extreme) {
    enum { P = SEER_K_AMX_PANELS };
    const size_t sb_bytes = q5 ? sizeof(block_q5_Kx16) : sizeof(block_q4_Kx16), panel_bytes = SEER_Q45_K_AMX_SB_BYTES * K_SB;
    uint8_t *groups = aligned_alloc(64, sb_bytes * K_SB * P), *panels = aligned_alloc(64, panel_bytes * P);
    for (size_t i = 0; i < sb_bytes * K_SB * P; i++) groups[i] = extreme ? 0xFF : (uint8_t)(next() >> 13);
    const int64_t nb = 8 * K_SB, n_in = 32 * nb;
    int8_t *act = malloc((size_t)(K_ROWS * n_in));
    float act_d[K_ROWS * 8 * K_SB];
    int16_t sums[K_ROWS * 8 * K_SB];
    for (int r = 0; r < K_ROWS; r++)
        for (int64_t b = 0; b < nb; b++) {
            int sum = 0;
            for (int k = 0; k < 32; k++) {
                int8_t v = extreme ? (int8_t)((next() >> 9) & 1 ? 127 : -127) : (int8_t)((int)(next() >> 20) % 255 - 127);
                if (extreme && r % 2) v = 127;
                act[r * n_in + 32 * b + k] = v;
                sum += v;
            }
            sums[r * nb + b] = (int16_t)sum;
            act_d[r * nb + b] = (float)(1 + (r * 7 + b / 8) % 13) / 977.0f; /* one per super-block, as Q8_K */
        }
    for (int i = 0; i < P; i++) {
        uint8_t *group = groups + sb_bytes * K_SB * (size_t)i;
        for (int sb = 0; sb < K_SB; sb++) { /* finite positive scales: d ~ 2^-4..2^-2, mins' too */
            block_q4_Kx16 *x = q5 ? &((block_q5_Kx16 *)group)[sb].low : (block_q4_Kx16 *)group + sb;
            for (int col = 0; col < 16; col++) {
                x->d[col] = (uint16_t)(0x2C00 + (next() >> 23));
                x->dmin[col] = (uint16_t)(0x2C00 + (next() >> 23));
                for (int j = 0; j < 8; j++) x->scales[j][col] &= 63, x->mins[j / 2][col][j % 2] &= 63;
            }
        }
        seer_q45_K_amx_pack(q5, group, K_SB, panels + panel_bytes * (size_t)i);
    }
    for (int nr = 1; nr <= K_ROWS; nr++) {
        const int np = 1 + (nr + extreme) % P;
        float got[P][K_ROWS * R], avx[2][K_ROWS * R];
        seer_q45_K_amx(K_SB, panels, panel_bytes, np, act, (size_t)n_in, act_d, sums, (size_t)nb, nr, got[0]);
        for (int i = 0; i < np; i++) {
            const uint8_t *group = groups + sb_bytes * K_SB * (size_t)i;
            for (int r = 0; r < nr; r += 6)
                seer_q8_groups_q45_K_avx512(q5, nb, group, NULL, act + r * n_in, (size_t)n_in, act_d + r * nb,
                                            sums + r * nb, (size_t)nb, nr - r < 6 ? nr - r : 6, avx[0] + R * r, avx[1],
                                            r == 0);
            int bad = 0, bad_avx = 0;
            for (int r = 0; r < nr; r++)
                for (int col = 0; col < R; col++) {
                    double want = 0, mag = 0;
                    for (int sb = 0; sb < K_SB; sb++) {
                        const block_q4_Kx16 *x =
                            q5 ? &((const block_q5_Kx16 *)group)[sb].low : (const block_q4_Kx16 *)group + sb;
                        const uint8_t(*qh)[SEER_ILV_ROWS][4] = q5 ? ((const block_q5_Kx16 *)group)[sb].qh : NULL;
                        double sc_sum = 0, min_sum = 0, sc_mag = 0, min_mag = 0;
                        for (int j = 0; j < 8; j++) {
                            long s = 0;
                            for (int k = 32 * j; k < 32 * j + 32; k++)
                                s += (long)act[r * n_in + 256 * sb + k] * k_quant(x, qh, col, k);
                            const int m = x->mins[j / 2][col][j % 2], bs = sums[r * nb + 8 * sb + j];
                            sc_sum += (double)x->scales[j][col] * s, sc_mag += fabs((double)x->scales[j][col] * s);
                            min_sum += (double)m * bs, min_mag += fabs((double)m * bs);
                        }
                        const double d = seer_fp16_to_f32(x->d[col]), dmin = seer_fp16_to_f32(x->dmin[col]),
                                     ad = act_d[r * nb + 8 * sb];
                        want += ad * (d * sc_sum - dmin * min_sum);
                        mag += fabs(ad) * (fabs(d) * sc_mag + fabs(dmin) * min_mag);
                    }
                    bad += !(fabs(got[i][R * r + col] - want) <= 2e-6 * mag);
                    bad_avx += !(fabs(avx[0][R * r + col] - want) <= 2e-6 * mag);
                }
            CHECK_MSG(bad == 0, "%s on AMX, %d rows, panel %d of %d, extreme %d: %d of %d outputs off the exact sums",
                      q5 ? "Q5_K" : "Q4_K", nr, i, np, extreme, bad, nr * R);
            CHECK_MSG(bad_avx == 0, "%s on AVX-512 (the reference's check), %d rows: %d outputs off",
                      q5 ? "Q5_K" : "Q4_K", nr, bad_avx);
        }
    }
    free(groups);
    free(panels);
    free(act);
}

/* extreme: quants only -128/127 (weights) and 0/255 (activations). Scales,
 * corrections and mins fill whatever follows the quants (either layout). */
static void fill(uint8_t *panel, uint8_t *act, float *act_d, float *act_s, bool extreme) {
    for (size_t i = 0; i < (size_t)NB * 512; i++) panel[i] = extreme ? ((next() >> 7) & 1 ? 0x7F : 0x80) : (uint8_t)(next() >> 11);
    for (int i = 0; i < NB * 4 * R; i += 2) { /* float, int32 in turn: any layout gets both kinds at each place */
        float f = (float)(next() % 1000) / 997.0f;
        int32_t c = (int32_t)(next() % 20000) - 10000;
        memcpy(panel + (size_t)NB * 512 + 4 * (size_t)i, &f, 4);
        memcpy(panel + (size_t)NB * 512 + 4 * (size_t)i + 4, &c, 4);
    }
    for (int i = 0; i < ROWS * NB * 32; i++) act[i] = extreme ? ((next() >> 9) & 1 ? 255 : 0) : (uint8_t)(next() >> 13);
    for (int i = 0; i < ROWS * NB; i++) {
        act_d[i] = (float)(next() % 1000) / 313.0f;
        act_s[i] = (float)(next() % 1000) / 211.0f - 2.0f;
    }
}

int main(void) {
    if (seer_cpu_simd_best() < SEER_SIMD_AVX512 || !seer_q8_panel_amx_supported()) {
        printf("SKIP: no AMX-INT8 here\n");
        TEST_MAIN_END();
    }
    uint8_t *panel = aligned_alloc(64, (size_t)NB * 768); /* what fill writes, past SEER_Q8_PANEL_BYTES */
    _Static_assert(768 >= SEER_Q8_PANEL_BYTES(8) / 8, "room for the panel");
    uint8_t *act = malloc((size_t)ROWS * NB * 32);
    float act_d[ROWS * NB], act_s[ROWS * NB];
    for (int extreme = 0; extreme < 2; extreme++)
        for (int with_mins = 0; with_mins < 2; with_mins++) {
            fill(panel, act, act_d, act_s, extreme);
            /* an odd count too: the AMX kernel takes its blocks two at a time */
            for (int nb = NB - 1; nb <= NB; nb++)
                for (int nr = 1; nr <= ROWS; nr++) {
                    float want[ROWS * R], got[ROWS * R];
                    memset(got, 0, sizeof got);
                    for (int r = 0; r < nr; r += 4) /* the AVX-512 kernel takes up to 4 rows */
                        seer_q8_panel_avx512(
                            nb, panel, act + (size_t)r * NB * 32, (size_t)NB * 32, act_d + r * NB,
                            with_mins ? act_s + r * NB : NULL, NB, nr - r < 4 ? nr - r : 4, want + R * r);
                    seer_q8_panel_amx(nb, panel, act, (size_t)NB * 32, act_d, with_mins ? act_s : NULL, NB, nr, got);
                    CHECK_MSG(memcmp(want, got, sizeof(float) * (size_t)(nr * R)) == 0,
                              "AMX differs from AVX-512: %d blocks, %d rows, %s, extreme %d", nb, nr,
                              with_mins ? "mins" : "no mins", extreme);
                }
        }

    /* Q8_0 groups read in place: NB blocks of 16 rows, random or extreme quants, scales of either sign */
    block_q8_0x16 *groups = aligned_alloc(64, sizeof(block_q8_0x16) * NB / 2);
    uint8_t *signed_act = malloc((size_t)ROWS * NB * 32);
    for (int extreme = 0; extreme < 2; extreme++) {
        fill(panel, act, act_d, act_s, extreme);
        uint8_t *bytes = (uint8_t *)groups;
        for (size_t i = 0; i < sizeof(block_q8_0x16) * NB / 2; i++)
            bytes[i] = extreme ? ((next() >> 7) & 1 ? 0x7F : 0x80) : (uint8_t)(next() >> 11);
        for (int b = 0; b < NB / 2; b++)
            for (int s = 0; s < 2; s++)
                for (int j = 0; j < R; j++) groups[b].d[s][j] = (uint16_t)(0x2000 + (next() >> 22) + ((next() >> 5) & 0x8000));
        for (int i = 0; i < ROWS * NB * 32; i++) signed_act[i] = act[i] ^ 0x80;
        seer_weight w = {.type = SEER_TYPE_Q8_0, .n_in = NB * 32, .n_out = R, .interleaved = groups,
                         .row_bytes = seer_row_bytes(SEER_TYPE_Q8_0, NB * 32)};
        seer_q8_panel_pack(&w, 0, panel);
        for (int nr = 1; nr <= ROWS; nr++) {
            float want[ROWS * R], got[ROWS * R];
            seer_q8_panel_amx(NB, panel, act, (size_t)NB * 32, act_d, NULL, NB, nr, want);
            seer_q8_0_group_amx(NB, (const uint8_t *)groups, signed_act, (size_t)NB * 32, act_d, NULL, NB, nr, got);
            CHECK_MSG(memcmp(want, got, sizeof(float) * (size_t)(nr * R)) == 0,
                      "Q8_0 in place differs from its packed panel: %d rows, extreme %d", nr, extreme);
        }
    }
    for (int q5 = 0; q5 < 2; q5++)
        for (int extreme = 0; extreme < 2; extreme++) check_q45_K(q5, extreme);
    for (int extreme = 0; extreme < 2; extreme++) check_q6_K(extreme);
    free(groups);
    free(signed_act);
    free(panel);
    free(act);
    TEST_MAIN_END();
}
