/* The Gated DeltaNet decode step of every SIMD level this CPU has against
 * the recurrence as written (decay S, u = beta·(v − Sᵀk), S += k·uᵀ,
 * o = Sᵀq) in double precision: three rows in a row on one state, head
 * sizes around the vector widths and blocks (and odd ones, which take the
 * scalar step), the state and the outputs compared. */
#include <math.h>
#include <string.h>

#include "decoder/delta_step.h"
#include "seer/cpu.h"
#include "testlib.h"

enum { DMAX = 144, ROWS = 3 };

static void reference_row(double *S, int d, const float *q, const float *k, const float *v, double decay, double beta,
                          double *o) {
    double u[DMAX];
    for (int i = 0; i < d * d; i++) S[i] *= decay;
    for (int j = 0; j < d; j++) {
        double sk = 0;
        for (int i = 0; i < d; i++) sk += S[i * d + j] * k[i];
        u[j] = beta * (v[j] - sk);
    }
    for (int i = 0; i < d; i++)
        for (int j = 0; j < d; j++) S[i * d + j] += k[i] * u[j];
    for (int j = 0; j < d; j++) {
        o[j] = 0;
        for (int i = 0; i < d; i++) o[j] += S[i * d + j] * q[i];
    }
}

static void check_level(delta_step_fn step, int level, int d) {
    static float S[DMAX * DMAX], q[ROWS][DMAX], k[ROWS][DMAX], v[ROWS][DMAX], o[DMAX], u[DMAX];
    static double Sr[DMAX * DMAX], orf[DMAX];
    for (int i = 0; i < d * d; i++) Sr[i] = S[i] = 0.3f * sinf((float)i * 0.61f + (float)d);
    for (int t = 0; t < ROWS; t++)
        for (int i = 0; i < d; i++) {
            q[t][i] = cosf((float)(i + 7 * t) * 0.37f) / sqrtf((float)d);
            k[t][i] = sinf((float)(i + 5 * t) * 0.83f) / sqrtf((float)d);
            v[t][i] = cosf((float)(i * 3 + t) * 0.29f);
        }
    const float decay[ROWS] = {0.93f, 0.5f, 0.999f}, beta[ROWS] = {0.6f, 0.25f, 0.9f};
    for (int t = 0; t < ROWS; t++) {
        for (int j = 0; j < DMAX; j++) o[j] = 99.0f;
        step(S, d, q[t], k[t], v[t], decay[t], beta[t], o, u);
        reference_row(Sr, d, q[t], k[t], v[t], decay[t], beta[t], orf);
        double worst_o = 0, worst_s = 0;
        for (int j = 0; j < d; j++) worst_o = fmax(worst_o, fabs(o[j] - orf[j]));
        for (int i = 0; i < d * d; i++) worst_s = fmax(worst_s, fabs(S[i] - Sr[i]));
        CHECK_MSG(worst_o < 2e-5 && worst_s < 2e-5, "level %d d %d row %d: output off by %g, state by %g", level, d, t,
                  worst_o, worst_s);
        for (int j = d; j < DMAX; j++) CHECK_MSG(o[j] == 99.0f, "level %d d %d: output written past the head", level, d);
    }
}

int main(void) {
    static const int ds[] = {1, 7, 8, 13, 16, 24, 32, 48, 64, 72, 80, 96, 128, 136, 144};
    for (int level = 0; level <= seer_cpu_simd_best(); level++)
        for (size_t i = 0; i < sizeof ds / sizeof ds[0]; i++) check_level(delta_step_for(level), level, ds[i]);
    TEST_MAIN_END();
}
