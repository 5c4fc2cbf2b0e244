/* Rotary position embeddings. Angles are computed in double from the exact
 * frequency base^(-2i/n_rot) (no running product), then rounded once.
 * Decoders build one cos/sin table per position and apply it to every head
 * and layer; the one-shot functions build the table on the stack. */
#include <math.h>

#include "seer/ops.h"

void seer_rope_table(float *cs, int n_rot, float base, const int sections[4], const float pos[4]) {
    const int n_pairs = n_rot / 2;
    int bound[4] = {n_pairs, n_pairs, n_pairs, n_pairs};
    if (sections) {
        bound[0] = sections[0];
        bound[1] = bound[0] + sections[1];
        bound[2] = bound[1] + sections[2];
        bound[3] = n_pairs; /* anything past the last section uses e */
    }
    for (int i = 0; i < n_pairs; i++) {
        int s = 0;
        while (s < 3 && i >= bound[s]) s++;
        const double theta = (double)pos[sections ? s : 0] * pow((double)base, -2.0 * i / (double)n_rot);
        cs[2 * i] = (float)cos(theta);
        cs[2 * i + 1] = (float)sin(theta);
    }
}

void seer_rope_apply_normal(float *x, int n_rot, const float *cs) {
    for (int i = 0; i < n_rot / 2; i++) {
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
