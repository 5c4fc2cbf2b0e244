/* Large buffers on 2 MiB pages. */
#include "seer/common.h"

#include <stdlib.h>
#include <sys/mman.h>

#define HUGE_PAGE ((size_t)2 << 20)

void *seer_huge_alloc(size_t bytes) {
    const size_t rounded = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    void *p = NULL;
    if (posix_memalign(&p, HUGE_PAGE, rounded ? rounded : HUGE_PAGE) != 0) return NULL;
#ifdef MADV_HUGEPAGE
    (void)madvise(p, rounded, MADV_HUGEPAGE); /* only a hint: the kernel may say no */
#endif
    return p;
}

void *seer_buffer_alloc(size_t bytes) {
    if (bytes >= HUGE_PAGE) return seer_huge_alloc(bytes);
    void *p = NULL;
    return posix_memalign(&p, 64, bytes ? bytes : 64) == 0 ? p : NULL;
}
