/* Denormals flushed to zero in the engine's threads (denormals.h). */
#include "threads/denormals.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
enum { MXCSR_DAZ = 1u << 6, MXCSR_FTZ = 1u << 15 };

uint64_t seer_denormals_flush(void) {
    const unsigned mode = _mm_getcsr();
    if ((mode & (MXCSR_DAZ | MXCSR_FTZ)) != (MXCSR_DAZ | MXCSR_FTZ)) _mm_setcsr(mode | MXCSR_DAZ | MXCSR_FTZ);
    return mode;
}

void seer_denormals_restore(uint64_t mode) {
    if (_mm_getcsr() != (unsigned)mode) _mm_setcsr((unsigned)mode);
}
#elif defined(__aarch64__)
#define FPCR_FZ (UINT64_C(1) << 24)

static uint64_t fpcr_get(void) {
    uint64_t v;
    __asm__ __volatile__("mrs %0, fpcr" : "=r"(v));
    return v;
}

static void fpcr_set(uint64_t v) { __asm__ __volatile__("msr fpcr, %0" : : "r"(v)); }

uint64_t seer_denormals_flush(void) {
    const uint64_t mode = fpcr_get();
    if (!(mode & FPCR_FZ)) fpcr_set(mode | FPCR_FZ);
    return mode;
}

void seer_denormals_restore(uint64_t mode) {
    if (fpcr_get() != mode) fpcr_set(mode);
}
#else
uint64_t seer_denormals_flush(void) { return 0; }
void seer_denormals_restore(uint64_t mode) { (void)mode; }
#endif
