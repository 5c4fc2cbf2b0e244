/* The two inner loops of attention over the cache (q·k and out += p·v),
 * scalar and AVX2+FMA, picked once per context. */
#ifndef SEER_DECODER_ATTENTION_KERNELS_H
#define SEER_DECODER_ATTENTION_KERNELS_H

typedef float (*attn_dot_fn)(const float *a, const float *b, int n);
typedef void (*attn_axpy_fn)(float *y, float a, const float *x, int n);

typedef struct attn_kernels {
    attn_dot_fn dot;
    attn_axpy_fn axpy;
} attn_kernels;

/* The best kernels this CPU runs; the portable ones (tests compare them). */
attn_kernels attn_kernels_select(void);
attn_kernels attn_kernels_scalar(void);

#if defined(__x86_64__)
float attn_dot_avx2(const float *a, const float *b, int n);
void attn_axpy_avx2(float *y, float a, const float *x, int n);
#endif

#endif
