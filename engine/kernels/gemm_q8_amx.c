/* The int8 GEMM panel kernel on AMX tiles (Intel's TMUL, Sapphire Rapids
 * on): one TDPBUSD multiplies up to 16 activation rows by a panel block of
 * 16 weight rows × 32 quants — the panel's 8 vectors of 64 bytes are
 * exactly a B tile of 8 rows (K in quads) — where VPDPBUSD does one
 * activation row. The block's int32 sums then take the same float steps,
 * in the same order, as the AVX-512 kernel's: results are bit-identical. */
#include "kernels/amx_enabled.h"
#include "kernels/gemm_q8_internal.h"
#include "kernels/interleave_internal.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "seer/cpu.h"

#if defined(SEER_AMX_INT8_BUILT) && defined(__AVX512F__)
#include <cpuid.h>
#include <immintrin.h>

#include "kernels/amx_tiles.h"
#include <sys/syscall.h>
#include <unistd.h>

#define ARCH_REQ_XCOMP_PERM 0x1023
#define XFEATURE_XTILEDATA 18

static bool amx_supported, amx_wanted, amx_bf16;
static pthread_once_t amx_once = PTHREAD_ONCE_INIT;

/* The CPU has AMX-TILE and AMX-INT8, the OS saves tile state (XCR0 bits 17
 * and 18), and Linux lets this process use the tile data (asked once). */
static void amx_detect(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d) || !(d & (1u << 24)) || !(d & (1u << 25))) return;
    const bool bf16 = d & (1u << 22); /* AMX-BF16 */
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 27))) return; /* OSXSAVE */
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    if ((lo & (3u << 17)) != (3u << 17)) return;
    if (syscall(SYS_arch_prctl, ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA) != 0) return;
    amx_supported = true;
    amx_bf16 = bf16;
    const char *env = getenv("SEER_AMX"); /* SEER_AMX=0: the AVX-512 kernel, for comparison */
    amx_wanted = !(env && strcmp(env, "0") == 0);
}

bool seer_q8_panel_amx_supported(void) {
    pthread_once(&amx_once, amx_detect);
    return amx_supported;
}

/* Only at the AVX-512 level: the tile kernels' float steps are AVX-512, and
 * SEER_SIMD=avx2 or scalar asks for that machine's kernels (the F16 encoders
 * ran on AMX-BF16 tiles under SEER_SIMD=scalar). */
bool seer_q8_panel_amx_ready(void) {
    return seer_q8_panel_amx_supported() && amx_wanted && seer_simd_level() >= SEER_SIMD_AVX512;
}

static _Thread_local seer_tile_config tiles_now; /* this thread's configuration, when tiles_configured */
static _Thread_local bool tiles_configured;

void seer_tile_config_use(const seer_tile_config *cfg) {
    if (tiles_configured && memcmp(&tiles_now, cfg, sizeof *cfg) == 0) return;
    seer_tile_config_load(cfg);
    tiles_now = *cfg;
    tiles_configured = true;
}

void seer_amx_tiles_release(void) {
    if (!tiles_configured) return;
    _tile_release();
    tiles_configured = false;
}

bool seer_amx_bf16_ready(void) { return seer_q8_panel_amx_ready() && amx_bf16; }

/* A block's sums into the rows' accumulators: the same float steps, in the
 * same order, as the AVX-512 kernel's. */
static inline __attribute__((always_inline)) void block_sums_into(__m512 *acc, const int32_t (*sums)[16], int64_t b,
                                                                  const uint8_t *panel, int64_t n_blocks,
                                                                  const float *act_d, const float *act_s,
                                                                  size_t d_stride, int nr, const bool group) {
    const block_q8_0x16 *g = (const block_q8_0x16 *)panel;
    const __m512 d = group ? _mm512_cvtph_ps(_mm256_loadu_si256((const void *)g[b / 2].d[b % 2]))
                           : _mm512_load_ps((const float *)(panel + (size_t)n_blocks * 512) + 16 * b);
    const __m512i corr = group ? _mm512_setzero_si512()
                               : _mm512_load_si512((const void *)((const int32_t *)(panel + (size_t)n_blocks * (512 + 64)) + 16 * b));
    const __m512 mn = group ? _mm512_setzero_ps() : _mm512_load_ps((const float *)(panel + (size_t)n_blocks * 640) + 16 * b);
    for (int r = 0; r < nr; r++) {
        const __m512 ad = _mm512_set1_ps(act_d[r * d_stride + b]);
        const __m512i s = _mm512_load_si512((const void *)sums[r]);
        acc[r] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(_mm512_sub_epi32(s, corr)), _mm512_mul_ps(d, ad), acc[r]);
        if (act_s && !group) acc[r] = _mm512_fnmadd_ps(mn, _mm512_set1_ps(act_s[r * d_stride + b]), acc[r]);
    }
}

/* Block b's product into sums tile C from activations tile A and panel
 * tile B (tile numbers must be constants: a macro). */
#define Q8_BLOCK_PRODUCT(C, A, B, b)                                                                                   \
    do {                                                                                                               \
        _tile_zero(C);                                                                                                 \
        _tile_loadd(A, act + 32 * (b), (long)act_stride);                                                              \
        if (group) {                                                                                                   \
            /* the next panel (the next 16 rows' groups follow): its lines on their way from memory */                \
            const char *ahead = (const char *)(g + (n_blocks + 1) / 2) + (size_t)(b) * 9 * 64;                        \
            for (int i = 0; i < 9; i++) _mm_prefetch(ahead + 64 * i, _MM_HINT_T0);                                    \
            _tile_loadd(B, g[(b) / 2].qs[(b) % 2], 64);                                                                \
            _tile_dpbssd(C, A, B);                                                                                     \
        } else {                                                                                                       \
            _tile_loadd(B, panel + 512 * (b), 64);                                                                     \
            _tile_dpbusd(C, A, B);                                                                                     \
        }                                                                                                              \
    } while (0)

/* Whole blocks, two in flight: even blocks in tiles 0 (sums C, nr rows ×
 * 16 int32), 2 (activations A, nr rows × 32 bytes) and 4 (the panel block
 * B, 8 rows × 64 bytes), odd ones in 1, 3 and 5, so the tiles multiply one
 * block while the vector unit takes the other's float steps. With one set
 * (each block's zero, loads, product, store and float steps in turn) the
 * tiles sat idle through the float steps and the float steps waited for
 * the tiles. Q8_0 2560 x 10240 at 512 rows (kernel-bench, three
 * alternated rounds, one Intel AMX core; two): 486-546 -> 553-608 GOP/s
 * (1064-1105 -> 1204-1256), where the AVX-512 kernel makes about 500;
 * SmolVLM-256M's 512-token prompt 2215-2426 -> 2586-2642 tok/s. (Panels
 * in halves, Q6_K's, stay on the AVX-512 kernel: one tile store per 16
 * weights made them slower here.) group: `panel` is an interleaved Q8_0
 * group (block_q8_0x16) read in place, with signed activations (TDPBSSD:
 * no +128, so no correction). */
static inline __attribute__((always_inline)) void panel_amx(int64_t n_blocks, const uint8_t *panel,
                                                            const uint8_t *act, size_t act_stride,
                                                            const float *act_d, const float *act_s, size_t d_stride,
                                                            int nr, float *out, const bool group) {
    seer_tile_config cfg;
    seer_tile_config_init(&cfg);
    for (int t = 0; t < 2; t++) {
        cfg.colsb[t] = 64, cfg.rows[t] = (uint8_t)nr;
        cfg.colsb[2 + t] = 32, cfg.rows[2 + t] = (uint8_t)nr;
        cfg.colsb[4 + t] = 64, cfg.rows[4 + t] = 8;
    }
    seer_tile_config_use(&cfg);
    __m512 acc[SEER_Q8_PANEL_ROWS];
    for (int r = 0; r < SEER_Q8_PANEL_ROWS; r++) acc[r] = _mm512_setzero_ps();
    int32_t sums[2][SEER_Q8_PANEL_ROWS][16] __attribute__((aligned(64)));
    const block_q8_0x16 *g = (const block_q8_0x16 *)panel;
    if (n_blocks > 0) Q8_BLOCK_PRODUCT(0, 2, 4, 0);
    for (int64_t b = 0; b < n_blocks; b += 2) {
        if (b + 1 < n_blocks) Q8_BLOCK_PRODUCT(1, 3, 5, b + 1);
        _tile_stored(0, sums[0], 64);
        block_sums_into(acc, sums[0], b, panel, n_blocks, act_d, act_s, d_stride, nr, group);
        if (b + 1 < n_blocks) {
            if (b + 2 < n_blocks) Q8_BLOCK_PRODUCT(0, 2, 4, b + 2);
            _tile_stored(1, sums[1], 64);
            block_sums_into(acc, sums[1], b + 1, panel, n_blocks, act_d, act_s, d_stride, nr, group);
        }
    }
    for (int r = 0; r < nr; r++) _mm512_storeu_ps(out + 16 * r, acc[r]);
}
#undef Q8_BLOCK_PRODUCT

void seer_q8_panel_amx(int64_t n_blocks, const uint8_t *panel, const uint8_t *act, size_t act_stride,
                       const float *act_d, const float *act_s, size_t d_stride, int nr, float *out) {
    panel_amx(n_blocks, panel, act, act_stride, act_d, act_s, d_stride, nr, out, false);
}

void seer_q8_0_group_amx(int64_t n_blocks, const uint8_t *group, const uint8_t *act, size_t act_stride,
                         const float *act_d, const float *act_s, size_t d_stride, int nr, float *out) {
    (void)act_s;
    panel_amx(n_blocks, group, act, act_stride, act_d, NULL, d_stride, nr, out, true);
}
#else
bool seer_q8_panel_amx_supported(void) { return false; }
bool seer_q8_panel_amx_ready(void) { return false; }
bool seer_amx_bf16_ready(void) { return false; }
void seer_amx_tiles_release(void) {}

void seer_q8_panel_amx(int64_t n_blocks, const uint8_t *panel, const uint8_t *act, size_t act_stride,
                       const float *act_d, const float *act_s, size_t d_stride, int nr, float *out) {
    (void)n_blocks; (void)panel; (void)act; (void)act_stride; (void)act_d; (void)act_s; (void)d_stride; (void)nr;
    (void)out;
    abort(); /* never handed out: seer_q8_panel_amx_ready() is false */
}

void seer_q8_0_group_amx(int64_t n_blocks, const uint8_t *group, const uint8_t *act, size_t act_stride,
                         const float *act_d, const float *act_s, size_t d_stride, int nr, float *out) {
    seer_q8_panel_amx(n_blocks, group, act, act_stride, act_d, act_s, d_stride, nr, out);
}
#endif
