/* The AVX2 kernels with AVX-VNNI (built with -mavxvnni; vec_dot_avx2.c says
 * how): chosen for the AVX2 level where the CPU has AVX-VNNI (seer/cpu.h). */
#define SEER_AVXVNNI_BUILD
#include "kernels/vec_dot_avx2.c"
