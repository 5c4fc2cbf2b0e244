/* The int8 GEMM panel kernel on AMX tiles against the AVX-512 one: the same
 * floats, bit for bit, for 1 to 16 activation rows, with and without mins,
 * whole blocks and blocks in halves (Q6_K), on random panels and on panels
 * at the extremes of the int8 range (the sums a tile accumulates must not
 * saturate where VPDPBUSD's do not). Then the kernel that reads interleaved
 * Q8_0 groups in place with signed activations against the panel kernel on
 * the same group packed, activations +128.
 * Skipped (and said so) on a CPU or OS without AMX-INT8. */
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
    uint8_t *panel = aligned_alloc(64, SEER_Q8_PANEL_HALVES_BYTES(NB)); /* the larger layout */
    _Static_assert(SEER_Q8_PANEL_HALVES_BYTES(1) >= SEER_Q8_PANEL_BYTES(1), "room for either layout");
    uint8_t *act = malloc((size_t)ROWS * NB * 32);
    float act_d[ROWS * NB], act_s[ROWS * NB];
    for (int extreme = 0; extreme < 2; extreme++)
        for (int kind = 0; kind < 3; kind++) { /* whole blocks without mins, with mins; halves */
            const bool halves = kind == 2, with_mins = kind == 1;
            fill(panel, act, act_d, act_s, extreme);
            for (int nr = 1; nr <= ROWS; nr++) {
                float want[ROWS * R], got[ROWS * R];
                memset(got, 0, sizeof got);
                for (int r = 0; r < nr; r += 4) /* the AVX-512 kernel takes up to 4 rows */
                    (halves ? seer_q8_panel_halves_avx512 : seer_q8_panel_avx512)(
                        NB, panel, act + (size_t)r * NB * 32, (size_t)NB * 32, act_d + r * NB,
                        with_mins ? act_s + r * NB : NULL, NB, nr - r < 4 ? nr - r : 4, want + R * r);
                (halves ? seer_q8_panel_halves_amx : seer_q8_panel_amx)(NB, panel, act, (size_t)NB * 32, act_d,
                                                                        with_mins ? act_s : NULL, NB, nr, got);
                CHECK_MSG(memcmp(want, got, sizeof(float) * (size_t)(nr * R)) == 0,
                          "AMX differs from AVX-512: %d rows, %s, extreme %d", nr,
                          halves ? "halves" : with_mins ? "mins" : "no mins", extreme);
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
    free(groups);
    free(signed_act);
    free(panel);
    free(act);
    TEST_MAIN_END();
}
