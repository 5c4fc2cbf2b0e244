/* Every SIMD level this CPU has, every type: the kernel against the scalar
 * kernel on random blocks, on blocks at the extremes of each format (to
 * catch saturating byte arithmetic), and on rows with tails. */
#include <math.h>

#include "kernels/vec_dot_internal.h"
#include "test_tensor_pack.h"
#include "testlib.h"

static const int types[] = {SEER_TYPE_F32, SEER_TYPE_F16, SEER_TYPE_BF16, SEER_TYPE_Q4_0, SEER_TYPE_Q4_1,
                            SEER_TYPE_Q5_0, SEER_TYPE_Q5_1, SEER_TYPE_Q8_0, SEER_TYPE_Q8_1, SEER_TYPE_Q2_K,
                            SEER_TYPE_Q3_K, SEER_TYPE_Q4_K, SEER_TYPE_Q5_K, SEER_TYPE_Q6_K, SEER_TYPE_Q8_K,
                            SEER_TYPE_IQ4_NL, SEER_TYPE_IQ4_XS};

/* Pushes every quant and scale of a random logical block to an end of its
 * range (mode 1: all maxima, mode 2: random extremes). */
static void extremize(int type, logical_block *b, int mode) {
    int qlo = 0, qhi = 0, slo = 0, shi = 0, nq = seer_type_get(type)->block_size;
    switch (type) {
    case SEER_TYPE_Q4_0: case SEER_TYPE_Q4_1: qhi = 15; break;
    case SEER_TYPE_Q5_0: case SEER_TYPE_Q5_1: qhi = 31; break;
    case SEER_TYPE_Q8_0: case SEER_TYPE_Q8_1: case SEER_TYPE_Q8_K: qlo = -127; qhi = 127; break;
    case SEER_TYPE_Q2_K: qhi = 3; shi = 15; break;
    case SEER_TYPE_Q3_K: qlo = -4; qhi = 3; slo = -32; shi = 31; break;
    case SEER_TYPE_Q4_K: qhi = 15; shi = 63; break;
    case SEER_TYPE_Q5_K: qhi = 31; shi = 63; break;
    case SEER_TYPE_Q6_K: qlo = -32; qhi = 31; slo = -128; shi = 127; break;
    default: return;
    }
    for (int e = 0; e < nq; e++) b->q[e] = mode == 1 || (rnd_u32() & 1) ? qhi : qlo;
    for (int g = 0; g < 16; g++) {
        b->sc[g] = mode == 1 || (rnd_u32() & 1) ? shi : slo;
        if (type == SEER_TYPE_Q2_K || type == SEER_TYPE_Q4_K || type == SEER_TYPE_Q5_K)
            b->mn[g] = mode == 1 || (rnd_u32() & 1) ? shi : 0;
    }
}

static void fill_row(int type, int64_t n, uint8_t *row, int mode) {
    const seer_type_info *ti = seer_type_get(type);
    if (ti->block_size == 1) {
        for (int64_t i = 0; i < n; i++) {
            float v = mode ? (rnd_u32() & 1 ? 60000.f : -60000.f) / 256 : rnd_float(-1, 1);
            if (type == SEER_TYPE_F32) memcpy(row + 4 * i, &v, 4);
            else {
                uint16_t h = type == SEER_TYPE_F16 ? seer_f32_to_fp16(v) : seer_f32_to_bf16(v);
                memcpy(row + 2 * i, &h, 2);
            }
        }
        return;
    }
    for (int64_t b = 0; b < n / ti->block_size; b++) {
        logical_block lb;
        random_logical(type, &lb);
        if (mode) extremize(type, &lb, mode);
        pack_block(type, &lb, row + b * ti->block_bytes);
    }
}

static void compare(int level, int type, int64_t n, int wmode, int amode) {
    const seer_type_info *ti = seer_type_get(type);
    int at = ti->vec_dot_type;
    uint8_t *w = malloc(seer_row_bytes(type, n) + 4), *a = malloc(seer_row_bytes(at, n) + 4);
    /* off vector alignment on purpose (but naturally aligned for every field) */
    uint8_t *wu = w + 4, *au = a + 4;
    fill_row(type, n, wu, wmode);
    fill_row(at, n, au, amode);
    float ref = seer_vec_dot_kernel(SEER_SIMD_SCALAR, type)(n, wu, au);
    float got = seer_vec_dot_kernel(level, type)(n, wu, au);
    double mag = dot_rounding_magnitude(type, wu, au, n);
    CHECK_MSG(fabs(got - ref) <= 2e-6 * mag + 1e-9, "%s %s n=%lld modes %d/%d: %.9g vs scalar %.9g",
              seer_simd_level_name(level), ti->name, (long long)n, wmode, amode, got, ref);
    free(w); free(a);
}

/* The four-row kernels give exactly what four one-row calls give. */
static void compare4(int level, int type, int64_t n) {
    seer_vec_dot4_fn k4 = seer_vec_dot4_kernel(level, type);
    if (!k4) return;
    const seer_type_info *ti = seer_type_get(type);
    size_t stride = seer_row_bytes(ti->vec_dot_type, n) + 8; /* rows need not be contiguous */
    uint8_t *w = malloc(seer_row_bytes(type, n)), *a = malloc(4 * stride);
    fill_row(type, n, w, 0);
    for (int r = 0; r < 4; r++) fill_row(ti->vec_dot_type, n, a + r * stride, r == 3 ? 1 : 0);
    float out[4];
    k4(n, w, a, stride, out);
    for (int r = 0; r < 4; r++) {
        float one = seer_vec_dot_kernel(level, type)(n, w, a + r * stride);
        CHECK_MSG(memcmp(&one, &out[r], sizeof one) == 0, "%s %s four-row kernel row %d: %.9g vs %.9g",
                  seer_simd_level_name(level), ti->name, r, out[r], one);
    }
    free(w);
    free(a);
}

int main(void) {
    int levels = 0;
    for (int level = 1; level < SEER_SIMD_LEVELS; level++) {
        if (!seer_vec_dot_kernel(level, SEER_TYPE_F32)) continue;
        levels++;
        for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
            int type = types[t], bs = seer_type_get(type)->block_size;
            for (int k = 1; k <= 9; k++) {
                int64_t n = bs == 1 ? 8 * k + k % 3 : bs * k;
                for (int wm = 0; wm < 3; wm++)
                    for (int am = 0; am < 3; am++) compare(level, type, n, wm, am);
            }
            compare(level, type, 4096, 0, 0);
            for (int k = 1; k <= 5; k++) compare4(level, type, bs == 1 ? 64 * k : bs * k);
            compare4(level, type, 4096);
        }
    }
    if (!levels) printf("SKIP: no SIMD level on this CPU (scalar only)\n");
    TEST_MAIN_END();
}
