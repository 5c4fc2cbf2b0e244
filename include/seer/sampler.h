/* Token sampling: greedy, temperature, top-k, top-p, min-p, repetition penalty. */
#ifndef SEER_SAMPLER_H
#define SEER_SAMPLER_H

#include "seer/common.h"

typedef struct seer_sampling {
    float temp;        /* <= 0: greedy (argmax, lowest id on ties) */
    int top_k;         /* <= 0: off */
    float top_p;       /* >= 1: off */
    float min_p;       /* <= 0: off */
    float repeat_penalty; /* 1: off */
    int repeat_last_n;
    uint64_t seed;
} seer_sampling;

seer_sampling seer_sampling_default(void);

typedef struct seer_sampler seer_sampler;
seer_sampler *seer_sampler_new(const seer_sampling *s, int n_vocab);
void seer_sampler_free(seer_sampler *s);
void seer_sampler_set(seer_sampler *s, const seer_sampling *params);
/* Picks a token; *prob (optional) gets its probability under the final distribution. */
int32_t seer_sampler_sample(seer_sampler *s, const float *logits, float *prob);
/* Records an accepted token (for the repetition penalty). */
void seer_sampler_accept(seer_sampler *s, int32_t id);
void seer_sampler_reset(seer_sampler *s);

#endif
