/* The FP32 GEMM's kernel choice, weight packing and scalar block
 * (gemm_f32_internal.h; the vector blocks are in gemm_f32_<isa>.c). */
#include "kernels/gemm_f32_internal.h"

#include <stdlib.h>
#include <string.h>

#include "kernels/prefetch.h"
#include "seer/cpu.h"
#include "seer/matmul.h"
#include "seer/ops.h"
#include "seer/tensor.h"

/* The scalar block: 4 rows × 1 panel, the same source as the vector ones
 * (no FMA contraction at -std=c11: a multiply then an add, as a CPU
 * without FMA does). */
#define VEC float
#define LANES 1
#define VZERO() 0.0f
#define VLOAD(p) (*(p))
#define VSTORE(p, v) (*(p) = (v))
#define VBCAST(p) (*(p))
#define VFMA(acc, a, b) ((acc) + (a) * (b))
#define VADD(a, b) ((a) + (b))
#define ROWS 4
#define PANELS 1
#define BLOCK_FN seer_f32_block_scalar
#include "kernels/gemm_f32_block.inc"

/* The K slice: a quarter of L2 for a block of panels (SEER_F32_PANEL_COLS
 * floats per panel and K value), whole runs of SEER_F32_KC_SUM. */
static int64_t slice_for(int panels) {
    int64_t kc = seer_cpu_l2_bytes() / 4 / (panels * SEER_F32_PANEL_COLS * (int64_t)sizeof(float)) / SEER_F32_KC_SUM *
                 SEER_F32_KC_SUM;
    return kc < SEER_F32_KC_SUM ? SEER_F32_KC_SUM : kc > 8192 ? 8192 : kc;
}

static seer_f32_kernel kernel(seer_f32_block_fn block, int rows, int panels, const char *name) {
    return (seer_f32_kernel){block, rows, panels, name, slice_for(panels), 4 * rows};
}

seer_f32_kernel seer_f32_kernel_get(void) {
    const int level = seer_simd_level();
#if defined(__x86_64__)
    if (level >= SEER_SIMD_AVX512) return kernel(seer_f32_block_avx512, 6, 4, "avx512 6x64");
    if (level >= SEER_SIMD_AVX2) return kernel(seer_f32_block_avx2, 6, 1, "avx2 6x16");
#elif defined(__aarch64__)
    if (level >= SEER_SIMD_NEON) return kernel(seer_f32_block_neon, 6, 1, "neon 6x16");
#endif
    (void)level;
    return kernel(seer_f32_block_scalar, 4, 1, "scalar 4x16");
}

seer_f32_transpose_fn seer_f32_transpose16_get(void) {
#if defined(__x86_64__)
    if (seer_simd_level() >= SEER_SIMD_AVX512) return seer_f32_transpose16_avx512;
    if (seer_simd_level() >= SEER_SIMD_AVX2) return seer_f32_transpose16_avx2;
#endif
    return NULL;
}

void seer_f32_panel_pack(const seer_weight *w, int64_t o0, float *panel, float *tmp) {
    static const float zeros[SEER_F32_PANEL_COLS];
    const int64_t n_in = w->n_in;
    const seer_f32_transpose_fn transpose16 = seer_f32_transpose16_get();
    /* F16 in place only where the vector transpose converts it */
    const bool in_place = !w->interleaved && (w->type == SEER_TYPE_F32 || (w->type == SEER_TYPE_F16 && transpose16));
    const bool f16 = in_place && w->type == SEER_TYPE_F16;
    const char *rows[SEER_F32_PANEL_COLS];
    for (int c = 0; c < SEER_F32_PANEL_COLS; c++) {
        rows[c] = NULL;
        if (o0 + c >= w->n_out) continue;
        if (in_place) {
            rows[c] = (const char *)w->data + (size_t)(o0 + c) * w->row_bytes;
        } else {
            seer_weight_get_row(w, o0 + c, tmp + (size_t)c * (size_t)n_in);
            rows[c] = (const char *)(tmp + (size_t)c * (size_t)n_in);
        }
    }
    const size_t elt = f16 ? sizeof(uint16_t) : sizeof(float);
    int64_t k0 = 0;
    if (transpose16)
        for (; k0 + 16 <= n_in; k0 += 16) {
            const void *src[SEER_F32_PANEL_COLS];
            for (int c = 0; c < SEER_F32_PANEL_COLS; c++) src[c] = rows[c] ? rows[c] + (size_t)k0 * elt : (const void *)zeros;
            seer_prefetch_rows_ahead((const void *const *)rows, (size_t)k0 * elt, 16 * elt);
            transpose16(src, f16, panel + SEER_F32_PANEL_COLS * k0);
        }
    /* 16 × 16 blocks: the 1 KiB of panel written stays in L1 */
    for (; k0 < n_in; k0 += 16) {
        const int64_t kn = n_in - k0 < 16 ? n_in - k0 : 16;
        float *dst = panel + SEER_F32_PANEL_COLS * k0;
        for (int c = 0; c < SEER_F32_PANEL_COLS; c++)
            for (int64_t k = 0; k < kn; k++) {
                float v = 0.0f;
                if (rows[c] && f16) v = seer_fp16_to_f32(((const uint16_t *)rows[c])[k0 + k]);
                else if (rows[c]) v = ((const float *)rows[c])[k0 + k];
                dst[SEER_F32_PANEL_COLS * k + c] = v;
            }
    }
}

void seer_f32_block_runs(const seer_f32_kernel *kern, int64_t kc, const float *a, size_t lda, int nr,
                         const float *panel, size_t panel_stride, int np, float *c, size_t ldc, int64_t cols, bool add,
                         const float *bias) {
    float buf[SEER_F32_MAX_ROWS * SEER_F32_MAX_PANELS * SEER_F32_PANEL_COLS];
    const size_t ldb = SEER_F32_MAX_PANELS * SEER_F32_PANEL_COLS;
    /* A block as wide as the kernel writes takes its last run straight to
     * c, the bias joining the sum in the kernel's registers, not copied
     * out of the buffer afterwards with the bias added by a pass of
     * 128-bit vectors (those two were 4.5% of a SmolVLM encode's samples
     * at two threads). */
    const bool whole = cols == SEER_F32_PANEL_COLS * np;
    const float *prev = NULL;
    size_t ldp = 0;
    if (add && whole) {
        prev = c, ldp = ldc;
    } else if (add) {
        memset(buf, 0, sizeof buf); /* the columns past cols: not garbage */
        for (int r = 0; r < nr; r++) memcpy(buf + r * ldb, c + r * ldc, (size_t)cols * sizeof(float));
        prev = buf, ldp = ldb;
    }
    for (int64_t k = 0; k < kc; k += SEER_F32_KC_SUM) {
        const int64_t kn = kc - k < SEER_F32_KC_SUM ? kc - k : SEER_F32_KC_SUM;
        const float *run = a + k, *run_panel = panel + SEER_F32_PANEL_COLS * k;
        if (whole && k + kn == kc) {
            kern->block(kn, run, lda, nr, run_panel, panel_stride, np, c, ldc, prev, ldp, bias);
            return;
        }
        kern->block(kn, run, lda, nr, run_panel, panel_stride, np, buf, ldb, prev, ldp, NULL);
        prev = buf, ldp = ldb;
    }
    /* The bias joins the outputs on their way out of the buffer (a pass of
     * its own read every output back from memory: 3.6% of a SmolVLM
     * encode) */
    for (int r = 0; r < nr; r++) {
        if (bias) seer_add_into(c + r * ldc, buf + r * ldb, bias, cols);
        else memcpy(c + r * ldc, buf + r * ldb, (size_t)cols * sizeof(float));
    }
}
