/* Non-causal multi-head attention of the ViT, blocked: work units are (segment,
 * head, query tile); a unit computes the tile's scores against its segment's
 * keys, softmaxes them and multiplies by the values. A segment's queries are
 * its own rows (self-attention) or another sequence's (a resampler's learned
 * queries attending to the patches). Memory is one
 * tile × segment score block per thread, never [heads × n × n], plus the
 * segment's keys and values of one head packed for seer's FP32 GEMM
 * (gemm_f32_packed.c), reused by the thread's next units of that head.
 * Segments are the whole sequence, or Qwen2.5-VL's windows (contiguous by
 * construction). */
#include <math.h>

#include "kernels/gemm_f32_internal.h"
#include "vision/vision_internal.h"
#include "ops/exp_kernels.h"

/* Score block per thread: about this many floats (4 MB) bounds the tile. */
#define SCORE_FLOATS (1 << 20)
#define TILE_MIN 16
#define TILE_MAX 256

static int tile_rows(int64_t max_seg) {
    int64_t t = max_seg > 0 ? SCORE_FLOATS / max_seg : TILE_MAX;
    if (t > TILE_MAX) t = TILE_MAX;
    if (t < TILE_MIN) t = TILE_MIN;
    return (int)t;
}

/* Scratch layout: the per-segment unit table (int64, padded to 64 bytes),
 * then one score block per thread. */
static int64_t table_floats(int n_segments) { return ((2 * (int64_t)(n_segments + 1)) + 15) / 16 * 16; }

static int64_t pad16(int64_t n) { return (n + 15) / 16 * 16; }

/* Per thread: the score block, then one head's packed keys and values. */
static int64_t scores_floats(int64_t max_seg) { return pad16((int64_t)tile_rows(max_seg) * max_seg); }
static int64_t keys_floats(int64_t max_seg, int d) { return (int64_t)seer_f32_packed_floats(max_seg, d); }
static int64_t thread_floats(int64_t max_seg, int d) {
    return scores_floats(max_seg) + keys_floats(max_seg, d) + (int64_t)seer_f32_packed_floats(d, max_seg);
}

int64_t vit_attention_scratch_floats(int n_threads, int n_segments, int64_t max_seg, int d) {
    return table_floats(n_segments) + (int64_t)n_threads * thread_floats(max_seg, d);
}

typedef struct attn_job {
    const float *q, *k, *v;
    float *out;
    int n_head, d, tile;
    int64_t width;         /* n_head · d: row stride */
    const int *seg_start;  /* the segments' key (and value) rows */
    const int *q_start;    /* their query rows (seg_start in self-attention) */
    int n_segments;
    const int64_t *unit_start; /* first unit of each segment; [n_segments] = total */
    float scale;
    float *scratch;
    int64_t scratch_per_thread, keys_offset, values_offset;
    seer_f32_kernel kern;
} attn_job;

static int find_segment(const attn_job *j, int64_t unit) {
    int lo = 0, hi = j->n_segments - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (j->unit_start[mid] <= unit) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

/* The thread's scratch: scores, then the packed keys (scaled by 1/√d) and
 * values of *packed (segment · n_head + head, -1: none yet). */
static void attn_unit(const attn_job *j, int64_t unit, float *work, int64_t *packed) {
    int s = find_segment(j, unit);
    int64_t s0 = j->seg_start[s], len = j->seg_start[s + 1] - s0;
    int64_t q0 = j->q_start[s], q_len = j->q_start[s + 1] - q0;
    int64_t local = unit - j->unit_start[s];
    int64_t n_tiles = (q_len + j->tile - 1) / j->tile;
    int h = (int)(local / n_tiles);
    int64_t t0 = q0 + (local % n_tiles) * j->tile;
    int64_t m = q0 + q_len - t0 < j->tile ? q0 + q_len - t0 : j->tile;
    int64_t off = (int64_t)h * j->d;
    float *scores = work, *keys = work + j->keys_offset, *values = work + j->values_offset;
    if (*packed != (int64_t)s * j->n_head + h) {
        seer_f32_pack_rows(j->k + s0 * j->width + off, false, (size_t)j->width, len, j->d, j->scale, keys);
        seer_f32_pack_cols(j->v + s0 * j->width + off, false, (size_t)j->width, len, j->d, values);
        *packed = (int64_t)s * j->n_head + h;
    }
    /* scores[m][len] = Q_tile · (scale · K_seg)ᵀ */
    seer_f32_gemm_packed(&j->kern, m, len, j->d, j->q + t0 * j->width + off, (size_t)j->width, keys, scores,
                         (size_t)len, false);
    for (int64_t r = 0; r < m; r++) seer_exp_softmax(scores + r * len, len);
    /* out_tile = scores · V_seg */
    seer_f32_gemm_packed(&j->kern, m, j->d, len, scores, (size_t)len, values, j->out + t0 * j->width + off,
                         (size_t)j->width, false);
}

/* Units differ in cost (edge windows are small): handed out one by one. A
 * run of units is mostly one head's tiles: its keys and values are packed
 * once. */
static void attn_range(void *ctx, int64_t u0, int64_t u1, int ith) {
    const attn_job *j = ctx;
    float *work = j->scratch + (int64_t)ith * j->scratch_per_thread;
    int64_t packed = -1;
    for (int64_t u = u0; u < u1; u++) attn_unit(j, u, work, &packed);
}

static void attention(seer_pool *pool, const float *q, const float *k, const float *v, float *out, int n_head, int d,
                      const int *seg_start, const int *q_start, int n_segments, float *scratch, double *flops) {
    int64_t max_seg = 0;
    for (int s = 0; s < n_segments; s++)
        if (seg_start[s + 1] - seg_start[s] > max_seg) max_seg = seg_start[s + 1] - seg_start[s];
    int tile = tile_rows(max_seg);
    int64_t *unit_start = (int64_t *)scratch;
    unit_start[0] = 0;
    double fl = 0;
    for (int s = 0; s < n_segments; s++) {
        int64_t len = seg_start[s + 1] - seg_start[s], q_len = q_start[s + 1] - q_start[s];
        unit_start[s + 1] = unit_start[s] + (int64_t)n_head * ((q_len + tile - 1) / tile);
        fl += 4.0 * (double)q_len * (double)len * d * n_head;
    }
    attn_job j = {.q = q, .k = k, .v = v, .out = out, .n_head = n_head, .d = d, .tile = tile,
                  .width = (int64_t)n_head * d, .seg_start = seg_start, .q_start = q_start, .n_segments = n_segments,
                  .unit_start = unit_start, .scale = 1.0f / sqrtf((float)d), .scratch = scratch + table_floats(n_segments),
                  .scratch_per_thread = thread_floats(max_seg, d), .keys_offset = scores_floats(max_seg),
                  .values_offset = scores_floats(max_seg) + keys_floats(max_seg, d), .kern = seer_f32_kernel_get()};
    seer_pool_for(pool, unit_start[n_segments], 1, attn_range, &j);
    if (flops) *flops += fl;
}

void vit_attention(seer_pool *pool, const float *q, const float *k, const float *v, float *out, int n_head, int d,
                   const int *seg_start, int n_segments, float *scratch, double *flops) {
    attention(pool, q, k, v, out, n_head, d, seg_start, seg_start, n_segments, scratch, flops);
}

void vit_cross_attention(seer_pool *pool, const float *q, int n_q, const float *k, const float *v, int n_kv, float *out,
                         int n_head, int d, float *scratch, double *flops) {
    const int keys[2] = {0, n_kv}, queries[2] = {0, n_q};
    attention(pool, q, k, v, out, n_head, d, keys, queries, 1, scratch, flops);
}
