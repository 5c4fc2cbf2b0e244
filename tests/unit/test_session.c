/* Conversation over the KV cache, on a tiny random-weight model: incremental
 * prefill equals a from-scratch prefill, cancel keeps cache and transcript in
 * step, context shift keeps the system prompt, /clear, images encoded once. */
#include <math.h>

#include "seer/session.h"
#include "test_session_model.h"
#include "testlib.h"

typedef struct reply {
    char text[8192];
    int32_t ids[512];
    int n;
    int stop_after;   /* on_token asks to stop after this many tokens (0: never) */
    int prefill_calls, prefill_tokens;
} reply;

static int on_token(void *ud, const seer_gen_token *t) {
    reply *r = ud;
    strncat(r->text, t->text, sizeof r->text - strlen(r->text) - 1);
    if (t->index < 0) return 0; /* trailing bytes of the reply, not a token */
    if (r->n < 512) r->ids[r->n] = t->id;
    r->n++;
    return r->stop_after && r->n >= r->stop_after;
}

static void on_prefill(void *ud, int n, double ms, int shifted) {
    reply *r = ud;
    r->prefill_calls++;
    r->prefill_tokens = n;
}

static int turn(seer_session *s, const char *text, reply *r, seer_turn_stats *st) {
    memset(r->text, 0, sizeof r->text);
    r->n = 0;
    seer_session_hooks h = {r, on_prefill, on_token};
    seer_error err = {{0}};
    int rc = seer_session_send(s, text, &h, NULL, st, &err);
    if (rc != 0) fprintf(stderr, "send failed: %s\n", err.msg);
    return rc;
}

static seer_session *open_session(seer_llm *m, seer_vision *v, seer_pool *pool, int n_ctx, int n_predict) {
    seer_session_params p = seer_session_params_default();
    p.n_ctx = n_ctx;
    p.n_predict = n_predict;
    p.sampling.temp = 0; /* greedy: replies are deterministic */
    p.system_prompt = "You are terse.";
    seer_error err = {{0}};
    seer_session *s = seer_session_new(m, v, pool, &p, &err);
    CHECK_MSG(s != NULL, "session: %s", err.msg);
    return s;
}

/* Turn 2 prefills only its own tokens, and the reply is the one a fresh
 * prefill of the whole conversation gives. */
static void test_incremental_matches_scratch(seer_llm *m, seer_pool *pool) {
    seer_session *a = open_session(m, NULL, pool, 512, 12);
    if (!a) return;
    reply r1, r2, r3;
    memset(&r1, 0, sizeof r1);
    memset(&r2, 0, sizeof r2);
    memset(&r3, 0, sizeof r3);
    seer_turn_stats s1, s2, s3;
    CHECK(turn(a, "hello there", &r1, &s1) == 0);
    int used1 = seer_ctx_used(seer_session_ctx(a));
    CHECK(s1.prefill_tokens > 0);
    CHECK_MSG(used1 == s1.prefill_tokens + s1.gen_tokens, "used %d != prefill %d + gen %d", used1, s1.prefill_tokens,
              s1.gen_tokens);
    CHECK(turn(a, "and again", &r2, &s2) == 0);
    int used2 = seer_ctx_used(seer_session_ctx(a));
    /* Only the new turn: far fewer tokens than the conversation so far. */
    CHECK_MSG(s2.prefill_tokens < used1, "turn 2 prefilled %d tokens, the cache already held %d", s2.prefill_tokens,
              used1);
    CHECK_MSG(used2 == used1 + s2.prefill_tokens + s2.gen_tokens, "cache %d != %d + %d + %d", used2, used1,
              s2.prefill_tokens, s2.gen_tokens);
    CHECK(r2.prefill_calls == 1 && r2.prefill_tokens == s2.prefill_tokens);

    /* The cache built turn by turn holds what one prefill of the same tokens
     * in a fresh context gives: same rows, same next-token logits. */
    int n_ids = 0;
    const int32_t *ids = seer_session_cached_tokens(a, &n_ids);
    CHECK(n_ids == used2);
    seer_error err = {{0}};
    seer_ctx *fresh = seer_ctx_new(m, 512, seer_ctx_kv_type(seer_session_ctx(a)), pool, &err);
    CHECK_MSG(fresh != NULL, "ctx: %s", err.msg);
    if (fresh && n_ids == used2) {
        seer_batch b = {.n = n_ids, .tokens = ids};
        CHECK(seer_ctx_decode(fresh, &b, NULL, &err) == 0);
        const float *la = seer_ctx_logits(seer_session_ctx(a), 0), *lb = seer_ctx_logits(fresh, 0);
        int n_vocab = seer_llm_get_info(m)->n_vocab;
        double num = 0, den = 0;
        int arg_a = 0, arg_b = 0;
        for (int i = 0; i < n_vocab; i++) {
            num += (la[i] - lb[i]) * (double)(la[i] - lb[i]);
            den += (double)lb[i] * lb[i];
            if (la[i] > la[arg_a]) arg_a = i;
            if (lb[i] > lb[arg_b]) arg_b = i;
        }
        CHECK_MSG(sqrt(num / den) < 1e-3, "incremental vs one-shot logits: rel L2 %g", sqrt(num / den));
        CHECK(arg_a == arg_b);
    }
    seer_ctx_free(fresh);

    /* Re-prefilling the conversation from scratch (a system prompt change
     * empties the cache) works and prefills it all. */
    seer_session *b = open_session(m, NULL, pool, 512, 12);
    CHECK(turn(b, "hello there", &r3, &s3) == 0);
    CHECK(turn(b, "and again", &r3, &s3) == 0);
    seer_session_set_system(b, "You are terse.");
    CHECK(seer_ctx_used(seer_session_ctx(b)) == 0);
    reply rb = {0};
    seer_turn_stats sb;
    CHECK(turn(b, "third", &rb, &sb) == 0);
    CHECK_MSG(sb.prefill_tokens == seer_ctx_used(seer_session_ctx(b)) - sb.gen_tokens, "scratch prefill %d, cache %d",
              sb.prefill_tokens, seer_ctx_used(seer_session_ctx(b)));
    CHECK_MSG(sb.prefill_tokens > used2, "scratch prefill %d should cover the conversation (%d)", sb.prefill_tokens,
              used2);
    CHECK(seer_session_n_messages(b) == 7);
    seer_session_free(a);
    seer_session_free(b);
}

/* Cancel after 3 tokens: the partial reply is in the conversation and the
 * cache holds exactly prefill + 3; the next turn continues from there. */
static void test_cancel_keeps_partial(seer_llm *m, seer_pool *pool) {
    seer_session *s = open_session(m, NULL, pool, 512, 40);
    if (!s) return;
    reply r = {0};
    r.stop_after = 3;
    seer_turn_stats st;
    CHECK(turn(s, "tell me a long story", &r, &st) == 0);
    CHECK_MSG(st.stop == SEER_STOP_CANCELLED || st.stop == SEER_STOP_EOG, "stop %d", st.stop);
    if (st.stop == SEER_STOP_CANCELLED) CHECK(st.gen_tokens == 3);
    CHECK(seer_ctx_used(seer_session_ctx(s)) == st.prefill_tokens + st.gen_tokens);
    int nm = seer_session_n_messages(s);
    seer_chat_msg last = seer_session_message(s, nm - 1);
    CHECK(last.role && strcmp(last.role, "assistant") == 0);
    CHECK_MSG(last.content && strcmp(last.content, r.text) == 0, "kept '%s', shown '%s'", last.content, r.text);
    const char *cached = seer_session_cached_text(s);
    size_t cl = strlen(cached), rl = strlen(r.text);
    CHECK(cl >= rl && strcmp(cached + cl - rl, r.text) == 0);
    int used = seer_ctx_used(seer_session_ctx(s));
    reply r2 = {0};
    seer_turn_stats s2;
    CHECK(turn(s, "go on", &r2, &s2) == 0);
    CHECK(seer_ctx_used(seer_session_ctx(s)) == used + s2.prefill_tokens + s2.gen_tokens);
    /* A cancel flag raised before the turn drops it entirely. */
    volatile int cancel = 1;
    int before = seer_ctx_used(seer_session_ctx(s)), msgs = seer_session_n_messages(s);
    seer_turn_stats s3;
    CHECK(seer_session_send(s, "never", NULL, &cancel, &s3, NULL) == 0);
    CHECK(s3.stop == SEER_STOP_CANCELLED && s3.gen_tokens == 0);
    CHECK(seer_ctx_used(seer_session_ctx(s)) == before && seer_session_n_messages(s) == msgs);
    seer_session_free(s);
}

/* A small context fills up: old turns are shifted out, the fewest that
 * make room (so what is kept plus one more turn would not fit), the system
 * prompt stays first, and nothing fails. */
static void test_context_shift(seer_llm *m, seer_pool *pool) {
    seer_session *s = open_session(m, NULL, pool, 160, 16);
    if (!s) return;
    int shifted = 0, used_before = 0, turn_rows = 0;
    for (int i = 0; i < 10; i++) {
        reply r = {0};
        seer_turn_stats st;
        CHECK_MSG(turn(s, "fill the context", &r, &st) == 0, "turn %d", i);
        shifted += st.shifted_turns;
        const int used = seer_ctx_used(seer_session_ctx(s));
        CHECK(used <= 160);
        if (i == 1) turn_rows = used - used_before; /* a turn's rows, question and reply */
        used_before = used;
        /* room for the reply is 16 (n_predict) */
        CHECK_MSG(st.shifted_turns == 0 || used + turn_rows + 16 > 160,
                  "turn %d shifted out %d turns, more than it needed: %d rows kept, a turn takes %d", i,
                  st.shifted_turns, used, turn_rows);
    }
    CHECK_MSG(shifted > 0, "no turn was shifted out of a 160-token context");
    seer_chat_msg first = seer_session_message(s, 0);
    CHECK(first.role && strcmp(first.role, "system") == 0 && strcmp(first.content, "You are terse.") == 0);
    /* A message that can never fit is refused with a message, not a crash. */
    char big[2000];
    for (int i = 0; i < (int)sizeof big - 1; i++) big[i] = i % 5 == 4 ? ' ' : 'a' + i % 23;
    big[sizeof big - 1] = 0;
    seer_error err = {{0}};
    seer_turn_stats st;
    int msgs = seer_session_n_messages(s), used = seer_ctx_used(seer_session_ctx(s));
    CHECK(seer_session_send(s, big, NULL, NULL, &st, &err) == -1);
    /* the sizes, and no advice to /clear: the history is not what is in the way */
    CHECK_MSG(strstr(err.msg, "the context holds 160") != NULL && strstr(err.msg, "/clear") == NULL, "message: %s",
              err.msg);
    /* Nothing was shifted out for a message that could never fit. */
    CHECK(seer_session_n_messages(s) == msgs && seer_ctx_used(seer_session_ctx(s)) == used);
    reply r = {0};
    CHECK(turn(s, "still alive?", &r, &st) == 0);
    seer_session_free(s);
}

/* A history sent whole (as a server's client sends it) that is longer than
 * the context could hold in tokens, before a message that fits: its turns
 * are shifted out without the whole of it being tokenized, and the turn
 * goes on. */
static void test_history_past_the_context(seer_llm *m, seer_pool *pool) {
    seer_session *s = open_session(m, NULL, pool, 160, 8);
    if (!s) return;
    static char long_text[20000];
    for (int i = 0; i < (int)sizeof long_text - 1; i++) long_text[i] = i % 7 == 6 ? ' ' : 'a' + i % 19;
    seer_error err = {{0}};
    for (int t = 0; t < 3; t++) {
        CHECK(seer_session_push_message(s, "user", long_text, NULL, 0, &err) == 0);
        CHECK(seer_session_push_message(s, "assistant", "ok", NULL, 0, &err) == 0);
    }
    reply r = {0};
    seer_turn_stats st;
    CHECK(turn(s, "hi", &r, &st) == 0);
    CHECK_MSG(st.shifted_turns == 3, "%d of the 3 long turns shifted out", st.shifted_turns);
    CHECK(seer_session_n_messages(s) == 3); /* the system prompt, "hi" and its reply */
    CHECK(seer_ctx_used(seer_session_ctx(s)) <= 160);
    seer_session_free(s);
}

static void test_clear(seer_llm *m, seer_pool *pool) {
    seer_session *s = open_session(m, NULL, pool, 256, 6);
    if (!s) return;
    reply r = {0};
    seer_turn_stats a, b;
    CHECK(turn(s, "first", &r, &a) == 0);
    int first_prefill = a.prefill_tokens;
    char first_reply[8192];
    snprintf(first_reply, sizeof first_reply, "%s", r.text);
    seer_session_clear(s);
    CHECK(seer_ctx_used(seer_session_ctx(s)) == 0);
    CHECK(seer_session_n_messages(s) == 1); /* the system prompt stays */
    CHECK(turn(s, "first", &r, &b) == 0);
    CHECK(b.prefill_tokens == first_prefill);
    CHECK(strcmp(r.text, first_reply) == 0);
    seer_session_free(s);
}

/* An image is encoded once at attach time; turn 1 prefills its rows, turn 2
 * does not touch it again. */
static void test_image_once(seer_llm *m, seer_vision *v, seer_pool *pool) {
    seer_session *s = open_session(m, v, pool, 1024, 4);
    if (!s) return;
    seer_image img = {32, 24, malloc(32 * 24 * 3)};
    for (int i = 0; i < 32 * 24 * 3; i++) img.rgb[i] = (uint8_t)(i * 7);
    seer_error err = {{0}};
    int idx = seer_session_attach_rgb(s, &img, "test.png", NULL, &err);
    CHECK_MSG(idx == 0, "attach: %s", err.msg);
    seer_session_image info = seer_session_get_image(s, 0);
    CHECK(info.n_tokens > 0 && !info.sent);
    reply r = {0};
    seer_turn_stats a, b;
    CHECK(turn(s, "what is this?", &r, &a) == 0);
    CHECK(a.prefill_images == 1);
    CHECK_MSG(a.prefill_tokens > info.n_tokens, "prefill %d, image %d", a.prefill_tokens, info.n_tokens);
    CHECK(seer_session_get_image(s, 0).sent);
    int used = seer_ctx_used(seer_session_ctx(s));
    CHECK(turn(s, "and now?", &r, &b) == 0);
    CHECK(b.prefill_images == 0);
    CHECK(seer_ctx_used(seer_session_ctx(s)) == used + b.prefill_tokens + b.gen_tokens);
    int n_ids;
    const int32_t *ids = seer_session_cached_tokens(s, &n_ids);
    int image_rows = 0;
    for (int i = 0; i < n_ids; i++) image_rows += ids[i] < 0;
    CHECK_MSG(image_rows == info.n_tokens, "%d image rows in the cache, image has %d", image_rows, info.n_tokens);
    free(img.rgb);
    seer_session_free(s);
}

/* A template that re-renders replies differently ("Assistant: " + content)
 * still gets incremental turns: the cache keeps the reply as generated and
 * the turn's end marker is prefilled with the next message. */
static void test_template_not_prefix_stable(seer_llm *m, seer_pool *pool) {
    seer_session_params p = seer_session_params_default();
    p.n_ctx = 512;
    p.n_predict = 6;
    p.sampling.temp = 0;
    p.chat_template = "smolvlm";
    seer_error err = {{0}};
    seer_session *s = seer_session_new(m, NULL, pool, &p, &err);
    CHECK_MSG(s != NULL, "session: %s", err.msg);
    if (!s) return;
    reply r = {0};
    seer_turn_stats a, b;
    CHECK(turn(s, "first", &r, &a) == 0);
    int used1 = seer_ctx_used(seer_session_ctx(s));
    CHECK(turn(s, "second", &r, &b) == 0);
    /* Appended to the cache (a re-prefill would leave prefill + reply only). */
    CHECK_MSG(seer_ctx_used(seer_session_ctx(s)) == used1 + b.prefill_tokens + b.gen_tokens, "cache %d != %d + %d + %d",
              seer_ctx_used(seer_session_ctx(s)), used1, b.prefill_tokens, b.gen_tokens);
    const char *cached = seer_session_cached_text(s);
    CHECK_MSG(strstr(cached, "<end_of_utterance>\nUser: second<end_of_utterance>\nAssistant:") != NULL, "cached: %s",
              cached);
    seer_session_free(s);
}

int main(void) {
    char llm_path[4096], proj_path[4096];
    if (tiny_model_write(test_tmpdir(), "f32", true, llm_path, sizeof llm_path, proj_path, sizeof proj_path) != 0) {
        CHECK_MSG(0, "no tiny model");
        TEST_MAIN_END();
    }
    seer_error err = {{0}};
    seer_llm *m = seer_llm_load(llm_path, NULL, NULL, &err);
    CHECK_MSG(m != NULL, "load %s: %s", llm_path, err.msg);
    seer_vision *v = seer_vision_load(proj_path, &err);
    CHECK_MSG(v != NULL, "load %s: %s", proj_path, err.msg);
    seer_pool *pool = seer_pool_create(2);
    if (m) {
        test_incremental_matches_scratch(m, pool);
        test_cancel_keeps_partial(m, pool);
        test_context_shift(m, pool);
        test_history_past_the_context(m, pool);
        test_clear(m, pool);
        test_template_not_prefix_stable(m, pool);
        if (v) test_image_once(m, v, pool);
    }
    seer_vision_free(v);
    seer_llm_free(m);
    seer_pool_destroy(pool);
    TEST_MAIN_END();
}
