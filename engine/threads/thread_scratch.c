/* The pool's scratch slots (pool_scratch.h) for work done on one thread
 * without a pool: a mixture of experts' prompt gives each expert to one
 * thread, whose products (seer_matmul without a pool) took their working
 * memory from the heap on every call. Freed and asked for again thousands
 * of times a prompt, those buffers came back as fresh pages: `seer bench`
 * of a Qwen3.5 35B-A3B layout, 512-token prompts, two threads: 796k page
 * faults against 54k, 115.7 tok/s against 134.3 with each expert's
 * products split over the pool. Here each thread keeps its buffers, grown
 * on first use, freed when the thread ends (then 54k faults, 141-144
 * tok/s). */
#include "threads/thread_scratch.h"

#include <pthread.h>
#include <stdlib.h>

static pthread_key_t key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

static void free_slots(void *p) {
    seer_pool_scratch *slots = p;
    for (int i = 0; i < SEER_POOL_SCRATCH_SLOTS; i++) free(slots[i].data);
    free(slots);
}

static void make_key(void) { (void)pthread_key_create(&key, free_slots); }

void *seer_thread_scratch_get(int slot, size_t bytes) {
    if (slot < 0 || slot >= SEER_POOL_SCRATCH_SLOTS || pthread_once(&key_once, make_key) != 0) return NULL;
    seer_pool_scratch *slots = pthread_getspecific(key);
    if (!slots) {
        slots = calloc(SEER_POOL_SCRATCH_SLOTS, sizeof *slots);
        if (!slots || pthread_setspecific(key, slots) != 0) {
            free(slots);
            return NULL;
        }
    }
    return seer_scratch_slot_get(&slots[slot], bytes);
}
