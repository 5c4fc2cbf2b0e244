/* Element-wise and row operations shared by decoders and vision encoders. */
#ifndef SEER_OPS_H
#define SEER_OPS_H

#include "seer/threadpool.h"

/* x[i] = x[i] / rms(x) * w[i] (w may be NULL) over rows of n. */
void seer_rmsnorm(float *x, const float *w, int64_t n_rows, int64_t n, float eps);
/* Σ x² over x[0, n), summed in double as the norms sum it (SIMD where the CPU has it). */
double seer_sum_squares(const float *x, int64_t n);
/* out = (x - mean)/sqrt(var + eps) * w + b (w, b may be NULL); in place if out == x. */
void seer_layernorm(const float *x, float *out, const float *w, const float *b, int64_t n_rows, int64_t n,
                    float eps);

void seer_silu(float *x, int64_t n);
void seer_gelu_tanh(float *x, int64_t n);   /* 0.5x(1+tanh(√(2/π)(x+0.044715x³))) */
void seer_gelu_erf(float *x, int64_t n);
void seer_quick_gelu(float *x, int64_t n);  /* x·σ(1.702x) */
/* a[i] = silu(a[i]) * b[i] */
void seer_swiglu(float *a, const float *b, int64_t n);
/* a[i] = gelu(a[i]) * b[i] as llama.cpp's CPU backend computes GeGLU: the
 * tanh GELU looked up by a[i] rounded to FP16, in a table of FP16 results
 * (exact below -10 and above 10). The decoders' FFN (Gemma 3) uses it:
 * its rounding, up to 2^-11 relative, moved whole logits by 4e-4 relative
 * against llama.cpp's on a 12-layer random model. */
void seer_geglu_f16(float *a, const float *b, int64_t n);
void seer_softmax(float *x, int64_t n);
/* x[i] = cap·tanh(x[i]/cap) (final logit soft-cap), SIMD where the CPU has it */
void seer_softcap(float *x, int64_t n, float cap);
void seer_add(float *dst, const float *src, int64_t n);
/* dst = a + b (dst may be a): a product's outputs and their bias written in one pass. */
void seer_add_into(float *dst, const float *a, const float *b, int64_t n);
/* dst[i] = w·src[i] (dst may be src) */
void seer_scale(float *dst, const float *src, float w, int64_t n);

/* Rotary embeddings on one head vector of size d (in place), position p.
 * normal: adjacent pairs (2i, 2i+1); neox: pairs (i, i+d/2).
 * theta_i = p * base^(-2i/n_rot); only the first n_rot dims rotate. */
void seer_rope_normal(float *x, int d, int n_rot, float pos, float base);
void seer_rope_neox(float *x, int d, int n_rot, float pos, float base);
/* Multi-section (Qwen2-VL M-RoPE, neox pairing): pair j uses pos[s] where s is
 * the section of j per sections[4] (in pairs); pos = {t, h, w, e}. */
void seer_rope_multi(float *x, int d, const int sections[4], const float pos[4], float base);

/* Table form for decoders (one table per position, reused for every head and
 * layer): cs[2i] = cos, cs[2i+1] = sin of pair i's angle, i < n_rot/2.
 * sections NULL: every pair uses pos[0]; otherwise as seer_rope_multi (pairs
 * beyond the first three sections use pos[3]). */
void seer_rope_table(float *cs, int n_rot, float base, const int sections[4], const float pos[4]);
/* The same with the sections interleaved (Qwen3-VL, ggml's IMROPE): pair k
 * of each sum(sections)-pair run takes h if k % 3 == 1 and k < 3·sections[1],
 * w if k % 3 == 2 and k < 3·sections[2], t if k % 3 == 0 and
 * k < 3·sections[0], else e (applied with neox pairing). */
void seer_rope_table_interleaved(float *cs, int n_rot, float base, const int sections[4], const float pos[4]);
/* seer_rope_table for one position with pair i's angle divided by
 * freq_div[i] (llama.cpp's rope frequency factors; 1e30 leaves a pair unrotated). */
void seer_rope_table_divided(float *cs, int n_rot, float base, const float *freq_div, float pos);
/* YaRN (llama.cpp's rope with ext_factor set): pair i's angle mixes the
 * interpolated angle (position ×freq_scale) and the original one by a ramp
 * that is 1 (original) for pairs below corr_lo and 0 above corr_hi; cos and
 * sin are then ×mscale. seer_rope_yarn_init takes the file's values:
 * the original context, beta_fast / beta_slow (where the ramp starts and
 * ends, in rotations over the original context) and attn_factor (llama.cpp's
 * yarn_attn_factor after its corrections, without the (1 + 0.1 ln factor)
 * that rope itself applies). */
typedef struct seer_rope_yarn {
    float freq_scale, ext_factor, mscale, corr_lo, corr_hi;
} seer_rope_yarn;
void seer_rope_yarn_init(seer_rope_yarn *y, int n_rot, int n_ctx_orig, float base, float freq_scale,
                         float ext_factor, float beta_fast, float beta_slow, float attn_factor);
/* One position's table (as seer_rope_table without sections) under YaRN,
 * angles divided by freq_div[i] first when freq_div is not NULL. */
void seer_rope_table_yarn(float *cs, int n_rot, float base, const seer_rope_yarn *y, const float *freq_div, float pos);
/* Rotates the first n_rot dims of one head with a table: adjacent pairs
 * (normal) or pairs (i, i + n_rot/2) (neox). */
void seer_rope_apply_normal(float *x, int n_rot, const float *cs);
void seer_rope_apply_neox(float *x, int n_rot, const float *cs);

#endif
