/* Token sampling, in llama.cpp's default order: repetition penalty, top-k,
 * top-p and min-p (on the untempered distribution), temperature, then a draw
 * from a seeded generator. temp <= 0 is greedy: the argmax, lowest id on ties.
 * All buffers are sized once in seer_sampler_new: sampling never allocates.
 * Every step over the vocabulary is linear (a 262k vocabulary is 1-3 ms of
 * a token at 10-20 tok/s): top-k selects its k with a bounded heap and
 * sorts those alone; without top-k only what top-p and min-p can keep is
 * sorted; the penalty touches the recent tokens alone. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "seer/ops.h"
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
    float *logits;        /* the penalized logits, then the greedy pick's softmax */
    uint8_t *seen;        /* per id: counted in this token's penalty already */
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
    s->logits = malloc(sizeof *s->logits * (size_t)n_vocab);
    s->seen = calloc((size_t)n_vocab, 1);
    s->recent_cap = 4096;
    s->recent = malloc(sizeof *s->recent * (size_t)s->recent_cap);
    if (!s->cand || !s->logits || !s->seen || !s->recent) {
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
    free(s->logits);
    free(s->seen);
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

/* a sorts after b: lower logit, or the same logit and a higher id. */
static inline bool sorts_after(const candidate *a, const candidate *b) {
    return a->logit < b->logit || (a->logit == b->logit && a->id > b->id);
}

static int cmp_logit_desc(const void *a, const void *b) {
    return sorts_after(a, b) ? 1 : sorts_after(b, a) ? -1 : 0;
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

/* How many of the sorted candidates top-p keeps (all n when their
 * probabilities add up to less than top_p). */
static int top_p_count(const candidate *c, int n, float top_p) {
    double cum = 0;
    for (int i = 0; i < n; i++) {
        cum += c[i].p;
        if (cum >= top_p) return i + 1;
    }
    return n;
}

/* The k-th most recently accepted token (k from 1), or -1 when not a vocabulary id. */
static int32_t recent_id(const seer_sampler *s, int k) {
    const int32_t id = s->recent[(s->recent_head - k + s->recent_cap) % s->recent_cap];
    return id >= 0 && id < s->n_vocab ? id : -1;
}

/* The logits with the repetition penalty applied to each recent token once
 * (however often it was seen), in the sampler's own buffer. */
static const float *penalized(seer_sampler *s, const float *logits) {
    const float rp = s->params.repeat_penalty;
    const int n = s->recent_n < s->params.repeat_last_n ? s->recent_n : s->params.repeat_last_n;
    memcpy(s->logits, logits, sizeof *logits * (size_t)s->n_vocab);
    for (int k = 1; k <= n; k++) {
        const int32_t id = recent_id(s, k);
        if (id < 0 || s->seen[id]) continue;
        s->seen[id] = 1;
        const float l = s->logits[id];
        s->logits[id] = l > 0 ? l / rp : l * rp;
    }
    for (int k = 1; k <= n; k++) {
        const int32_t id = recent_id(s, k);
        if (id >= 0) s->seen[id] = 0;
    }
    return s->logits;
}

/* The first index of the largest logit, NaNs never larger (and index 0
 * when logit 0 is one, as a plain scan from it gives): the maximum over
 * independent chains (vector code), then a scan for its first place. One
 * chain through l[best] took 200 us over SmolVLM's 49152 logits on a
 * Zen 5 core, 5% of a token at two threads; this 20. */
static int32_t argmax(const float *l, int n) {
    enum { CHAINS = 16 };
    if (n <= 0) return 0; /* (logit 0 a NaN: every comparison fails, and the scan finds none) */
    float m[CHAINS];
    for (int k = 0; k < CHAINS; k++) m[k] = l[0];
    int i = 0;
    for (; i + CHAINS <= n; i += CHAINS)
        for (int k = 0; k < CHAINS; k++) m[k] = l[i + k] > m[k] ? l[i + k] : m[k];
    float top = m[0];
    for (int k = 1; k < CHAINS; k++) top = m[k] > top ? m[k] : top;
    for (; i < n; i++) top = l[i] > top ? l[i] : top;
    for (i = 0; i < n; i++)
        if (l[i] == top) return i;
    return 0;
}

/* The argmax (lowest id on ties) and, if asked, its probability. */
static int32_t greedy(seer_sampler *s, const float *l, float *prob) {
    const int n = s->n_vocab;
    const int32_t best = argmax(l, n);
    if (prob) {
        if (l != s->logits) memcpy(s->logits, l, sizeof *l * (size_t)n);
        seer_softmax(s->logits, n); /* vector exp: libm's over 262k logits was 5 ms a token */
        *prob = s->logits[best];
    }
    return best;
}

/* cand[0..m) = the k best of the logits at or above floor, sorted best
 * first: a heap of the k best so far with the one that sorts last at its
 * root, which most logits do not pass. */
static int top_k_sorted(candidate *cand, const float *l, int n, float floor, int k) {
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (!(l[i] >= floor)) continue; /* NaN too */
        const candidate c = {.id = i, .logit = l[i]};
        int at;
        if (m < k) { /* sift up from the end */
            for (at = m++; at > 0 && sorts_after(&c, &cand[(at - 1) / 2]); at = (at - 1) / 2) cand[at] = cand[(at - 1) / 2];
        } else {
            if (!sorts_after(&cand[0], &c)) continue;
            for (at = 0;;) { /* sift down from the root */
                int child = 2 * at + 1;
                if (child >= m) break;
                if (child + 1 < m && sorts_after(&cand[child + 1], &cand[child])) child++;
                if (!sorts_after(&cand[child], &c)) break;
                cand[at] = cand[child];
                at = child;
            }
        }
        cand[at] = c;
    }
    qsort(cand, (size_t)m, sizeof *cand, cmp_logit_desc);
    return m;
}

/* Logit bins between floor and the best, for top-p's mass without a sort. */
#define MASS_BINS 1024
static inline int mass_bin(float logit, float floor, float per_logit) {
    const float x = (logit - floor) * per_logit; /* NaN where floor rounds to the best (logits ~1e30) */
    return x >= MASS_BINS - 1 ? MASS_BINS - 1 : x > 0 ? (int)x : 0;
}

/* Gathers the logits at or above lo in bins from b_lo on (cand[0..m),
 * probabilities over sum), sorted best first when sorted. */
static int gather(seer_sampler *s, const float *l, float max, double sum, float lo, float floor, float per_logit,
                  int b_lo, bool sorted) {
    int m = 0;
    for (int i = 0; i < s->n_vocab; i++)
        if (l[i] >= lo && (b_lo == 0 || mass_bin(l[i], floor, per_logit) >= b_lo))
            s->cand[m++] = (candidate){.id = i, .logit = l[i], .p = (float)(expf(l[i] - max) / sum)};
    if (sorted) qsort(s->cand, (size_t)m, sizeof *s->cand, cmp_logit_desc);
    return m;
}

/* Without top-k: the candidates top-p and min-p can keep, best first, each
 * with its probability (temperature 1) among all within floor, in s->cand;
 * 0 when every logit is NaN. Sorting all within floor was 35-66 ms a token
 * at 152k-262k ids; now only these are sorted. min-p keeps logits within
 * ln(1 / min_p) of the best (gathered MIN_P_SLACK looser, so that float
 * rounding cannot drop one the cut keeps); top-p alone, the logits down to
 * one bin past the bin where the bins' mass reaches top_p; with neither cut
 * the draw walks the candidates in id order, unsorted. */
#define MIN_P_SLACK 1e-3f
static int uncut_candidates(seer_sampler *s, const float *l, float max, float floor) {
    const seer_sampling *sp = &s->params;
    const float per_logit = MASS_BINS / (max - floor);
    double sum = 0, bins[MASS_BINS] = {0};
    for (int i = 0; i < s->n_vocab; i++)
        if (l[i] >= floor) {
            const double e = expf(l[i] - max);
            sum += e;
            bins[mass_bin(l[i], floor, per_logit)] += e;
        }
    if (!(sum > 0)) return 0;
    if (sp->min_p > 0) {
        const float lo = fmaxf(floor, max + logf(fminf(sp->min_p, 1.0f)) - MIN_P_SLACK);
        return gather(s, l, max, sum, lo, floor, per_logit, 0, true);
    }
    if (!(sp->top_p < 1.0f)) return gather(s, l, max, sum, floor, floor, per_logit, 0, false);
    int b = MASS_BINS - 1;
    for (double cum = bins[b]; b > 0 && cum < sp->top_p * sum; cum += bins[--b]) {}
    const int m = gather(s, l, max, sum, floor, floor, per_logit, b > 0 ? b - 1 : 0, true);
    double mass = 0;
    for (int i = 0; i < m; i++) mass += s->cand[i].p; /* as top_p_count adds them */
    return mass >= sp->top_p ? m : gather(s, l, max, sum, floor, floor, per_logit, 0, true); /* rounding: all */
}

int32_t seer_sampler_sample(seer_sampler *s, const float *logits, float *prob) {
    if (!s || !logits) return -1;
    const seer_sampling *sp = &s->params;
    const bool penalize = sp->repeat_penalty != 1.0f && sp->repeat_penalty > 0 && sp->repeat_last_n > 0 &&
                          s->recent_n > 0;
    const int n = s->n_vocab;
    const float *l = penalize ? penalized(s, logits) : logits;
    if (sp->temp <= 0) return greedy(s, l, prob);
    float max = -INFINITY;
    for (int i = 0; i < n; i++) max = l[i] > max ? l[i] : max;
    /* Keep what can matter, sorted best first where a cut needs the order. */
    const float floor = max - NEGLIGIBLE_LOGIT_GAP * (sp->temp > 1 ? sp->temp : 1);
    int m;
    if (sp->top_k > 0) {
        m = top_k_sorted(s->cand, l, n, floor, sp->top_k);
        if (m > 0) softmax_cand(s->cand, m, 1.0f);
    } else {
        m = uncut_candidates(s, l, max, floor);
    }
    if (m == 0) return greedy(s, l, prob); /* every logit NaN */
    if (sp->top_p < 1.0f) m = top_p_count(s->cand, m, sp->top_p);
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
