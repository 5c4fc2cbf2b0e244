/* The decoders' GeGLU as llama.cpp's CPU backend computes it: GELU (tanh
 * form) looked up in a table of every FP16 value, the input rounded to
 * FP16 first, the result rounded to FP16; exactly 0 at x <= -10 and x
 * itself at x >= 10 (then times b). */
#include <math.h>
#include <pthread.h>

#include "ops/exp_kernels.h"
#include "ops/geglu_f16.h"
#include "seer/cpu.h"
#include "seer/ops.h"
#include "seer/tensor.h"

static uint16_t gelu_f16_table[SEER_GELU_F16_ENTRIES];
static pthread_once_t gelu_f16_once = PTHREAD_ONCE_INIT;

/* as ggml builds its table: tanh form in float */
static void gelu_f16_fill(void) {
    for (int i = 0; i < 1 << 16; i++) {
        const float x = seer_fp16_to_f32((uint16_t)i);
        gelu_f16_table[i] = seer_f32_to_fp16(0.5f * x * (1.0f + tanhf(SEER_GELU_K * x * (1.0f + 0.044715f * x * x))));
    }
}

/* In chunks: the row conversions to and from FP16 have SIMD versions. */
static void geglu_f16_rows(float *a, const float *b, int64_t n) {
    enum { CHUNK = 256 };
    uint16_t h[CHUNK];
    float g[CHUNK];
    for (int64_t i0 = 0; i0 < n; i0 += CHUNK) {
        const int64_t m = n - i0 < CHUNK ? n - i0 : CHUNK;
        seer_quantize_row(SEER_TYPE_F16, a + i0, h, m);
        for (int64_t k = 0; k < m; k++) h[k] = gelu_f16_table[h[k]];
        seer_dequantize_row(SEER_TYPE_F16, h, g, m);
        for (int64_t k = 0; k < m; k++) {
            const float x = a[i0 + k];
            a[i0 + k] = x <= -10.0f ? 0.0f : x >= 10.0f ? x * b[i0 + k] : g[k] * b[i0 + k];
        }
    }
}

/* Reads the table's entries for -10 < x < 10 (the others are never
 * looked up), about 1200 lines, in order: a decode step's weights leave
 * none of them in cache, and looked up at random each missing line cost a
 * memory latency of its own. 10240 values after 256 MB read elsewhere, one
 * Zen 5 core: the gathers alone 31-36 us, 19 after these loads, 31 after
 * prefetch instructions in their place (the scalar lookups: 45). Returns
 * their sum, for a volatile to keep the loads. */
static uint32_t gelu_f16_table_warm(void) {
    const uint32_t ten = 0x4900; /* 10.0 in FP16; -10 is ten | 0x8000 */
    uint32_t sum = 0;
    for (uint32_t k = 0; k < ten; k += 32) sum += gelu_f16_table[k] + gelu_f16_table[0x8000 + k];
    return sum;
}

void seer_geglu_f16(float *a, const float *b, int64_t n) {
    pthread_once(&gelu_f16_once, gelu_f16_fill);
    /* a row as wide as an FFN's; fewer values (the per-layer embeddings'
     * 256) would look up fewer lines than the warm-up reads */
    if (n >= 4096) {
        volatile uint32_t loaded = gelu_f16_table_warm();
        (void)loaded;
    }
    int64_t done = 0;
#if defined(__x86_64__)
    if (seer_simd_level() >= SEER_SIMD_AVX2) done = seer_geglu_f16_avx2(a, b, n, gelu_f16_table);
#endif
    geglu_f16_rows(a + done, b + done, n - done);
}
