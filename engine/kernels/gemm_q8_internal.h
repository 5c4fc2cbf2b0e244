/* Int8 GEMM for Q8_0 weights (prefill): weights repacked in panels of 16
 * output rows so one VNNI instruction feeds 16 outputs at once. */
#ifndef SEER_GEMM_Q8_INTERNAL_H
#define SEER_GEMM_Q8_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#define SEER_Q8_PANEL_ROWS 16
/* Bytes of one repacked panel of 16 rows with n_blocks blocks of 32: per
 * block 8 vectors of 64 bytes (vector g: bytes 4g..4g+3 of each row), then
 * 16 float scales and 16 int32 corrections per block. */
#define SEER_Q8_PANEL_BYTES(n_blocks) ((size_t)(n_blocks) * (512 + 64 + 64))

/* Repacks rows [o0, o0+16) of a Q8_0 matrix (rows past n_out become zero)
 * into `panel` (64-byte aligned). */
void seer_q8_panel_pack(const void *w, size_t row_bytes, int64_t n_out, int64_t o0, int64_t n_blocks, uint8_t *panel);

/* out[r*16 + j] = Σ over blocks of the Q8_0 dot product of panel row j and
 * activation row r, for r < nr (1..4). Activations are unsigned bytes
 * q+128 (row stride act_stride) with float block scales act_d (row stride
 * d_stride). */
typedef void (*seer_q8_panel_fn)(int64_t n_blocks, const uint8_t *panel, const uint8_t *act, size_t act_stride,
                                 const float *act_d, size_t d_stride, int nr, float *out);

/* The kernel for this CPU, or NULL (no VNNI, or scalar forced): then the
 * caller uses the dequantize + sgemm path. */
seer_q8_panel_fn seer_q8_panel_get(void);
/* Always present when the CPU can run it, whatever the scalar switch (tests). */
seer_q8_panel_fn seer_q8_panel_kernel(void);

/* The AVX-512 VNNI kernel and whether this build has it (internal). */
void seer_q8_panel_avx512(int64_t n_blocks, const uint8_t *panel, const uint8_t *act, size_t act_stride,
                          const float *act_d, size_t d_stride, int nr, float *out);
/* Two panels at once (sharing activation broadcasts); same results as two
 * calls of the one-panel kernel. */
void seer_q8_panel2_avx512(int64_t n_blocks, const uint8_t *panel0, const uint8_t *panel1, const uint8_t *act,
                           size_t act_stride, const float *act_d, size_t d_stride, int nr, float *out0, float *out1);
#include <stdbool.h>
bool seer_q8_panel_avx512_built(void);

#endif
