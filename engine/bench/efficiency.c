/* The efficiency arithmetic of seer bench: measured rates over the machine's
 * measured limits. Pure functions, checked by a unit test. */
#include "seer/bench.h"

#include <stdlib.h>

static double ratio(double num, double den) { return num > 0 && den > 0 ? num / den : 0; }

double seer_bench_prompt_flops(const seer_bench_llm_work *w, int n_prompt) {
    if (n_prompt <= 0) return 0;
    return 2.0 * ((w->params_per_token - w->head_params) * n_prompt + w->head_params);
}

seer_bench_efficiency seer_bench_efficiencies(const seer_bench_measure *m) {
    seer_bench_efficiency e = {0};
    if (m->tg_seconds_per_token > 0) {
        const double read =
            (m->llm.bytes_per_token + m->kv_bytes_per_token + m->state_bytes_per_token) / m->tg_seconds_per_token;
        e.decode_bw = ratio(read, m->machine_gb_s * 1e9);
        e.decode_weights_bw = ratio(read, m->weights_read_gb_s * 1e9);
    }
    if (m->pp_seconds > 0)
        e.prefill_flop = ratio(seer_bench_prompt_flops(&m->llm, m->n_prompt) / m->pp_seconds, m->machine_gflop_s * 1e9);
    if (m->encode_seconds > 0)
        e.encode_flop = ratio(m->encode_flops / m->encode_seconds,
                              (m->machine_encode_gflop_s > 0 ? m->machine_encode_gflop_s : m->machine_gflop_s) * 1e9);
    if (m->pp_seconds > 0)
        e.prefill_peak = ratio(seer_bench_prompt_flops(&m->llm, m->n_prompt) / m->pp_seconds, m->peak_prompt_gop_s * 1e9);
    if (m->encode_seconds > 0) e.encode_peak = ratio(m->encode_flops / m->encode_seconds, m->peak_encode_gop_s * 1e9);
    double budget = m->weight_bytes + m->kv_bytes;
    if (m->peak_rss_bytes > 0 && budget > 0) e.memory_overhead = m->peak_rss_bytes / budget - 1;
    return e;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double seer_bench_median(double *v, int n, double *spread) {
    if (n <= 0) {
        if (spread) *spread = 0;
        return 0;
    }
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    if (spread) *spread = v[n - 1] - v[0];
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
