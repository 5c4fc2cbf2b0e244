/* The engine's threads treat denormal floats as zero, in and out (x86:
 * MXCSR's FTZ and DAZ; aarch64: FPCR.FZ). An x86 core takes a microcode
 * assist of a hundred cycles or more for each operation that reads or
 * makes one, and attention makes many: a softmax over scores that span
 * more than ~87 (Gemma 4 scales its scores by 1, its keys up to 512
 * wide) leaves most probabilities below 2^-126, and the product with the
 * values reads every one of them. A 512-token prompt of Gemma 4 E4B on an
 * Intel core: 112-119 -> 160-167 tok/s. What is lost is below 1.2e-38,
 * where no result of the engine can see it. */
#ifndef SEER_THREADS_DENORMALS_H
#define SEER_THREADS_DENORMALS_H

#include <stdint.h>

/* Sets this thread to flush denormals and returns its previous mode. */
uint64_t seer_denormals_flush(void);
/* Puts back a mode seer_denormals_flush returned. */
void seer_denormals_restore(uint64_t mode);

#endif
