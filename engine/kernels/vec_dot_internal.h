/* Per-type dot-product kernels and the SIMD levels that provide them. */
#ifndef SEER_VEC_DOT_INTERNAL_H
#define SEER_VEC_DOT_INTERNAL_H

#include "kernels/compiler_barrier.h"
#include "kernels/interleave_internal.h"
#include "seer/cpu.h"
#include "seer/tensor.h"

/* Dot of n elements: a weight row of the kernel's type with an activation
 * row of its vec_dot type. */
typedef float (*seer_vec_dot_fn)(int64_t n, const void *w, const void *a);

/* Four dots of one weight row with four activation rows `stride` bytes
 * apart; bit-identical to four calls of the one-row kernel of that level. */
typedef void (*seer_vec_dot4_fn)(int64_t n, const void *w, const void *a, size_t stride, float out[4]);

/* Fill table[type] (one row), table4[type] (four activation rows) and
 * table16[type] (16 interleaved weight rows, interleave_internal.h) for the
 * types a level implements (others untouched). */
/* A Q6_K super-block's 256 quants as signed values q − 32, a Q3_K's as
 * −4..3, a Q2_K's as 0..3 (the scalar kernels' unpacking, shared with the
 * int8 GEMM's packing). */
void seer_unpack_q6_K(const block_q6_K *b, int8_t q[256]);
void seer_unpack_q3_K(const block_q3_K *b, int8_t q[256]);
void seer_unpack_q2_K(const block_q2_K *b, int8_t q[256]);

void seer_vec_dot_fill_scalar(seer_vec_dot_fn table[SEER_TYPE_COUNT], seer_vec_dot16_fn table16[SEER_TYPE_COUNT]);
/* The shared x86 kernels (vec_dot_x86.inc) of each build: plain AVX2,
 * AVX2 with AVX-VNNI (VEX), and the AVX-512 build's 256-bit ones (EVEX
 * VPDPBUSD: the AVX-VNNI build's code, run where only AVX-512 VNNI is). */
void seer_x86_fill_avx2(seer_vec_dot_fn table[SEER_TYPE_COUNT], seer_vec_dot4_fn table4[SEER_TYPE_COUNT],
                        seer_vec_dot16_fn table16[SEER_TYPE_COUNT]);
void seer_x86_fill_avxvnni(seer_vec_dot_fn table[SEER_TYPE_COUNT], seer_vec_dot4_fn table4[SEER_TYPE_COUNT],
                           seer_vec_dot16_fn table16[SEER_TYPE_COUNT]);
void seer_x86_fill_avx512(seer_vec_dot_fn table[SEER_TYPE_COUNT], seer_vec_dot4_fn table4[SEER_TYPE_COUNT],
                          seer_vec_dot16_fn table16[SEER_TYPE_COUNT]);
seer_vec_dot16_rows_fn seer_x86_dot16_rows_avx2(int type);
seer_vec_dot16_rows_fn seer_x86_dot16_rows_avxvnni(int type);
seer_vec_dot16_rows_fn seer_x86_dot16_rows_avx512(int type);
/* The AVX-512 level: the AVX-512 build's 256-bit kernels, then its 512-bit ones. */
void seer_vec_dot_fill_avx512(seer_vec_dot_fn table[SEER_TYPE_COUNT], seer_vec_dot4_fn table4[SEER_TYPE_COUNT],
                              seer_vec_dot16_fn table16[SEER_TYPE_COUNT]);
/* aarch64's level 1 (NEON with dotprod, seer/cpu.h). */
void seer_vec_dot_fill_neon(seer_vec_dot_fn table[SEER_TYPE_COUNT], seer_vec_dot4_fn table4[SEER_TYPE_COUNT],
                            seer_vec_dot16_fn table16[SEER_TYPE_COUNT]);

/* rows(n, w, a, act_stride, nr, out): a seer_vec_dot16_rows_fn calling
 * the several-row kernel xn with nr (1..4) as a constant, so that its
 * per-row registers stay registers (prompts without AMX; x86 and NEON). */
#define DOT16_ROWS(rows, xn)                                                                                      \
    static void rows(int64_t n, const void *w, const void *a, size_t act_stride, int nr, float *out) {            \
        switch (nr) {                                                                                             \
        case 4: xn(n, w, a, act_stride, 4, out); break;                                                           \
        case 3: xn(n, w, a, act_stride, 3, out); break;                                                           \
        case 2: xn(n, w, a, act_stride, 2, out); break;                                                           \
        default: xn(n, w, a, act_stride, 1, out); break;                                                          \
        }                                                                                                         \
    }
/* The same for a kernel taking up to 6 rows (seer_vec_dot16_rows_most),
 * each row count its own function: in one function with the six-row
 * cases, GCC's registers for all of them made the one-row case (decode)
 * slower (Qwen2.5-VL-3B Q4_K_M, one Zen 5 core: the Q4_K kernel's samples
 * for the same tokens 16.8-16.9 k -> 18.9-20.6 k). */
#define DOT16_ROWS6_AT(rows, xn, NR)                                                                              \
    static __attribute__((noinline)) void rows##_##NR(int64_t n, const void *w, const void *a, size_t act_stride, \
                                                      float *out) {                                               \
        xn(n, w, a, act_stride, NR, out);                                                                         \
    }
#define DOT16_ROWS6(rows, xn)                                                                                     \
    DOT16_ROWS6_AT(rows, xn, 1)                                                                                   \
    DOT16_ROWS6_AT(rows, xn, 2)                                                                                   \
    DOT16_ROWS6_AT(rows, xn, 3)                                                                                   \
    DOT16_ROWS6_AT(rows, xn, 4)                                                                                   \
    DOT16_ROWS6_AT(rows, xn, 5)                                                                                   \
    DOT16_ROWS6_AT(rows, xn, 6)                                                                                   \
    static void rows(int64_t n, const void *w, const void *a, size_t act_stride, int nr, float *out) {            \
        static void (*const at[7])(int64_t, const void *, const void *, size_t, float *) = {                      \
            rows##_1, rows##_1, rows##_2, rows##_3, rows##_4, rows##_5, rows##_6};                                \
        at[nr >= 1 && nr <= 6 ? nr : 1](n, w, a, act_stride, out);                                                \
    }

/* The one-row kernel one (decode, a seer_vec_dot16_fn) and the several-row
 * kernel rows of the same several-row template xn (..._ROWS6: up to 6). */
#define DOT16_ONE(one, xn)                                                                                        \
    static void one(int64_t n, const void *w, const void *a, float out[SEER_ILV_ROWS]) {                          \
        xn(n, w, a, 0, 1, out);                                                                                   \
    }
#define DOT16_ONE_AND_ROWS(one, rows, xn) DOT16_ONE(one, xn) DOT16_ROWS(rows, xn)
#define DOT16_ONE_AND_ROWS6(one, rows, xn) DOT16_ONE(one, xn) DOT16_ROWS6(rows, xn)

/* The kernel seer_vec_dot would use for `type` right now (honours
 * seer_simd_level); never NULL for a valid type. */
seer_vec_dot_fn seer_vec_dot_get(int type);
/* The four-row kernel matching seer_vec_dot_get(type), or NULL if none. */
seer_vec_dot4_fn seer_vec_dot4_get(int type);
/* The four-row kernel of a level (NULL when absent). */
seer_vec_dot4_fn seer_vec_dot4_kernel(int level, int type);

/* The kernel of `level` for `type`, or NULL when this CPU (or SEER_SIMD) lacks
 * the level. Levels fall back to scalar for types they do not implement. */
seer_vec_dot_fn seer_vec_dot_kernel(int level, int type);

#endif
