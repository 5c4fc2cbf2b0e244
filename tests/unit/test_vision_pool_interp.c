/* The pieces Qwen3-VL and Gemma 3 add to the vision tower, each against a
 * direct formula: the learned position grid resampled with aligned corners
 * (upscale, downscale, unchanged, one-wide), the 2×2 merge-cell order of the
 * Qwen patch sequence, Gemma 3's k×k average pool. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"
#include "vision/vision_internal.h"

static float rnd(uint64_t *s) {
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (float)((double)(*s >> 11) / (double)(1ull << 53)) * 2.0f - 1.0f;
}

/* align_corners=True bilinear of one table channel at grid cell (y, x). */
static double direct_interp(const float *table, int side, int d, int c, int gw, int gh, int y, int x) {
    double sx = gw > 1 ? (double)x * (side - 1) / (gw - 1) : 0.0, sy = gh > 1 ? (double)y * (side - 1) / (gh - 1) : 0.0;
    int x0 = (int)floor(sx), y0 = (int)floor(sy);
    int x1 = x0 + 1 < side ? x0 + 1 : side - 1, y1 = y0 + 1 < side ? y0 + 1 : side - 1;
    double fx = sx - x0, fy = sy - y0;
#define T(yy, xx) (double)table[((yy) * side + (xx)) * d + c]
    return T(y0, x0) * (1 - fx) * (1 - fy) + T(y0, x1) * fx * (1 - fy) + T(y1, x0) * (1 - fx) * fy +
           T(y1, x1) * fx * fy;
#undef T
}

static void check_interp(int side, int gw, int gh) {
    enum { D = 3 };
    uint64_t seed = 7 + (uint64_t)(side * 131 + gw * 17 + gh);
    float *table = malloc(sizeof(float) * side * side * D);
    for (int i = 0; i < side * side * D; i++) table[i] = rnd(&seed);
    int n = gw * gh;
    int *row = malloc(sizeof(int) * n), *col = malloc(sizeof(int) * n);
    for (int i = 0; i < n; i++) { /* reversed raster order: rows carry their own cell */
        row[i] = (n - 1 - i) / gw;
        col[i] = (n - 1 - i) % gw;
    }
    float *x = calloc((size_t)n * D, sizeof(float));
    vit_add_interp_positions(NULL, table, side, D, gw, gh, row, col, n, x);
    double worst = 0;
    for (int i = 0; i < n; i++)
        for (int c = 0; c < D; c++) {
            double want = direct_interp(table, side, D, c, gw, gh, row[i], col[i]);
            if (fabs(x[i * D + c] - want) > worst) worst = fabs(x[i * D + c] - want);
        }
    /* float32 source coordinates: a few ulps of position times the table's slope */
    CHECK_MSG(worst < 2e-5, "%d² → %d×%d: max error %g", side, gw, gh, worst);
    if (gw == side && gh == side) /* the table as it is (llama.cpp skips the resample) */
        for (int i = 0; i < n; i++)
            CHECK(memcmp(x + i * D, table + (row[i] * side + col[i]) * D, sizeof(float) * D) == 0);
    free(table);
    free(row);
    free(col);
    free(x);
}

static void test_interp(void) {
    check_interp(4, 10, 6);  /* upscale, other aspect */
    check_interp(6, 4, 2);   /* downscale */
    check_interp(5, 5, 5);   /* unchanged */
    check_interp(3, 1, 4);   /* one column */
    check_interp(48, 46, 34); /* Qwen3-VL's real grid */
}

static void test_merge_order(void) {
    seer_vision v;
    memset(&v, 0, sizeof v);
    v.hp.patch_size = 16;
    v.cfg.rope2d = true;
    vit_layout l;
    CHECK(vit_layout_build(&v, 6 * 16, 4 * 16, false, &l) == 0);
    CHECK(l.n_patches == 24 && l.n_segments == 1 && l.seg_start[1] == 24);
    /* cells (by, bx) row-major over the 3×2 cell grid; inside: (0,0) (0,1) (1,0) (1,1) */
    for (int k = 0; k < 24; k++) {
        int cell = k / 4, q = k % 4, by = cell / 3, bx = cell % 3;
        CHECK_MSG(l.row[k] == 2 * by + q / 2 && l.col[k] == 2 * bx + q % 2, "row %d at (%d, %d)", k, l.row[k],
                  l.col[k]);
        if (q == 0) CHECK(l.cell_raster[cell] == cell);
    }
    vit_layout_free(&l);
}

static void test_avg_pool(void) {
    enum { GW = 8, GH = 12, D = 5 };
    uint64_t seed = 99;
    float x[GW * GH * D];
    for (int i = 0; i < GW * GH * D; i++) x[i] = rnd(&seed);
    for (int k = 1; k <= 4; k++) {
        if (GW % k || GH % k) continue;
        float out[GW * GH * D];
        vit_avg_pool(x, GW, GH, D, k, out);
        int ow = GW / k, oh = GH / k;
        for (int oy = 0; oy < oh; oy++)
            for (int ox = 0; ox < ow; ox++)
                for (int c = 0; c < D; c++) {
                    double s = 0;
                    for (int dy = 0; dy < k; dy++)
                        for (int dx = 0; dx < k; dx++) s += x[((oy * k + dy) * GW + ox * k + dx) * D + c];
                    CHECK_NEAR(out[(oy * ow + ox) * D + c], s / (k * k), 1e-6);
                }
    }
}

int main(void) {
    test_interp();
    test_merge_order();
    test_avg_pool();
    TEST_MAIN_END();
}
