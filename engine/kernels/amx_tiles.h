/* The AMX tile configuration (palette 1) shared by the tile kernels
 * (gemm_q8_amx.c, gemm_q45_K_amx.c, gemm_q6_K_amx.c, gemm_f16_amx.c).
 * Include only where the AMX intrinsics are enabled (amx_enabled.h). */
#ifndef SEER_KERNELS_AMX_TILES_H
#define SEER_KERNELS_AMX_TILES_H

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

typedef struct __attribute__((packed)) seer_tile_config {
    uint8_t palette, start_row, reserved[14];
    uint16_t colsb[16];
    uint8_t rows[16];
} seer_tile_config;

/* A palette-1 configuration with every tile unused (rows 0). */
static inline void seer_tile_config_init(seer_tile_config *cfg) {
    memset(cfg, 0, sizeof *cfg);
    cfg->palette = 1;
}

/* LDTILECFG. GCC 12's _tile_loadconfig tells the compiler it reads only
 * the first 8 bytes, so stores to the rest could be dropped as dead (they
 * were, in gemm_q45_K_amx.c's first version: TILEZERO then faulted on an
 * unconfigured tile): the barrier makes the whole struct live. */
static inline void seer_tile_config_load(const seer_tile_config *cfg) {
    __asm__ volatile("" : : "r"(cfg) : "memory");
    _tile_loadconfig(cfg);
}

/* The tile kernels' configuration, loaded unless this thread's tiles hold
 * it already: LDTILECFG and TILERELEASE around every call cost ~200 TSC
 * cycles, 5% of a K-quant call over 2048 weights (gemm_q8_amx.c). The
 * tiles stay configured until seer_amx_tiles_release (gemm_q8_internal.h),
 * which the GEMM's threads call when their share is done; every LDTILECFG
 * and TILERELEASE goes through these two, or the thread's record of its
 * configuration would be wrong. */
void seer_tile_config_use(const seer_tile_config *cfg);

#endif
