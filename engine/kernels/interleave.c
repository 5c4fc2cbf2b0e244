/* Interleaving weight rows in groups of 16 (interleave_internal.h): the
 * repacking at load, the way back to a row in the file's layout, and the
 * weight-level switch. */
#include <stdlib.h>
#include <string.h>

#include "kernels/interleave_internal.h"
#include "seer/matmul.h"

bool seer_interleave_supports(int type) { return type == SEER_TYPE_Q4_K; }

size_t seer_interleave_group_bytes(int type, int64_t n_in) {
    return type == SEER_TYPE_Q4_K ? (size_t)(n_in / QK_K) * sizeof(block_q4_Kx16) : 0;
}

/* The inverse of seer_k4_unpack: all 96 bits of the 12 bytes are used, so
 * packing the unpacked values gives the original bytes back. */
static void k4_pack(const uint8_t sc[8], const uint8_t m[8], uint8_t s[12]) {
    for (int j = 0; j < 4; j++) {
        s[j] = (uint8_t)(sc[j] | (sc[j + 4] >> 4) << 6);
        s[j + 4] = (uint8_t)(m[j] | (m[j + 4] >> 4) << 6);
        s[j + 8] = (uint8_t)((sc[j + 4] & 15) | (m[j + 4] & 15) << 4);
    }
}

void seer_interleave_group(int type, const void *const rows[SEER_ILV_ROWS], int64_t n_in, void *group) {
    if (type != SEER_TYPE_Q4_K) return;
    block_q4_Kx16 *out = group;
    for (int64_t i = 0; i < n_in / QK_K; i++) {
        block_q4_Kx16 *o = out + i;
        for (int r = 0; r < SEER_ILV_ROWS; r++) {
            const block_q4_K *b = (const block_q4_K *)rows[r] + i;
            uint8_t sc[8], m[8];
            seer_k4_unpack(b->scales, sc, m);
            o->d[r] = b->d;
            o->dmin[r] = b->dmin;
            for (int s = 0; s < 8; s++) o->scales[s][r] = sc[s];
            for (int p = 0; p < 4; p++) {
                o->mins[p][r][0] = m[2 * p];
                o->mins[p][r][1] = m[2 * p + 1];
            }
            for (int c = 0; c < 4; c++)
                for (int g = 0; g < 8; g++) memcpy(o->qs[c][g][r], b->qs + 32 * c + 4 * g, 4);
        }
    }
}

void seer_interleave_block(int type, const void *group, int r, int64_t sb, void *block) {
    if (type != SEER_TYPE_Q4_K) return;
    const block_q4_Kx16 *x = (const block_q4_Kx16 *)group + sb;
    block_q4_K *b = block;
    uint8_t sc[8], m[8];
    b->d = x->d[r];
    b->dmin = x->dmin[r];
    for (int s = 0; s < 8; s++) sc[s] = x->scales[s][r];
    for (int p = 0; p < 4; p++) {
        m[2 * p] = x->mins[p][r][0];
        m[2 * p + 1] = x->mins[p][r][1];
    }
    k4_pack(sc, m, b->scales);
    for (int c = 0; c < 4; c++)
        for (int g = 0; g < 8; g++) memcpy(b->qs + 32 * c + 4 * g, x->qs[c][g][r], 4);
}

typedef struct interleave_job {
    const seer_weight *w;
    char *dst;
    size_t group_bytes;
} interleave_job;

static void interleave_range(void *ctx, int64_t g0, int64_t g1, int ith) {
    (void)ith;
    const interleave_job *j = ctx;
    for (int64_t g = g0; g < g1; g++) {
        const void *rows[SEER_ILV_ROWS];
        for (int r = 0; r < SEER_ILV_ROWS; r++)
            rows[r] = (const char *)j->w->data + (size_t)(g * SEER_ILV_ROWS + r) * j->w->row_bytes;
        seer_interleave_group(j->w->type, rows, j->w->n_in, j->dst + (size_t)g * j->group_bytes);
    }
}

size_t seer_weight_interleaved_bytes(const seer_weight *w) {
    if (!w || w->interleaved || !seer_interleave_supports(w->type) || w->n_out % SEER_ILV_ROWS != 0) return 0;
    const char *env = getenv("SEER_INTERLEAVE");
    if (env && strcmp(env, "0") == 0) return 0; /* A/B measurements */
    return seer_interleave_group_bytes(w->type, w->n_in) * (size_t)(w->n_out / SEER_ILV_ROWS);
}

void seer_weight_interleave(seer_weight *w, void *dst, seer_pool *pool) {
    if (!seer_weight_interleaved_bytes(w) || !dst) return;
    interleave_job j = {.w = w, .dst = dst, .group_bytes = seer_interleave_group_bytes(w->type, w->n_in)};
    seer_pool_for(pool, w->n_out / SEER_ILV_ROWS, 1, interleave_range, &j);
    w->interleaved = dst;
}

void seer_weight_read_block(const seer_weight *w, int64_t row, int64_t sb, void *block) {
    size_t gb = seer_interleave_group_bytes(w->type, w->n_in);
    seer_interleave_block(w->type, (const char *)w->interleaved + (size_t)(row / SEER_ILV_ROWS) * gb,
                          (int)(row % SEER_ILV_ROWS), sb, block);
}
