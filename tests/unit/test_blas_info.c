/* seer/blas.h: OpenBLAS's kernel set named as it reports it, and the warning
 * when it is narrower than the CPU's vectors (the case of a machine that sets
 * OPENBLAS_CORETYPE=Haswell on an AVX-512 CPU). */
#include <stdio.h>
#include <string.h>

#include "seer/blas.h"
#include "testlib.h"

int main(void) {
    CHECK(seer_blas_core_vector_bits("Haswell") == 256);
    CHECK(seer_blas_core_vector_bits("haswell") == 256); /* OPENBLAS_CORETYPE is case-insensitive too */
    CHECK(seer_blas_core_vector_bits("Cooperlake") == 512);
    CHECK(seer_blas_core_vector_bits("SkylakeX") == 512);
    CHECK(seer_blas_core_vector_bits("Prescott") == 128);
    CHECK(seer_blas_core_vector_bits("ARMV8") == 0);
    CHECK(seer_blas_core_vector_bits(NULL) == 0);

    char buf[256];
    seer_blas_info narrow = {.core = "Haswell", .threads = 2, .vector_bits = 256, .cpu_vector_bits = 512};
    CHECK(seer_blas_narrower_warning(&narrow, buf, sizeof buf) == 1);
    CHECK(strstr(buf, "Haswell") && strstr(buf, "256-bit") && strstr(buf, "512-bit") && !strchr(buf, '\n'));
    seer_blas_info same = {.core = "SkylakeX", .threads = 2, .vector_bits = 512, .cpu_vector_bits = 512};
    CHECK(seer_blas_narrower_warning(&same, buf, sizeof buf) == 0 && buf[0] == 0);
    seer_blas_info unknown = {.core = "ARMV8", .threads = 1, .vector_bits = 0, .cpu_vector_bits = 0};
    CHECK(seer_blas_narrower_warning(&unknown, buf, sizeof buf) == 0);

    /* What this process's OpenBLAS reports: a name, at least one thread, and
     * on x86-64 the CPU's width and a known width for the name it chose. */
    const seer_blas_info here = seer_blas_describe();
    CHECK(here.core && here.core[0] && here.threads >= 1);
#if defined(__x86_64__)
    CHECK(here.cpu_vector_bits >= 128);
    CHECK_MSG(here.vector_bits > 0, "OpenBLAS core '%s' has no known width", here.core);
#endif
    printf("OpenBLAS %s (%d-bit), CPU %d-bit, %d threads\n", here.core, here.vector_bits, here.cpu_vector_bits,
           here.threads);
    TEST_MAIN_END();
}
