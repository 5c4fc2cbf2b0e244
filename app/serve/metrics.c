/* Prometheus text exposition of the server's counters. */
#include "metrics.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double BUCKETS[SERVE_LATENCY_BUCKETS] = {0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30};
static const char *EP_NAMES[SERVE_EP_COUNT] = {"chat", "embeddings", "models", "other"};
static const char *CLASS_NAMES[3] = {"2xx", "4xx", "5xx"};

void serve_metrics_init(serve_metrics *m) {
    memset(m, 0, sizeof *m);
    pthread_mutex_init(&m->mu, NULL);
}

void serve_metrics_request(serve_metrics *m, serve_endpoint ep, int status, double seconds) {
    pthread_mutex_lock(&m->mu);
    m->requests[ep][status >= 500 ? 2 : status >= 400 ? 1 : 0]++;
    int b = 0;
    while (b < SERVE_LATENCY_BUCKETS && seconds > BUCKETS[b]) b++;
    m->latency_count[ep][b]++;
    m->latency_sum[ep] += seconds;
    pthread_mutex_unlock(&m->mu);
}

void serve_metrics_add(serve_metrics *m, unsigned long long *counter, unsigned long long n) {
    pthread_mutex_lock(&m->mu);
    *counter += n;
    pthread_mutex_unlock(&m->mu);
}

void serve_metrics_vision(serve_metrics *m, const seer_vision_passes *p) {
    pthread_mutex_lock(&m->mu);
    m->image_encodes += (unsigned long long)p->images;
    m->vision_batches += (unsigned long long)p->calls;
    m->vision_batch_images += (unsigned long long)p->images;
    pthread_mutex_unlock(&m->mu);
}

void serve_metrics_ttft(serve_metrics *m, double seconds) {
    pthread_mutex_lock(&m->mu);
    m->ttft_sum += seconds;
    m->ttft_count++;
    pthread_mutex_unlock(&m->mu);
}

void serve_metrics_step(serve_metrics *m, int rows) {
    pthread_mutex_lock(&m->mu);
    m->decode_steps[(rows < SERVE_STEP_SIZES ? rows : SERVE_STEP_SIZES) - 1]++;
    pthread_mutex_unlock(&m->mu);
}

void serve_metrics_gauges(serve_metrics *m, int queue_length, int busy) {
    pthread_mutex_lock(&m->mu);
    m->queue_length = queue_length;
    m->busy = busy;
    pthread_mutex_unlock(&m->mu);
}

typedef struct text_buf {
    char *s;
    size_t len, cap;
} text_buf;

static void put(text_buf *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(text_buf *t, const char *fmt, ...) {
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = t->s ? vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap) : -1;
        va_end(ap);
        if (n >= 0 && t->len + (size_t)n < t->cap) {
            t->len += (size_t)n;
            return;
        }
        size_t cap = t->cap ? t->cap * 2 : 4096;
        char *p = realloc(t->s, cap);
        if (!p) return;
        t->s = p;
        t->cap = cap;
    }
}

static void counter(text_buf *t, const char *name, const char *help, unsigned long long v) {
    put(t, "# HELP %s %s\n# TYPE %s counter\n%s %llu\n", name, help, name, name, v);
}

char *serve_metrics_text(serve_metrics *m) {
    text_buf t = {0};
    pthread_mutex_lock(&m->mu);
    put(&t, "# HELP seer_requests_total HTTP requests answered, by endpoint and status class.\n"
            "# TYPE seer_requests_total counter\n");
    for (int e = 0; e < SERVE_EP_COUNT; e++)
        for (int c = 0; c < 3; c++)
            put(&t, "seer_requests_total{endpoint=\"%s\",status=\"%s\"} %llu\n", EP_NAMES[e], CLASS_NAMES[c],
                m->requests[e][c]);
    counter(&t, "seer_prompt_tokens_total", "Prompt tokens of chat requests (text and image rows).", m->prompt_tokens);
    counter(&t, "seer_prefilled_tokens_total", "Prompt tokens actually prefilled (the rest came from a slot's cache).",
            m->prefilled_tokens);
    counter(&t, "seer_generated_tokens_total", "Tokens generated.", m->generated_tokens);
    counter(&t, "seer_embedded_inputs_total", "Embedding inputs computed.", m->embedded_inputs);
    counter(&t, "seer_image_encodes_total", "Images through the vision encoder.", m->image_encodes);
    counter(&t, "seer_vision_batches_total", "Vision encoder passes (one may take images of several requests).",
            m->vision_batches);
    counter(&t, "seer_vision_batch_images_total", "Images over those calls (divided by the calls: the mean batch size).",
            m->vision_batch_images);
    put(&t, "# HELP seer_decode_steps_total Decode steps, by how many chats' tokens went through the one forward pass "
            "(continuous batching; %d: that many or more).\n# TYPE seer_decode_steps_total counter\n",
        SERVE_STEP_SIZES);
    for (int k = 0; k < SERVE_STEP_SIZES; k++)
        if (m->decode_steps[k]) put(&t, "seer_decode_steps_total{batch=\"%d\"} %llu\n", k + 1, m->decode_steps[k]);
    put(&t, "# HELP seer_queue_length Requests waiting for the worker.\n# TYPE seer_queue_length gauge\n"
            "seer_queue_length %d\n",
        m->queue_length);
    put(&t, "# HELP seer_busy Requests the worker is running.\n# TYPE seer_busy gauge\nseer_busy %d\n", m->busy);
    put(&t, "# HELP seer_time_to_first_token_seconds From a chat request's arrival to its first token.\n"
            "# TYPE seer_time_to_first_token_seconds summary\nseer_time_to_first_token_seconds_sum %.6f\n"
            "seer_time_to_first_token_seconds_count %llu\n",
        m->ttft_sum, m->ttft_count);
    put(&t, "# HELP seer_request_duration_seconds Time from a request's arrival to its last byte queued.\n"
            "# TYPE seer_request_duration_seconds histogram\n");
    for (int e = 0; e < SERVE_EP_COUNT; e++) {
        unsigned long long cum = 0;
        for (int b = 0; b <= SERVE_LATENCY_BUCKETS; b++) {
            cum += m->latency_count[e][b];
            if (b < SERVE_LATENCY_BUCKETS)
                put(&t, "seer_request_duration_seconds_bucket{endpoint=\"%s\",le=\"%g\"} %llu\n", EP_NAMES[e],
                    BUCKETS[b], cum);
            else
                put(&t, "seer_request_duration_seconds_bucket{endpoint=\"%s\",le=\"+Inf\"} %llu\n", EP_NAMES[e], cum);
        }
        put(&t, "seer_request_duration_seconds_sum{endpoint=\"%s\"} %.6f\n", EP_NAMES[e], m->latency_sum[e]);
        put(&t, "seer_request_duration_seconds_count{endpoint=\"%s\"} %llu\n", EP_NAMES[e], cum);
    }
    pthread_mutex_unlock(&m->mu);
    return t.s;
}
