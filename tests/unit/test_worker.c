/* The engine thread on a tiny random-weight model: load progress and
 * loaded events, a turn streams prefill/token/done events through the pipe,
 * cancel stops within a token, images (with the encoder's progress), clear,
 * settings, errors. */
#include <math.h>
#include <poll.h>

#include "seer/worker.h"
#include "test_session_model.h"
#include "testlib.h"

/* Waits up to ms for the next event. */
static bool next_event(seer_worker *w, seer_event *ev, int ms) {
    double end = seer_time_ms() + ms;
    for (;;) {
        if (seer_worker_poll(w, ev)) return true;
        int left = (int)(end - seer_time_ms());
        if (left <= 0) return false;
        struct pollfd p = {seer_worker_event_fd(w), POLLIN, 0};
        poll(&p, 1, left);
    }
}

/* Collects events until one of `type` (returned in *out), counting tokens;
 * waits up to ms for each. */
static bool wait_for_ms(seer_worker *w, seer_event_type type, seer_event *out, int *tokens, int *prefills, int ms) {
    seer_event ev;
    while (next_event(w, &ev, ms)) {
        if (ev.type == SEER_EV_TOKEN && tokens && ev.index >= 0) (*tokens)++;
        if (ev.type == SEER_EV_PREFILL_DONE && prefills) *prefills = ev.n_tokens;
        if (ev.type == type) {
            *out = ev;
            return true;
        }
        if (ev.type == SEER_EV_ERROR || ev.type == SEER_EV_LOAD_FAILED)
            fprintf(stderr, "event %d: %s\n", ev.type, ev.text ? ev.text : "");
        seer_event_clear(&ev);
    }
    return false;
}

static bool wait_for(seer_worker *w, seer_event_type type, seer_event *out, int *tokens, int *prefills) {
    return wait_for_ms(w, type, out, tokens, prefills, 20000);
}

static seer_worker *start(const char *llm, const char *proj, int n_predict) {
    seer_worker_config c = {llm, proj, 2, seer_session_params_default()};
    c.params.n_ctx = 2048;
    c.params.n_predict = n_predict;
    c.params.sampling.temp = 0;
    seer_error err = {{0}};
    seer_worker *w = seer_worker_start(&c, &err);
    CHECK_MSG(w != NULL, "start: %s", err.msg);
    return w;
}

static void test_turns(const char *llm, const char *proj) {
    seer_worker *w = start(llm, proj, 8);
    if (!w) return;
    seer_event ev;
    /* Progress first, ending at 1, then LOADED with the model summary. */
    bool saw_progress = false, saw_full = false, loaded = false;
    while (next_event(w, &ev, 20000)) {
        if (ev.type == SEER_EV_LOAD_PROGRESS) {
            saw_progress = true;
            saw_full |= ev.fraction >= 0.999f;
        }
        bool done = ev.type == SEER_EV_LOADED || ev.type == SEER_EV_LOAD_FAILED;
        loaded = ev.type == SEER_EV_LOADED;
        if (loaded) {
            CHECK(ev.model.n_ctx == 2048 && ev.model.vision && ev.model.n_threads == 2);
            CHECK(strcmp(ev.model.chat, "chatml") == 0);
        }
        seer_event_clear(&ev);
        if (done) break;
    }
    CHECK(saw_progress && saw_full && loaded);
    if (!loaded) {
        seer_worker_stop(w);
        return;
    }
    /* An image: encoded event with its token count. */
    char img_path[4096];
    snprintf(img_path, sizeof img_path, "%s/w.ppm", test_tmpdir());
    FILE *f = fopen(img_path, "wb");
    fprintf(f, "P6 16 16 255\n");
    for (int i = 0; i < 16 * 16 * 3; i++) fputc(i & 255, f);
    fclose(f);
    uint64_t id = seer_worker_attach_image(w, img_path);
    /* The encoder's progress first: rising, up to 1, then the encoded event. */
    int n_progress = 0;
    float last = 0;
    bool rising = true, encoded = false;
    while (!encoded && next_event(w, &ev, 20000)) {
        if (ev.type == SEER_EV_ENCODE_PROGRESS) {
            rising &= ev.fraction > last && ev.fraction <= 1.0f;
            last = ev.fraction;
            n_progress++;
        }
        encoded = ev.type == SEER_EV_IMAGE_ENCODED;
        if (!encoded) seer_event_clear(&ev);
    }
    CHECK(encoded);
    CHECK_MSG(n_progress >= 1 && rising && last >= 0.999f, "encode progress: %d events, rising %d, last %.3f",
              n_progress, rising, (double)last);
    CHECK(ev.request == id && ev.n_tokens > 0 && ev.image_w == 16 && ev.text && strcmp(ev.text, img_path) == 0);
    int image_tokens = ev.n_tokens;
    seer_event_clear(&ev);

    int tokens = 0, prefill1 = 0, prefill2 = 0;
    seer_worker_send(w, "describe");
    /* Busy from the send until the turn is done. A turn that finished before
     * the question (a tiny model, a preempted test) has emitted all of its
     * events already: they are there without waiting. */
    bool busy = seer_worker_busy(w);
    CHECK(busy ? wait_for(w, SEER_EV_TURN_DONE, &ev, &tokens, &prefill1)
               : wait_for_ms(w, SEER_EV_TURN_DONE, &ev, &tokens, &prefill1, 0));
    CHECK(ev.stats.gen_tokens == tokens && tokens > 0);
    CHECK(prefill1 > image_tokens && ev.stats.prefill_images == 1);
    int used1 = ev.stats.n_used;
    CHECK(used1 == prefill1 + tokens);
    seer_event_clear(&ev);
    tokens = 0;
    seer_worker_send(w, "more");
    CHECK(wait_for(w, SEER_EV_TURN_DONE, &ev, &tokens, &prefill2));
    /* Only the new turn is prefilled: the cache grows by it and the reply. */
    CHECK_MSG(prefill2 > 0 && prefill2 < used1 && ev.stats.prefill_images == 0, "turn 2 prefilled %d (cache %d)",
              prefill2, used1);
    CHECK_MSG(ev.stats.n_used == used1 + prefill2 + tokens, "cache %d != %d + %d + %d", ev.stats.n_used, used1,
              prefill2, tokens);
    seer_event_clear(&ev);

    /* A message that cannot fit ends its turn with the error; the next works. */
    char big[6000];
    for (int i = 0; i < (int)sizeof big - 1; i++) big[i] = i % 6 == 5 ? ' ' : 'a' + i % 26;
    big[sizeof big - 1] = 0;
    seer_worker_send(w, big);
    CHECK(wait_for(w, SEER_EV_TURN_DONE, &ev, NULL, NULL));
    CHECK_MSG(ev.stats.stop == SEER_STOP_ERROR && ev.text && strstr(ev.text, "tokens but the context holds"), "%s",
              ev.text ? ev.text : "(none)");
    seer_event_clear(&ev);

    /* A missing file is an error event; the worker goes on. */
    seer_worker_attach_image(w, "/nonexistent/x.png");
    CHECK(wait_for(w, SEER_EV_ERROR, &ev, NULL, NULL));
    CHECK(ev.text && strstr(ev.text, "x.png"));
    seer_event_clear(&ev);

    seer_sampling sp = seer_sampling_default();
    sp.temp = 0.5f;
    seer_worker_set_sampling(w, &sp, 300);
    CHECK(wait_for(w, SEER_EV_SETTINGS, &ev, NULL, NULL));
    CHECK(ev.n_predict == 300 && fabsf(ev.sampling.temp - 0.5f) < 1e-6f);
    seer_event_clear(&ev);

    /* Cancel during a long reply: stops within a token or so. */
    tokens = 0;
    seer_worker_send(w, "a long answer please");
    while (next_event(w, &ev, 20000)) {
        bool tok = ev.type == SEER_EV_TOKEN;
        bool done = ev.type == SEER_EV_TURN_DONE;
        if (done) CHECK(ev.stats.stop != SEER_STOP_CANCELLED); /* finished before 2 tokens: EOG */
        seer_event_clear(&ev);
        if (done) break;
        if (tok && ++tokens == 2) {
            seer_worker_cancel(w);
            CHECK(wait_for(w, SEER_EV_TURN_DONE, &ev, &tokens, NULL));
            CHECK_MSG(ev.stats.stop == SEER_STOP_CANCELLED || ev.stats.stop == SEER_STOP_EOG, "stop %d",
                      ev.stats.stop);
            CHECK_MSG(ev.stats.gen_tokens <= 4, "%d tokens after cancel", ev.stats.gen_tokens);
            seer_event_clear(&ev);
            break;
        }
    }
    /* A cancel with nothing running does not eat the next turn. */
    seer_worker_cancel(w);
    tokens = 0;
    seer_worker_send(w, "hello");
    CHECK(wait_for(w, SEER_EV_TURN_DONE, &ev, &tokens, NULL));
    CHECK(ev.stats.stop != SEER_STOP_CANCELLED && tokens > 0);
    seer_event_clear(&ev);

    seer_worker_clear(w);
    CHECK(wait_for(w, SEER_EV_CLEARED, &ev, NULL, NULL));
    seer_event_clear(&ev);
    int prefill3 = 0;
    seer_worker_send(w, "describe");
    CHECK(wait_for(w, SEER_EV_TURN_DONE, &ev, NULL, &prefill3));
    CHECK(prefill3 > 0 && prefill3 < prefill1); /* no image any more */
    seer_event_clear(&ev);
    seer_worker_stop(w);
}

static void test_load_failure(void) {
    seer_worker *w = start("/nonexistent/model.gguf", NULL, 4);
    if (!w) return;
    seer_event ev;
    CHECK(wait_for(w, SEER_EV_LOAD_FAILED, &ev, NULL, NULL));
    CHECK(ev.text && ev.text[0]);
    seer_event_clear(&ev);
    seer_worker_send(w, "x");
    CHECK(wait_for(w, SEER_EV_ERROR, &ev, NULL, NULL));
    seer_event_clear(&ev);
    seer_worker_stop(w);
}

int main(void) {
    char llm[4096], proj[4096];
    if (tiny_model_write(test_tmpdir(), "q8_0", true, llm, sizeof llm, proj, sizeof proj) != 0) {
        CHECK_MSG(0, "no tiny model");
        TEST_MAIN_END();
    }
    test_turns(llm, proj);
    test_load_failure();
    TEST_MAIN_END();
}
