/* Qwen3-VL's learned position table is a square grid; an image's patch grid
 * rarely is. llama.cpp resamples the table with ggml's bilinear upscale in
 * align-corners mode: the grid's outer rows and columns land on the table's
 * outer ones. The float32 arithmetic below follows ggml's CPU kernel step by
 * step (the scale factor, the clamped neighbour indices, the fraction taken
 * from the clamped lower index, the weighted sum's order), so the rows match
 * it to the last bit. */
#include <math.h>

#include "vision/vision_internal.h"

/* Source coordinate of each of n_dst output positions over n_src table
 * positions: lower index, upper index, fraction. */
static void axis_sample(int n_src, int n_dst, int i, int *lo, int *hi, float *frac) {
    float sf = n_dst > 1 && n_src > 1 ? (float)(n_dst - 1) / (float)(n_src - 1) : (float)n_dst / (float)n_src;
    float x = (float)i / sf;
    int a = (int)floorf(x), b = a + 1;
    a = a < 0 ? 0 : a > n_src - 1 ? n_src - 1 : a;
    b = b < 0 ? 0 : b > n_src - 1 ? n_src - 1 : b;
    float d = x - (float)a;
    *lo = a;
    *hi = b;
    *frac = d < 0.0f ? 0.0f : d > 1.0f ? 1.0f : d;
}

typedef struct interp_job {
    const float *table;
    int side, gw, gh;
    int64_t n_embd;
    const int *row, *col;
    float *x;
} interp_job;

static void interp_range(void *ctx, int64_t r0, int64_t r1, int ith) {
    (void)ith;
    const interp_job *j = ctx;
    const int64_t d = j->n_embd;
    for (int64_t r = r0; r < r1; r++) {
        int x0, x1, y0, y1;
        float dx, dy;
        axis_sample(j->side, j->gw, j->col[r], &x0, &x1, &dx);
        axis_sample(j->side, j->gh, j->row[r], &y0, &y1, &dy);
        const float *a = j->table + ((int64_t)y0 * j->side + x0) * d, *b = j->table + ((int64_t)y0 * j->side + x1) * d;
        const float *c = j->table + ((int64_t)y1 * j->side + x0) * d, *e = j->table + ((int64_t)y1 * j->side + x1) * d;
        float *out = j->x + r * d;
        for (int64_t k = 0; k < d; k++)
            out[k] += a[k] * (1 - dx) * (1 - dy) + b[k] * dx * (1 - dy) + c[k] * (1 - dx) * dy + e[k] * dx * dy;
    }
}

void vit_add_interp_positions(seer_pool *pool, const float *table, int side, int64_t n_embd, int gw, int gh,
                              const int *row, const int *col, int64_t n, float *x) {
    interp_job j = {.table = table, .side = side, .gw = gw, .gh = gh, .n_embd = n_embd, .row = row, .col = col, .x = x};
    seer_pool_for(pool, n, 1, interp_range, &j);
}

/* LFM2 (SigLIP2 NaFlex): ggml's bilinear interpolation with antialiasing
 * (torch's interpolate(bilinear, antialias=True, align_corners=False)):
 * output cell i of an axis centred at (i + 0.5)/scale in the table, every
 * table cell within the support (1, or 1/scale when shrinking) weighted by
 * a triangle of that width; the weights are normalised by their sum. The
 * float32 steps (weight products, the y-outer x-inner sum, the division)
 * follow ggml's CPU kernel. */
static float triangle(float t) { return fmaxf(1.0f - fabsf(t), 0.0f); }

/* Table cells [*lo, *hi) within reach of output cell i. */
static void resize_reach(int n_src, int n_dst, int i, float *centre, float *inv, int *lo, int *hi) {
    const float sf = (float)n_dst / (float)n_src, support = fmaxf(1.0f, 1.0f / sf);
    *inv = 1.0f / support;
    *centre = ((float)i + 0.5f) / sf;
    int64_t a = (int64_t)(*centre - support + 0.5f), b = (int64_t)(*centre + support + 0.5f);
    *lo = a < 0 ? 0 : (int)a;
    *hi = b > n_src ? n_src : (int)b;
}

static void resize_range(void *ctx, int64_t r0, int64_t r1, int ith) {
    (void)ith;
    const interp_job *j = ctx; /* row, col unused: rows are in raster order */
    const int64_t d = j->n_embd;
    for (int64_t r = r0; r < r1; r++) {
        float cx, cy, ix, iy;
        int x0, x1, y0, y1;
        resize_reach(j->side, j->gw, (int)(r % j->gw), &cx, &ix, &x0, &x1);
        resize_reach(j->side, j->gh, (int)(r / j->gw), &cy, &iy, &y0, &y1);
        float *out = j->x + r * d;
        for (int64_t k = 0; k < d; k++) {
            float val = 0.0f, total = 0.0f;
            for (int sy = y0; sy < y1; sy++) {
                const float wy = triangle(((float)sy - cy + 0.5f) * iy);
                for (int sx = x0; sx < x1; sx++) {
                    const float w = triangle(((float)sx - cx + 0.5f) * ix) * wy;
                    if (w <= 0.0f) continue;
                    val += j->table[((int64_t)sy * j->side + sx) * d + k] * w;
                    total += w;
                }
            }
            out[k] += total > 0.0f ? val / total : val;
        }
    }
}

void vit_add_resized_positions(seer_pool *pool, const float *table, int side, int64_t n_embd, int gw, int gh,
                               float *x) {
    interp_job j = {.table = table, .side = side, .gw = gw, .gh = gh, .n_embd = n_embd, .x = x};
    seer_pool_for(pool, (int64_t)gw * gh, 1, resize_range, &j);
}

/* GLM-4V: ggml's bicubic interpolation (the convolution form with a = −0.75,
 * as PyTorch's): output cell i of an axis sits at (i + 0.5)/scale − 0.5 in
 * the table, the four table cells around it (clamped at the edges) weighted
 * by the cubic kernel, x first, then y; float32 steps in ggml's order. */
#define BICUBIC_A (-0.75f)
static float cubic_near(float t) { return ((BICUBIC_A + 2) * t - (BICUBIC_A + 3)) * t * t + 1; }
static float cubic_far(float t) { return ((BICUBIC_A * t - 5 * BICUBIC_A) * t + 8 * BICUBIC_A) * t - 4 * BICUBIC_A; }
static float cubic(const float p[4], float t) {
    return p[0] * cubic_far(t + 1) + p[1] * cubic_near(t) + p[2] * cubic_near(1 - t) + p[3] * cubic_far(2 - t);
}

/* The table cell below output cell i (may be −1) and the fraction past it. */
static void bicubic_axis(int n_src, int n_dst, int i, int *base, float *frac) {
    const float sf = (float)n_dst / (float)n_src, s = ((float)i + 0.5f) / sf - 0.5f, f = floorf(s);
    *base = (int)f;
    *frac = s - f;
}

static int clamp_index(int i, int n) { return i < 0 ? 0 : i > n - 1 ? n - 1 : i; }

static void bicubic_range(void *ctx, int64_t r0, int64_t r1, int ith) {
    (void)ith;
    const interp_job *j = ctx;
    const int64_t d = j->n_embd;
    for (int64_t r = r0; r < r1; r++) {
        int x0, y0;
        float dx, dy;
        bicubic_axis(j->side, j->gw, j->col[r], &x0, &dx);
        bicubic_axis(j->side, j->gh, j->row[r], &y0, &dy);
        const float *cell[4][4]; /* [y offset][x offset] */
        for (int a = 0; a < 4; a++)
            for (int b = 0; b < 4; b++)
                cell[a][b] = j->table + ((int64_t)clamp_index(y0 - 1 + a, j->side) * j->side +
                                         clamp_index(x0 - 1 + b, j->side)) * d;
        float *out = j->x + r * d;
        for (int64_t k = 0; k < d; k++) {
            float rows[4];
            for (int a = 0; a < 4; a++) {
                const float p[4] = {cell[a][0][k], cell[a][1][k], cell[a][2][k], cell[a][3][k]};
                rows[a] = cubic(p, dx);
            }
            out[k] += cubic(rows, dy);
        }
    }
}

void vit_add_bicubic_positions(seer_pool *pool, const float *table, int side, int64_t n_embd, int gw, int gh,
                               const int *row, const int *col, int64_t n, float *x) {
    interp_job j = {.table = table, .side = side, .gw = gw, .gh = gh, .n_embd = n_embd, .row = row, .col = col, .x = x};
    seer_pool_for(pool, n, 1, bicubic_range, &j);
}

/* HunyuanVL: llama.cpp resamples the table on the CPU before the graph runs,
 * with the reference model's scale (n_dst + 0.1)/n_src (so the grid is
 * stretched a little past the table), output cell i at (i + 0.5)/scale − 0.5
 * in the table, the two neighbours clamped to it and the fraction taken from
 * the clamped lower one (clamped to [0, 1]); float32 as there, the four
 * weights multiplied out before they meet the values (unlike ggml's upscale
 * in interp_range, hence a loop of its own). */
static void stretch_axis(int n_src, int n_dst, int i, int *lo, int *hi, float *frac) {
    const float scale = ((float)n_dst + 0.1f) / (float)n_src, s = ((float)i + 0.5f) / scale - 0.5f;
    const int a = (int)floorf(s);
    *lo = clamp_index(a, n_src);
    *hi = clamp_index(a + 1, n_src);
    const float f = s - (float)*lo;
    *frac = f < 0.0f ? 0.0f : f > 1.0f ? 1.0f : f;
}

static void stretch_range(void *ctx, int64_t r0, int64_t r1, int ith) {
    (void)ith;
    const interp_job *j = ctx; /* row, col unused: rows are in raster order */
    const int64_t d = j->n_embd;
    for (int64_t r = r0; r < r1; r++) {
        int x0, x1, y0, y1;
        float fx, fy;
        stretch_axis(j->side, j->gw, (int)(r % j->gw), &x0, &x1, &fx);
        stretch_axis(j->side, j->gh, (int)(r / j->gw), &y0, &y1, &fy);
        const float w00 = (1.0f - fy) * (1.0f - fx), w01 = (1.0f - fy) * fx, w10 = fy * (1.0f - fx), w11 = fy * fx;
        const float *a = j->table + ((int64_t)y0 * j->side + x0) * d, *b = j->table + ((int64_t)y0 * j->side + x1) * d;
        const float *c = j->table + ((int64_t)y1 * j->side + x0) * d, *e = j->table + ((int64_t)y1 * j->side + x1) * d;
        float *out = j->x + r * d;
        for (int64_t k = 0; k < d; k++) out[k] += w00 * a[k] + w01 * b[k] + w10 * c[k] + w11 * e[k];
    }
}

void vit_add_stretched_positions(seer_pool *pool, const float *table, int side, int64_t n_embd, int gw, int gh,
                                 float *x) {
    interp_job j = {.table = table, .side = side, .gw = gw, .gh = gh, .n_embd = n_embd, .x = x};
    seer_pool_for(pool, (int64_t)gw * gh, 1, stretch_range, &j);
}
