/* One row of the gated delta rule for one value head of Qwen3.5's Gated
 * DeltaNet, in place on the head's d×d F32 state S (rows: key dims,
 * columns: value dims), scalar, AVX2+FMA and AVX-512, picked once per
 * context. With decay = e^g it computes
 *   u = beta·(v − decay·Sᵀk),  o = decay·Sᵀq + (q·k)·u,  S ← decay·S + k·uᵀ,
 * which is the recurrence S ← decay·S; u = beta·(v − Sᵀk); S ← S + k·uᵀ;
 * o = Sᵀq rearranged so that S is read twice and written once per row
 * (not read and written twice). Each value column depends on its own
 * column of S only, so the SIMD versions take a block of columns through
 * both passes while it sits in L1. */
#ifndef SEER_DECODER_DELTA_STEP_H
#define SEER_DECODER_DELTA_STEP_H

/* u: d floats of scratch (it ends holding u); o: the d outputs. */
typedef void (*delta_step_fn)(float *S, int d, const float *q, const float *k, const float *v, float decay,
                              float beta, float *o, float *u);

/* The step of a SIMD level (SEER_SIMD_*; the CPU must have it), and the
 * one of the level this process uses. */
delta_step_fn delta_step_for(int level);
delta_step_fn delta_step_select(void);

void delta_step_scalar(float *S, int d, const float *q, const float *k, const float *v, float decay, float beta,
                       float *o, float *u);
#if defined(__x86_64__)
void delta_step_avx2(float *S, int d, const float *q, const float *k, const float *v, float decay, float beta,
                     float *o, float *u);
void delta_step_avx512(float *S, int d, const float *q, const float *k, const float *v, float decay, float beta,
                       float *o, float *u);
#endif

#endif
