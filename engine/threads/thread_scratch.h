/* Scratch buffers of the calling thread, in the pool's slots
 * (pool_scratch.h), for kernels run without a pool: grown on first use,
 * reused afterwards, freed when the thread exits. The previous contents
 * are not preserved when a buffer grows. NULL on allocation failure. */
#ifndef SEER_THREAD_SCRATCH_H
#define SEER_THREAD_SCRATCH_H

#include <stddef.h>

#include "threads/pool_scratch.h"

void *seer_thread_scratch_get(int slot, size_t bytes);

#endif
