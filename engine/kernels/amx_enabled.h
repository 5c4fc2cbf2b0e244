/* Whether this translation unit was built with the AMX instructions: GCC
 * spells the macros __AMX_TILE__ / __AMX_INT8__ / __AMX_BF16__, clang 14
 * __AMXTILE__ / __AMXINT8__ / __AMXBF16__. Testing only GCC's left every
 * tile kernel out of a clang build (the sanitized tier among them). The
 * tiles also need Linux's permission call (amx_request in gemm_q8_amx.c). */
#ifndef SEER_KERNELS_AMX_ENABLED_H
#define SEER_KERNELS_AMX_ENABLED_H

#if defined(__x86_64__) && defined(__linux__) && (defined(__AMX_TILE__) || defined(__AMXTILE__))
#if defined(__AMX_INT8__) || defined(__AMXINT8__)
#define SEER_AMX_INT8_BUILT 1
#endif
#if defined(__AMX_BF16__) || defined(__AMXBF16__)
#define SEER_AMX_BF16_BUILT 1
#endif
#endif

#endif
