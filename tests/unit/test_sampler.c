/* Sampler: greedy ties, each filter's effect on which tokens can come out,
 * temperature against the exact distribution (chi-square style bound),
 * repetition penalty, seeding. */
#include <math.h>
#include <stdlib.h>

#include "seer/sampler.h"
#include "testlib.h"

enum { V = 8 };

static seer_sampling plain(float temp) {
    seer_sampling s = seer_sampling_default();
    s.temp = temp;
    s.top_k = 0;
    s.top_p = 1.0f;
    s.min_p = 0.0f;
    s.repeat_penalty = 1.0f;
    s.seed = 7;
    return s;
}

/* Counts of each id over n draws. */
static void draw(seer_sampler *smp, const float *logits, int n, int *counts) {
    for (int i = 0; i < V; i++) counts[i] = 0;
    for (int i = 0; i < n; i++) {
        int32_t id = seer_sampler_sample(smp, logits, NULL);
        if (id >= 0 && id < V) counts[id]++;
    }
}

static void test_greedy(void) {
    const float logits[V] = {0.5f, 3.0f, -1.0f, 3.0f, 2.9f, 0, 0, 0};
    seer_sampling sp = plain(0.0f);
    seer_sampler *s = seer_sampler_new(&sp, V);
    float p = 0;
    CHECK(seer_sampler_sample(s, logits, &p) == 1); /* tie 1/3: lowest id */
    double z = 0;
    for (int i = 0; i < V; i++) z += exp(logits[i]);
    CHECK_NEAR(p, exp(3.0) / z, 1e-6);
    /* repetition penalty pushes the accepted token down (3.0/1.5 = 2 < 2.9) */
    sp.repeat_penalty = 1.5f;
    sp.repeat_last_n = 4;
    seer_sampler_set(s, &sp);
    seer_sampler_accept(s, 1);
    seer_sampler_accept(s, 3);
    CHECK(seer_sampler_sample(s, logits, NULL) == 4);
    seer_sampler_reset(s);
    CHECK(seer_sampler_sample(s, logits, NULL) == 1);
    /* a negative logit is multiplied: still lower */
    const float neg[V] = {-1.0f, -1.1f, -5, -5, -5, -5, -5, -5};
    seer_sampler_accept(s, 0);
    CHECK(seer_sampler_sample(s, neg, NULL) == 1);
    seer_sampler_free(s);
}

/* Greedy over a vocabulary of any length is a plain scan's first best:
 * NaNs never chosen (but for logit 0 being one), +0 and -0 tied, ties to
 * the lowest id, in every place of the chains and the tail. */
static void test_greedy_scan(void) {
    enum { N = 1000 };
    static float l[N];
    seer_sampling sp = plain(0.0f);
    unsigned r = 12345;
    for (int t = 0; t < 3000; t++) {
        const int n = 1 + t % 300 + (t % 7 == 0 ? 600 : 0);
        for (int i = 0; i < n; i++) {
            r = r * 1103515245u + 12345u;
            const unsigned k = (r >> 16) % 12;
            l[i] = k == 0 ? NAN : k == 1 ? 0.0f : k == 2 ? -0.0f : (float)((int)((r >> 8) % 9) - 4);
        }
        if (t % 5 == 0) l[0] = NAN;
        int want = 0;
        for (int i = 1; i < n; i++)
            if (l[i] > l[want]) want = i;
        seer_sampler *s = seer_sampler_new(&sp, n);
        const int got = seer_sampler_sample(s, l, NULL);
        seer_sampler_free(s);
        CHECK_MSG(got == want, "greedy over %d logits: %d, a plain scan %d", n, got, want);
        if (got != want) break;
    }
}

static void test_distribution(void) {
    const float logits[V] = {1.0f, 2.0f, 0.0f, 1.5f, -1.0f, 0.5f, 2.2f, -3.0f};
    for (int t = 0; t < 2; t++) {
        float temp = t ? 2.0f : 0.7f;
        seer_sampling sp = plain(temp);
        seer_sampler *s = seer_sampler_new(&sp, V);
        enum { N = 40000 };
        int c[V];
        draw(s, logits, N, c);
        double z = 0;
        for (int i = 0; i < V; i++) z += exp(logits[i] / temp);
        for (int i = 0; i < V; i++) {
            double p = exp(logits[i] / temp) / z;
            double sd = sqrt(N * p * (1 - p)) + 1;
            CHECK_MSG(fabs(c[i] - N * p) < 5 * sd, "temp %g id %d: %d draws, expected %.0f", temp, i, c[i], N * p);
        }
        /* prob reported = the token's probability under the tempered distribution */
        float p6 = 0;
        int32_t id;
        do id = seer_sampler_sample(s, logits, &p6); while (id != 6);
        CHECK_NEAR(p6, exp(2.2 / temp) / z, 1e-5);
        seer_sampler_free(s);
    }
}

static void test_filters(void) {
    const float logits[V] = {1.0f, 2.0f, 0.0f, 1.5f, -1.0f, 0.5f, 2.2f, -3.0f};
    int c[V];
    /* top-k 2: only ids 6 and 1 */
    seer_sampling sp = plain(1.0f);
    sp.top_k = 2;
    seer_sampler *s = seer_sampler_new(&sp, V);
    draw(s, logits, 2000, c);
    CHECK(c[6] > 0 && c[1] > 0 && c[6] + c[1] == 2000);
    /* top-p: probs sorted 6,1,3,0,… ≈ .338,.277,.168,.102,…;
     * p = 0.7 keeps 6,1,3 (cum .615 < .7 → add 3 → .783) */
    sp = plain(1.0f);
    sp.top_p = 0.7f;
    seer_sampler_set(s, &sp);
    draw(s, logits, 3000, c);
    CHECK(c[6] > 0 && c[1] > 0 && c[3] > 0 && c[6] + c[1] + c[3] == 3000);
    /* min-p 0.4: keep p >= 0.4·p(6) → exp(l-2.2) >= 0.4 → l >= 1.284: ids 6, 1, 3 */
    sp = plain(1.0f);
    sp.min_p = 0.4f;
    seer_sampler_set(s, &sp);
    draw(s, logits, 3000, c);
    CHECK(c[6] > 0 && c[1] > 0 && c[3] > 0 && c[6] + c[1] + c[3] == 3000);
    seer_sampler_free(s);
}

static void test_seed(void) {
    const float logits[V] = {1, 1, 1, 1, 1, 1, 1, 1};
    seer_sampling sp = plain(1.0f);
    seer_sampler *a = seer_sampler_new(&sp, V), *b = seer_sampler_new(&sp, V);
    int32_t ra[64], same = 1, differs = 0;
    for (int i = 0; i < 64; i++) {
        ra[i] = seer_sampler_sample(a, logits, NULL);
        if (ra[i] != seer_sampler_sample(b, logits, NULL)) same = 0;
    }
    CHECK(same);
    seer_sampler_reset(a); /* reset restarts the sequence */
    for (int i = 0; i < 64; i++)
        if (seer_sampler_sample(a, logits, NULL) != ra[i]) same = 0;
    CHECK(same);
    sp.seed = 8;
    seer_sampler_set(b, &sp);
    seer_sampler_reset(b);
    for (int i = 0; i < 64; i++)
        if (seer_sampler_sample(b, logits, NULL) != ra[i]) differs = 1;
    CHECK(differs);
    seer_sampler_free(a);
    seer_sampler_free(b);
}

/* DRAWS per setting: each is a pass over BIG logits (under 1 ms natively,
 * ~13x that under the aarch64 lane's qemu), and one draw outside the set
 * or at a wrong p fails. */
enum { BIG = 50000, K = 40, DRAWS = 300 };

/* Logits of a large vocabulary: a crowd with many ties (multiples of 0.01
 * in [0, 20), 25 of each: the k best end in a tie) and four tokens above
 * it, which a penalty of 1.02 leaves above it once and lower again twice. */
static const int32_t special[4] = {777, 4242, 31000, BIG - 1};

static void big_logits(float *l) {
    unsigned x = 12345;
    for (int i = 0; i < BIG; i++) {
        x = x * 1103515245u + 12345u;
        l[i] = (float)((x >> 8) % 2000) / 100.0f;
    }
    for (int j = 0; j < 4; j++) l[special[j]] = 21.0f - 0.2f * (float)j;
}

/* The K best ids as a full sort ranks them (logit, then lowest id), by
 * repeated scans: an oracle that shares no code with the sampler. */
static void best_k(const float *l, int32_t *ids) {
    for (int k = 0; k < K; k++) {
        int32_t best = -1;
        for (int i = 0; i < BIG; i++) {
            bool taken = false;
            for (int j = 0; j < k && !taken; j++) taken = ids[j] == i;
            if (!taken && (best < 0 || l[i] > l[best])) best = i;
        }
        ids[k] = best;
    }
}

/* A large vocabulary: top-k draws only the k best (ties to the lowest ids),
 * each at its probability among them; with a penalty, on the penalized
 * logits (each recent token once however often it was accepted); greedy
 * reports the argmax's probability over the whole vocabulary. */
static void test_top_k_large(void) {
    float *l = malloc(sizeof *l * BIG), *pl = malloc(sizeof *pl * BIG);
    big_logits(l);
    seer_sampling sp = plain(1.0f);
    sp.top_k = K;
    seer_sampler *s = seer_sampler_new(&sp, BIG);
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < BIG; i++) pl[i] = l[i];
        if (pass == 1) { /* penalize the four, one of them accepted twice */
            sp.repeat_penalty = 1.02f;
            sp.repeat_last_n = 8;
            seer_sampler_set(s, &sp);
            seer_sampler_reset(s);
            for (int j = 0; j < 4; j++) {
                seer_sampler_accept(s, special[j]);
                pl[special[j]] /= 1.02f;
            }
            seer_sampler_accept(s, special[0]);
        }
        int32_t want[K];
        best_k(pl, want);
        double z = 0;
        for (int k = 0; k < K; k++) z += exp(pl[want[k]] - pl[want[0]]);
        int hits[K] = {0}, outside = 0, wrong_p = 0;
        for (int d = 0; d < DRAWS; d++) {
            float p = 0;
            const int32_t id = seer_sampler_sample(s, l, &p);
            int k = 0;
            while (k < K && want[k] != id) k++;
            if (k == K) {
                outside++;
                continue;
            }
            hits[k]++;
            if (fabs(p - exp(pl[id] - pl[want[0]]) / z) > 1e-5) wrong_p++;
        }
        int distinct = 0;
        for (int k = 0; k < K; k++) distinct += hits[k] > 0;
        CHECK_MSG(outside == 0 && wrong_p == 0 && distinct > K / 2, "pass %d: %d draws outside the %d best, %d wrong p, %d of them drawn",
                  pass, outside, K, wrong_p, distinct);
    }
    sp = plain(0.0f);
    seer_sampler_set(s, &sp);
    float p = 0;
    const int32_t id = seer_sampler_sample(s, l, &p);
    int32_t want[K];
    best_k(l, want);
    double z = 0;
    for (int i = 0; i < BIG; i++) z += exp(l[i] - l[id]);
    CHECK_MSG(id == want[0] && fabs(p - 1.0 / z) < 1e-6 * (1.0 / z) * 100, "greedy: %d (want %d), p %g (want %g)", id,
              want[0], p, 1.0 / z);
    seer_sampler_free(s);
    free(l);
    free(pl);
}

static const float *rank_logits; /* for by_rank */
static int by_rank(const void *a, const void *b) {
    const int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    const float lx = rank_logits[x], ly = rank_logits[y];
    return lx > ly ? -1 : lx < ly ? 1 : (x > y) - (x < y);
}

/* Without top-k, on the large vocabulary: top-p alone (a cut ~1700 deep,
 * past the first k the sampler tries), min-p alone, both, and neither
 * (every id drawable). Each draw must lie in the set a full sort keeps and
 * report its probability within that set, which moves by ~4e-4 if the cut
 * is one token off, and the draws must reach the set's second half. */
static void test_no_top_k_large(void) {
    float *l = malloc(sizeof *l * BIG);
    int32_t *order = malloc(sizeof *order * BIG);
    int *rank = malloc(sizeof *rank * BIG);
    big_logits(l);
    for (int i = 0; i < BIG; i++) order[i] = i;
    rank_logits = l;
    qsort(order, BIG, sizeof *order, by_rank);
    for (int r = 0; r < BIG; r++) rank[order[r]] = r;
    const float max = l[order[0]];
    double z = 0;
    for (int i = 0; i < BIG; i++) z += exp(l[i] - max);
    const struct { float top_p, min_p; } cuts[] = {{0.5f, 0}, {1, 0.35f}, {0.002f, 0.35f}, {1, 0}};
    for (int c = 0; c < 4; c++) {
        int keep = BIG;
        double cum = 0;
        for (int r = 0; r < BIG && cuts[c].top_p < 1; r++) {
            cum += exp(l[order[r]] - max) / z;
            if (cum >= cuts[c].top_p) {
                keep = r + 1;
                break;
            }
        }
        int by_min_p = 1;
        while (cuts[c].min_p > 0 && by_min_p < keep && exp(l[order[by_min_p]] - max) >= cuts[c].min_p) by_min_p++;
        if (cuts[c].min_p > 0) keep = by_min_p;
        double zk = 0;
        for (int r = 0; r < keep; r++) zk += exp(l[order[r]] - max);
        seer_sampling sp = plain(1.0f);
        sp.top_p = cuts[c].top_p;
        sp.min_p = cuts[c].min_p;
        seer_sampler *s = seer_sampler_new(&sp, BIG);
        int outside = 0, wrong_p = 0, deepest = 0;
        for (int d = 0; d < DRAWS; d++) {
            float p = 0;
            const int32_t id = seer_sampler_sample(s, l, &p);
            if (id < 0 || id >= BIG || rank[id] >= keep) {
                outside++;
                continue;
            }
            const double want = exp(l[id] - max) / zk;
            if (fabs(p - want) > 1e-5 * want) wrong_p++;
            if (rank[id] > deepest) deepest = rank[id];
        }
        CHECK_MSG(outside == 0 && wrong_p == 0 && (2 * deepest >= keep || keep == BIG),
                  "top-p %g min-p %g: keeps %d; %d draws outside, %d wrong p, deepest rank drawn %d", cuts[c].top_p,
                  cuts[c].min_p, keep, outside, wrong_p, deepest);
        seer_sampler_free(s);
    }
    free(l);
    free(order);
    free(rank);
}

/* Logits a broken model can produce: magnitudes near FLT_MAX (where the best
 * minus the negligible gap rounds to the best), infinities, NaN. Every
 * setting must return an id of the vocabulary: one of the best where the
 * rest are ~1e30 or infinitely below, never a NaN one. */
static void test_extreme_logits(void) {
    enum { N = 1000 };
    static float l[4][N];
    for (int i = 0; i < N; i++) {
        l[0][i] = i % 100 == 7 ? 1e30f : -1e30f; /* the best: ids 7, 107, ... */
        l[1][i] = i % 100 == 7 ? INFINITY : (float)(i % 13);
        l[2][i] = -INFINITY;
        l[3][i] = i % 100 == 7 ? 5.0f : i % 2 ? NAN : 1.0f;
    }
    const struct { int top_k; float top_p, min_p, temp; } set[] = {
        {0, 0.9f, 0, 1}, {0, 1, 0.05f, 1}, {0, 1, 0, 1}, {0, 0.9f, 0.05f, 2}, {40, 0.95f, 0.05f, 0.8f}, {0, 1, 0, 0}};
    for (int c = 0; c < 6; c++)
        for (int a = 0; a < 4; a++) {
            seer_sampling sp = plain(set[c].temp);
            sp.top_k = set[c].top_k;
            sp.top_p = set[c].top_p;
            sp.min_p = set[c].min_p;
            seer_sampler *s = seer_sampler_new(&sp, N);
            for (int d = 0; d < 20; d++) {
                const int32_t id = seer_sampler_sample(s, l[a], NULL);
                const bool ok = id >= 0 && id < N && (a == 2 || (a == 3 ? !isnan(l[a][id]) : id % 100 == 7));
                CHECK_MSG(ok, "setting %d, logits %d: id %d", c, a, id);
            }
            seer_sampler_free(s);
        }
}

int main(void) {
    test_greedy();
    test_greedy_scan();
    test_top_k_large();
    test_no_top_k_large();
    test_distribution();
    test_filters();
    test_seed();
    test_extreme_logits();
    TEST_MAIN_END();
}
