/* Random weights for synthetic models, generated while the file is written.
 * Matrices are assembled from a pool of quantized random blocks picked in a
 * pseudo-random order: realistic scales and bit patterns (nothing compresses
 * or dedups), at copy speed rather than quantization speed, so multi-GB
 * models take seconds. Norm weights are near 1, biases near 0. */
#include "bench/synth_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "seer/tensor.h"

#define POOL_BLOCKS 1024

typedef struct type_pool {
    unsigned char *bytes; /* POOL_BLOCKS units of unit_bytes */
    size_t unit_bytes;
    int64_t unit_elems;
} type_pool;

typedef struct synth_fill {
    synth_weights *sw;
    int type;
    synth_init init;
    uint64_t seed;
} synth_fill;

struct synth_weights {
    uint64_t seed;
    type_pool pools[SEER_TYPE_COUNT];
    size_t n_fills, cap_fills;
    synth_fill **chunks; /* fills are allocated in chunks so their addresses stay put */
    size_t n_chunks;
};

static uint64_t next_u64(uint64_t *s) { /* splitmix64 */
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Roughly normal (sum of four uniforms), unit variance. */
static float next_normal(uint64_t *s) {
    uint64_t r = next_u64(s);
    float acc = 0;
    for (int i = 0; i < 4; i++) acc += (float)((r >> (16 * i)) & 0xffff) / 65535.0f;
    return (acc - 2.0f) * 1.7320508f;
}

synth_weights *synth_weights_new(uint64_t seed) {
    synth_weights *sw = calloc(1, sizeof *sw);
    if (sw) sw->seed = seed;
    return sw;
}

void synth_weights_free(synth_weights *sw) {
    if (!sw) return;
    for (int t = 0; t < SEER_TYPE_COUNT; t++) free(sw->pools[t].bytes);
    for (size_t i = 0; i < sw->n_chunks; i++) free(sw->chunks[i]);
    free(sw->chunks);
    free(sw);
}

static const type_pool *get_pool(synth_weights *sw, int type) {
    type_pool *p = &sw->pools[type];
    if (p->bytes) return p;
    const seer_type_info *ti = seer_type_get(type);
    if (!ti) return NULL;
    p->unit_elems = ti->block_size >= 32 ? ti->block_size : 32;
    p->unit_bytes = seer_row_bytes(type, p->unit_elems);
    float *src = malloc((size_t)p->unit_elems * sizeof *src);
    p->bytes = malloc(POOL_BLOCKS * p->unit_bytes);
    if (!src || !p->bytes) {
        free(src);
        free(p->bytes);
        p->bytes = NULL;
        return NULL;
    }
    uint64_t s = sw->seed ^ (uint64_t)type * 0x51afd7ed558ccd1dull;
    for (int b = 0; b < POOL_BLOCKS; b++) {
        for (int64_t i = 0; i < p->unit_elems; i++) src[i] = 0.02f * next_normal(&s);
        seer_quantize_row(type, src, p->bytes + (size_t)b * p->unit_bytes, p->unit_elems);
    }
    free(src);
    return p;
}

/* Small tensors (norms, biases, embeddings of positions) element by element. */
static void fill_elementwise(synth_fill *f, unsigned char *dst, size_t nbytes) {
    const seer_type_info *ti = seer_type_get(f->type);
    size_t elem = f->type == SEER_TYPE_F32 ? 4 : 2;
    if (!ti || ti->block_size != 1) return;
    uint64_t s = f->seed;
    for (size_t i = 0; i < nbytes / elem; i++) {
        float x = next_normal(&s);
        float v = f->init == SYNTH_NORM ? 1.0f + 0.05f * x : f->init == SYNTH_BIAS ? 0.01f * x : 0.02f * x;
        if (f->type == SEER_TYPE_F32) memcpy(dst + 4 * i, &v, 4);
        else {
            uint16_t h = f->type == SEER_TYPE_F16 ? seer_f32_to_fp16(v) : seer_f32_to_bf16(v);
            memcpy(dst + 2 * i, &h, 2);
        }
    }
}

static void fill_tensor(void *ctx, void *dst, size_t nbytes) {
    synth_fill *f = ctx;
    const seer_type_info *ti = seer_type_get(f->type);
    if (f->init != SYNTH_WEIGHT || (ti && ti->block_size == 1 && nbytes < (1u << 20))) {
        fill_elementwise(f, dst, nbytes);
        return;
    }
    const type_pool *p = get_pool(f->sw, f->type);
    if (!p) return; /* left zero */
    uint64_t s = f->seed;
    unsigned char *out = dst;
    size_t off = 0;
    while (off + p->unit_bytes <= nbytes) {
        uint64_t r = next_u64(&s);
        for (int k = 0; k < 4 && off + p->unit_bytes <= nbytes; k++, r >>= 16) {
            memcpy(out + off, p->bytes + (r & (POOL_BLOCKS - 1)) * p->unit_bytes, p->unit_bytes);
            off += p->unit_bytes;
        }
    }
}

static synth_fill *new_fill(synth_weights *sw) {
    enum { CHUNK = 256 };
    if (sw->n_fills == sw->cap_fills) {
        synth_fill **chunks = realloc(sw->chunks, (sw->n_chunks + 1) * sizeof *chunks);
        if (!chunks) return NULL;
        sw->chunks = chunks;
        sw->chunks[sw->n_chunks] = calloc(CHUNK, sizeof(synth_fill));
        if (!sw->chunks[sw->n_chunks]) return NULL;
        sw->n_chunks++;
        sw->cap_fills += CHUNK;
    }
    synth_fill *f = &sw->chunks[sw->n_fills / CHUNK][sw->n_fills % CHUNK];
    sw->n_fills++;
    return f;
}

void synth_add_tensor(synth_weights *sw, gguf_writer *w, const char *name, int type, int n_dims,
                      const int64_t *ne, synth_init init) {
    synth_fill *f = new_fill(sw);
    if (!f) {
        gguf_writer_add_tensor(w, name, type, n_dims, ne, NULL); /* zeros rather than nothing */
        return;
    }
    f->sw = sw;
    f->type = type;
    f->init = init;
    f->seed = sw->seed ^ (0x2545f4914f6cdd1dull * (uint64_t)sw->n_fills);
    gguf_writer_add_tensor_fn(w, name, type, n_dims, ne, fill_tensor, f);
}
