/* Counters of seer serve, written in Prometheus' text format at /metrics. */
#ifndef SEER_SERVE_METRICS_H
#define SEER_SERVE_METRICS_H

#include <pthread.h>
#include <stddef.h>

#include "seer/mtmd.h"

#define SERVE_LATENCY_BUCKETS 9
/* Decode steps are counted by rows up to this many (more: in the last). */
#define SERVE_STEP_SIZES 16

typedef enum serve_endpoint { SERVE_EP_CHAT, SERVE_EP_EMBED, SERVE_EP_MODELS, SERVE_EP_OTHER, SERVE_EP_COUNT } serve_endpoint;

typedef struct serve_metrics {
    pthread_mutex_t mu;
    unsigned long long requests[SERVE_EP_COUNT][3]; /* by status class: 2xx 4xx 5xx */
    unsigned long long prompt_tokens, prefilled_tokens, generated_tokens, embedded_inputs;
    unsigned long long image_encodes, vision_batches, vision_batch_images;
    unsigned long long latency_count[SERVE_EP_COUNT][SERVE_LATENCY_BUCKETS + 1];
    double latency_sum[SERVE_EP_COUNT];
    double ttft_sum;
    unsigned long long ttft_count;
    unsigned long long decode_steps[SERVE_STEP_SIZES]; /* [k - 1]: steps that decoded k chats' tokens together */
    int queue_length, busy;
} serve_metrics;

void serve_metrics_init(serve_metrics *m);
void serve_metrics_request(serve_metrics *m, serve_endpoint ep, int status, double seconds);
/* Adds to one counter under the lock. */
void serve_metrics_add(serve_metrics *m, unsigned long long *counter, unsigned long long n);
/* Images encoded, in these vision passes. */
void serve_metrics_vision(serve_metrics *m, const seer_vision_passes *p);
void serve_metrics_ttft(serve_metrics *m, double seconds);
void serve_metrics_step(serve_metrics *m, int rows);
void serve_metrics_gauges(serve_metrics *m, int queue_length, int busy);
/* The text /metrics returns (malloc'd). */
char *serve_metrics_text(serve_metrics *m);

#endif
