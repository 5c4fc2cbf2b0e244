/* Interleaving weight rows in groups of 16 (interleave_internal.h): the
 * repacking at load, the way back to a row in the file's layout, and the
 * weight-level switch. */
#include <stdlib.h>
#include <string.h>

#include "kernels/interleave_internal.h"
#include "seer/gguf.h"
#include "seer/matmul.h"

/* The inverse of seer_k4_unpack: all 96 bits of the 12 bytes are used, so
 * packing the unpacked values gives the original bytes back. */
static void k4_pack(const uint8_t sc[8], const uint8_t m[8], uint8_t s[12]) {
    for (int j = 0; j < 4; j++) {
        s[j] = (uint8_t)(sc[j] | (sc[j + 4] >> 4) << 6);
        s[j + 4] = (uint8_t)(m[j] | (m[j + 4] >> 4) << 6);
        s[j + 8] = (uint8_t)((sc[j + 4] & 15) | (m[j + 4] & 15) << 4);
    }
}

/* Runs of 4 bytes of 16 rows side by side: src[r] + 4g goes to dst[g][r]
 * for g < n_runs (dst[g][r] is 4 bytes). `back` copies the other way. */
static void runs_in(uint8_t (*dst)[SEER_ILV_ROWS][4], const uint8_t *const src[SEER_ILV_ROWS], int n_runs) {
    for (int g = 0; g < n_runs; g++)
        for (int r = 0; r < SEER_ILV_ROWS; r++) memcpy(dst[g][r], src[r] + 4 * g, 4);
}
static void runs_back(uint8_t *dst, const uint8_t (*src)[SEER_ILV_ROWS][4], int r, int n_runs) {
    for (int g = 0; g < n_runs; g++) memcpy(dst + 4 * g, src[g][r], 4);
}

/* The fields Q4_K and Q5_K share (d, dmin, scales and mins, nibbles) of
 * one super-block of 16 rows, given per row. */
static void k4_fields_in(const uint16_t d[SEER_ILV_ROWS], const uint16_t dmin[SEER_ILV_ROWS],
                         const uint8_t *const scales[SEER_ILV_ROWS], const uint8_t *const qs[SEER_ILV_ROWS],
                         block_q4_Kx16 *o) {
    const uint8_t *chunk[4][SEER_ILV_ROWS];
    for (int r = 0; r < SEER_ILV_ROWS; r++) {
        uint8_t sc[8], m[8];
        seer_k4_unpack(scales[r], sc, m);
        o->d[r] = d[r];
        o->dmin[r] = dmin[r];
        for (int s = 0; s < 8; s++) o->scales[s][r] = sc[s];
        for (int p = 0; p < 4; p++) {
            o->mins[p][r][0] = m[2 * p];
            o->mins[p][r][1] = m[2 * p + 1];
        }
        for (int c = 0; c < 4; c++) chunk[c][r] = qs[r] + 32 * c;
    }
    for (int c = 0; c < 4; c++) runs_in(o->qs[c], chunk[c], 8);
}

/* Row r of those fields back into a file block's scales and qs (d and
 * dmin are plain copies). */
static void k4_fields_back(const block_q4_Kx16 *x, int r, uint8_t scales[12], uint8_t qs[128]) {
    uint8_t sc[8], m[8];
    for (int s = 0; s < 8; s++) sc[s] = x->scales[s][r];
    for (int p = 0; p < 4; p++) {
        m[2 * p] = x->mins[p][r][0];
        m[2 * p + 1] = x->mins[p][r][1];
    }
    k4_pack(sc, m, scales);
    for (int c = 0; c < 4; c++) runs_back(qs + 32 * c, x->qs[c], r, 8);
}

/* Super-block i of 16 Q4_K rows. */
static void q4_K_in(const void *const rows[SEER_ILV_ROWS], int64_t i, void *group) {
    uint16_t d[SEER_ILV_ROWS], dmin[SEER_ILV_ROWS];
    const uint8_t *scales[SEER_ILV_ROWS], *qs[SEER_ILV_ROWS];
    for (int r = 0; r < SEER_ILV_ROWS; r++) {
        const block_q4_K *b = (const block_q4_K *)rows[r] + i;
        d[r] = b->d;
        dmin[r] = b->dmin;
        scales[r] = b->scales;
        qs[r] = b->qs;
    }
    k4_fields_in(d, dmin, scales, qs, group);
}

static void q4_K_back(const void *group, int r, int sub, void *block) {
    (void)sub;
    const block_q4_Kx16 *x = group;
    block_q4_K *b = block;
    b->d = x->d[r];
    b->dmin = x->dmin[r];
    k4_fields_back(x, r, b->scales, b->qs);
}

/* Super-block i of 16 Q5_K rows. */
static void q5_K_in(const void *const rows[SEER_ILV_ROWS], int64_t i, void *group) {
    block_q5_Kx16 *o = group;
    uint16_t d[SEER_ILV_ROWS], dmin[SEER_ILV_ROWS];
    const uint8_t *scales[SEER_ILV_ROWS], *qs[SEER_ILV_ROWS], *qh[SEER_ILV_ROWS];
    for (int r = 0; r < SEER_ILV_ROWS; r++) {
        const block_q5_K *b = (const block_q5_K *)rows[r] + i;
        d[r] = b->d;
        dmin[r] = b->dmin;
        scales[r] = b->scales;
        qs[r] = b->qs;
        qh[r] = b->qh;
    }
    k4_fields_in(d, dmin, scales, qs, &o->low);
    runs_in(o->qh, qh, 8);
}

static void q5_K_back(const void *group, int r, int sub, void *block) {
    (void)sub;
    const block_q5_Kx16 *x = group;
    block_q5_K *b = block;
    b->d = x->low.d[r];
    b->dmin = x->low.dmin[r];
    k4_fields_back(&x->low, r, b->scales, b->qs);
    runs_back(b->qh, x->qh, r, 8);
}

/* Super-block i of 16 Q6_K rows. */
static void q6_K_in(const void *const rows[SEER_ILV_ROWS], int64_t i, void *group) {
    block_q6_Kx16 *o = group;
    memset(o->pad, 0, sizeof o->pad);
    for (int r = 0; r < SEER_ILV_ROWS; r++) {
        const block_q6_K *b = (const block_q6_K *)rows[r] + i;
        o->d[r] = b->d;
        for (int g = 0; g < 16; g++) o->scales[g][r] = b->scales[g];
        for (int h = 0; h < 2; h++)
            for (int g = 0; g < 8; g++) {
                memcpy(o->q[h][g][0][r], b->ql + 64 * h + 4 * g, 4);
                memcpy(o->q[h][g][1][r], b->ql + 64 * h + 32 + 4 * g, 4);
                memcpy(o->q[h][g][2][r], b->qh + 32 * h + 4 * g, 4);
            }
    }
}

static void q6_K_back(const void *group, int r, int sub, void *block) {
    (void)sub;
    const block_q6_Kx16 *x = group;
    block_q6_K *b = block;
    b->d = x->d[r];
    for (int g = 0; g < 16; g++) b->scales[g] = x->scales[g][r];
    for (int h = 0; h < 2; h++)
        for (int g = 0; g < 8; g++) {
            memcpy(b->ql + 64 * h + 4 * g, x->q[h][g][0][r], 4);
            memcpy(b->ql + 64 * h + 32 + 4 * g, x->q[h][g][1][r], 4);
            memcpy(b->qh + 32 * h + 4 * g, x->q[h][g][2][r], 4);
        }
}

/* Super-block i of 16 Q3_K rows. */
static void q3_K_in(const void *const rows[SEER_ILV_ROWS], int64_t i, void *group) {
    block_q3_Kx16 *o = group;
    memset(o->pad, 0, sizeof o->pad);
    const uint8_t *hmask[SEER_ILV_ROWS], *qs[2][SEER_ILV_ROWS];
    for (int r = 0; r < SEER_ILV_ROWS; r++) {
        const block_q3_K *b = (const block_q3_K *)rows[r] + i;
        int8_t sc[16];
        seer_q3k_scales(b->scales, sc);
        o->d[r] = b->d;
        for (int g = 0; g < 16; g++) o->scales[g][r] = sc[g];
        hmask[r] = b->hmask;
        qs[0][r] = b->qs;
        qs[1][r] = b->qs + 32;
    }
    runs_in(o->hmask, hmask, 8);
    for (int c = 0; c < 2; c++) runs_in(o->qs[c], qs[c], 8);
}

static void q3_K_back(const void *group, int r, int sub, void *block) {
    (void)sub;
    const block_q3_Kx16 *x = group;
    block_q3_K *b = block;
    int8_t sc[16];
    for (int g = 0; g < 16; g++) sc[g] = x->scales[g][r];
    seer_q3k_pack_scales(sc, b->scales);
    b->d = x->d[r];
    runs_back(b->hmask, x->hmask, r, 8);
    for (int c = 0; c < 2; c++) runs_back(b->qs + 32 * c, x->qs[c], r, 8);
}

/* Super-block i of 16 Q2_K rows. */
static void q2_K_in(const void *const rows[SEER_ILV_ROWS], int64_t i, void *group) {
    block_q2_Kx16 *o = group;
    const uint8_t *qs[2][SEER_ILV_ROWS];
    for (int r = 0; r < SEER_ILV_ROWS; r++) {
        const block_q2_K *b = (const block_q2_K *)rows[r] + i;
        o->d[r] = b->d;
        o->dmin[r] = b->dmin;
        for (int g = 0; g < 16; g++) o->scales[g][r] = b->scales[g];
        qs[0][r] = b->qs;
        qs[1][r] = b->qs + 32;
    }
    for (int c = 0; c < 2; c++) runs_in(o->qs[c], qs[c], 8);
}

static void q2_K_back(const void *group, int r, int sub, void *block) {
    (void)sub;
    const block_q2_Kx16 *x = group;
    block_q2_K *b = block;
    b->d = x->d[r];
    b->dmin = x->dmin[r];
    for (int g = 0; g < 16; g++) b->scales[g] = x->scales[g][r];
    for (int c = 0; c < 2; c++) runs_back(b->qs + 32 * c, x->qs[c], r, 8);
}

/* Blocks 2i and 2i + 1 of 16 Q8_0 rows. */
static void q8_0_in(const void *const rows[SEER_ILV_ROWS], int64_t i, void *group) {
    block_q8_0x16 *o = group;
    for (int s = 0; s < 2; s++) {
        const uint8_t *qs[SEER_ILV_ROWS];
        for (int r = 0; r < SEER_ILV_ROWS; r++) {
            const block_q8_0 *b = (const block_q8_0 *)rows[r] + 2 * i + s;
            o->d[s][r] = b->d;
            qs[r] = (const uint8_t *)b->qs;
        }
        runs_in((uint8_t(*)[SEER_ILV_ROWS][4])o->qs[s], qs, 8);
    }
}

static void q8_0_back(const void *group, int r, int sub, void *block) {
    const block_q8_0x16 *x = group;
    block_q8_0 *b = block;
    b->d = x->d[sub][r];
    runs_back((uint8_t *)b->qs, (const uint8_t(*)[SEER_ILV_ROWS][4])x->qs[sub], r, 8);
}

/* Blocks 2i and 2i + 1 of 16 Q5_0 rows. */
static void q5_0_in(const void *const rows[SEER_ILV_ROWS], int64_t i, void *group) {
    block_q5_0x16 *o = group;
    for (int s = 0; s < 2; s++) {
        const uint8_t *qs[SEER_ILV_ROWS];
        for (int r = 0; r < SEER_ILV_ROWS; r++) {
            const block_q5_0 *b = (const block_q5_0 *)rows[r] + 2 * i + s;
            uint32_t qh;
            memcpy(&qh, b->qh, 4);
            o->d[s][r] = b->d;
            o->qh[s][r] = seer_q5_0_qh_regroup(qh);
            qs[r] = b->qs;
        }
        runs_in(o->qs[s], qs, 4);
    }
}

static void q5_0_back(const void *group, int r, int sub, void *block) {
    const block_q5_0x16 *x = group;
    block_q5_0 *b = block;
    b->d = x->d[sub][r];
    const uint32_t qh = seer_q5_0_qh_ungroup(x->qh[sub][r]);
    memcpy(b->qh, &qh, 4);
    runs_back(b->qs, x->qs[sub], r, 4);
}

/* Blocks 2i and 2i + 1 of 16 Q4_0 rows. */
static void q4_0_in(const void *const rows[SEER_ILV_ROWS], int64_t i, void *group) {
    block_q4_0x16 *o = group;
    for (int s = 0; s < 2; s++) {
        const uint8_t *qs[SEER_ILV_ROWS];
        for (int r = 0; r < SEER_ILV_ROWS; r++) {
            const block_q4_0 *b = (const block_q4_0 *)rows[r] + 2 * i + s;
            o->d[s][r] = b->d;
            qs[r] = b->qs;
        }
        runs_in(o->qs[s], qs, 4);
    }
}

static void q4_0_back(const void *group, int r, int sub, void *block) {
    const block_q4_0x16 *x = group;
    block_q4_0 *b = block;
    b->d = x->d[sub][r];
    runs_back(b->qs, x->qs[sub], r, 4);
}

/* Blocks 2i and 2i + 1 of 16 Q5_1 rows: Q5_0's, with the mins. */
static void q5_1_in(const void *const rows[SEER_ILV_ROWS], int64_t i, void *group) {
    block_q5_1x16 *o = group;
    for (int s = 0; s < 2; s++) {
        const uint8_t *qs[SEER_ILV_ROWS];
        for (int r = 0; r < SEER_ILV_ROWS; r++) {
            const block_q5_1 *b = (const block_q5_1 *)rows[r] + 2 * i + s;
            uint32_t qh;
            memcpy(&qh, b->qh, 4);
            o->d[s][r] = b->d;
            o->m[s][r] = b->m;
            o->qh[s][r] = seer_q5_0_qh_regroup(qh);
            qs[r] = b->qs;
        }
        runs_in(o->qs[s], qs, 4);
    }
}

static void q5_1_back(const void *group, int r, int sub, void *block) {
    const block_q5_1x16 *x = group;
    block_q5_1 *b = block;
    b->d = x->d[sub][r];
    b->m = x->m[sub][r];
    const uint32_t qh = seer_q5_0_qh_ungroup(x->qh[sub][r]);
    memcpy(b->qh, &qh, 4);
    runs_back(b->qs, x->qs[sub], r, 4);
}

/* Blocks 2i and 2i + 1 of 16 Q4_1 rows. */
static void q4_1_in(const void *const rows[SEER_ILV_ROWS], int64_t i, void *group) {
    block_q4_1x16 *o = group;
    for (int s = 0; s < 2; s++) {
        const uint8_t *qs[SEER_ILV_ROWS];
        for (int r = 0; r < SEER_ILV_ROWS; r++) {
            const block_q4_1 *b = (const block_q4_1 *)rows[r] + 2 * i + s;
            o->d[s][r] = b->d;
            o->m[s][r] = b->m;
            qs[r] = b->qs;
        }
        runs_in(o->qs[s], qs, 4);
    }
}

static void q4_1_back(const void *group, int r, int sub, void *block) {
    const block_q4_1x16 *x = group;
    block_q4_1 *b = block;
    b->d = x->d[sub][r];
    b->m = x->m[sub][r];
    runs_back(b->qs, x->qs[sub], r, 4);
}

/* Super-block i of 16 IQ4_XS rows. */
static void iq4_xs_in(const void *const rows[SEER_ILV_ROWS], int64_t i, void *group) {
    block_iq4_xsx16 *o = group;
    memset(o->pad, 0, sizeof o->pad);
    for (int ib = 0; ib < 8; ib++) {
        const uint8_t *qs[SEER_ILV_ROWS];
        for (int r = 0; r < SEER_ILV_ROWS; r++) {
            const block_iq4_xs *b = (const block_iq4_xs *)rows[r] + i;
            if (ib == 0) o->d[r] = b->d;
            o->scales[ib][r] = (int8_t)seer_iq4_xs_scale(b, ib);
            qs[r] = b->qs + 16 * ib;
        }
        runs_in(o->qs[ib], qs, 4);
    }
}

static void iq4_xs_back(const void *group, int r, int sub, void *block) {
    (void)sub;
    const block_iq4_xsx16 *x = group;
    block_iq4_xs *b = block;
    b->d = x->d[r];
    b->scales_h = 0;
    memset(b->scales_l, 0, sizeof b->scales_l);
    for (int ib = 0; ib < 8; ib++) { /* every bit of the two fields is a scale's: the bytes come back exactly */
        const int u = x->scales[ib][r] + 32;
        b->scales_l[ib / 2] |= (uint8_t)((u & 0xF) << 4 * (ib % 2));
        b->scales_h |= (uint16_t)((u >> 4) << 2 * ib);
        runs_back(b->qs + 16 * ib, x->qs[ib], r, 4);
    }
}

/* One interleaved layout: a unit of `weights` weights of 16 rows in
 * `bytes`, written from the rows by `in`; `back` gives file block `sub` of
 * a unit's row r. */
typedef struct ilv_layout {
    int type;
    int64_t weights;
    size_t bytes;
    void (*in)(const void *const rows[SEER_ILV_ROWS], int64_t unit, void *dst);
    void (*back)(const void *unit, int r, int sub, void *block);
} ilv_layout;

static const ilv_layout layouts[] = {
    {SEER_TYPE_Q4_K, QK_K, sizeof(block_q4_Kx16), q4_K_in, q4_K_back},
    {SEER_TYPE_Q5_K, QK_K, sizeof(block_q5_Kx16), q5_K_in, q5_K_back},
    {SEER_TYPE_Q6_K, QK_K, sizeof(block_q6_Kx16), q6_K_in, q6_K_back},
    {SEER_TYPE_Q3_K, QK_K, sizeof(block_q3_Kx16), q3_K_in, q3_K_back},
    {SEER_TYPE_Q2_K, QK_K, sizeof(block_q2_Kx16), q2_K_in, q2_K_back},
    {SEER_TYPE_Q8_0, 64, sizeof(block_q8_0x16), q8_0_in, q8_0_back},
    {SEER_TYPE_Q5_0, 64, sizeof(block_q5_0x16), q5_0_in, q5_0_back},
    {SEER_TYPE_Q4_0, 64, sizeof(block_q4_0x16), q4_0_in, q4_0_back},
    {SEER_TYPE_IQ4_NL, 64, sizeof(block_q4_0x16), q4_0_in, q4_0_back}, /* the same fields (blocks.h) */
    {SEER_TYPE_Q5_1, 64, sizeof(block_q5_1x16), q5_1_in, q5_1_back},
    {SEER_TYPE_Q4_1, 64, sizeof(block_q4_1x16), q4_1_in, q4_1_back},
    {SEER_TYPE_IQ4_XS, QK_K, sizeof(block_iq4_xsx16), iq4_xs_in, iq4_xs_back},
};

static const ilv_layout *layout_of(int type) {
    for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; i++)
        if (layouts[i].type == type) return &layouts[i];
    return NULL;
}

size_t seer_interleave_group_bytes(int type, int64_t n_in) {
    const ilv_layout *l = layout_of(type);
    if (!l || n_in <= 0 || n_in % l->weights != 0) return 0;
    return (size_t)(n_in / l->weights) * l->bytes;
}

void seer_interleave_group(int type, const void *const rows[SEER_ILV_ROWS], int64_t n_in, void *group) {
    const ilv_layout *l = layout_of(type);
    if (!l) return;
    for (int64_t u = 0; u < n_in / l->weights; u++) l->in(rows, u, (char *)group + (size_t)u * l->bytes);
}

void seer_interleave_block(int type, const void *group, int r, int64_t b, void *block) {
    const ilv_layout *l = layout_of(type);
    if (!l) return;
    int64_t per_unit = l->weights / seer_type_get(type)->block_size;
    l->back((const char *)group + (size_t)(b / per_unit) * l->bytes, r, (int)(b % per_unit), block);
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
    if (!w || w->interleaved || w->n_out % SEER_ILV_ROWS != 0) return 0;
    /* A/B measurements: "0" keeps every weight in the file's layout, a list
     * of type names ("Q4_K,Q6_K") interleaves those types only */
    const char *env = getenv("SEER_INTERLEAVE");
    if (env && (strcmp(env, "0") == 0 || (strcmp(env, "1") != 0 && !strstr(env, seer_type_get(w->type)->name))))
        return 0;
    return seer_interleave_group_bytes(w->type, w->n_in) * (size_t)(w->n_out / SEER_ILV_ROWS);
}

size_t seer_weight_group_bytes(const seer_weight *w) { return w ? seer_interleave_group_bytes(w->type, w->n_in) : 0; }

void seer_weight_interleave(seer_weight *w, void *dst, seer_pool *pool) {
    if (!seer_weight_interleaved_bytes(w) || !dst) return;
    interleave_job j = {.w = w, .dst = dst, .group_bytes = seer_interleave_group_bytes(w->type, w->n_in)};
    seer_pool_for(pool, w->n_out / SEER_ILV_ROWS, 1, interleave_range, &j);
    w->interleaved = dst;
}

size_t seer_weight_interleave_from_file(seer_weight *w, void *dst, seer_pool *pool, const gguf_file *g) {
    const size_t bytes = seer_weight_interleaved_bytes(w);
    if (!bytes || !dst) return 0;
    seer_weight_interleave(w, dst, pool);
    gguf_release_pages(g, w->data, (size_t)w->n_out * w->row_bytes);
    return bytes;
}

void seer_weight_read_block(const seer_weight *w, int64_t row, int64_t b, void *block) {
    if (!w->interleaved) {
        const size_t bb = seer_type_get(w->type)->block_bytes;
        memcpy(block, (const char *)w->data + (size_t)row * w->row_bytes + (size_t)b * bb, bb);
        return;
    }
    size_t gb = seer_interleave_group_bytes(w->type, w->n_in);
    seer_interleave_block(w->type, (const char *)w->interleaved + (size_t)(row / SEER_ILV_ROWS) * gb,
                          (int)(row % SEER_ILV_ROWS), b, block);
}
