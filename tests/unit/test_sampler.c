/* Sampler: greedy ties, each filter's effect on which tokens can come out,
 * temperature against the exact distribution (chi-square style bound),
 * repetition penalty, seeding. */
#include <math.h>

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

int main(void) {
    test_greedy();
    test_distribution();
    test_filters();
    test_seed();
    TEST_MAIN_END();
}
