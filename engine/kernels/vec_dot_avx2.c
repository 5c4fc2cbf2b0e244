/* AVX2/FMA/F16C dot products (built with -mavx2 -mfma -mf16c). */
#include "kernels/vec_dot_internal.h"

#if defined(__x86_64__) && defined(__AVX2__)
void seer_vec_dot_fill_avx2(seer_vec_dot_fn t[SEER_TYPE_COUNT]) { (void)t; }
#else
void seer_vec_dot_fill_avx2(seer_vec_dot_fn t[SEER_TYPE_COUNT]) { (void)t; }
#endif
