/* Rotary position embeddings. Angles are computed in double from the exact
 * frequency base^(-2i/n_rot) (no running product), then rounded once.
 * Decoders build one cos/sin table per position and apply it to every head
 * and layer; the one-shot functions build the table on the stack. */
#include <math.h>
#include <stdbool.h>

#include "seer/ops.h"

/* The position section (0 t, 1 h, 2 w, 3 e) pair i takes. Contiguous
 * (Qwen2-VL): sections follow each other. Interleaved (Qwen3-VL, ggml's
 * IMROPE): within each run of sum(sections) pairs, pair k takes h when
 * k % 3 == 1 and k < 3·sections[1], w when k % 3 == 2 and k < 3·sections[2],
 * t when k % 3 == 0 and k < 3·sections[0], else e. */
static int pair_section(int i, const int sections[4], bool interleaved) {
    const int total = sections[0] + sections[1] + sections[2] + sections[3];
    const int k = total > 0 ? i % total : i;
    if (interleaved) {
        if (k % 3 == 1 && k < 3 * sections[1]) return 1;
        if (k % 3 == 2 && k < 3 * sections[2]) return 2;
        if (k % 3 == 0 && k < 3 * sections[0]) return 0;
        return 3;
    }
    if (k < sections[0]) return 0;
    if (k < sections[0] + sections[1]) return 1;
    if (k < sections[0] + sections[1] + sections[2]) return 2;
    return 3;
}

static void rope_table(float *cs, int n_rot, float base, const int sections[4], bool interleaved, const float pos[4],
                       const float *freq_div) {
    for (int i = 0; i < n_rot / 2; i++) {
        const int s = sections ? pair_section(i, sections, interleaved) : 0;
        double theta = (double)pos[s] * pow((double)base, -2.0 * i / (double)n_rot);
        if (freq_div) theta /= (double)freq_div[i];
        cs[2 * i] = (float)cos(theta);
        cs[2 * i + 1] = (float)sin(theta);
    }
}

void seer_rope_table(float *cs, int n_rot, float base, const int sections[4], const float pos[4]) {
    rope_table(cs, n_rot, base, sections, false, pos, NULL);
}

void seer_rope_table_interleaved(float *cs, int n_rot, float base, const int sections[4], const float pos[4]) {
    rope_table(cs, n_rot, base, sections, true, pos, NULL);
}

void seer_rope_table_divided(float *cs, int n_rot, float base, const float *freq_div, float pos) {
    const float p[4] = {pos, pos, pos, pos};
    rope_table(cs, n_rot, base, NULL, false, p, freq_div);
}

typedef float f32x4 __attribute__((vector_size(16), aligned(4)));

/* Two pairs at a time in four lanes: the products a·c, b·c and b·s, a·s,
 * then a·c - b·s and b·c + a·s, the scalar form's roundings. The compiler
 * had made one pair of 14 instructions of the scalar loop; SmolVLM-256M's
 * 128 rows x 12 heads x 64 dims, one Zen 5 core: 40 -> 21 us a layer. */
void seer_rope_apply_normal(float *x, int n_rot, const float *cs) {
    int i = 0;
    for (; 2 * i + 4 <= n_rot; i += 2) {
        const f32x4 v = *(const f32x4 *)(x + 2 * i), t = *(const f32x4 *)(cs + 2 * i);
        const f32x4 p = v * __builtin_shufflevector(t, t, 0, 0, 2, 2);                                    /* a·c, b·c */
        const f32x4 q = __builtin_shufflevector(v, v, 1, 0, 3, 2) * __builtin_shufflevector(t, t, 1, 1, 3, 3); /* b·s, a·s */
        *(f32x4 *)(x + 2 * i) = __builtin_shufflevector(p - q, p + q, 0, 5, 2, 7);
    }
    for (; i < n_rot / 2; i++) {
        const float c = cs[2 * i], s = cs[2 * i + 1];
        const float a = x[2 * i], b = x[2 * i + 1];
        x[2 * i] = a * c - b * s;
        x[2 * i + 1] = a * s + b * c;
    }
}

void seer_rope_apply_neox(float *x, int n_rot, const float *cs) {
    const int h = n_rot / 2;
    for (int i = 0; i < h; i++) {
        const float c = cs[2 * i], s = cs[2 * i + 1];
        const float a = x[i], b = x[i + h];
        x[i] = a * c - b * s;
        x[i + h] = a * s + b * c;
    }
}

#define ROPE_MAX_ROT 1024

void seer_rope_normal(float *x, int d, int n_rot, float pos, float base) {
    if (n_rot > d) n_rot = d;
    if (n_rot > ROPE_MAX_ROT) n_rot = ROPE_MAX_ROT;
    float cs[ROPE_MAX_ROT];
    const float p[4] = {pos, pos, pos, pos};
    seer_rope_table(cs, n_rot, base, NULL, p);
    seer_rope_apply_normal(x, n_rot, cs);
}

void seer_rope_neox(float *x, int d, int n_rot, float pos, float base) {
    if (n_rot > d) n_rot = d;
    if (n_rot > ROPE_MAX_ROT) n_rot = ROPE_MAX_ROT;
    float cs[ROPE_MAX_ROT];
    const float p[4] = {pos, pos, pos, pos};
    seer_rope_table(cs, n_rot, base, NULL, p);
    seer_rope_apply_neox(x, n_rot, cs);
}

void seer_rope_multi(float *x, int d, const int sections[4], const float pos[4], float base) {
    if (d > ROPE_MAX_ROT) d = ROPE_MAX_ROT;
    float cs[ROPE_MAX_ROT];
    seer_rope_table(cs, d, base, sections, pos);
    seer_rope_apply_neox(x, d, cs);
}
