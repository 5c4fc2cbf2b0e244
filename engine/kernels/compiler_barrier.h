/* A compiler barrier for the kernels' register allocation. */
#ifndef SEER_COMPILER_BARRIER_H
#define SEER_COMPILER_BARRIER_H

/* Memory as the compiler sees it may have changed here: values loaded
 * before are loaded again after, not held in registers across it (where
 * holding them pushed a kernel's accumulators to the stack). No code. */
static inline void seer_compiler_barrier(void) { __asm__ volatile("" ::: "memory"); }

#endif
