/* Token sampling, in llama.cpp's default order: repetition penalty, top-k,
 * top-p and min-p (on the untempered distribution), temperature, then a draw
 * from a seeded generator. temp <= 0 is greedy: the argmax, lowest id on ties.
 * All buffers are sized once in seer_sampler_new: sampling never allocates. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "seer/sampler.h"

/* Tokens this far below the best logit have probability < e^-30 relative to
 * it: they are dropped before sorting (they cannot change a top-p cut). */
#define NEGLIGIBLE_LOGIT_GAP 30.0f

typedef struct candidate {
    int32_t id;
    float logit;
    float p;
} candidate;

struct seer_sampler {
    seer_sampling params;
    int n_vocab;
    candidate *cand;
    int32_t *recent;      /* ring of the last repeat_last_n accepted tokens */
    int recent_cap, recent_n, recent_head;
    uint64_t rng;
};

seer_sampling seer_sampling_default(void) {
    seer_sampling s = {.temp = 0.8f, .top_k = 40, .top_p = 0.95f, .min_p = 0.05f, .repeat_penalty = 1.0f,
                       .repeat_last_n = 64, .seed = 0};
    return s;
}

/* splitmix64: small, fast, good enough for sampling. */
static uint64_t rng_next(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static double rng_uniform(uint64_t *s) { return (double)(rng_next(s) >> 11) * (1.0 / 9007199254740992.0); }

void seer_sampler_set(seer_sampler *s, const seer_sampling *params) {
    if (!s || !params) return;
    const bool reseed = params->seed != s->params.seed;
    s->params = *params;
    if (s->params.repeat_last_n < 0) s->params.repeat_last_n = 0;
    if (s->params.repeat_last_n > s->recent_cap) s->params.repeat_last_n = s->recent_cap;
    if (reseed) s->rng = params->seed;
}

seer_sampler *seer_sampler_new(const seer_sampling *params, int n_vocab) {
    if (n_vocab <= 0) return NULL;
    seer_sampler *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->n_vocab = n_vocab;
    s->cand = malloc(sizeof *s->cand * (size_t)n_vocab);
    s->recent_cap = 4096;
    s->recent = malloc(sizeof *s->recent * (size_t)s->recent_cap);
    if (!s->cand || !s->recent) {
        seer_sampler_free(s);
        return NULL;
    }
    s->params = params ? *params : seer_sampling_default();
    if (s->params.repeat_last_n < 0) s->params.repeat_last_n = 0;
    if (s->params.repeat_last_n > s->recent_cap) s->params.repeat_last_n = s->recent_cap;
    s->rng = s->params.seed;
    return s;
}

void seer_sampler_free(seer_sampler *s) {
    if (!s) return;
    free(s->cand);
    free(s->recent);
    free(s);
}

void seer_sampler_reset(seer_sampler *s) {
    if (!s) return;
    s->recent_n = 0;
    s->recent_head = 0;
    s->rng = s->params.seed;
}

void seer_sampler_accept(seer_sampler *s, int32_t id) {
    if (!s) return;
    s->recent[s->recent_head] = id;
    s->recent_head = (s->recent_head + 1) % s->recent_cap;
    if (s->recent_n < s->recent_cap) s->recent_n++;
}

static int cmp_logit_desc(const void *a, const void *b) {
    const candidate *x = a, *y = b;
    if (x->logit != y->logit) return x->logit > y->logit ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* Probabilities of cand[0..n) at temperature t (p filled, sum 1). */
static void softmax_cand(candidate *c, int n, float t) {
    float max = c[0].logit;
    for (int i = 1; i < n; i++)
        if (c[i].logit > max) max = c[i].logit;
    double sum = 0;
    for (int i = 0; i < n; i++) {
        c[i].p = expf((c[i].logit - max) / t);
        sum += c[i].p;
    }
    for (int i = 0; i < n; i++) c[i].p = (float)(c[i].p / sum);
}

static int32_t greedy(const float *logits, int n, float *prob) {
    int32_t best = 0;
    for (int i = 1; i < n; i++)
        if (logits[i] > logits[best]) best = i;
    if (prob) {
        double sum = 0;
        for (int i = 0; i < n; i++) sum += exp((double)logits[i] - logits[best]);
        *prob = (float)(1.0 / sum);
    }
    return best;
}

/* A token counts once however often it was seen. */
static bool seen_recently(const seer_sampler *s, int32_t id) {
    int n = s->recent_n < s->params.repeat_last_n ? s->recent_n : s->params.repeat_last_n;
    for (int k = 1; k <= n; k++)
        if (s->recent[(s->recent_head - k + s->recent_cap) % s->recent_cap] == id) return true;
    return false;
}

int32_t seer_sampler_sample(seer_sampler *s, const float *logits, float *prob) {
    if (!s || !logits) return -1;
    const seer_sampling *sp = &s->params;
    const bool penalize = sp->repeat_penalty != 1.0f && sp->repeat_penalty > 0 && sp->repeat_last_n > 0 &&
                          s->recent_n > 0;
    int n = s->n_vocab;
    float max = -INFINITY;
    for (int i = 0; i < n; i++) {
        float l = logits[i];
        if (penalize && seen_recently(s, i)) l = l > 0 ? l / sp->repeat_penalty : l * sp->repeat_penalty;
        s->cand[i] = (candidate){.id = i, .logit = l};
        if (l > max) max = l;
    }
    if (sp->temp <= 0) {
        int32_t best = 0;
        for (int i = 1; i < n; i++)
            if (s->cand[i].logit > s->cand[best].logit) best = i;
        if (!penalize) return greedy(logits, n, prob);
        if (prob) {
            softmax_cand(s->cand, n, 1.0f);
            *prob = s->cand[best].p;
        }
        return best;
    }
    /* Keep what can matter, sorted best first. */
    int m = 0;
    for (int i = 0; i < n; i++)
        if (s->cand[i].logit >= max - NEGLIGIBLE_LOGIT_GAP * (sp->temp > 1 ? sp->temp : 1)) s->cand[m++] = s->cand[i];
    qsort(s->cand, (size_t)m, sizeof *s->cand, cmp_logit_desc);
    if (sp->top_k > 0 && sp->top_k < m) m = sp->top_k;
    softmax_cand(s->cand, m, 1.0f);
    if (sp->top_p < 1.0f) {
        double cum = 0;
        int keep = m;
        for (int i = 0; i < m; i++) {
            cum += s->cand[i].p;
            if (cum >= sp->top_p) {
                keep = i + 1;
                break;
            }
        }
        m = keep;
    }
    if (sp->min_p > 0) {
        const float floor_p = s->cand[0].p * sp->min_p;
        int keep = 1;
        while (keep < m && s->cand[keep].p >= floor_p) keep++;
        m = keep;
    }
    softmax_cand(s->cand, m, sp->temp);
    const double u = rng_uniform(&s->rng);
    double cum = 0;
    int pick = m - 1;
    for (int i = 0; i < m; i++) {
        cum += s->cand[i].p;
        if (u < cum) {
            pick = i;
            break;
        }
    }
    if (prob) *prob = s->cand[pick].p;
    return s->cand[pick].id;
}
