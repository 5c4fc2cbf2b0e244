/* The decoders' GeGLU with llama.cpp's FP16 GELU table (seer_geglu_f16):
 * the table, and the x86 kernel that looks it up eight values at a time. */
#ifndef SEER_GEGLU_F16_H
#define SEER_GEGLU_F16_H

#include <stdint.h>

/* GELU of every FP16 value (by its bits), rounded to FP16; one entry more,
 * 0, so that a 32-bit gather at any index stays inside. */
#define SEER_GELU_F16_ENTRIES ((1 << 16) + 1)

/* Elements [0, n rounded down to 8) of seer_geglu_f16 with AVX2 and F16C
 * (the same floats as its scalar steps); returns how many it did. */
int64_t seer_geglu_f16_avx2(float *a, const float *b, int64_t n, const uint16_t *table);

#endif
