/* Q4_K, Q5_K, Q6_K, Q3_K, Q2_K, Q8_0, Q5_0, Q4_0, Q5_1, Q4_1, IQ4_NL and IQ4_XS weights interleaved in groups of 16 rows
 * (seer_weight_interleave):
 * the layout gives every block back bit for bit, the dot16 kernels of
 * every SIMD level agree with the row-at-a-time kernels (also at the ends
 * of the formats, where byte arithmetic would saturate), and products and
 * row reads through an interleaved weight match the file's layout: exactly
 * on the paths that read blocks back (row reads, batched GEMM), within
 * float rounding on decode, whatever the thread count; and a thread's own
 * rows through seer_matmul_rows give what the whole product gives them. */
#include <math.h>

#include "kernels/gemm_q8_internal.h"
#include "kernels/interleave_internal.h"
#include "kernels/matmul_internal.h"
#include "kernels/q8_0_wide_internal.h"
#include "kernels/vec_dot_internal.h"
#include "seer/matmul.h"
#include "test_tensor_pack.h"
#include "testlib.h"

static const int types[] = {SEER_TYPE_Q4_K, SEER_TYPE_Q5_K, SEER_TYPE_Q6_K, SEER_TYPE_Q3_K, SEER_TYPE_Q2_K, SEER_TYPE_Q8_0, SEER_TYPE_Q5_0, SEER_TYPE_Q4_0, SEER_TYPE_Q5_1, SEER_TYPE_Q4_1, SEER_TYPE_IQ4_NL, SEER_TYPE_IQ4_XS};
#define N_TYPES (int)(sizeof types / sizeof types[0])

/* One value at the low or high end of [lo, hi]: mode 1 the high end
 * always, mode 2 either at random; mode 0 keeps v. */
static int at_end(int v, int lo, int hi, int mode) {
    if (!mode) return v;
    return mode == 1 || (rnd_u32() & 1) ? hi : lo;
}

/* A random block of `type`; mode 1/2 pushes quants, scales and mins to the
 * ends of their ranges (all maxima / random ends), where byte arithmetic
 * would saturate. Activations (act) are quantized to ±127, weights read
 * from a file may hold any byte. */
static void make_block(int type, int mode, bool act, uint8_t *out) {
    logical_block lb;
    random_logical(type, &lb);
    int qlo = 0, qhi = 15, slo = 0, shi = 63, n = 256;
    if (type == SEER_TYPE_Q5_K || type == SEER_TYPE_Q5_0 || type == SEER_TYPE_Q5_1) qhi = 31;
    if (type == SEER_TYPE_Q6_K) qlo = -32, qhi = 31, slo = -128, shi = 127;
    if (type == SEER_TYPE_IQ4_XS) slo = -32, shi = 31;
    if (type == SEER_TYPE_Q3_K) qlo = -4, qhi = 3, slo = -32, shi = 31;
    if (type == SEER_TYPE_Q2_K) qhi = 3, shi = 15;
    if (type == SEER_TYPE_Q8_0 || type == SEER_TYPE_Q8_1 || type == SEER_TYPE_Q8_K) qlo = act ? -127 : -128, qhi = 127;
    if (seer_type_get(type)->block_size == 32) n = 32;
    for (int e = 0; e < n; e++) lb.q[e] = at_end(lb.q[e], qlo, qhi, mode);
    for (int g = 0; g < 16; g++) {
        lb.sc[g] = at_end(lb.sc[g], slo, shi, mode);
        lb.mn[g] = at_end(lb.mn[g], slo, shi, mode);
    }
    memset(out, 0, seer_type_get(type)->block_bytes);
    pack_block(type, &lb, out);
}

/* n_out rows of n_in weights of `type`. */
static uint8_t *make_rows(int type, int64_t n_in, int64_t n_out, int mode) {
    const seer_type_info *ti = seer_type_get(type);
    uint8_t *data = malloc(seer_row_bytes(type, n_in) * (size_t)n_out);
    for (int64_t b = 0; b < n_out * n_in / ti->block_size; b++) make_block(type, mode, false, data + (size_t)b * ti->block_bytes);
    return data;
}

static seer_weight weight_of(int type, const uint8_t *data, int64_t n_in, int64_t n_out) {
    return (seer_weight){.type = type, .n_in = n_in, .n_out = n_out, .data = data, .row_bytes = seer_row_bytes(type, n_in)};
}

/* w interleaved into a fresh buffer (freed by the caller). */
static void *interleave(seer_weight *w, seer_pool *pool) {
    size_t bytes = seer_weight_interleaved_bytes(w);
    CHECK(bytes == (size_t)(w->n_out / 16) * seer_interleave_group_bytes(w->type, w->n_in) && bytes > 0);
    /* at most 3% more than the file (Q3_K: 5.5%, its scales as bytes) */
    CHECK(bytes <= (size_t)w->n_out * w->row_bytes * (w->type == SEER_TYPE_Q3_K ? 1056 : 1030) / 1000);
    void *p = NULL;
    CHECK(posix_memalign(&p, 64, bytes) == 0);
    seer_weight_interleave(w, p, pool);
    CHECK(w->interleaved == p);
    return p;
}

static void check_blocks_round_trip(int type, int mode) {
    int64_t n_in = 768, n_out = 32;
    const seer_type_info *ti = seer_type_get(type);
    uint8_t *data = make_rows(type, n_in, n_out, mode);
    seer_weight w = weight_of(type, data, n_in, n_out);
    void *ilv = interleave(&w, NULL);
    int bad = 0;
    for (int64_t o = 0; o < n_out; o++)
        for (int64_t b = 0; b < n_in / ti->block_size; b++) {
            seer_file_blocks blk;
            seer_weight_read_block(&w, o, b, &blk);
            bad += memcmp(&blk, data + (size_t)o * w.row_bytes + (size_t)b * ti->block_bytes, ti->block_bytes) != 0;
        }
    CHECK_MSG(bad == 0, "%s mode %d: %d blocks differ after interleaving", ti->name, mode, bad);
    free(ilv);
    free(data);
}

/* Every level's dot16 against the scalar one-row kernel, row by row. */
static void check_dot16(int type, int level, int64_t n_in, int wmode, int amode) {
    seer_vec_dot16_fn k16 = seer_vec_dot16_kernel(level, type);
    if (!seer_vec_dot_kernel(level, type)) return; /* a level this CPU lacks */
    CHECK_MSG(k16 != NULL, "%s has no dot16 kernel for %s", seer_simd_level_name(level), seer_type_name(type));
    if (!k16) return;
    const seer_type_info *ti = seer_type_get(type), *ai = seer_type_get(ti->vec_dot_type);
    uint8_t *data = make_rows(type, n_in, 16, wmode);
    seer_weight w = weight_of(type, data, n_in, 16);
    void *ilv = interleave(&w, NULL);
    uint8_t *act = malloc(seer_row_bytes(ti->vec_dot_type, n_in));
    for (int64_t b = 0; b < n_in / ai->block_size; b++) make_block(ti->vec_dot_type, amode, true, act + (size_t)b * ai->block_bytes);
    float out[16];
    k16(n_in, ilv, act, out);
    for (int r = 0; r < 16; r++) {
        float ref = seer_vec_dot_kernel(SEER_SIMD_SCALAR, type)(n_in, data + (size_t)r * w.row_bytes, act);
        double mag = dot_rounding_magnitude(type, data + (size_t)r * w.row_bytes, act, n_in);
        CHECK_MSG(fabs(out[r] - ref) <= 2e-6 * mag + 1e-9, "%s dot16 %s n=%lld modes %d/%d row %d: %.9g vs %.9g",
                  seer_simd_level_name(level), ti->name, (long long)n_in, wmode, amode, r, out[r], ref);
    }
    free(ilv); free(data); free(act);
}

/* Every level's several-row kernel against its own one-row dot16, for
 * 1..seer_vec_dot16_rows_most activation rows: each row's sums bit for
 * bit (prompts must give the numbers decode gives). */
static void check_dot16_rows(int type, int level, int64_t n_in) {
    seer_vec_dot16_rows_fn rows = seer_vec_dot16_rows_kernel(level, type);
    seer_vec_dot16_fn k16 = seer_vec_dot16_kernel(level, type);
    if (!rows || !k16) return; /* no such kernel at this level */
    const seer_type_info *ti = seer_type_get(type), *ai = seer_type_get(ti->vec_dot_type);
    uint8_t *data = make_rows(type, n_in, 16, 0);
    seer_weight w = weight_of(type, data, n_in, 16);
    void *ilv = interleave(&w, NULL);
    /* Q8_0 rows as the several-row kernels take them: their blocks' sums after them */
    const bool sums = ti->vec_dot_type == SEER_TYPE_Q8_0;
    size_t act_bytes = sums ? seer_q8_0_rows_bytes(n_in) : seer_row_bytes(ti->vec_dot_type, n_in);
    uint8_t *act = malloc(act_bytes * SEER_DOT16_MAX_ROWS);
    for (int r = 0; r < SEER_DOT16_MAX_ROWS; r++) {
        for (int64_t b = 0; b < n_in / ai->block_size; b++)
            make_block(ti->vec_dot_type, r % 3, true, act + act_bytes * r + (size_t)b * ai->block_bytes);
        if (sums) seer_q8_0_tail_fill(act + act_bytes * r, n_in);
    }
    for (int nr = 1; nr <= seer_vec_dot16_rows_most(level, type); nr++) {
        float out[SEER_DOT16_MAX_ROWS * 16], one[16];
        rows(n_in, ilv, act, act_bytes, nr, out);
        for (int r = 0; r < nr; r++) {
            k16(n_in, ilv, act + act_bytes * r, one);
            CHECK_MSG(memcmp(one, out + 16 * r, sizeof one) == 0, "%s dot16 rows %s n=%lld: %d rows, row %d differs",
                      seer_simd_level_name(level), ti->name, (long long)n_in, nr, r);
        }
    }
    free(ilv); free(data); free(act);
}

/* Q8_0's 16-bit path (plain AVX2 prompts) against the plain AVX2 build's
 * several-row Q8_0 kernel, for 1..4 activation rows and weights and
 * activations at their ends (mode): the same integers, scaled and summed
 * in the same order, so the same bits. Any x86-64 CPU with AVX2 runs both. */
static void check_q8_0_wide(int64_t n_in, int mode) {
#if defined(__x86_64__)
    if (seer_simd_allowed() < SEER_SIMD_AVX2) return;
    seer_vec_dot16_rows_fn rows = seer_x86_dot16_rows_avx2(SEER_TYPE_Q8_0);
    uint8_t *data = make_rows(SEER_TYPE_Q8_0, n_in, 16, mode);
    seer_weight w = weight_of(SEER_TYPE_Q8_0, data, n_in, 16);
    void *ilv = interleave(&w, NULL);
    const size_t act_bytes = seer_q8_0_rows_bytes(n_in), wide_bytes = seer_q8_0_wide_row_bytes(n_in);
    uint8_t *act = malloc(act_bytes * 4), *wide_act = malloc(wide_bytes * 4);
    void *wide_group = malloc(seer_q8_0_wide_group_bytes(n_in));
    for (int r = 0; r < 4; r++) {
        for (int64_t b = 0; b < n_in / 32; b++)
            make_block(SEER_TYPE_Q8_0, (mode + r) % 3, true, act + act_bytes * r + (size_t)b * sizeof(block_q8_0));
        seer_q8_0_tail_fill(act + act_bytes * r, n_in);
        seer_q8_0_wide_act_row(n_in, act + act_bytes * r, wide_act + wide_bytes * r);
    }
    seer_q8_0_wide_group(n_in, ilv, wide_group);
    for (int nr = 1; nr <= 4; nr++) {
        float want[4 * 16], got[4 * 16];
        rows(n_in, ilv, act, act_bytes, nr, want);
        seer_q8_0_wide_rows(n_in, wide_group, wide_act, wide_bytes, nr, got);
        for (int r = 0; r < nr; r++)
            CHECK_MSG(memcmp(want + 16 * r, got + 16 * r, sizeof(float) * 16) == 0,
                      "Q8_0 16-bit path n=%lld mode %d: %d rows, row %d differs (%.9g vs %.9g)", (long long)n_in, mode,
                      nr, r, got[16 * r], want[16 * r]);
    }
    free(ilv); free(data); free(act); free(wide_act); free(wide_group);
#else
    (void)n_in, (void)mode;
#endif
}

/* Outputs of b that are not a's: bit for bit, or, where the two rounded
 * apart, beyond 1e-5 of the largest output (rounding goes with the size of
 * the terms, not of a sum that cancels). */
static int count_differing(const float *a, const float *b, int64_t n, bool rounded_apart, double *worst) {
    int bad = 0;
    double scale = 1;
    for (int64_t i = 0; i < n; i++) scale = fmax(scale, fabs(a[i]));
    for (int64_t i = 0; i < n; i++) {
        double err = fabs((double)a[i] - b[i]);
        if (rounded_apart ? !(err <= 1e-5 * scale) : a[i] != b[i]) bad++;
        if (err > *worst || isnan(err)) *worst = err;
    }
    return bad;
}

/* The same product through the file's layout and the interleaved one. */
static void check_matmul(int type, seer_pool *pool, int64_t n_in, int64_t n_out, int64_t n_rows, int path) {
    uint8_t *data = make_rows(type, n_in, n_out, 0);
    seer_weight plain = weight_of(type, data, n_in, n_out), ilv = plain;
    void *buf = interleave(&ilv, pool);
    float *x = malloc(sizeof(float) * (size_t)(n_rows * n_in)), *bias = malloc(sizeof(float) * (size_t)n_out);
    float *ya = malloc(sizeof(float) * (size_t)(n_rows * n_out)), *yb = malloc(sizeof(float) * (size_t)(n_rows * n_out));
    for (int64_t i = 0; i < n_rows * n_in; i++) x[i] = rnd_float(-2, 2);
    for (int64_t o = 0; o < n_out; o++) bias[o] = rnd_float(-1, 1);
    seer_matmul_path(pool, &plain, x, n_rows, ya, bias, path);
    seer_matmul_path(pool, &ilv, x, n_rows, yb, bias, path);
    /* AUTO may send the two weights different ways (Q5_K: the file's layout
     * takes the GEMM from 64 rows, the groups from 16): rounding apart then */
    bool dot = path == SEER_MATMUL_DOT ||
               (path == SEER_MATMUL_AUTO && (n_rows < seer_matmul_weight_gemm_min_rows(&plain) ||
                                             n_rows < seer_matmul_weight_gemm_min_rows(&ilv)));
    /* so do Q4_K, Q5_K and Q6_K groups on AMX tiles: their block scales are
     * summed in integers, so the products round apart from the AVX-512
     * kernels' (test_gemm_amx checks those kernels) */
    dot = dot || (seer_k_amx_takes(type, n_rows) && path != SEER_MATMUL_DOT && path != SEER_MATMUL_GEMM_F32);
    double worst = 0;
    int bad = count_differing(ya, yb, n_rows * n_out, dot, &worst);
    CHECK_MSG(bad == 0, "%s %lldx%lld, %lld rows, path %d, %d threads: %d outputs differ interleaved (worst %g)",
              seer_type_name(type), (long long)n_out, (long long)n_in, (long long)n_rows, path, seer_pool_size(pool), bad, worst);
    float *ra = malloc(sizeof(float) * (size_t)n_in), *rb = malloc(sizeof(float) * (size_t)n_in);
    for (int64_t o = 0; o < n_out; o += 7) {
        seer_weight_get_row(&plain, o, ra);
        seer_weight_get_row(&ilv, o, rb);
        CHECK_MSG(memcmp(ra, rb, sizeof(float) * (size_t)n_in) == 0, "%s row %lld read differently interleaved", seer_type_name(type),
                  (long long)o);
    }
    free(buf); free(data); free(x); free(bias); free(ya); free(yb); free(ra); free(rb);
}

/* Fused parts, one of them not interleavable (13 rows) so the others' groups
 * start off the 16-row grid of the split: bit-identical for 1 and 2 threads
 * and to each part's own product. */
static void check_fused(int type, seer_pool *p1, seer_pool *p2, int64_t n_rows) {
    const int64_t n_in = 512, n_out[3] = {48, 13, 32};
    uint8_t *data[3];
    void *buf[3] = {NULL, NULL, NULL};
    seer_weight w[3];
    const seer_weight *wp[3];
    float *ya[3], *yb[3], *own[3];
    float *x = malloc(sizeof(float) * (size_t)(n_rows * n_in));
    for (int64_t i = 0; i < n_rows * n_in; i++) x[i] = rnd_float(-2, 2);
    for (int i = 0; i < 3; i++) {
        data[i] = make_rows(type, n_in, n_out[i], 0);
        w[i] = weight_of(type, data[i], n_in, n_out[i]);
        if (n_out[i] % 16 == 0) buf[i] = interleave(&w[i], p1);
        else CHECK(seer_weight_interleaved_bytes(&w[i]) == 0);
        wp[i] = &w[i];
        ya[i] = malloc(sizeof(float) * (size_t)(n_rows * n_out[i]));
        yb[i] = malloc(sizeof(float) * (size_t)(n_rows * n_out[i]));
        own[i] = malloc(sizeof(float) * (size_t)(n_rows * n_out[i]));
        seer_matmul(p2, &w[i], x, n_rows, own[i], NULL);
    }
    seer_matmul_multi(p1, 3, wp, x, n_rows, ya, NULL);
    seer_matmul_multi(p2, 3, wp, x, n_rows, yb, NULL);
    for (int i = 0; i < 3; i++) {
        size_t bytes = sizeof(float) * (size_t)(n_rows * n_out[i]);
        /* a part in the file's layout alone may take another path than the
         * fused product (which takes the first part's row threshold): the
         * same where both take the dot products */
        const bool same_path = buf[i] || (n_rows < seer_matmul_weight_gemm_min_rows(&w[0]) &&
                                          n_rows < seer_matmul_weight_gemm_min_rows(&w[i]));
        /* an interleaved K-quant part alone on AMX tiles; fused beside a
         * part that is not interleaved, on the AVX-512 panels */
        const bool rounded_apart = buf[i] && seer_k_amx_takes(type, n_rows);
        double worst = 0;
        CHECK_MSG(memcmp(ya[i], yb[i], bytes) == 0 &&
                      (!same_path || count_differing(own[i], ya[i], n_rows * n_out[i], rounded_apart, &worst) == 0),
                  "%s, %lld rows: fused part %d differs between thread counts or from its own product (worst %g)",
                  seer_type_name(type), (long long)n_rows, i, worst);
        free(buf[i]); free(data[i]); free(ya[i]); free(yb[i]); free(own[i]);
    }
    free(x);
}

/* seer_matmul_multi_share (a prompt's rows that chose one expert): the
 * rows of a batch below the GEMM's rows give what seer_matmul_multi gives
 * them (decode's numbers); of a 512-row batch, from as many rows as
 * seer_matmul_share_gemm_rows names (it depends on the type and the row
 * length), the GEMM's numbers, below that again seer_matmul_multi's. */
static void check_share(int type, seer_pool *pool) {
    const int64_t n_ins[2] = {512, 2048}, n_out = 48, max_rows = 12;
    for (int i = 0; i < 2; i++) {
        const int64_t n_in = n_ins[i];
        uint8_t *data = make_rows(type, n_in, n_out, 0);
        seer_weight w = weight_of(type, data, n_in, n_out);
        void *buf = interleave(&w, pool);
        const seer_weight *wp[1] = {&w};
        float *x = malloc(sizeof(float) * (size_t)(max_rows * n_in));
        float *got = malloc(sizeof(float) * (size_t)(max_rows * n_out)), *want = malloc(sizeof(float) * (size_t)(max_rows * n_out));
        for (int64_t k = 0; k < max_rows * n_in; k++) x[k] = rnd_float(-2, 2);
        const int64_t from = seer_matmul_share_gemm_rows(&w, 512);
        CHECK_MSG(seer_matmul_share_gemm_rows(&w, 12) == seer_matmul_weight_gemm_min_rows(&w),
                  "%s: a 12-row batch's shares do not keep the batch's own rows", seer_type_name(type));
        for (int64_t n_rows = 1; n_rows <= max_rows; n_rows++) {
            const size_t bytes = sizeof(float) * (size_t)(n_rows * n_out);
            seer_matmul_multi_share(pool, 1, wp, x, n_rows, 12, &got, NULL);
            seer_matmul_multi(pool, 1, wp, x, n_rows, &want, NULL);
            CHECK_MSG(memcmp(got, want, bytes) == 0, "%s %lld wide: %lld of a 12-row batch's rows differ from decode's",
                      seer_type_name(type), (long long)n_in, (long long)n_rows);
            const bool gemm = n_rows >= from;
            seer_matmul_multi_share(pool, 1, wp, x, n_rows, 512, &got, NULL);
            seer_matmul_path(pool, &w, x, n_rows, want, NULL, gemm ? SEER_MATMUL_GEMM : SEER_MATMUL_AUTO);
            CHECK_MSG(memcmp(got, want, bytes) == 0, "%s %lld wide: %lld of a 512-row batch's rows are not the %s's",
                      seer_type_name(type), (long long)n_in, (long long)n_rows, gemm ? "GEMM" : "dot kernels");
        }
        free(buf); free(data); free(x); free(got); free(want);
    }
}

/* seer_matmul_rows (a thread's own prompt rows, the decoder's one-dispatch
 * layers): rows taken in uneven pieces give bit for bit what
 * seer_matmul_multi gives for all of them at once, biases included. Runs
 * where the path exists (Q8_0 read in place on AMX); elsewhere the
 * decoder never takes it, and this only checks that it says so. */
static void check_rows(seer_pool *pool) {
    const int64_t n_in = 512, n_out[3] = {48, 16, 32}, n_rows = 45, cuts[] = {0, 16, 19, 45};
    uint8_t *data[3];
    void *buf[3];
    seer_weight w[3];
    const seer_weight *wp[3];
    float *want[3], *got[3], *bias[3];
    for (int i = 0; i < 3; i++) {
        data[i] = make_rows(SEER_TYPE_Q8_0, n_in, n_out[i], 0);
        w[i] = weight_of(SEER_TYPE_Q8_0, data[i], n_in, n_out[i]);
        buf[i] = interleave(&w[i], pool);
        wp[i] = &w[i];
        want[i] = malloc(sizeof(float) * (size_t)(n_rows * n_out[i]));
        got[i] = malloc(sizeof(float) * (size_t)(n_rows * n_out[i]));
        bias[i] = i == 1 ? NULL : malloc(sizeof(float) * (size_t)n_out[i]);
        for (int64_t o = 0; bias[i] && o < n_out[i]; o++) bias[i][o] = rnd_float(-1, 1);
    }
    bool supported = seer_matmul_rows_supported(&w[0]);
    CHECK(!seer_matmul_rows_supported(&(seer_weight){.type = SEER_TYPE_Q4_K, .n_in = n_in, .n_out = 16}));
    if (supported) {
        float *x = malloc(sizeof(float) * (size_t)(n_rows * n_in));
        for (int64_t i = 0; i < n_rows * n_in; i++) x[i] = rnd_float(-2, 2);
        seer_matmul_multi(pool, 3, wp, x, n_rows, want, (const float *const *)bias);
        void *scratch = NULL;
        CHECK(posix_memalign(&scratch, 64, seer_matmul_rows_scratch_bytes(n_rows, n_in)) == 0);
        for (int c = 0; c + 1 < (int)(sizeof cuts / sizeof cuts[0]); c++) {
            const int64_t r0 = cuts[c], r1 = cuts[c + 1];
            seer_matmul_rows(3, wp, x + r0 * n_in, r1 - r0,
                             (float *const[]){got[0] + r0 * n_out[0], got[1] + r0 * n_out[1], got[2] + r0 * n_out[2]},
                             (const float *const *)bias, scratch);
        }
        for (int i = 0; i < 3; i++)
            CHECK_MSG(memcmp(got[i], want[i], sizeof(float) * (size_t)(n_rows * n_out[i])) == 0,
                      "part %d: rows taken piecewise differ from the product of all rows", i);
        free(scratch);
        free(x);
    } else {
        printf("note: no AMX here, seer_matmul_rows not exercised\n");
    }
    for (int i = 0; i < 3; i++) {
        free(buf[i]); free(data[i]); free(want[i]); free(got[i]); free(bias[i]);
    }
}

int main(void) {
    seer_pool *pools[3] = {NULL, seer_pool_create(1), seer_pool_create(2)};
    for (int t = 0; t < N_TYPES; t++) {
        int type = types[t];
        for (int mode = 0; mode < 3; mode++) check_blocks_round_trip(type, mode);
        /* 4352: 17 super-blocks, past the kernels' runs of 16 (Q8_K_PAIRS_AHEAD) */
        const int64_t widths[] = {256, 1024, 4352};
        for (int level = 0; level < SEER_SIMD_LEVELS; level++)
            for (int k = 0; k < 3; k++)
                for (int wm = 0; wm < 3; wm++)
                    for (int am = 0; am < 3; am++) check_dot16(type, level, widths[k], wm, am);
        for (int level = 0; level < SEER_SIMD_LEVELS; level++)
            for (int k = 1; k < 3; k++) check_dot16_rows(type, level, widths[k]);
        for (int p = 0; p < 3; p++) {
            check_matmul(type, pools[p], 512, 64, 1, SEER_MATMUL_AUTO);
            check_matmul(type, pools[p], 256, 48, 5, SEER_MATMUL_DOT);
            check_matmul(type, pools[p], 512, 32, 40, SEER_MATMUL_AUTO);      /* int8 GEMM where it applies */
            check_matmul(type, pools[p], 512, 32, 40, SEER_MATMUL_GEMM);      /* the int8 GEMM's panels cut from groups */
            check_matmul(type, pools[p], 512, 48, 7, SEER_MATMUL_GEMM);       /* (Q4_K: read in place) an odd group, */
            check_matmul(type, pools[p], 256, 80, 13, SEER_MATMUL_GEMM);      /* rows past whole blocks of 3 and 6 */
            check_matmul(type, pools[p], 256, 48, 260, SEER_MATMUL_GEMM);     /* past the in-place row counts: packed */
            check_matmul(type, pools[p], 256, 32, 20, SEER_MATMUL_GEMM_F32); /* dequantize + sgemm */
        }
        seer_simd_force_scalar(true);
        check_matmul(type, pools[2], 256, 32, 3, SEER_MATMUL_AUTO);
        seer_simd_force_scalar(false);
        /* 40 rows: the int8 GEMM, the fused parts packed from their groups
         * (one part is not interleaved), each alone read in place */
        const int64_t fused_rows[] = {1, 6, 40};
        for (int i = 0; i < 3; i++) check_fused(type, pools[1], pools[2], fused_rows[i]);
        check_share(type, pools[2]);
        /* a row count no group size divides stays in the file's layout */
        seer_weight odd = weight_of(type, NULL, 256, 40);
        CHECK(seer_weight_interleaved_bytes(&odd) == 0);
    }
    for (int mode = 0; mode < 3; mode++) {
        check_q8_0_wide(1024, mode);
        check_q8_0_wide(4352, mode);
    }
    /* and through the product: plain AVX2 takes Q8_0 prompts of 64 rows
     * or more in 16-bit products (the file's layout: the one-row kernel),
     * and the other types with Q8_0 activations must not */
    if (seer_simd_allowed() >= SEER_SIMD_AVX2 && seer_q8_0_wide_takes(SEER_TYPE_Q8_0, SEER_SIMD_AVX2)) {
        seer_simd_set_level(SEER_SIMD_AVX2);
        for (int t = 0; t < N_TYPES; t++) {
            if (seer_type_get(types[t])->vec_dot_type != SEER_TYPE_Q8_0) continue;
            for (int p = 0; p < 3; p++) {
                check_matmul(types[t], pools[p], 512, 48, 70, SEER_MATMUL_DOT);
                check_matmul(types[t], pools[p], 1024, 32, 131, SEER_MATMUL_AUTO);
            }
        }
        seer_simd_set_level(-1);
    }
    /* so do Q8_0 rows that are not a whole number of two-block units */
    seer_weight narrow = weight_of(SEER_TYPE_Q8_0, NULL, 96, 32);
    CHECK(seer_weight_interleaved_bytes(&narrow) == 0);
    check_rows(pools[2]);
    for (int p = 1; p < 3; p++) seer_pool_destroy(pools[p]);
    TEST_MAIN_END();
}
