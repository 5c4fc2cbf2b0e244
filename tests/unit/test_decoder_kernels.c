/* The attention inner loops of every SIMD level this CPU has, for an F32
 * and an F16 cache, against double-precision sums: query groups of 1 to 9
 * heads, key counts around the 8-key blocks, head sizes around the vector
 * widths (and odd ones). The cache rows hold values exact in half
 * precision, so both cache types have the same reference; the F16 kernels
 * read the half copy. */
#include <math.h>
#include <stdint.h>

#include "decoder/attention_kernels.h"
#include "seer/cpu.h"
#include "seer/tensor.h"
#include "testlib.h"

enum { GMAX = 9, NKMAX = 21, HDMAX = 80, LDO = HDMAX + 3 };

static float q[GMAX * HDMAX], kv[NKMAX * HDMAX], p[GMAX * NKMAX], out[GMAX * LDO];
static uint16_t kv16[NKMAX * HDMAX];

/* The cache rows as the kernels under test take them. */
static const void *rows(bool f16) { return f16 ? (const void *)kv16 : (const void *)kv; }

static void check_scores(const attn_kernels *k, int id, bool f16, int group, int nk, int hd) {
    float s[GMAX * NKMAX];
    k->scores(q, group, rows(f16), nk, hd, 0.125f, s);
    for (int g = 0; g < group; g++)
        for (int r = 0; r < nk; r++) {
            double ref = 0, mag = 0;
            for (int d = 0; d < hd; d++) {
                const double t = (double)q[g * hd + d] * kv[r * hd + d];
                ref += t, mag += fabs(t);
            }
            CHECK_MSG(fabs(s[g * nk + r] - 0.125 * ref) <= 1e-6 * (mag + 1), "level %d %s scores group %d nk %d hd %d",
                      id, f16 ? "f16" : "f32", group, nk, hd);
        }
}

static void check_mix(const attn_kernels *k, int id, bool f16, int group, int nk, int hd) {
    for (int i = 0; i < GMAX * LDO; i++) out[i] = 99.0f; /* overwritten, never added to */
    k->mix(out, LDO, p, group, nk, rows(f16), hd);
    for (int g = 0; g < group; g++)
        for (int d = 0; d < LDO; d++) {
            double ref = 99.0, mag = 0; /* past the head: untouched */
            if (d < hd) {
                ref = 0;
                for (int r = 0; r < nk; r++) ref += (double)p[g * nk + r] * kv[r * hd + d], mag += fabs(p[g * nk + r] * kv[r * hd + d]);
            }
            CHECK_MSG(fabs(out[g * LDO + d] - ref) <= 1e-6 * (mag + 1), "level %d %s mix group %d nk %d hd %d d %d", id,
                      f16 ? "f16" : "f32", group, nk, hd, d);
        }
}

int main(void) {
    for (int i = 0; i < GMAX * HDMAX; i++) q[i] = sinf((float)i * 0.7f) * 3.0f;
    for (int i = 0; i < NKMAX * HDMAX; i++) {
        kv16[i] = seer_f32_to_fp16(cosf((float)i * 1.3f) - 0.25f);
        kv[i] = seer_fp16_to_f32(kv16[i]);
    }
    for (int i = 0; i < GMAX * NKMAX; i++) p[i] = 0.5f + 0.4f * sinf((float)i * 0.37f);
    const int levels = seer_cpu_simd_best() + 1;
    attn_kernels ks[SEER_SIMD_LEVELS], ks16[SEER_SIMD_LEVELS];
    for (int l = 0; l < levels; l++) ks[l] = attn_kernels_for(l, false), ks16[l] = attn_kernels_for(l, true);
    static const int hds[] = {1, 7, 8, 13, 16, 24, 64, 72, 80};
    for (int id = 0; id < levels; id++)
        for (int group = 1; group <= GMAX; group++)
            for (int nk = 1; nk <= NKMAX; nk++)
                for (size_t h = 0; h < sizeof hds / sizeof hds[0]; h++) {
                    check_scores(&ks[id], id, false, group, nk, hds[h]);
                    check_mix(&ks[id], id, false, group, nk, hds[h]);
                    check_scores(&ks16[id], id, true, group, nk, hds[h]);
                    check_mix(&ks16[id], id, true, group, nk, hds[h]);
                }

    float y[HDMAX], y0[HDMAX];
    for (int i = 0; i < HDMAX; i++) y0[i] = (float)i * 0.01f;
    for (int id = 0; id < levels; id++)
        for (int n = 0; n <= HDMAX; n++) {
            for (int i = 0; i < HDMAX; i++) y[i] = y0[i];
            ks[id].axpy(y, 0.5f, kv, n);
            for (int i = 0; i < HDMAX; i++) {
                double want = i < n ? y0[i] + 0.5 * kv[i] : y0[i];
                CHECK_MSG(fabs(y[i] - want) <= 1e-6, "level %d axpy n=%d i=%d", id, n, i);
            }
        }
    TEST_MAIN_END();
}
