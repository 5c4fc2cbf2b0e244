/* PLACEHOLDER so the tree links while this area is being written: delete this
 * file function by function as the real implementations land. */
#include <stddef.h>
#include "seer/threadpool.h"
#pragma GCC diagnostic ignored "-Wunused-parameter"
seer_pool *seer_pool_create(int n_threads) { return NULL; }
void seer_pool_destroy(seer_pool *p) {  }
int seer_pool_size(const seer_pool *p) { return -1; }
void seer_pool_run(seer_pool *p, seer_task_fn fn, void *ctx) {  }
void seer_pool_range(int64_t n, int ith, int nth, int64_t *begin, int64_t *end) {  }
int seer_cpu_count(void) { return -1; }
