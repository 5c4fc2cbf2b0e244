/* A compiler barrier for the kernels' register allocation. */
#ifndef SEER_COMPILER_BARRIER_H
#define SEER_COMPILER_BARRIER_H

/* Memory as the compiler sees it may have changed here: values loaded
 * before are loaded again after, not held in registers across it (where
 * holding them pushed a kernel's accumulators to the stack). No code. */
static inline void seer_compiler_barrier(void) { __asm__ volatile("" ::: "memory"); }

/* v is a vector register's value here that the compiler knows nothing
 * about, so each instruction using it reads the register: without it GCC
 * 12 folds the vector's load into every instruction that uses it, one
 * 64-byte load per use (the AVX-512 decode kernels split each weight
 * vector two to four ways: Q4_K's nibbles, Q6_K's and Q2_K's runs). One
 * load each made them faster: one Zen 4 core, CPU time, eight 16-row
 * groups of 4096 in L2, the one-row kernels of both builds alternated in
 * one process, GB/s of weights, Q4_K 47-60 -> 49-73, Q6_K 47-54 -> 51-60,
 * Q2_K 23-27 -> 25-29; Q5_K, Q3_K and several rows level. Whole-model
 * decode there was level: bound by the memory. It emits no instruction. */
#if defined(__x86_64__)
#define SEER_IN_REGISTER(v) __asm__("" : "+v"(v))
#endif

#endif
