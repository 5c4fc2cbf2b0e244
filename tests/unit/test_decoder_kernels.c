/* The attention inner loops (scalar and the CPU's SIMD choice) against
 * double-precision sums, for every length around the vector widths. */
#include <math.h>

#include "decoder/attention_kernels.h"
#include "testlib.h"

int main(void) {
    float a[80], b[80], y[80], y0[80];
    for (int i = 0; i < 80; i++) {
        a[i] = sinf((float)i * 0.7f) * 3.0f;
        b[i] = cosf((float)i * 1.3f) - 0.25f;
        y0[i] = (float)i * 0.01f;
    }
    const attn_kernels ks[2] = {attn_kernels_scalar(), attn_kernels_select()};
    for (int k = 0; k < 2; k++)
        for (int n = 0; n <= 80; n++) {
            double ref = 0, mag = 0;
            for (int i = 0; i < n; i++) ref += (double)a[i] * b[i], mag += fabs((double)a[i] * b[i]);
            CHECK_MSG(fabs(ks[k].dot(a, b, n) - ref) <= 1e-6 * (mag + 1), "kernels %d dot n=%d", k, n);
            for (int i = 0; i < 80; i++) y[i] = y0[i];
            ks[k].axpy(y, 0.5f, b, n);
            for (int i = 0; i < 80; i++) {
                double want = i < n ? y0[i] + 0.5 * b[i] : y0[i];
                CHECK_MSG(fabs(y[i] - want) <= 1e-6, "kernels %d axpy n=%d i=%d", k, n, i);
            }
        }
    TEST_MAIN_END();
}
