/* Weight quantizers that reproduce llama-quantize's bytes (no importance
 * matrix), and the choice of each tensor's type. */
#ifndef SEER_QUANT_INTERNAL_H
#define SEER_QUANT_INTERNAL_H

#include <stdint.h>

#include "seer/gguf.h"

void seer_quant_q8_0(const float *x, void *dst, int64_t n);
void seer_quant_q4_1(const float *x, void *dst, int64_t n);
void seer_quant_q5_1(const float *x, void *dst, int64_t n);
void seer_quant_q2_K(const float *x, void *dst, int64_t n);
void seer_quant_q3_K(const float *x, void *dst, int64_t n);
void seer_quant_q4_K(const float *x, void *dst, int64_t n);
void seer_quant_q5_K(const float *x, void *dst, int64_t n);
void seer_quant_q6_K(const float *x, void *dst, int64_t n);

#endif
