/* Repacking of Q8_0 weight rows into the panels of the int8 GEMM. */
#include <string.h>

#include "kernels/gemm_q8_internal.h"
#include "seer/tensor.h"
#include "tensor/blocks.h"

void seer_q8_panel_pack(const void *w, size_t row_bytes, int64_t n_out, int64_t o0, int64_t n_blocks, uint8_t *panel) {
    const int R = SEER_Q8_PANEL_ROWS;
    uint8_t *q = panel;
    float *d = (float *)(panel + (size_t)n_blocks * 32 * R);
    int32_t *corr = (int32_t *)(panel + (size_t)n_blocks * 36 * R);
    for (int j = 0; j < R; j++) {
        int64_t o = o0 + j;
        const block_q8_0 *row = o < n_out ? (const block_q8_0 *)((const char *)w + (size_t)o * row_bytes) : NULL;
        for (int64_t b = 0; b < n_blocks; b++) {
            uint8_t *dst = q + b * 32 * R + 4 * j;
            if (!row) {
                for (int g = 0; g < 8; g++) memset(dst + 4 * R * g, 0, 4);
                d[b * R + j] = 0;
                corr[b * R + j] = 0;
                continue;
            }
            int sum = 0;
            for (int g = 0; g < 8; g++) memcpy(dst + 4 * R * g, row[b].qs + 4 * g, 4);
            for (int k = 0; k < 32; k++) sum += row[b].qs[k];
            d[b * R + j] = seer_fp16_to_f32(row[b].d);
            corr[b * R + j] = 128 * sum; /* activations carry +128 */
        }
    }
}
