/* AVX-512 (BW/VL/DQ/VNNI) dot products. */
#include "kernels/vec_dot_internal.h"

#if defined(__x86_64__) && defined(__AVX512F__)
void seer_vec_dot_fill_avx512(seer_vec_dot_fn t[SEER_TYPE_COUNT]) { (void)t; }
#else
void seer_vec_dot_fill_avx512(seer_vec_dot_fn t[SEER_TYPE_COUNT]) { (void)t; }
#endif
