/* Weight matrix products, four algorithms:
 * - few activation rows (decode): the activations are quantized to the
 *   weight type's vec_dot type and every weight row is read once, in place,
 *   by the SIMD dot products (four rows at a time where a kernel exists);
 * - many rows, weights of Q8_0/Q4_0/Q5_0/Q4_K/Q5_K/Q6_K/Q3_K on a VNNI CPU: int8
 *   GEMM on repacked weight panels (gemm_q8_internal.h), on AMX tiles where
 *   the CPU has them (gemm_q8_amx.c), else (K-quants) the super-block
 *   kernel, which applies the activations' scale once per super-block;
 * - many rows, F16 weights (the vision encoders) on a CPU with AMX-BF16:
 *   each F16 value split into two BF16 parts, four tile products giving
 *   the exact F16 products (gemm_f16_internal.h);
 * - many rows otherwise (F16/F32 vision encoders, other types): weights
 *   dequantized into packed f32 panels and multiplied by seer's FP32 GEMM
 *   (gemm_f32_internal.h), the activations first rounded through the
 *   vec_dot type.
 * All four compute what llama.cpp's quantized dot products compute (up to
 * the order of float additions). Work is split over the pool. */
#include <cblas.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/gemm_bf16_internal.h"
#include "kernels/gemm_f16_internal.h"
#include "kernels/gemm_f32_internal.h"
#include "kernels/gemm_q8_internal.h"
#include "kernels/interleave_internal.h"
#include "kernels/matmul_internal.h"
#include "kernels/q8_0_wide_internal.h"
#include "kernels/vec_dot_internal.h"
#include "seer/cpu.h"
#include "seer/gguf.h"
#include "seer/matmul.h"
#include "seer/ops.h"
#include "tensor/iq_unpack.h"
#include "tensor/quantize_internal.h"
#include "threads/pool_scratch.h"
#include "threads/thread_scratch.h"

#if defined(__x86_64__)
#include <xmmintrin.h>
#endif

/* Rounded f32 activations of the FP32 GEMM path: at most about this many
 * bytes at a time, at the price of packing each weight panel once per
 * chunk of rows (16 MiB: a 1024-patch feed-forward input, 12 MB, is one
 * chunk; a 4096-patch one of 3420 two; 4 MiB chunks repacked them 5
 * times, 0.74-0.80 -> 0.79-0.89 of the FP32 peak on 4096x1280x3420). */
#define ACT_CHUNK_BYTES (16u << 20)
/* The panel GEMMs' smallest unit of work: a block of panels times this
 * many rows or more (units_set). */
#define GEMM_PART_ROWS 256

static pthread_once_t blas_once = PTHREAD_ONCE_INIT;
static void blas_single_thread(void) {
#if defined(OPENBLAS_VERSION)
    openblas_set_num_threads(1);
#endif
}
void seer_blas_init(void) { pthread_once(&blas_once, blas_single_thread); }

bool seer_weight_from_tensor(seer_weight *w, const struct gguf_tensor *t) {
    if (!w || !t || !seer_type_get(t->type)) return false;
    for (int d = 2; d < GGUF_MAX_DIMS; d++)
        if (t->ne[d] != 1) return false;
    if (t->n_dims > 2 || t->ne[0] <= 0 || t->ne[1] <= 0) return false;
    if (t->ne[0] % seer_type_get(t->type)->block_size != 0) return false;
    w->type = t->type;
    w->n_in = t->ne[0];
    w->n_out = t->ne[1];
    w->data = t->data;
    w->row_bytes = seer_row_bytes(t->type, t->ne[0]);
    w->interleaved = NULL;
    return true;
}

void seer_weight_get_row(const seer_weight *w, int64_t row, float *dst) {
    if (!w->interleaved) {
        seer_dequantize_row(w->type, (const char *)w->data + (size_t)row * w->row_bytes, dst, w->n_in);
        return;
    }
    const seer_type_info *ti = seer_type_get(w->type);
    for (int64_t b = 0; b < w->n_in / ti->block_size; b++) {
        seer_file_blocks blk;
        seer_weight_read_block(w, row, b, &blk);
        seer_dequantize_row(w->type, &blk, dst + b * ti->block_size, ti->block_size);
    }
}

/* Scratch from the pool, or the calling thread's own when there is no
 * pool. */
static void *scratch(seer_pool *pool, int slot, size_t bytes) {
    return pool ? seer_pool_scratch_get(pool, slot, bytes) : seer_thread_scratch_get(slot, bytes);
}

/* One weight of a fused product: several weights that read the same input
 * (Q, K, V; gate, up) share the activation quantization and one dispatch. */
#define MAX_PARTS SEER_MATMUL_MAX_PARTS
typedef struct matmul_part {
    const seer_weight *w;
    float *y;
    const float *bias;
} matmul_part;

typedef struct matmul_job {
    const seer_weight *w; /* parts[0].w; the batched paths take one weight */
    const float *x;
    int64_t n_rows;
    float *y;
    const float *bias;
    matmul_part parts[MAX_PARTS];
    int n_parts;
    int act_type;
    bool x_f16; /* x's values are F16 values already (seer_matmul_batch_f16_in) */
    seer_vec_dot_fn dot;
    seer_vec_dot4_fn dot4; /* NULL when the type has no four-row kernel */
    seer_vec_dot16_fn dot16; /* for interleaved weights */
    seer_vec_dot16_rows_fn dot16_rows; /* the same for several activation rows, or NULL */
    int dot16_rows_most;               /* the rows it takes a call (seer_vec_dot16_rows_most) */
    bool act_rows_tail;                /* act's Q8_0 rows carry their blocks' sums and scales (seer_q8_0_rows_bytes) */
    bool wide;         /* Q8_0 at plain AVX2 in 16-bit products, act's rows and each group widened (dot_wide) */
    void *wide_groups; /* per thread: the group being read, widened */
    /* dot path: activation rows in act_type */
    const void *act;
    size_t act_row_bytes;
    /* gemm path: rows [row0, row0 + chunk_rows) as f32 (rounded through act_type), tiles */
    int64_t row0, chunk_rows;
    int64_t unit_panels, part_rows, row_parts; /* a unit of work (units_set): unit_panels panels × part_rows rows */
    float *xf;
    void *qrows;    /* one quantized row per thread, for the rounding */
    float *tiles;   /* per thread: panel_group packed f32 panels + 16 weight rows */
    seer_f32_kernel f32;
    /* int8 GEMM path: the kernels for the weight type (matmul_gemm_q8);
     * amx_fn (Q8_0 read in place on AMX) takes 16 rows a call, or is NULL */
    seer_q8_panel_fn panel_fn, amx_fn;
    seer_q8_panel2_fn panel2_fn;
    uint16_t *act_bf16; /* AMX-BF16: the rows' parts in tile blocks (gemm_f16_internal.h) */
    int tile_parts;     /* AMX-BF16: 2 exact (F16 hi/lo), 1 BF16 */
    uint32_t *act_pairs; /* BF16 GEMM: n_rows × seer_bf16_pairs(n_in) words */
    uint8_t *act_u8;  /* n_rows × n_in bytes, q + 128 */
    float *act_d;     /* n_rows × n_blocks scales */
    float *act_s;     /* n_rows × n_blocks scaled sums (weights with mins), else NULL */
    /* the super-block kernel (K-quants without AMX): per row the blocks'
     * integer sums for the mins (Q4_K, Q5_K, Q2_K; else NULL) instead of act_s */
    bool sb_kernel;
    int16_t *act_sums;
    bool act_sums_by_16; /* two per block of 32 (panels in halves: Q2_K), else one */
    uint8_t *panels;  /* per thread: panel_group panels */
    int64_t panel_group;
    /* Q8_0 on AMX: the interleaved groups are the panels, read in place,
     * and the activations are signed bytes (q, not q+128) */
    bool in_place;
    /* Q4_K (Q5_K) without AMX: the super-block kernel reads the
     * interleaved groups in place (gemm_q45_K_groups_avx512.c), signed
     * activations too */
    bool q45_K_groups;
    /* Q4_K, Q5_K and Q6_K on AMX: the groups unpacked per call with the
     * block scales in the quants (gemm_q45_K_amx.c, gemm_q6_K_amx.c),
     * signed activations */
    bool k_amx;
    /* Q4_0, Q5_0, Q4_1, Q5_1 and Q8_0 the same way
     * (gemm_q450_groups_avx512.c); Q4_0 / Q5_0 / Q8_0 then take their
     * offset (8, 16, 128) times each activation block's sum off in the
     * kernel: act_corr, n_rows × n_blocks, holds minus that (the sums
     * start from it) */
    bool q450_groups;
    int32_t *act_corr;
} matmul_job;

/* Whether the int8 GEMM reads the weights' interleaved groups as they are
 * (panel p is group p, nothing packed) with signed activations. */
static bool reads_groups(const matmul_job *j) { return j->in_place || j->q45_K_groups || j->q450_groups; }

/* Output rows [o0, o1) of one part, every activation row. */
static void dot_rows(const matmul_job *j, const matmul_part *pt, int64_t o0, int64_t o1) {
    const seer_weight *w = pt->w;
    const float *bias = pt->bias;
    const char *wrow = (const char *)w->data + (size_t)o0 * w->row_bytes;
    for (int64_t o = o0; o < o1; o++, wrow += w->row_bytes) {
        int64_t r = 0;
        if (j->dot4) {
            for (; r + 4 <= j->n_rows; r += 4) {
                float v[4];
                j->dot4(w->n_in, wrow, (const char *)j->act + (size_t)r * j->act_row_bytes, j->act_row_bytes, v);
                for (int k = 0; k < 4; k++) pt->y[(r + k) * w->n_out + o] = bias ? v[k] + bias[o] : v[k];
            }
        }
        for (; r < j->n_rows; r++) {
            const void *a = (const char *)j->act + (size_t)r * j->act_row_bytes;
            float v = j->dot(w->n_in, wrow, a);
            pt->y[r * w->n_out + o] = bias ? v + bias[o] : v;
        }
    }
}

/* A whole 64-byte line of results to y with streaming stores, which write
 * the line without first reading it in: a prompt's outputs (5-45 MB at
 * 128-512 rows) are far larger than the caches, so every ordinary store
 * to them began with a read of the line from memory. Products of fewer
 * than STREAM_MIN_ROWS rows (decode, a few conversations decoding
 * together, a mixture's experts) keep ordinary stores: their outputs are
 * small and read at once, from cache. The caller fences (stream_fence)
 * before its results are read. */
#define STREAM_MIN_ROWS 16
static inline bool job_streams(const matmul_job *j) { return j->n_rows >= STREAM_MIN_ROWS; }

static inline void stream_line(float *y, const float *line) {
#if defined(__x86_64__)
    for (int q = 0; q < 16; q += 4) _mm_stream_ps(y + q, _mm_loadu_ps(line + q));
#else
    memcpy(y, line, 64);
#endif
}

static inline void stream_fence(void) {
#if defined(__x86_64__)
    _mm_sfence(); /* streaming stores are not ordered with the pool's signal that the job is done */
#endif
}

/* A group's passes after its first (the several-row kernels take 4
 * activation rows a pass) find it in cache and ask nothing of memory, so
 * the next group's first pass started cold. Where groups are small (an
 * expert's down product: Q6_K 512 wide is 6.7 KB), each later pass asks
 * for its share of the next group's lines into L2. One Zen 5 core, ~96 MB
 * of 2048-row matrices called in turn, alternated, GOP/s: Q6_K 512 wide 8
 * rows 255 -> 308, 16 rows 293 -> 333; 768 wide 262 -> 302, 302 -> 338;
 * 1024 wide 262 -> 284, 309 -> 334; Q5_0 and Q8_0 704 wide level to +7%.
 * Past 16 KiB the requests come in bursts the core cannot take: Q8_0 2048
 * wide (34 KB) 5 rows 237 -> 190, Q6_K 2048 wide 5 rows 228 -> 217. */
#define NEXT_GROUP_AHEAD_MAX (16u << 10)
static void next_group_share_ahead(const char *next, size_t group_bytes, int64_t share, int64_t shares) {
    const size_t from = group_bytes * (size_t)share / (size_t)shares / 64 * 64;
    const size_t to = group_bytes * (size_t)(share + 1) / (size_t)shares;
    for (size_t at = from; at < to; at += 64) __builtin_prefetch(next + at, 0, 2);
}

/* The bytes of activation rows a block of dot_groups takes (below). The
 * 16-bit path's rows are twice as large and each block widens every group
 * again, so it takes half the L2 where that is more: Q8_0 2048 x 8192 at
 * 256 rows on one Zen 4 core (1 MiB of L2), 256 KiB -> 512 KiB, 123-131 ->
 * 143-145 GOP/s (the widening 17% of the time at 61 rows a block). */
static size_t act_block_bytes(const matmul_job *j) {
    const size_t base = (size_t)256 << 10, half_l2 = (size_t)seer_cpu_l2_bytes() / 2;
    return j->wide && half_l2 > base ? half_l2 : base;
}

/* Output rows [o0, o1) of an interleaved part, 16 at a time: a group is
 * computed by the range its first row falls in (one that began before o0
 * belongs to the range before), so every row goes through the group kernel
 * however the rows are split between threads. */
static void dot_groups(const matmul_job *j, const matmul_part *pt, int64_t o0, int64_t o1, int ith) {
    const seer_weight *w = pt->w;
    size_t group_bytes = seer_interleave_group_bytes(w->type, w->n_in);
    /* The activation rows a block at a time, a block small enough to stay
     * in L2 while the range's groups pass over it: a whole 512-row prompt's
     * rows (1.2 MB at 2048 inputs) came from L3 for every group, and one Zen
     * 3 core (512 KiB of L2) ran Q4_K 2048 x 4096 at 132 GOP/s there against
     * 176 at 128 rows. A group is read again for every block, a few KB
     * against a block's many MOP of work. */
    const bool stream = job_streams(j);
    const int most = j->dot16_rows ? j->dot16_rows_most : 1;
    int64_t block = (int64_t)act_block_bytes(j) / (int64_t)j->act_row_bytes / most * most;
    if (block < 4 * most) block = 4 * most;
    for (int64_t r0 = 0; r0 < j->n_rows; r0 += block) {
        const int64_t r1 = j->n_rows - r0 < block ? j->n_rows : r0 + block;
        for (int64_t g = (o0 + SEER_ILV_ROWS - 1) / SEER_ILV_ROWS; g * SEER_ILV_ROWS < o1; g++) {
            const char *group = (const char *)w->interleaved + (size_t)g * group_bytes;
            const char *read = group; /* what the kernel reads: the group, or (wide) it widened */
            if (j->wide) {
                read = (const char *)j->wide_groups + (size_t)ith * seer_q8_0_wide_group_bytes(w->n_in);
                seer_q8_0_wide_group(w->n_in, group, (void *)read);
            }
            const int64_t passes = j->dot16_rows ? (r1 - r0 + most - 1) / most : 1;
            const bool next_ahead =
                passes > 1 && group_bytes <= NEXT_GROUP_AHEAD_MAX && (g + 1) * SEER_ILV_ROWS < o1;
            for (int64_t r = r0, pass = 0; r < r1; pass++) {
                float v[SEER_DOT16_MAX_ROWS][SEER_ILV_ROWS];
                const char *act = (const char *)j->act + (size_t)r * j->act_row_bytes;
                int nr = 1;
                if (next_ahead && pass > 0) next_group_share_ahead(group + group_bytes, group_bytes, pass - 1, passes - 1);
                if (j->dot16_rows) {
                    /* the rows left shared evenly among the passes left:
                     * 8 rows as 4 + 4, not 6 + 2, since a pass of few rows
                     * runs at a few rows' rate (one Zen 5 core, 11008 x
                     * 2048 Q6_K in cache, 8 rows 309-311 GOP/s as 6 + 2,
                     * 320-324 as 4 + 4) */
                    nr = (int)((r1 - r + (passes - pass) - 1) / (passes - pass));
                    j->dot16_rows(w->n_in, read, act, j->act_row_bytes, nr, v[0]);
                } else {
                    j->dot16(w->n_in, group, act, v[0]);
                }
                for (int i = 0; i < nr; i++, r++) {
                    float *y = pt->y + r * w->n_out + g * SEER_ILV_ROWS;
                    if (pt->bias) seer_add(v[i], pt->bias + g * SEER_ILV_ROWS, SEER_ILV_ROWS);
                    if (stream && ((uintptr_t)y & 63) == 0) stream_line(y, v[i]);
                    else memcpy(y, v[i], sizeof v[i]); /* inlined: one vector store, not 16 scalar ones */
                }
            }
        }
    }
    if (stream) stream_fence();
}

/* Rows [g0, g1) of all parts' outputs laid end to end. */
static void dot_range(void *ctx, int64_t g0, int64_t g1, int ith) {
    const matmul_job *j = ctx;
    int64_t base = 0;
    for (int p = 0; p < j->n_parts && base < g1; p++) {
        int64_t n_out = j->parts[p].w->n_out;
        int64_t o0 = g0 - base > 0 ? g0 - base : 0, o1 = g1 - base < n_out ? g1 - base : n_out;
        if (o0 < o1 && j->parts[p].w->interleaved) dot_groups(j, &j->parts[p], o0, o1, ith);
        else if (o0 < o1) dot_rows(j, &j->parts[p], o0, o1);
        base += n_out;
    }
}

static void quantize_act_range(void *ctx, int64_t r0, int64_t r1, int ith) {
    const matmul_job *j = ctx;
    for (int64_t r = r0; r < r1; r++) {
        const float *src = j->x + r * j->w->n_in;
        void *dst = (char *)j->act + (size_t)r * j->act_row_bytes;
        /* wide: the Q8_0 row (with its scales) first, in this thread's row */
        void *q = j->wide ? (char *)j->qrows + (size_t)ith * seer_q8_0_rows_bytes(j->w->n_in) : dst;
        seer_quantize_row(j->act_type, src, q, j->w->n_in);
        if (j->act_rows_tail) seer_q8_0_tail_fill(q, j->w->n_in);
        if (j->wide) seer_q8_0_wide_act_row(j->w->n_in, q, dst);
    }
}

/* Activations rounded through the vec_dot type and expanded back to f32. */
static void round_act_range(void *ctx, int64_t r0, int64_t r1, int ith) {
    const matmul_job *j = ctx;
    int64_t n_in = j->w->n_in;
    void *q = (char *)j->qrows + (size_t)ith * j->act_row_bytes;
    for (int64_t r = r0; r < r1; r++) {
        const float *src = j->x + (j->row0 + r) * n_in;
        if (j->act_type == SEER_TYPE_F16) { /* F16 weights: one pass (two were 3% of an F16 encoder's time) */
            seer_f32_round_fp16_row(src, j->xf + r * n_in, n_in);
            continue;
        }
        seer_quantize_row(j->act_type, src, q, n_in);
        seer_dequantize_row(j->act_type, q, j->xf + r * n_in, n_in);
    }
}

/* Panels [p0, p1) of 16 weight rows times the chunk's rows [r0, r1):
 * packed a group at a time (the group stays in L2), then multiplied as a
 * packed operand (seer_f32_gemm_packed: K slices, blocks of rows, blocks of
 * panels). Each output's sum runs over the same slices in the same order
 * whatever the split: results do not depend on the threads. */
static void f32_panels_rows(const matmul_job *j, int64_t p0, int64_t p1, int64_t r0, int64_t r1, int ith) {
    const seer_weight *w = j->w;
    const int64_t n_out = w->n_out, n_in = w->n_in;
    const size_t pf = seer_f32_panel_floats(n_in);
    float *pack = j->tiles + (size_t)ith * ((size_t)j->panel_group + 1) * pf;
    float *tmp = pack + (size_t)j->panel_group * pf; /* 16 dequantized rows */
    float *y = j->y + (j->row0 + r0) * n_out;
    for (int64_t g0 = p0; g0 < p1; g0 += j->panel_group) {
        const int64_t g1 = g0 + j->panel_group < p1 ? g0 + j->panel_group : p1;
        for (int64_t p = g0; p < g1; p++) seer_f32_panel_pack(w, 16 * p, pack + (size_t)(p - g0) * pf, tmp);
        const int64_t o1 = 16 * g1 < n_out ? 16 * g1 : n_out;
        seer_f32_gemm_packed_bias(&j->f32, r1 - r0, o1 - 16 * g0, n_in, j->xf + r0 * n_in, (size_t)n_in, pack,
                                  y + 16 * g0, (size_t)n_out, j->bias ? j->bias + 16 * g0 : NULL);
    }
}

/* The panel GEMMs' units of work (FP32, BF16): unit u is part
 * u % row_parts of the rows times block u / row_parts of unit_panels
 * panels. With whole blocks of all the rows as units, the thread that
 * finished first waited for up to a block of 4 panels × every row of the
 * pass; parts of ~GEMM_PART_ROWS rows are what the threads' last claims
 * take. Returns the number of units for n_rows rows, parts whole
 * multiples of row_align rows. */
static int64_t units_set(matmul_job *j, int64_t n_rows, int64_t row_align, int64_t unit_panels) {
    const int64_t parts = n_rows / GEMM_PART_ROWS > 1 ? n_rows / GEMM_PART_ROWS : 1;
    j->unit_panels = unit_panels;
    j->part_rows = ((n_rows + parts - 1) / parts + row_align - 1) / row_align * row_align;
    j->row_parts = n_rows > 0 ? (n_rows + j->part_rows - 1) / j->part_rows : 1;
    return ((j->w->n_out + 15) / 16 + unit_panels - 1) / unit_panels * j->row_parts;
}

/* Panels [p0, p1) times rows [r0, r1) of the pass. */
typedef void (*panels_rows_fn)(const matmul_job *j, int64_t p0, int64_t p1, int64_t r0, int64_t r1, int ith);

/* Units [u0, u1) of a pass of n_rows rows: a claim's whole blocks go to fn
 * together (a group's panels packed once for all the rows); a block
 * whose parts are split between claims is packed by each. */
static void units_walk(const matmul_job *j, int64_t u0, int64_t u1, int ith, int64_t n_rows, panels_rows_fn fn) {
    const int64_t rp = j->row_parts, bp = j->unit_panels, n_panels = (j->w->n_out + 15) / 16;
    while (u0 < u1) {
        const int64_t b = u0 / rp, part = u0 % rp;
        int64_t b1 = b + 1, part1 = rp; /* up to block b1 (whole blocks) or part part1 of block b */
        if (part == 0 && u1 - u0 >= rp) b1 = b + (u1 - u0) / rp;
        else if (u1 < (b + 1) * rp) part1 = u1 - b * rp;
        const int64_t p0 = b * bp, p1 = b1 * bp < n_panels ? b1 * bp : n_panels;
        const int64_t r0 = part * j->part_rows, r1 = part1 * j->part_rows < n_rows ? part1 * j->part_rows : n_rows;
        fn(j, p0, p1, r0, r1, ith);
        u0 = b1 > b + 1 ? b1 * rp : b * rp + part1;
    }
}

static void f32_gemm_range(void *ctx, int64_t u0, int64_t u1, int ith) {
    const matmul_job *j = ctx;
    units_walk(j, u0, u1, ith, j->chunk_rows, f32_panels_rows);
}

/* Activations for the int8 GEMM, quantized to the weight type's vec_dot
 * type as llama.cpp does (Q8_0, Q8_1 for Q4_1 / Q5_1, or Q8_K for K-quants), stored as unsigned
 * bytes q+128 with a float scale per block of 32 and, for weights with
 * mins, the block's scaled sum. */
static void q8_act_range(void *ctx, int64_t r0, int64_t r1, int ith) {
    const matmul_job *j = ctx;
    int64_t n_in = j->w->n_in, nb = n_in / 32;
    uint8_t *q = (uint8_t *)j->qrows + (size_t)ith * j->act_row_bytes;
    const uint8_t offset = reads_groups(j) || j->k_amx ? 0 : 0x80; /* signed bytes (TDPBS*D, groups in place), else q + 128 */
    const int corr_mul = j->w->type == SEER_TYPE_Q8_0 ? -128 : j->w->type == SEER_TYPE_Q5_0 ? -16 : -8;
    if (j->act_type == SEER_TYPE_Q8_0 && !j->act_s && !j->act_sums && seer_simd_level() >= SEER_SIMD_AVX512) {
        /* straight into the GEMM's arrays, not through the block format
         * unpacked block by block (SmolVLM-256M's Q8_0 products at 128
         * rows, one Zen 5 core: 576 x 1536 0.400 -> 0.382-0.391 ms) */
        for (int64_t r = r0; r < r1; r++)
            seer_q8_0_gemm_row_avx512(j->x + r * n_in, n_in, offset, j->act_u8 + r * n_in, j->act_d + r * nb,
                                      j->act_corr ? j->act_corr + r * nb : NULL, corr_mul);
        return;
    }
    if (j->act_type == SEER_TYPE_Q8_K && !j->act_s && !j->act_corr && seer_simd_level() >= SEER_SIMD_AVX512) {
        /* the same for Q8_K (the K-quants' prompts) */
        for (int64_t r = r0; r < r1; r++)
            seer_q8_K_gemm_row_avx512(j->x + r * n_in, n_in, offset, j->act_u8 + r * n_in, j->act_d + r * nb,
                                      j->act_sums ? j->act_sums + r * nb * (j->act_sums_by_16 ? 2 : 1) : NULL,
                                      j->act_sums_by_16);
        return;
    }
    for (int64_t r = r0; r < r1; r++) {
        seer_quantize_row(j->act_type, j->x + r * n_in, q, n_in);
        for (int64_t b = 0; b < nb; b++) {
            const int8_t *qs;
            float d, s = 0;
            if (j->act_type == SEER_TYPE_Q8_K) {
                const uint8_t *blk = q + (b / 8) * 292; /* float d, qs[256], bsums */
                memcpy(&d, blk, 4);
                qs = (const int8_t *)blk + 4 + 32 * (b % 8);
            } else if (j->act_type == SEER_TYPE_Q8_1) { /* Q4_1 / Q5_1: its d · Σ q as stored */
                const uint8_t *blk = q + b * 36;
                uint16_t h[2];
                memcpy(h, blk, 4);
                d = seer_fp16_to_f32(h[0]);
                s = seer_fp16_to_f32(h[1]);
                qs = (const int8_t *)blk + 4;
            } else {
                const uint8_t *blk = q + b * 34;
                uint16_t h;
                memcpy(&h, blk, 2);
                d = seer_fp16_to_f32(h);
                qs = (const int8_t *)blk + 2;
            }
            j->act_d[r * nb + b] = d;
            if (j->act_sums) { /* Q8_K: the quants' sums by 16, as they are (Q2_K: mins by 16) or in pairs */
                int16_t bs[2];
                memcpy(bs, q + (b / 8) * 292 + 4 + 256 + 4 * (b % 8), sizeof bs);
                if (j->act_sums_by_16) memcpy(j->act_sums + 2 * (r * nb + b), bs, sizeof bs);
                else j->act_sums[r * nb + b] = (int16_t)(bs[0] + bs[1]);
            }
            /* the bytes a word at a time (byte by byte, this loop took as
             * long as the quantization itself) */
            uint64_t words[4];
            memcpy(words, qs, 32);
            const bool q8_1 = j->act_type == SEER_TYPE_Q8_1;
            /* the block's quants, for the groups' offset or the mins' term */
            const int sum = j->act_corr || (j->act_s && !q8_1) ? seer_signed_bytes_sum32(words) : 0;
            for (int k = 0; k < 4; k++) words[k] ^= offset * 0x0101010101010101u;
            memcpy(j->act_u8 + r * n_in + 32 * b, words, 32);
            if (j->act_corr) j->act_corr[r * nb + b] = corr_mul * sum;
            if (j->act_s) j->act_s[r * nb + b] = q8_1 ? s : d * (float)sum;
        }
    }
}

/* One block of results (nr prompt rows × cnt ≤ 16 weight rows, in rows
 * of 16) into y, whose rows are ld apart (+ bias from the block's first
 * column, or NULL); with stream, whole aligned lines go out as streaming
 * stores (stream_line). The bias test is outside the row so that the copy
 * is a vector move: with it inside, the stores were 10% of a prompt. */
static inline void store_block(float *y, int64_t ld, const float *bias, const float *out, int nr, int64_t cnt,
                               bool stream) {
    const bool lines = stream && cnt == SEER_Q8_PANEL_ROWS && ((uintptr_t)y & 63) == 0 && ld % 16 == 0;
    for (int k = 0; k < nr; k++) {
        float *d = y + k * ld;
        const float *o = out + SEER_Q8_PANEL_ROWS * k;
        if (lines && bias) {
            float sum[SEER_Q8_PANEL_ROWS];
            seer_add_into(sum, o, bias, SEER_Q8_PANEL_ROWS);
            stream_line(d, sum);
        } else if (lines) stream_line(d, o);
        else if (bias) seer_add_into(d, o, bias, cnt); /* one pass, no read-back of what the copy wrote */
        else memcpy(d, o, sizeof(float) * (size_t)cnt);
    }
}

/* Bytes of one panel of w as the job packs it. */
static size_t job_panel_bytes(const matmul_job *j, const seer_weight *w) {
    if (!j->k_amx) return seer_q8_panel_bytes(w->type, w->n_in / 32);
    return (size_t)(w->n_in / 256) * (w->type == SEER_TYPE_Q6_K ? SEER_Q6_K_AMX_SB_BYTES : SEER_Q45_K_AMX_SB_BYTES);
}

/* Panels [p0, p1) of SEER_Q8_PANEL_ROWS rows of one part's weight,
 * packed group by group. */
static void q8_gemm_part(const matmul_job *j, const matmul_part *part, int64_t p0, int64_t p1, int64_t r0, int64_t r1,
                         int ith) {
    const seer_weight *w = part->w;
    float *y = part->y;
    const float *bias = part->bias;
    int64_t n_in = w->n_in, n_out = w->n_out, nb = n_in / 32;
    const int R = SEER_Q8_PANEL_ROWS;
    const size_t pb = job_panel_bytes(j, w);
    /* this thread's packed group, or (in place) none: panel p is group p */
    const bool groups = reads_groups(j);
    uint8_t *pack = groups ? NULL : j->panels + (size_t)ith * (size_t)j->panel_group * pb;
    const size_t stride = groups ? seer_interleave_group_bytes(w->type, n_in) : pb;
    for (int64_t g0 = p0; g0 < p1; g0 += j->panel_group) {
        int64_t g1 = g0 + j->panel_group < p1 ? g0 + j->panel_group : p1;
        for (int64_t p = g0; p < g1 && pack; p++) {
            uint8_t *dst = pack + (size_t)(p - g0) * pb;
            if (!j->k_amx) {
                seer_q8_panel_pack(w, R * p, dst);
                continue;
            }
            const uint8_t *group = (const uint8_t *)w->interleaved + (size_t)p * seer_interleave_group_bytes(w->type, n_in);
            if (w->type == SEER_TYPE_Q6_K) seer_q6_K_amx_pack(group, nb / 8, dst);
            else seer_q45_K_amx_pack(w->type == SEER_TYPE_Q5_K, group, nb / 8, dst);
        }
        const uint8_t *base = pack ? pack : (const uint8_t *)w->interleaved + (size_t)g0 * stride; /* panel g0 */
        const int rows_step = j->k_amx   ? (w->type == SEER_TYPE_Q6_K ? SEER_Q6_K_AMX_ROWS : SEER_Q45_K_AMX_ROWS)
                              : j->amx_fn ? SEER_Q8_PANEL_ROWS
                                          : SEER_Q8_PANEL_MAX_ROWS;
        const int panels_step = j->k_amx ? SEER_K_AMX_PANELS : j->amx_fn ? 1 : 2;
        const size_t out_floats = (size_t)rows_step * R; /* a panel's results in out */
        for (int64_t r = r0; r < r1; r += rows_step) {
            int nr = r1 - r < rows_step ? (int)(r1 - r) : rows_step;
            for (int64_t p = g0; p < g1; p += panels_step) {
                float out[SEER_K_AMX_PANELS * SEER_Q45_K_AMX_ROWS * SEER_Q8_PANEL_ROWS] __attribute__((aligned(64)));
                const int np = g1 - p < panels_step ? (int)(g1 - p) : panels_step;
                const uint8_t *pan = base + (size_t)(p - g0) * stride;
                const uint8_t *act = j->act_u8 + r * n_in;
                const float *ad = j->act_d + r * nb, *as = j->act_s ? j->act_s + r * nb : NULL;
                if (j->amx_fn) j->amx_fn(nb, pan, act, (size_t)n_in, ad, as, (size_t)nb, nr, out);
                else if (j->k_amx && w->type == SEER_TYPE_Q6_K)
                    seer_q6_K_amx(nb / 8, pan, stride, np, (const int8_t *)act, (size_t)n_in, ad, (size_t)nb, nr, out);
                else if (j->k_amx)
                    seer_q45_K_amx(nb / 8, pan, stride, np, (const int8_t *)act, (size_t)n_in, ad, j->act_sums + r * nb,
                                   (size_t)nb, nr, out);
                else if (j->q45_K_groups)
                    seer_q8_groups_q45_K_avx512(w->type == SEER_TYPE_Q5_K, nb, pan, p + 1 < g1 ? pan + stride : NULL,
                                                (const int8_t *)act, (size_t)n_in, ad, j->act_sums + r * nb, (size_t)nb,
                                                nr, out, out + out_floats, r == r0);
                else if (j->q450_groups)
                    seer_q8_groups_q450_avx512(w->type, nb, pan, p + 1 < g1 ? pan + stride : NULL, (const int8_t *)act,
                                               (size_t)n_in, ad, j->act_corr ? j->act_corr + r * nb : NULL, as, (size_t)nb,
                                               nr, out, out + out_floats, r == r0);
                else if (j->sb_kernel)
                    seer_q8_panels_sb_avx512(nb, pan, p + 1 < g1 ? pan + pb : NULL, act, (size_t)n_in, ad,
                                             j->act_sums ? j->act_sums + r * nb * (j->act_sums_by_16 ? 2 : 1) : NULL,
                                             (size_t)nb, nr, out, out + out_floats,
                                             seer_q8_panel_halves(w->type));
                else if (p + 1 < g1)
                    j->panel2_fn(nb, pan, pan + pb, act, (size_t)n_in, ad, as, (size_t)nb, nr, out, out + out_floats);
                else j->panel_fn(nb, pan, act, (size_t)n_in, ad, as, (size_t)nb, nr, out);
                for (int64_t q = p; q < p + np; q++) {
                    int64_t o0 = R * q, cnt = n_out - o0 < R ? n_out - o0 : R;
                    store_block(y + r * n_out + o0, n_out, bias ? bias + o0 : NULL, out + (size_t)(q - p) * out_floats, nr,
                                cnt, job_streams(j));
                }
                _Static_assert(SEER_Q45_K_AMX_ROWS >= SEER_Q8_PANEL_ROWS && SEER_K_AMX_PANELS >= 2 &&
                                   SEER_Q8_PANEL_ROWS >= SEER_Q8_PANEL_MAX_ROWS && SEER_Q45_K_AMX_ROWS >= SEER_Q6_K_AMX_ROWS,
                               "every kernel's panels fit out");
            }
        }
    }
    if (job_streams(j)) stream_fence();
    seer_amx_tiles_release(); /* the tile kernels leave them configured from call to call */
}

_Static_assert(SEER_MATMUL_ROW_GRAIN % SEER_Q8_PANEL_ROWS == 0, "a thread's rows are whole AMX row blocks");
static int64_t q8_panels_of(const seer_weight *w) { return (w->n_out + SEER_Q8_PANEL_ROWS - 1) / SEER_Q8_PANEL_ROWS; }

/* Panels [p0, p1) counted over all the parts, one after the other: the
 * parts of a fused product are one dispatch, so its threads wait for each
 * other once, not once per part. */
static void q8_gemm_range(void *ctx, int64_t p0, int64_t p1, int ith) {
    const matmul_job *j = ctx;
    int64_t first = 0;
    for (int i = 0; i < j->n_parts && p0 < p1; i++) {
        int64_t n = q8_panels_of(j->parts[i].w);
        if (p0 < first + n) {
            int64_t end = p1 < first + n ? p1 : first + n;
            q8_gemm_part(j, &j->parts[i], p0 - first, end - first, 0, j->n_rows, ith);
            p0 = end;
        }
        first += n;
    }
}

/* Prompt rows [r0, r1) through every part: quantized, then multiplied by
 * all the weights (read in place, so no thread packs what another does too). */
static void q8_rows_range(void *ctx, int64_t r0, int64_t r1, int ith) {
    const matmul_job *j = ctx;
    q8_act_range(ctx, r0, r1, ith);
    for (int i = 0; i < j->n_parts; i++)
        q8_gemm_part(j, &j->parts[i], 0, q8_panels_of(j->parts[i].w), r0, r1, ith);
}

/* Panels per group (at least `least`): a group of panels of panel_bytes
 * stays in L2 while every activation row streams by. */
static int64_t panel_group_of(size_t panel_bytes, int64_t least) {
    int64_t g = (int64_t)((512u << 10) / panel_bytes);
    return g < least ? least : g;
}

static int64_t q8_panel_group(const seer_weight *w) { return panel_group_of(seer_q8_panel_bytes(w->type, w->n_in / 32), 1); }

/* Whether every part is interleaved and of the first part's type (one
 * kernel reads them all in place). */
static bool parts_interleaved_alike(const matmul_job *j) {
    for (int p = 0; p < j->n_parts; p++)
        if (j->parts[p].w->type != j->w->type || !j->parts[p].w->interleaved) return false;
    return true;
}

/* Rows below which the int8 GEMM reads a type's interleaved groups in place
 * (0: never). Q4_K's nibbles take two instructions a vector to unpack; the
 * others' values 3 (Q4_0, Q4_1) or 7 (with fifth bits), which the packed
 * panels pay once per call and the groups once per 6 rows: one Zen 5
 * core, CPU time, packed -> in place, 2112 x 2816 Q5_0: 32 rows (704 x
 * 2816) 0.41 -> 0.30 ms, 64 rows 2.29 -> 2.05, 96 rows 3.07 -> 3.14, 512
 * rows 11.4 -> 15.5; 2048 x 2048 Q4_0: 16 rows 0.79 -> 0.30, 96 rows 2.06
 * -> 1.88, 128 rows 2.61 -> 2.54, 192 rows 3.62 -> 3.89; 2048 x 2048 Q5_K:
 * 32 rows 0.69 -> 0.50, 64 rows 1.15 -> 1.05, 128 rows 2.09 -> 2.16, 512
 * rows 7.8 -> 8.9. Since the Q4_0 family's kernel takes two groups at a
 * time (same core, 2048 x 2048, one process switching per call, packed
 * -> in place): Q4_0 96 rows 1.75 -> 1.64 ms, 192 rows 2.99 -> 2.90, 256
 * rows 3.94 -> 3.98, 512 rows 8.47 -> 8.51; Q4_1 128 rows 2.98 -> 2.60,
 * 512 rows 10.5 -> 10.0; Q5_1 128 rows 3.14 -> 2.80, 512 rows 10.7 ->
 * 10.6; Q5_0 96 rows 1.71 -> 1.77, 256 rows 4.00 -> 4.30 (so it keeps 96).
 * Q8_0's quants take one XOR a vector (to q + 128); packed ->
 * in place: 2048 x 2048, 64 rows 1.31 -> 1.02 ms, 96 rows 2.23 -> 2.11,
 * 128 rows 2.24 -> 2.08, 256 rows 4.27 -> 4.35, 512 rows 8.3 -> 8.7;
 * outputs x inputs 1536 x 576, 576 x 1536 and 11008 x 2048: 128 rows 0.50
 * -> 0.42, 0.53 -> 0.54, 12.2 -> 12.0; 192 rows 0.80 -> 0.80, 0.74 ->
 * 0.68, 17.2 -> 18.2.
 * Below 64 rows it replaces the decode kernels (see gemm_min_rows): 16
 * rows 0.41 -> 0.24, 32 rows 0.80 -> 0.53. */
static int64_t groups_below(int type) {
    if (type == SEER_TYPE_Q4_K || type == SEER_TYPE_Q4_1 || type == SEER_TYPE_Q5_1) return INT64_MAX;
    if (type == SEER_TYPE_Q4_0) return 256;
    if (type == SEER_TYPE_Q8_0) return 192;
    if (type == SEER_TYPE_Q5_K || type == SEER_TYPE_Q5_0) return 96;
    return 0;
}

static void matmul_gemm_q8(seer_pool *pool, matmul_job *j) {
    int nth = seer_pool_size(pool);
    int64_t n_in = j->w->n_in, nb = n_in / 32;
    bool has_min = j->w->type == SEER_TYPE_Q4_K || j->w->type == SEER_TYPE_Q5_K || j->w->type == SEER_TYPE_Q4_1 ||
                   j->w->type == SEER_TYPE_Q5_1 || j->w->type == SEER_TYPE_Q2_K;
    j->act_row_bytes = seer_row_bytes(j->act_type, n_in);
    j->act_u8 = scratch(pool, SEER_SCRATCH_MATMUL_ACT, (size_t)j->n_rows * (size_t)n_in);
    j->act_d = scratch(pool, SEER_SCRATCH_MATMUL_ACT_D, (size_t)j->n_rows * (size_t)nb * sizeof(float));
    const int t0 = j->w->type;
    /* AMX tiles take Q8_0 read in place (below) and Q4_K, Q5_K and Q6_K
     * with the block scales unpacked into the quants (seer_k_amx_takes);
     * the other types' panel products were slower on the tiles than the
     * AVX-512 kernels (one Sapphire Rapids core, 2048 x 2048 at 128 rows,
     * best of alternated runs: Q6_K's panels 95 against 134 GMAC/s, Q3_K
     * 90 / 136, IQ4_XS 99 / 126, Q4_1 74 / 91; Q4_0 150 / 146), since every
     * block of 32's sums are stored from the tile to take their float
     * scale. Q4_K: 16 rows 142 / 158, 32 rows 198 / 155, 128 rows 263 /
     * 151; Q6_K: 32 rows 108 / 96, 128 rows 144 / 99, 512 rows 185 / 138. */
    j->k_amx = seer_k_amx_takes(t0, j->n_rows) && j->act_type == SEER_TYPE_Q8_K && parts_interleaved_alike(j);
    j->amx_fn = NULL;
    j->sb_kernel = seer_q8_sb_kernel_takes(t0) && j->act_type == SEER_TYPE_Q8_K;
    j->q450_groups = !seer_q8_sb_kernel_takes(t0) && seer_q8_groups_avx512_built() &&
                     j->n_rows < groups_below(t0) && parts_interleaved_alike(j);
    void *sums = has_min || j->q450_groups ? scratch(pool, SEER_SCRATCH_MATMUL_ACT_S, (size_t)j->n_rows * (size_t)nb * sizeof(float)) : NULL;
    j->act_s = j->sb_kernel || !has_min ? NULL : sums;
    j->act_corr = j->q450_groups && !has_min ? sums : NULL;
    j->act_sums = j->sb_kernel ? sums : NULL; /* a float per block: room for Q2_K's two int16 */
    j->act_sums_by_16 = seer_q8_panel_halves(j->w->type); /* with mins, as the kernel reads them: Q2_K */
    j->qrows = scratch(pool, SEER_SCRATCH_MATMUL_QROW, j->act_row_bytes * (size_t)nth);
    size_t pb = job_panel_bytes(j, j->w);
    /* two panels at least where two fit in L2: the kernels take panels in
     * pairs, each activation broadcast serving both, and a group of one (a
     * panel in halves past 256 KiB: Q6_K, Q3_K or Q2_K 10,923 or more wide,
     * an 11008-wide FFN's down projection) sent every row through the
     * one-panel kernel. Q6_K 2048 x 11008 at 128 rows, one Zen 5 core, CPU
     * time, best of 20 alternated in one process: 394 / 396 -> 436 / 434
     * GOP/s; Q3_K 422 / 434 -> 468 / 463. */
    j->panel_group = panel_group_of(pb, 2 * pb <= (size_t)seer_cpu_l2_bytes() ? 2 : 1);
    const bool halves = seer_q8_panel_halves(j->w->type);
    j->panel_fn = halves ? seer_q8_panel_halves_avx512 : seer_q8_panel_avx512;
    j->panel2_fn = halves ? seer_q8_panel2_halves_avx512 : seer_q8_panel2_avx512;
    j->in_place = true;
    for (int p = 0; p < j->n_parts; p++) j->in_place = j->in_place && seer_matmul_rows_supported(j->parts[p].w);
    if (j->in_place) j->amx_fn = seer_q8_0_group_amx;
    j->q45_K_groups = !j->k_amx && j->sb_kernel && seer_q8_groups_avx512_built() && j->n_rows < groups_below(t0) &&
                      parts_interleaved_alike(j);
    /* an even number of groups: the kernel takes them in pairs (an odd
     * one alone, at 6 rows a call, was 8% of a 512-token prompt's kernel time) */
    if (j->q45_K_groups || j->q450_groups) j->panel_group = panel_group_of(seer_interleave_group_bytes(t0, n_in), 2) / 2 * 2;
    /* read in place, nothing is packed: no per-thread panel buffers */
    j->panels = reads_groups(j) ? NULL : scratch(pool, SEER_SCRATCH_MATMUL_TILE, (size_t)nth * (size_t)j->panel_group * pb);
    if (j->act_u8 && j->act_d && j->qrows && (j->panels || reads_groups(j)) && (sums || !has_min)) {
        /* Q8_0 read in place: each thread takes its share of the rows
         * through every part (nothing is packed, so nothing twice), the
         * same share as the decoder's row passes (seer_pool_split): what
         * one writes, the next reads from its own core's cache */
        if (j->in_place && j->n_rows >= SEER_MATMUL_ROW_GRAIN * nth) {
            seer_pool_split(pool, j->n_rows, SEER_MATMUL_ROW_GRAIN, q8_rows_range, j);
        } else {
            seer_pool_for(pool, j->n_rows, 1, q8_act_range, j);
            /* the activations, quantized once, serve every part */
            int64_t n_panels = 0;
            for (int p = 0; p < j->n_parts; p++) n_panels += q8_panels_of(j->parts[p].w);
            seer_pool_for(pool, n_panels, 2, q8_gemm_range, j); /* the kernel takes panels in pairs */
        }
    }
}

/* Q8_0 prompts at plain AVX2 in 16-bit products (q8_0_wide_internal.h)
 * from WIDE_MIN_ROWS rows, where a group widened once serves enough rows:
 * the job's kernel, and each thread's buffers for the rows' Q8_0 form and
 * the group it reads. Every part must be interleaved Q8_0 (no part read
 * in the file's layout, whose one-row kernel takes plain Q8_0 rows). One
 * Zen 4 core at SEER_SIMD=avx2, Q8_0 2048 x 8192 (from memory), the
 * several-row Q8_0 kernel -> 16-bit, two rounds: 8 rows 2.13-2.15 ->
 * 3.46-4.60 ms, 32 rows 8.56-8.83 -> 8.46-9.92, 48 rows 13.1-13.4 ->
 * 13.0-14.8, 64 rows 17.7-17.8 -> 15.9-16.1, 128 rows 35.0-39.6 ->
 * 30.5-32.4 (the widening of each group costs as much as a few rows). */
#define WIDE_MIN_ROWS 64
static bool dot_wide(seer_pool *pool, matmul_job *j) {
    const int64_t n_in = j->w->n_in;
    const size_t nth = (size_t)seer_pool_size(pool);
    j->wide = false;
    if (j->n_rows < WIDE_MIN_ROWS || !seer_q8_0_wide_takes(j->w->type, seer_simd_level()) ||
        !parts_interleaved_alike(j))
        return false;
    j->qrows = scratch(pool, SEER_SCRATCH_MATMUL_QROW, seer_q8_0_rows_bytes(n_in) * nth);
    j->wide_groups = scratch(pool, SEER_SCRATCH_MATMUL_TILE, seer_q8_0_wide_group_bytes(n_in) * nth);
    if (!j->qrows || !j->wide_groups) return false; /* the Q8_0 kernel then, which needs neither */
    j->wide = true;
    j->dot16_rows = seer_q8_0_wide_rows;
    j->dot16_rows_most = 4;
    return true;
}

static void matmul_dot(seer_pool *pool, matmul_job *j) {
    const seer_weight *w = j->w;
    int64_t n_out = 0;
    for (int p = 0; p < j->n_parts; p++) n_out += j->parts[p].w->n_out;
    if (j->act_type == SEER_TYPE_F32) {
        j->act = j->x;
        j->act_row_bytes = (size_t)w->n_in * sizeof(float);
    } else {
        /* the several-row kernels take Q8_0 rows with their blocks' sums and scales after them */
        j->act_rows_tail = j->dot16_rows && j->act_type == SEER_TYPE_Q8_0;
        j->act_row_bytes = j->act_rows_tail ? seer_q8_0_rows_bytes(w->n_in) : seer_row_bytes(j->act_type, w->n_in);
        if (j->act_rows_tail && dot_wide(pool, j)) j->act_row_bytes = seer_q8_0_wide_row_bytes(w->n_in);
        j->act = scratch(pool, SEER_SCRATCH_MATMUL_ACT, j->act_row_bytes * (size_t)j->n_rows);
        if (!j->act) return;
        /* a few rows: not worth waking the workers for */
        if (j->n_rows < 4) quantize_act_range(j, 0, j->n_rows, 0);
        else seer_pool_for(pool, j->n_rows, 1, quantize_act_range, j);
    }
    seer_pool_for_streams(pool, n_out, 16, dot_range, j);
}

static void matmul_gemm(seer_pool *pool, matmul_job *j) {
    const seer_weight *w = j->w;
    int nth = seer_pool_size(pool);
    int64_t n_in = w->n_in;
    j->f32 = seer_f32_kernel_get();

    /* (rounding x to F16 again would give x back) */
    bool rounded = j->act_type != SEER_TYPE_F32 && !(j->act_type == SEER_TYPE_F16 && j->x_f16);
    /* equal chunks, a multiple of 16 rows, none above ACT_CHUNK_BYTES unless 16 rows are */
    int64_t fit = (int64_t)(ACT_CHUNK_BYTES / ((size_t)n_in * sizeof(float)));
    int64_t n_chunks = rounded && fit < j->n_rows ? (j->n_rows + fit - 1) / (fit > 0 ? fit : 1) : 1;
    j->chunk_rows = ((j->n_rows + n_chunks - 1) / n_chunks + 15) / 16 * 16;
    if (j->chunk_rows > j->n_rows) j->chunk_rows = j->n_rows;
    if (rounded) {
        j->act_row_bytes = seer_row_bytes(j->act_type, n_in);
        j->xf = scratch(pool, SEER_SCRATCH_MATMUL_ACT, (size_t)j->chunk_rows * (size_t)n_in * sizeof(float));
        j->qrows = scratch(pool, SEER_SCRATCH_MATMUL_QROW, j->act_row_bytes * (size_t)nth);
        if (!j->xf || !j->qrows) return;
    }
    /* whole blocks of panels per group, so that a group's blocks are full but for the matrix's last */
    const size_t pf = seer_f32_panel_floats(n_in);
    const int64_t bp = j->f32.panels;
    j->panel_group = (panel_group_of(pf * sizeof(float), bp) + bp - 1) / bp * bp;
    /* per thread: the group's panels, then 16 dequantized weight rows */
    j->tiles = scratch(pool, SEER_SCRATCH_MATMUL_TILE, (size_t)nth * ((size_t)j->panel_group + 1) * pf * sizeof(float));
    if (!j->tiles) return;
    int64_t n_rows = j->n_rows;
    for (j->row0 = 0; j->row0 < n_rows; j->row0 += j->chunk_rows) {
        if (j->chunk_rows > n_rows - j->row0) j->chunk_rows = n_rows - j->row0;
        if (rounded) seer_pool_for(pool, j->chunk_rows, 1, round_act_range, j);
        else j->xf = (float *)j->x + j->row0 * n_in;
        seer_pool_for(pool, units_set(j, j->chunk_rows, j->f32.row_block, bp), 1, f32_gemm_range, j);
    }
}

/* AMX-BF16 tiles (gemm_f16_internal.h): the activation rows in tile
 * blocks, exact (rounded to F16, split into BF16 hi/lo parts) or rounded
 * to BF16 (one part: seer_bf16_act_row's pairs, a step's 16 to each tile
 * row). */
static void tile_act_range(void *ctx, int64_t r0, int64_t r1, int ith) {
    const matmul_job *j = ctx;
    const int64_t n_in = j->w->n_in, steps = seer_f16_k_padded(n_in) / 32;
    void *row = (char *)j->qrows + (size_t)ith * j->act_row_bytes;
    for (int64_t r = r0; r < r1; r++) {
        uint16_t *dst = j->act_bf16 + seer_tile_act_row_offset(n_in, j->tile_parts, r);
        if (j->tile_parts == 2) {
            seer_quantize_row(SEER_TYPE_F16, j->x + r * n_in, row, n_in);
            seer_f16_act_split(row, n_in, dst);
            continue;
        }
        uint32_t *words = row;
        const int64_t pairs = seer_bf16_pairs(n_in);
        seer_bf16_act_row(j->x + r * n_in, n_in, words);
        memset(words + pairs, 0, (size_t)(16 * steps - pairs) * sizeof(uint32_t)); /* the last step past K */
        for (int64_t s = 0; s < steps; s++) memcpy(dst + 512 * s, words + 16 * s, 64);
    }
}

/* Panel p of w as the tiles read it (tmp: the BF16 packing's 16 rows). */
static void tile_panel_pack(const matmul_job *j, int64_t p, uint8_t *panel, float *tmp) {
    const seer_weight *w = j->w;
    if (j->tile_parts == 2) {
        seer_f16_panel_pack(w, 16 * p, panel);
        return;
    }
    const size_t used = seer_bf16_panel_bytes(w->n_in), whole = seer_tile_panel_bytes(w->n_in, 1);
    seer_bf16_panel_pack(w, 16 * p, panel, tmp);
    memset(panel + used, 0, whole - used); /* the last step's pairs past K */
}

/* Panels [p0, p1) of 16 weight rows: packed a group at a time, then every
 * 32 activation rows times the group, two panels a call. */
static void tile_gemm_range(void *ctx, int64_t p0, int64_t p1, int ith) {
    const matmul_job *j = ctx;
    const seer_weight *w = j->w;
    const int64_t n_out = w->n_out, kp = seer_f16_k_padded(w->n_in);
    const size_t pb = seer_tile_panel_bytes(w->n_in, j->tile_parts);
    uint8_t *pack = j->panels + (size_t)ith * (size_t)j->panel_group * pb;
    float *tmp = (float *)((char *)j->qrows + (size_t)ith * j->act_row_bytes);
    for (int64_t g0 = p0; g0 < p1; g0 += j->panel_group) {
        int64_t g1 = g0 + j->panel_group < p1 ? g0 + j->panel_group : p1;
        for (int64_t p = g0; p < g1; p++) tile_panel_pack(j, p, pack + (size_t)(p - g0) * pb, tmp);
        for (int64_t r = 0; r < j->n_rows; r += 32) {
            const int nr = j->n_rows - r < 32 ? (int)(j->n_rows - r) : 32;
            for (int64_t p = g0; p < g1; p += 2) {
                float out[4][16 * 16]; /* [rows 0-15, 16-31][panel p, p + 1] */
                const uint8_t *pan = pack + (size_t)(p - g0) * pb;
                seer_tile_panels_amx(kp, j->tile_parts, pan, p + 1 < g1 ? pan + pb : NULL,
                                     j->act_bf16 + seer_tile_act_row_offset(w->n_in, j->tile_parts, r), nr, out[0]);
                for (int64_t q = p; q < p + 2 && q < g1; q++) {
                    const int64_t o0 = 16 * q, cnt = n_out - o0 < 16 ? n_out - o0 : 16;
                    for (int h = 0; 16 * h < nr; h++)
                        store_block(j->y + (r + 16 * h) * n_out + o0, n_out, j->bias ? j->bias + o0 : NULL,
                                    out[2 * h + (q - p)], nr - 16 * h < 16 ? nr - 16 * h : 16, cnt,
                                    false); /* the encoders' outputs: streaming them was slower (FP32, Zen 5) */
                }
            }
        }
    }
    seer_amx_tiles_release();
}

/* parts: 2 for F16 weights exactly, 1 for BF16 products. */
static void matmul_gemm_tiles(seer_pool *pool, matmul_job *j, int parts) {
    const int nth = seer_pool_size(pool);
    const int64_t n_in = j->w->n_in, blocks = (j->n_rows + 15) / 16;
    j->tile_parts = parts;
    /* per thread: an F16 activation row, or 16 weight rows as f32 for the BF16 packing (which holds a row's pairs too) */
    j->act_row_bytes = parts == 2 ? (size_t)n_in * sizeof(uint16_t) : 16 * (size_t)n_in * sizeof(float);
    j->act_bf16 = scratch(pool, SEER_SCRATCH_MATMUL_ACT, (size_t)blocks * seer_tile_act_block_elems(n_in, parts) * sizeof(uint16_t));
    j->qrows = scratch(pool, SEER_SCRATCH_MATMUL_QROW, j->act_row_bytes * (size_t)nth);
    const size_t pb = seer_tile_panel_bytes(n_in, parts);
    j->panel_group = panel_group_of(pb, 2); /* the kernel takes panels in pairs */
    j->panels = scratch(pool, SEER_SCRATCH_MATMUL_TILE, (size_t)nth * (size_t)j->panel_group * pb);
    if (j->act_bf16 && j->qrows && j->panels) {
        seer_pool_for(pool, j->n_rows, 1, tile_act_range, j);
        seer_pool_for(pool, (j->w->n_out + 15) / 16, 2, tile_gemm_range, j);
    }
}

/* BF16 products (gemm_bf16_internal.h): the activation rows as BF16 pairs. */
static void bf16_act_range(void *ctx, int64_t r0, int64_t r1, int ith) {
    (void)ith;
    const matmul_job *j = ctx;
    const int64_t n_in = j->w->n_in, np = seer_bf16_pairs(n_in);
    for (int64_t r = r0; r < r1; r++) seer_bf16_act_row(j->x + r * n_in, n_in, j->act_pairs + r * np);
}

/* Panels [p0, p1) of 16 weight rows times activation rows [r0, r1):
 * packed a group at a time (the group stays in L2), then every block of
 * SEER_BF16_ROWS activation rows times SEER_BF16_PANELS panels of the
 * group. */
static void bf16_panels_rows(const matmul_job *j, int64_t p0, int64_t p1, int64_t r0, int64_t r1, int ith) {
    const seer_weight *w = j->w;
    const int64_t n_out = w->n_out, n_in = w->n_in, n_pairs = seer_bf16_pairs(n_in);
    const size_t pb = seer_bf16_panel_bytes(n_in);
    uint8_t *pack = j->panels + (size_t)ith * (size_t)j->panel_group * pb;
    float *tmp = (float *)((char *)j->qrows + (size_t)ith * j->act_row_bytes);
    for (int64_t g0 = p0; g0 < p1; g0 += j->panel_group) {
        const int64_t g1 = g0 + j->panel_group < p1 ? g0 + j->panel_group : p1;
        for (int64_t p = g0; p < g1; p++) seer_bf16_panel_pack(w, 16 * p, pack + (size_t)(p - g0) * pb, tmp);
        for (int64_t r = r0; r < r1; r += SEER_BF16_ROWS) {
            const int nr = r1 - r < SEER_BF16_ROWS ? (int)(r1 - r) : SEER_BF16_ROWS;
            for (int64_t p = g0; p < g1; p += SEER_BF16_PANELS) {
                const int np = g1 - p < SEER_BF16_PANELS ? (int)(g1 - p) : SEER_BF16_PANELS;
                const int64_t o0 = 16 * p;
                seer_bf16_block(n_pairs, j->act_pairs + r * n_pairs, (size_t)n_pairs, nr, pack + (size_t)(p - g0) * pb, pb,
                                np, j->y + r * n_out + o0, n_out, j->bias ? j->bias + o0 : NULL, n_out - o0);
            }
        }
    }
}

static void bf16_gemm_range(void *ctx, int64_t u0, int64_t u1, int ith) {
    const matmul_job *j = ctx;
    units_walk(j, u0, u1, ith, j->n_rows, bf16_panels_rows);
}

static void matmul_gemm_bf16(seer_pool *pool, matmul_job *j) {
    const int nth = seer_pool_size(pool);
    const int64_t n_in = j->w->n_in;
    j->act_row_bytes = 16 * (size_t)n_in * sizeof(float); /* 16 weight rows as f32 per thread, for the packing */
    j->act_pairs = scratch(pool, SEER_SCRATCH_MATMUL_ACT, (size_t)j->n_rows * (size_t)seer_bf16_pairs(n_in) * 4);
    j->qrows = scratch(pool, SEER_SCRATCH_MATMUL_QROW, j->act_row_bytes * (size_t)nth);
    const size_t pb = seer_bf16_panel_bytes(n_in);
    /* whole blocks of panels per group, so that a group's blocks are full but for the matrix's last */
    j->panel_group = (panel_group_of(pb, SEER_BF16_PANELS) + SEER_BF16_PANELS - 1) / SEER_BF16_PANELS * SEER_BF16_PANELS;
    j->panels = scratch(pool, SEER_SCRATCH_MATMUL_TILE, (size_t)nth * (size_t)j->panel_group * pb);
    if (j->act_pairs && j->qrows && j->panels) {
        seer_pool_for(pool, j->n_rows, 1, bf16_act_range, j);
        seer_pool_for(pool, units_set(j, j->n_rows, SEER_BF16_ROWS, SEER_BF16_PANELS), 1, bf16_gemm_range, j);
    }
}

/* Q8_0 read in place on AMX tiles: the interleaved groups are the tile
 * kernel's B tiles. */
static bool q8_0_on_tiles(int type, bool interleaved) {
    return type == SEER_TYPE_Q8_0 && interleaved && seer_q8_panel_get() && seer_q8_panel_amx_ready();
}

/* interleaved: whether the weight has the decode kernels' copy, which the
 * several-row dot kernels read (a vision encoder's matrices have none: for
 * them the dot path is a dot product per row and output, and the int8 GEMM
 * wins from a few rows: a SmolVLM-256M-layout Q8_0 encoder on AVX-512 VNNI
 * without AMX, 13 tiles, 2 threads, went from 58.4 to 34.6 s of CPU; its
 * F16 original takes 42.4). */
/* Whether the int8 GEMM reads the type's interleaved groups in place at a
 * few rows, where it beats the several-row dot kernels (below). */
static bool in_place_wins(int type, bool interleaved) {
    return interleaved && seer_int8_gemm_supports(type) && seer_q8_panel_get() && seer_vec_dot16_rows_get(type) &&
           seer_q8_groups_avx512_built() && groups_below(type) > 16 && seer_simd_level() >= SEER_SIMD_AVX512 &&
           !q8_0_on_tiles(type, interleaved);
}

/* Where a core splits 512-bit vectors in two (Zen 4) the several-row dot
 * kernels hold out longer for the types whose GEMM unpacks packed panels;
 * Q4_1's in-place GEMM only pays at more rows, and Q5_0's not at all: from
 * 512 rows, above its groups_below (96), it takes the packed GEMM. The other
 * types cross where they do at full width. 2048 x 2048 on one Zen 4 core,
 * CPU time, best of 8-20 calls, alternated rounds, dot -> int8 GEMM, GF/s:
 * Q6_K 48 rows 259-279 -> 232-250, 64 rows 203-260 -> 262-269, 128 rows
 * 263-285 -> 307; Q3_K 24 rows 149-225 -> 191-204, 32 rows 209-229 ->
 * 219-225, 48 rows 150-221 -> 232-254, 512 rows 205-215 -> 329-330; Q5_0
 * 64 rows 296-302 -> 229-277, 128 rows 289-302 -> 277-285, 512 rows 297-304
 * -> 310-329; Q4_1 16 rows 254-264 -> 240-247, 32 rows 268-275 -> 284-290.
 * (Q4_K 16 rows 326-329 -> 347-349, 128 rows 286-316 -> 311-343; Q5_K 128
 * rows 192-235 -> 299-303; Q8_0 16 rows 334-335 -> 346-347.) */
static int64_t avx512_gemm_min_rows(int type, bool interleaved) {
    const bool halved = seer_cpu_avx512_halved();
    if (type == SEER_TYPE_Q6_K) return halved ? 64 : 32;
    if (type == SEER_TYPE_Q3_K) return halved ? 32 : 16;
    if (halved && type == SEER_TYPE_Q5_0) return 512;
    if (halved && type == SEER_TYPE_Q4_1) return 32;
    return in_place_wins(type, interleaved) ? 16 : 64;
}

static int64_t gemm_min_rows(int type, bool interleaved) {
    bool int8_gemm = seer_int8_gemm_supports(type) && seer_q8_panel_get();
    /* Without an int8 GEMM (below AVX-512) the interleaved groups'
     * several-row dot kernel takes prompts of any length: a group's nibbles
     * split once serve four activation rows and the scales apply once per
     * super-block (Qwen2.5-VL's 2048 × 2048 Q4_K at 128 rows on one Zen 4
     * core at AVX2, against dequantize + sgemm: 16.9-17.6 ms -> 8.0-9.6
     * ms). On aarch64 the NEON several-row kernels (SDOT) take prompts the
     * same way instead of dequantize + sgemm. */
    if (interleaved && seer_vec_dot16_rows_get(type) && !q8_0_on_tiles(type, interleaved)) {
        /* Where 512-bit vectors run at full width (Zen 5) the int8 GEMM's
         * register-blocked kernel (gemm_q8_avx512.c) wins from 64 rows,
         * Q6_K (see below) too: 2048 x 2048 on one
         * Zen 5 core, CPU time, dot -> int8 GEMM: Q4_K 64 rows 1.59 -> 1.29
         * ms, 128 rows 2.92 -> 2.68, 512 rows 12.9 -> 9.3; Q5_K 512 rows
         * 14.8 -> 9.7; Q6_K 128 rows 3.09 -> 3.19, 512 rows 13.8 -> 10.5.
         * The several-row dot kernels read all the prompt's activations
         * per group of 16 weight rows, which past L2 (512 Q8_K rows of
         * 2048) is what they wait on. */
        /* Q6_K too since the super-block kernel: 2048 x 2048, one Zen 5
         * core, CPU time, dot -> int8 GEMM: 64 rows 1.50-1.57 -> 1.50-1.51
         * ms, 128 rows 2.99-3.05 -> 2.48-2.65, 256 rows 9.9-10.1 -> 5.6-6.4. */
        /* Q2_K from 128 rows: its four-row dot kernel does more per byte
         * (2048 x 2048, one Zen 5 core, CPU time, dot -> int8 GEMM: 64 rows
         * 1.53-1.54 -> 1.81-1.84 ms, 128 rows 3.03-3.12 -> 2.81-2.86, 512
         * rows 14.0-14.1 -> 9.0). Since their panels' scales and
         * corrections are packed as vectors (a third of the time it took),
         * Q6_K from 32 rows, Q3_K from 16 and Q2_K from 64: same core, dot
         * -> GEMM, Q6_K 24 rows 0.537 -> 0.552 ms, 32 rows 0.726 -> 0.661,
         * 48 rows 1.10 -> 0.84; Q3_K 16 rows 0.480 -> 0.459, 32 rows 1.10 ->
         * 0.68; Q2_K 48 rows 1.09 -> 1.24, 64 rows 1.50 -> 1.45, 96 rows
         * 2.15 -> 2.04. */
        /* Q4_K, Q5_K, Q4_0, Q5_0, Q4_1, Q5_1 and Q8_0 from 16 rows since the
         * GEMM reads their groups in place (gemm_q45_K_groups_avx512.c,
         * gemm_q450_groups_avx512.c): one Zen 5 core, CPU time, dot ->
         * int8 GEMM, Q4_K 2816 x 1408 (an expert's gate and up): 4 rows
         * 0.095 -> 0.064 ms, 8 rows 0.183 -> 0.125, 16 rows 0.357 ->
         * 0.244, 32 rows 0.625 -> 0.434; 4096 x 16384 from memory, 8 rows
         * 4.03 -> 2.89; Q5_0 704 x 2816 (an expert's down): 8 rows 0.100
         * -> 0.084, 16 rows 0.281 -> 0.172, 32 rows 0.389 -> 0.303; Q4_0
         * 2048 x 2048, 16 rows 0.51 -> 0.30, 32 rows 1.06 -> 0.59; Q5_K
         * 2048 x 2048, 16 rows 0.372 -> 0.276; Q8_0 (groups_below). Fewer
         * than 16 rows (a few conversations decoding together) keep the
         * decode kernels' numbers. */
        /* Zen 4 (512-bit vectors split in two) kept the dot kernels for
         * every prompt but Q8_0's until 2026-12-07, measured before the
         * in-place and register-blocked kernels; its crossovers now are in
         * avx512_gemm_min_rows. */
        return int8_gemm ? avx512_gemm_min_rows(type, interleaved) : INT64_MAX;
    }
    /* Q8_0 read in place on AMX tiles (two blocks in flight) from 5 rows:
     * 2560 x 10240, one Intel AMX core, two alternated rounds, GOP/s
     * several-row dot -> tiles: 4 rows 222-224 -> 211-212, 5 rows 214-219
     * -> 257-268, 6 rows 238-239 -> 307-313, 8 rows 269-278 -> 377-387, 12
     * rows 281-297 -> 457-471; SmolVLM's 576 x 1536 at 8 rows 285 -> 425. */
    if (q8_0_on_tiles(type, interleaved)) return 5;
    if (type == SEER_TYPE_Q4_K && seer_vec_dot4_get(type)) return 32; /* its four-row dot kernel is fast */
    /* The low-bit i-quants' dot kernels gather their codebook points again
     * for every activation row; the int8 GEMM's packer gathers them once:
     * 2048 x 2048 on one Zen 5 core, dot -> int8 GEMM since its packer
     * transposes 16 rows at a time (gemm_q8_pack_avx512.c), GOP/s: 2 rows
     * IQ2_XXS 34.2 -> 25.9, IQ3_XXS 25.7 -> 19.8, IQ3_S 16.6 -> 20.9; 3
     * rows IQ2_XXS 34.5 -> 39.6, IQ3_XXS 25.7 -> 29.3, IQ2_XS 26.4 -> 34.9,
     * the others 1.6-1.8x; 16 rows IQ2_XXS 34.5 -> 169. */
    if (int8_gemm && seer_iq_unpacker(type)) return 3;
    if (int8_gemm && type != SEER_TYPE_Q5_K) return 16;
    return 64;
}

int64_t seer_matmul_gemm_min_rows(int type) { return gemm_min_rows(type, true); }

bool seer_matmul_batch_interleave(const seer_weight *w) {
    return w && seer_weight_interleaved_bytes(w) && seer_vec_dot16_rows_get(w->type) &&
           !(seer_int8_gemm_supports(w->type) && seer_q8_panel_get());
}

int64_t seer_matmul_weight_gemm_min_rows(const seer_weight *w) { return gemm_min_rows(w->type, w->interleaved != NULL); }

/* The job for n weights that read the same x (n = 1: one product). */
static matmul_job job_init(int n, const seer_weight *const w[], const float *x, int64_t n_rows, float *const y[],
                           const float *const bias[]) {
    const seer_type_info *ti = seer_type_get(w[0]->type);
    matmul_job j = {.w = w[0], .x = x, .n_rows = n_rows, .y = y[0], .bias = bias ? bias[0] : NULL,
                    .act_type = ti ? ti->vec_dot_type : 0, .dot = seer_vec_dot_get(w[0]->type),
                    .dot4 = seer_vec_dot4_get(w[0]->type), .dot16 = seer_vec_dot16_get(w[0]->type),
                    .dot16_rows = seer_vec_dot16_rows_get(w[0]->type),
                    .dot16_rows_most = seer_vec_dot16_rows_most(seer_simd_level(), w[0]->type), .n_parts = n};
    for (int i = 0; i < n && i < MAX_PARTS; i++) j.parts[i] = (matmul_part){w[i], y[i], bias ? bias[i] : NULL};
    return j;
}

/* seer_matmul_path; x_f16: x's values are F16 values already */
static void matmul_path(seer_pool *pool, const seer_weight *w, const float *x, int64_t n_rows, float *y,
                        const float *bias, int path, bool x_f16) {
    if (!w || n_rows <= 0 || w->n_out <= 0) return;
    if (!seer_type_get(w->type)) return;
    matmul_job j = job_init(1, &w, x, n_rows, &y, bias ? &bias : NULL);
    j.x_f16 = x_f16;
    if (path == SEER_MATMUL_AUTO)
        path = n_rows < gemm_min_rows(w->type, w->interleaved != NULL) ? SEER_MATMUL_DOT : SEER_MATMUL_GEMM;
    if (path == SEER_MATMUL_DOT) {
        matmul_dot(pool, &j);
    } else if (seer_int8_gemm_supports(w->type) && path != SEER_MATMUL_GEMM_F32 && seer_q8_panel_get()) {
        matmul_gemm_q8(pool, &j);
    } else if (path == SEER_MATMUL_GEMM_BF16 && seer_matmul_bf16_takes(w)) {
        /* on tiles where the CPU has them: AVX512-BF16 took 4x as long as the exact tile products (1600 x 3420 x 1280) */
        if (seer_amx_bf16_ready()) matmul_gemm_tiles(pool, &j, 1);
        else matmul_gemm_bf16(pool, &j);
    } else if (w->type == SEER_TYPE_F16 && path != SEER_MATMUL_GEMM_F32 && seer_amx_bf16_ready()) {
        matmul_gemm_tiles(pool, &j, 2);
    } else {
        matmul_gemm(pool, &j);
    }
}

void seer_matmul_path(seer_pool *pool, const seer_weight *w, const float *x, int64_t n_rows, float *y,
                      const float *bias, int path) {
    matmul_path(pool, w, x, n_rows, y, bias, path, false);
}

bool seer_matmul_bf16_ready(void) { return seer_bf16_gemm_ready(); }

bool seer_matmul_bf16_takes(const seer_weight *w) {
    return w && (w->type == SEER_TYPE_F16 || w->type == SEER_TYPE_F32 || w->type == SEER_TYPE_BF16) &&
           seer_bf16_gemm_ready();
}

/* Rows from which a batch of independent rows (an image encoder's) takes
 * the GEMM: from one, where the weight has no interleaved copy (an
 * encoder's never has). A row's result then does not depend on how many
 * rows share the call: the dot path sums in another order, and an encoder
 * cuts its rows by the pass (a feed-forward in chunks of a size that
 * follows the pass's rows; several images or tiles in one pass), so that
 * a tile's embeddings would otherwise change with the tiles beside it.
 * Speed is the GEMM's too from a few rows: a float weight has only the
 * one-row dot product, which reads the whole matrix again for every row
 * (Qwen2.5-VL's patch merger on a 112 x 112 image, 16 rows of 3072, spent
 * 72% of the encode there); below 4-8 rows the GEMM's per-call packing
 * costs more than it saves, a tiny input's or a chunk's last few rows. A
 * decoder keeps gemm_min_rows: its step and batch paths agree bit for bit
 * below it. */
static int64_t batch_gemm_min_rows(const seer_weight *w) {
    return w->interleaved ? gemm_min_rows(w->type, true) : 1;
}

/* seer_matmul_batch; x_f16: x's values are F16 values already */
static void matmul_batch(seer_pool *pool, const seer_weight *w, const float *x, int64_t n_rows, float *y,
                         const float *bias, bool x_f16) {
    const bool many = w && n_rows >= batch_gemm_min_rows(w);
    matmul_path(pool, w, x, n_rows, y, bias, many ? SEER_MATMUL_GEMM : SEER_MATMUL_AUTO, x_f16);
}

void seer_matmul_batch(seer_pool *pool, const seer_weight *w, const float *x, int64_t n_rows, float *y,
                       const float *bias) {
    matmul_batch(pool, w, x, n_rows, y, bias, false);
}

void seer_matmul_batch_f16_in(seer_pool *pool, const seer_weight *w, const float *x, int64_t n_rows, float *y,
                              const float *bias) {
    matmul_batch(pool, w, x, n_rows, y, bias, true);
}

void seer_matmul_bf16(seer_pool *pool, const seer_weight *w, const float *x, int64_t n_rows, float *y,
                      const float *bias) {
    const bool many = w && n_rows >= batch_gemm_min_rows(w);
    seer_matmul_path(pool, w, x, n_rows, y, bias, many && seer_matmul_bf16_takes(w) ? SEER_MATMUL_GEMM_BF16 : SEER_MATMUL_AUTO);
}

void seer_matmul(seer_pool *pool, const seer_weight *w, const float *x, int64_t n_rows, float *y, const float *bias) {
    seer_matmul_path(pool, w, x, n_rows, y, bias, SEER_MATMUL_AUTO);
}

/* seer_matmul_multi taking the int8 GEMM from gemm_from rows */
static void matmul_multi(seer_pool *pool, int n, const seer_weight *const w[], const float *x, int64_t n_rows,
                         int64_t gemm_from, float *const y[], const float *const bias[]) {
    if (n <= 0 || n_rows <= 0) return;
    const seer_type_info *ti = seer_type_get(w[0]->type);
    bool fuse = n <= MAX_PARTS && ti;
    for (int i = 1; i < n && fuse; i++) fuse = w[i]->type == w[0]->type && w[i]->n_in == w[0]->n_in;
    matmul_job j = job_init(n, w, x, n_rows, y, bias);
    if (fuse && n_rows < gemm_from) {
        matmul_dot(pool, &j);
    } else if (fuse && seer_int8_gemm_supports(w[0]->type) && seer_q8_panel_get()) {
        matmul_gemm_q8(pool, &j);
    } else { /* dequantize + sgemm reads the activations as f32 anyway */
        for (int i = 0; i < n; i++) seer_matmul(pool, w[i], x, n_rows, y[i], bias ? bias[i] : NULL);
    }
}

void seer_matmul_multi(seer_pool *pool, int n, const seer_weight *const w[], const float *x, int64_t n_rows,
                       float *const y[], const float *const bias[]) {
    if (n > 0) matmul_multi(pool, n, w, x, n_rows, gemm_min_rows(w[0]->type, w[0]->interleaved != NULL), y, bias);
}

/* From how many of a batch's rows a share of them (a prompt's rows that
 * chose one expert) takes the GEMM that reads w's groups in place, where
 * the whole batch takes the GEMM; below gemm_min_rows a batch's rows keep
 * the decode kernels, so that they agree with decode steps. A mixture of
 * experts' weights come from memory for each prompt, each expert on one
 * thread: one Zen 5 core, 1024-row matrices of each type, ~96 MB of them
 * called in turn, CPU time, dot kernels' time / in place's (asking ahead
 * along the pairs of groups, prefetch.h) at 1..16 rows, 512-2816 wide:
 * Q4_K 2 rows 1.09-1.26, 4-16 rows 1.09-1.76; Q4_0 2 rows 1.05-1.23; Q4_1
 * 2 rows 1.07-1.17 (7-8 rows 0.95-1.00 at 512 and 2048 wide); Q5_K from 1
 * row at every width (1.06-1.22); Q8_0 4 rows 0.93-1.06 below 1536 wide,
 * 1.16-1.25 from it, 5 rows 1.49-1.62; Q5_0 from 3 rows at 1024 wide and
 * more (1.06-1.34), at 512 and 768 wide level at 4-8 rows (0.89-1.36),
 * ahead from 9; Q5_1 from 9 rows at 2048 wide, 12 from 768, never at 512.
 * Whole prompts, one thread, CPU time, one process switching
 * between the rule before (Q4_K 12 rows below 1024 wide, 3 below 2048; Q4_0
 * and Q8_0 5, or 8 below 768; Q4_1 none below 2048) and this one each
 * prompt, best of 7: Qwen3.5 35B-A3B's layout (half the experts, its down
 * products 512 wide) 128 tokens 1812 -> 1766 ms, 64 tokens 995 -> 983;
 * Qwen3-VL-30B-A3B's 128 tokens 2078 -> 2068. */
static int64_t share_gemm_rows(int type, int64_t n_in) {
    switch (type) {
    case SEER_TYPE_Q5_K: return 1;
    case SEER_TYPE_Q4_K: case SEER_TYPE_Q4_0: case SEER_TYPE_Q4_1: return 2;
    case SEER_TYPE_Q8_0: return n_in >= 1536 ? 4 : 5;
    case SEER_TYPE_Q5_0: return n_in >= 1024 ? 3 : 9;
    case SEER_TYPE_Q5_1: return n_in >= 2048 ? 9 : n_in >= 768 ? 12 : INT64_MAX;
    default: return INT64_MAX;
    }
}

int64_t seer_matmul_share_gemm_rows(const seer_weight *w, int64_t batch_rows) {
    const bool interleaved = w->interleaved != NULL;
    const int64_t from = gemm_min_rows(w->type, interleaved);
    if (batch_rows < from || !in_place_wins(w->type, interleaved)) return from;
    const int64_t share = share_gemm_rows(w->type, w->n_in);
    return share < from ? share : from;
}

void seer_matmul_multi_share(seer_pool *pool, int n, const seer_weight *const w[], const float *x, int64_t n_rows,
                             int64_t batch_rows, float *const y[], const float *const bias[]) {
    if (n > 0) matmul_multi(pool, n, w, x, n_rows, seer_matmul_share_gemm_rows(w[0], batch_rows), y, bias);
}

bool seer_matmul_rows_supported(const seer_weight *w) { return w && q8_0_on_tiles(w->type, w->interleaved != NULL); }

static size_t align64(size_t n) { return (n + 63) & ~(size_t)63; }

/* seer_matmul_rows' scratch: the activation bytes, then (at *d_at) their
 * scales, then (at *q_at) one quantized row; returns the total. */
static size_t rows_scratch_layout(int64_t n_rows, int64_t n_in, size_t *d_at, size_t *q_at) {
    const size_t rows = (size_t)n_rows, nb = (size_t)n_in / 32;
    *d_at = align64(rows * (size_t)n_in);
    *q_at = *d_at + align64(rows * nb * sizeof(float));
    return *q_at + align64(seer_row_bytes(SEER_TYPE_Q8_0, n_in));
}

size_t seer_matmul_rows_scratch_bytes(int64_t n_rows, int64_t n_in) {
    size_t d_at, q_at;
    return rows_scratch_layout(n_rows, n_in, &d_at, &q_at);
}

void seer_matmul_rows(int n, const seer_weight *const w[], const float *x, int64_t n_rows, float *const y[],
                      const float *const bias[], void *scratch) {
    if (n <= 0 || n > MAX_PARTS || n_rows <= 0) return;
    matmul_job j = job_init(n, w, x, n_rows, y, bias);
    size_t d_at, q_at;
    rows_scratch_layout(n_rows, w[0]->n_in, &d_at, &q_at);
    j.act_u8 = scratch;
    j.act_d = (float *)((char *)scratch + d_at);
    j.qrows = (char *)scratch + q_at;
    j.act_row_bytes = seer_row_bytes(j.act_type, w[0]->n_in);
    j.in_place = true;
    j.amx_fn = seer_q8_0_group_amx;
    j.panel_group = q8_panel_group(w[0]);
    q8_rows_range(&j, 0, n_rows, 0);
}
