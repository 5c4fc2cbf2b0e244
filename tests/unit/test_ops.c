/* ops against straightforward double-precision references written from the
 * formulas (conformance README): norms, activations, softmax, the three rope
 * pairings including M-RoPE sections. */
#include <math.h>

#include <string.h>

#include "seer/cpu.h"
#include "seer/ops.h"
#include "seer/tensor.h"
#include "testlib.h"

static unsigned rng_state = 12345;
static float frand(void) { /* uniform in [-2, 2) */
    rng_state = rng_state * 1103515245u + 12345u;
    return ((rng_state >> 8) & 0xffff) / 16384.0f - 2.0f;
}
static void fill(float *x, int n, float scale) {
    for (int i = 0; i < n; i++) x[i] = frand() * scale;
}

static void test_rmsnorm(void) {
    enum { R = 3, N = 37 };
    float x[R * N], w[N], ref[R * N];
    fill(x, R * N, 3.0f);
    fill(w, N, 1.0f);
    for (int r = 0; r < R; r++) {
        double ss = 0;
        for (int i = 0; i < N; i++) ss += (double)x[r * N + i] * x[r * N + i];
        for (int i = 0; i < N; i++) ref[r * N + i] = (float)(x[r * N + i] / sqrt(ss / N + 1e-5) * w[i]);
    }
    seer_rmsnorm(x, w, R, N, 1e-5f);
    for (int i = 0; i < R * N; i++) CHECK_NEAR(x[i], ref[i], 1e-5 * (1 + fabs(ref[i])));
}

static void test_layernorm(void) {
    enum { R = 2, N = 50 };
    float x[R * N], w[N], b[N], out[R * N];
    fill(x, R * N, 5.0f);
    fill(w, N, 1.0f);
    fill(b, N, 1.0f);
    seer_layernorm(x, out, w, b, R, N, 1e-6f);
    for (int r = 0; r < R; r++) {
        double m = 0, v = 0;
        for (int i = 0; i < N; i++) m += x[r * N + i];
        m /= N;
        for (int i = 0; i < N; i++) v += (x[r * N + i] - m) * (x[r * N + i] - m);
        v /= N;
        for (int i = 0; i < N; i++) {
            double ref = (x[r * N + i] - m) / sqrt(v + 1e-6) * w[i] + b[i];
            CHECK_NEAR(out[r * N + i], ref, 1e-5 * (1 + fabs(ref)));
        }
    }
    /* in place, no weight/bias: mean 0, variance 1 */
    seer_layernorm(x, x, NULL, NULL, R, N, 0.0f);
    double m = 0, v = 0;
    for (int i = 0; i < N; i++) m += x[i];
    for (int i = 0; i < N; i++) v += x[i] * x[i];
    CHECK_NEAR(m / N, 0.0, 1e-6);
    CHECK_NEAR(v / N, 1.0, 1e-5);
}

/* The norms' sums run eight lanes wide at AVX-512 in the portable code's
 * order: each level this CPU runs gives the scalar code's floats bit for
 * bit, on rows long and short (tails of every length). */
static void test_norms_same_at_every_level(void) {
    enum { N = 1000 };
    static float x[N], w[N], b[N], ref[N], got[N];
    fill(x, N, 30.0f);
    fill(w, N, 1.0f);
    fill(b, N, 1.0f);
    for (int n = 1; n <= N; n += n < 40 ? 1 : 97) {
        for (int norm = 0; norm < 3; norm++) { /* RMSNorm with weights, LayerNorm, RMSNorm without */
            const float *wn = norm == 2 ? NULL : w;
            seer_simd_force_scalar(true);
            memcpy(ref, x, sizeof(float) * (size_t)n);
            if (norm == 1) seer_layernorm(x, ref, w, b, 1, n, 1e-6f);
            else seer_rmsnorm(ref, wn, 1, n, 1e-5f);
            for (int level = SEER_SIMD_SCALAR + 1; level <= seer_simd_allowed(); level++) {
                seer_simd_set_level(level);
                memcpy(got, x, sizeof(float) * (size_t)n);
                if (norm == 1) seer_layernorm(x, got, w, b, 1, n, 1e-6f);
                else seer_rmsnorm(got, wn, 1, n, 1e-5f);
                CHECK_MSG(memcmp(got, ref, sizeof(float) * (size_t)n) == 0, "%s of %d under %s differs from the scalar code",
                          norm == 1 ? "layernorm" : norm ? "rmsnorm without weights" : "rmsnorm", n,
                          seer_simd_level_name(level));
            }
            seer_simd_set_level(-1);
        }
    }
}

static void test_activations(void) {
    enum { N = 200 };
    float x[N], y[N], g[N];
    fill(x, N, 4.0f);
    x[0] = 0.0f; x[1] = -12.0f; x[2] = 12.0f;
    fill(g, N, 1.0f);
    for (int i = 0; i < N; i++) y[i] = x[i];
    seer_silu(y, N);
    for (int i = 0; i < N; i++) CHECK_NEAR(y[i], x[i] / (1 + exp(-(double)x[i])), 1e-6 * (1 + fabs(x[i])));
    for (int i = 0; i < N; i++) y[i] = x[i];
    seer_gelu_tanh(y, N);
    for (int i = 0; i < N; i++) {
        double v = x[i];
        double ref = 0.5 * v * (1 + tanh(sqrt(2 / M_PI) * (v + 0.044715 * v * v * v)));
        CHECK_NEAR(y[i], ref, 1e-6 * (1 + fabs(v)));
    }
    for (int i = 0; i < N; i++) y[i] = x[i];
    seer_gelu_erf(y, N);
    for (int i = 0; i < N; i++) CHECK_NEAR(y[i], 0.5 * x[i] * (1 + erf(x[i] / sqrt(2.0))), 1e-6 * (1 + fabs(x[i])));
    for (int i = 0; i < N; i++) y[i] = x[i];
    seer_quick_gelu(y, N);
    for (int i = 0; i < N; i++) CHECK_NEAR(y[i], x[i] / (1 + exp(-1.702 * x[i])), 1e-6 * (1 + fabs(x[i])));
    for (int i = 0; i < N; i++) y[i] = x[i];
    seer_swiglu(y, g, N);
    for (int i = 0; i < N; i++) CHECK_NEAR(y[i], x[i] / (1 + exp(-(double)x[i])) * g[i], 1e-6 * (1 + fabs(x[i])));
    for (int i = 0; i < N; i++) y[i] = x[i];
    seer_add(y, g, N);
    for (int i = 0; i < N; i++) CHECK(y[i] == x[i] + g[i]);

    /* the MoE's weighted expert outputs */
    const float w = 0.3f;
    seer_scale(y, g, w, N);
    for (int i = 0; i < N; i++) CHECK(y[i] == w * g[i]);
}

/* The decoders' GeGLU through llama.cpp's FP16 GELU table: near the
 * formula (the F16 roundings apart), exact 0 at -10 and below, x·b at 10
 * and above, and at every SIMD level the scalar code's floats bit for bit
 * over every FP16 input (the table's whole domain), on lengths with tails. */
static void test_geglu_f16(void) {
    enum { N = (1 << 16) + 4099 };
    static float x[N], b[N], ref[N], got[N];
    fill(b, N, 1.0f);
    for (int i = 0; i < N; i++) x[i] = i < 1 << 16 ? seer_fp16_to_f32((uint16_t)i) : frand() * 6.0f;
    x[N - 1] = -10.0f, x[N - 2] = 10.0f, x[N - 3] = -10.5f, x[N - 4] = 10.5f, x[N - 5] = -9.99f;
    seer_simd_force_scalar(true);
    memcpy(ref, x, sizeof ref);
    seer_geglu_f16(ref, b, N);
    for (int i = 0; i < N; i++) {
        const double v = seer_fp16_to_f32(seer_f32_to_fp16(x[i]));
        if (isnan(x[i]) || isinf(x[i])) continue;
        if (x[i] <= -10.0f) CHECK_MSG(ref[i] == 0.0f && !signbit(ref[i]), "geglu of %g is %g, not 0", x[i], ref[i]);
        else if (x[i] >= 10.0f) CHECK_MSG(ref[i] == x[i] * b[i], "geglu of %g is %g, not x·b", x[i], ref[i]);
        else {
            const double g = 0.5 * v * (1 + tanh(sqrt(2 / M_PI) * (v + 0.044715 * v * v * v)));
            CHECK_NEAR(ref[i], g * b[i], (fabs(g) / 1024 + 1e-6 * fabs(v) + 6e-8) * fabs(b[i]));
        }
    }
    for (int n = N - 8; n <= N; n += 3)
        for (int level = SEER_SIMD_SCALAR + 1; level <= seer_simd_allowed(); level++) {
            seer_simd_set_level(level);
            memcpy(got, x, sizeof(float) * (size_t)n);
            seer_geglu_f16(got, b, n);
            int differ = 0;
            for (int i = 0; i < n; i++) differ += !(isnan(got[i]) && isnan(ref[i])) && memcmp(&got[i], &ref[i], sizeof(float)) != 0;
            CHECK_MSG(differ == 0, "geglu of %d values under %s: %d differ from the scalar code", n, seer_simd_level_name(level), differ);
        }
    seer_simd_set_level(-1);
}

static void test_softmax(void) {
    enum { N = 64 };
    float x[N], y[N];
    fill(x, N, 30.0f);
    x[5] = 1000.0f; /* large values must not overflow */
    for (int i = 0; i < N; i++) y[i] = x[i];
    seer_softmax(y, N);
    double z = 0;
    for (int i = 0; i < N; i++) z += exp((double)x[i] - 1000.0);
    double sum = 0;
    for (int i = 0; i < N; i++) {
        CHECK_NEAR(y[i], exp((double)x[i] - 1000.0) / z, 1e-7);
        sum += y[i];
    }
    CHECK_NEAR(sum, 1.0, 1e-6);
}

/* Rotation of pair (a, b) by angle p·base^(-2i/n). */
static void ref_rot(double *a, double *b, double p, int i, int n, double base) {
    double th = p * pow(base, -2.0 * i / n), x = *a, y = *b;
    *a = x * cos(th) - y * sin(th);
    *b = x * sin(th) + y * cos(th);
}

/* The adjacent-pairs rotation, two pairs a vector, rounds as the scalar
 * form does: every rotated count of pairs (vector steps and a tail). */
static void test_rope_apply_exact(void) {
    enum { D = 70 };
    float x[D], cs[D], y[D];
    fill(x, D, 3.0f);
    fill(cs, D, 1.0f);
    for (int n_rot = 2; n_rot <= D; n_rot += 2) {
        memcpy(y, x, sizeof x);
        seer_rope_apply_normal(y, n_rot, cs);
        int bad = 0;
        for (int i = 0; i < D; i++) {
            const float a = x[i & ~1], b = x[i | 1], c = cs[i & ~1], sn = cs[i | 1];
            const float want = i >= n_rot ? x[i] : i % 2 ? a * sn + b * c : a * c - b * sn;
            bad += memcmp(&y[i], &want, sizeof want) != 0;
        }
        CHECK_MSG(bad == 0, "rope over %d dims: %d values differ from the scalar form", n_rot, bad);
    }
}

static void test_rope(void) {
    enum { D = 64 };
    float x[D], y[D];
    double r[D];
    fill(x, D, 1.0f);
    /* normal, partial rotation: only the first 48 dims rotate, adjacent pairs */
    for (int i = 0; i < D; i++) { y[i] = x[i]; r[i] = x[i]; }
    seer_rope_normal(y, D, 48, 1234.0f, 10000.0f);
    for (int i = 0; i < 24; i++) ref_rot(&r[2 * i], &r[2 * i + 1], 1234.0, i, 48, 10000.0);
    for (int i = 0; i < D; i++) CHECK_NEAR(y[i], r[i], 2e-6);
    /* neox: pairs (i, i + d/2) */
    for (int i = 0; i < D; i++) { y[i] = x[i]; r[i] = x[i]; }
    seer_rope_neox(y, D, D, 77.0f, 1e6f);
    for (int i = 0; i < D / 2; i++) ref_rot(&r[i], &r[i + D / 2], 77.0, i, D, 1e6);
    for (int i = 0; i < D; i++) CHECK_NEAR(y[i], r[i], 2e-6);
    /* position 0 is the identity */
    for (int i = 0; i < D; i++) y[i] = x[i];
    seer_rope_neox(y, D, D, 0.0f, 1e6f);
    for (int i = 0; i < D; i++) CHECK(y[i] == x[i]);
    /* M-RoPE: sections [4, 6, 6, 0] in pairs for head 32 (the conformance Qwen) */
    const int sec[4] = {4, 6, 6, 0};
    const float pos[4] = {5.0f, 9.0f, 17.0f, 0.0f};
    for (int i = 0; i < 32; i++) { y[i] = x[i]; r[i] = x[i]; }
    seer_rope_multi(y, 32, sec, pos, 1e6f);
    for (int j = 0; j < 16; j++) {
        double p = j < 4 ? 5.0 : j < 10 ? 9.0 : 17.0;
        ref_rot(&r[j], &r[j + 16], p, j, 32, 1e6);
    }
    for (int i = 0; i < 32; i++) CHECK_NEAR(y[i], r[i], 2e-6);
    /* all sections equal == neox */
    const float same[4] = {42.0f, 42.0f, 42.0f, 42.0f};
    float z[32];
    for (int i = 0; i < 32; i++) { y[i] = x[i]; z[i] = x[i]; }
    seer_rope_multi(y, 32, sec, same, 1e6f);
    seer_rope_neox(z, 32, 32, 42.0f, 1e6f);
    for (int i = 0; i < 32; i++) CHECK(y[i] == z[i]);
}

int main(void) {
    test_rmsnorm();
    test_layernorm();
    test_norms_same_at_every_level();
    test_activations();
    test_geglu_f16();
    test_softmax();
    test_rope();
    test_rope_apply_exact();
    TEST_MAIN_END();
}
