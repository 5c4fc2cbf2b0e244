/* The AMX tile peaks (Sapphire Rapids on): four independent 16 x 16
 * accumulator tiles fed by two A and two B tiles that stay in the
 * registers, so each product waits for nothing but the tile unit. Per
 * TDPBSSD 16 x 16 x 64 multiplies and adds, per TDPBF16PS 16 x 16 x 32.
 * Entered only where seer_q8_panel_amx_ready() (the CPU has the tiles, the
 * OS saves them, Linux granted this process the tile data, SEER_AMX is
 * not 0). */
#include <string.h>

#include "bench/peak_internal.h"
#include "kernels/amx_enabled.h"
#include "kernels/gemm_f16_internal.h"
#include "kernels/gemm_q8_internal.h"

#if defined(SEER_AMX_INT8_BUILT) && defined(SEER_AMX_BF16_BUILT)
#include <immintrin.h>

#include "kernels/amx_tiles.h"

static void configure(void) {
    seer_tile_config cfg;
    seer_tile_config_init(&cfg);
    for (int t = 0; t < 8; t++) cfg.colsb[t] = 64, cfg.rows[t] = 16;
    seer_tile_config_use(&cfg);
    _tile_zero(0);
    _tile_zero(1);
    _tile_zero(2);
    _tile_zero(3);
    _tile_zero(4);
    _tile_zero(5);
    _tile_zero(6);
    _tile_zero(7);
}

static double sink(void) {
    int32_t c[16][16] __attribute__((aligned(64)));
    _tile_stored(0, c, 64);
    seer_amx_tiles_release();
    return (double)c[0][0];
}

/* A peak loop of tile product DP (a macro: tile numbers are immediates). */
#define TILE_PEAK(name, DP)                                                                                            \
    static double name(int64_t iters) {                                                                                \
        configure();                                                                                                   \
        for (int64_t i = 0; i < iters; i++) {                                                                          \
            DP(0, 4, 6);                                                                                               \
            DP(1, 4, 7);                                                                                               \
            DP(2, 5, 6);                                                                                               \
            DP(3, 5, 7);                                                                                               \
        }                                                                                                              \
        return sink();                                                                                                 \
    }

TILE_PEAK(int8_amx, _tile_dpbssd)
TILE_PEAK(bf16_amx, _tile_dpbf16ps)

void seer_bench_peak_kernels_amx(seer_peak_kernel out[SEER_PEAK_KINDS]) {
    if (!seer_q8_panel_amx_ready()) return;
    out[SEER_PEAK_AMX_INT8] = (seer_peak_kernel){int8_amx, 4.0 * 16 * 16 * 64 * 2, "amx-int8 tdpbssd"};
    if (seer_amx_bf16_ready()) out[SEER_PEAK_AMX_BF16] = (seer_peak_kernel){bf16_amx, 4.0 * 16 * 16 * 32 * 2, "amx-bf16 tdpbf16ps"};
}
#else
void seer_bench_peak_kernels_amx(seer_peak_kernel out[SEER_PEAK_KINDS]) { (void)out; }
#endif
