/* Which kernel set OpenBLAS chose, and whether it is narrower than the CPU
 * (seer/blas.h). */
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "seer/blas.h"

/* OpenBLAS's own queries (cblas.h declares them only in some packagings). */
char *openblas_get_corename(void);
int openblas_get_num_threads(void);

int seer_blas_core_vector_bits(const char *core) {
    static const struct {
        const char *name;
        int bits;
    } widths[] = {
        {"SkylakeX", 512},   {"Cooperlake", 512},  {"SapphireRapids", 512}, {"Haswell", 256},
        {"Zen", 256},        {"Sandybridge", 256}, {"Excavator", 256},      {"Steamroller", 256},
        {"Piledriver", 256}, {"Bulldozer", 256},   {"Prescott", 128},       {"Nehalem", 128},
        {"Core2", 128},      {"Penryn", 128},      {"Dunnington", 128},     {"Atom", 128},
        {"Barcelona", 128},  {"Opteron", 128},     {"Opteron_SSE3", 128},   {"Nano", 128},
    };
    if (!core) return 0;
    for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++)
        if (strcasecmp(core, widths[i].name) == 0) return widths[i].bits;
    return 0;
}

static int cpu_vector_bits(void) {
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) return 512;
    if (__builtin_cpu_supports("avx2")) return 256;
    return 128;
#else
    return 0;
#endif
}

seer_blas_info seer_blas_describe(void) {
    seer_blas_info b = {.core = openblas_get_corename(), .threads = openblas_get_num_threads()};
    if (!b.core) b.core = "unknown";
    b.vector_bits = seer_blas_core_vector_bits(b.core);
    b.cpu_vector_bits = cpu_vector_bits();
    return b;
}

void seer_blas_format(const seer_blas_info *b, char *buf, size_t cap) {
    char bits[16] = "";
    if (b->vector_bits) snprintf(bits, sizeof bits, " (%d-bit)", b->vector_bits);
    snprintf(buf, cap, "OpenBLAS %s%s, %d BLAS thread%s", b->core, bits, b->threads, b->threads == 1 ? "" : "s");
}

int seer_blas_narrower_warning(const seer_blas_info *b, char *buf, size_t cap) {
    if (cap) buf[0] = 0;
    if (!b->vector_bits || !b->cpu_vector_bits || b->vector_bits >= b->cpu_vector_bits) return 0;
    snprintf(buf, cap,
             "warning: OpenBLAS runs its %s kernels (%d-bit) on a CPU with %d-bit vectors%s: seer's own kernels "
             "do not use OpenBLAS, but `seer bench`'s OpenBLAS f32 GEMM figure is lower than this CPU allows",
             b->core, b->vector_bits, b->cpu_vector_bits,
             getenv("OPENBLAS_CORETYPE") ? " (OPENBLAS_CORETYPE is set)" : "");
    return 1;
}
