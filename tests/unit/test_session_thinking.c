/* Thinking in a conversation, on a real GGUF whose weights script the reply
 * (tests/tools/make_think_model: " The user greets me. I should answer
 * briefly." then the control token </think>, then "\n\nHello there!"):
 * tokens come marked thought or answer, the thought is timed apart, the next
 * turn feeds the reply back without its thought (as Qwen3.5's template) and
 * prefills only from where the last generation prompt began, and /think off
 * renders the template's thinking-off prompt. */
#include "seer/session.h"
#include "seer/tokenizer.h"
#include "test_session_model.h"
#include "testlib.h"

typedef struct marked {
    char thought[1024], answer[1024];
    int n, n_thought, marker_thought_len, prefill_tokens;
} marked;

static int on_token(void *ud, const seer_gen_token *t) {
    marked *m = ud;
    strncat(m->thought, t->text, (size_t)t->thought_len);
    strncat(m->answer, t->text + t->thought_len, (size_t)(t->text_len - t->thought_len));
    if (t->index >= 0) m->n++;
    m->n_thought += t->thought_len > 0;
    if (t->text_len == 8 && memcmp(t->text, "</think>", 8) == 0) m->marker_thought_len = t->thought_len;
    return 0;
}

static void on_prefill(void *ud, int n, double ms, int shifted) {
    (void)ms, (void)shifted;
    ((marked *)ud)->prefill_tokens = n;
}

static int send(seer_session *s, const char *text, marked *m, seer_turn_stats *st) {
    memset(m, 0, sizeof *m);
    seer_session_hooks h = {m, on_prefill, on_token};
    seer_error err = {{0}};
    int rc = seer_session_send(s, text, &h, NULL, st, &err);
    CHECK_MSG(rc == 0, "send: %s", err.msg);
    return rc;
}

static int count_tokens(const seer_vocab *v, const char *text) {
    return (int)seer_tokenize(v, text, strlen(text), false, true, NULL, 0);
}

/* The cache holds exactly the prompt's tokens then the reply's (the tiny
 * vocabulary has no merges for the script's words, so the reply is compared
 * by its text and token count). */
static void check_cache_in_step(seer_session *s, const seer_vocab *v, const marked *m, const seer_turn_stats *st) {
    const char *text = seer_session_cached_text(s);
    char reply[2048];
    snprintf(reply, sizeof reply, "%s%s", m->thought, m->answer);
    size_t nt = strlen(text), nr = strlen(reply);
    bool ends = nt >= nr && strcmp(text + nt - nr, reply) == 0;
    int n_kv = 0;
    seer_session_cached_tokens(s, &n_kv);
    char *prompt = strndup(text, nt - nr);
    int want = prompt ? count_tokens(v, prompt) + st->gen_tokens : -1;
    free(prompt);
    CHECK_MSG(ends && n_kv == want && n_kv == seer_ctx_used(seer_session_ctx(s)),
              "cache %d rows (%d used), want %d; cached text [%s] ends with the reply: %d", n_kv,
              seer_ctx_used(seer_session_ctx(s)), want, text, ends);
}

static void test_conversation(const seer_llm *llm, seer_pool *pool) {
    seer_session_params p = seer_session_params_default();
    p.sampling.temp = 0.8f; /* the script holds under sampling too */
    seer_error err = {{0}};
    seer_session *s = seer_session_new(llm, NULL, pool, &p, &err);
    CHECK_MSG(s != NULL, "session: %s", err.msg);
    if (!s) return;
    const seer_vocab *v = seer_llm_vocab(llm);
    CHECK(seer_session_chat_style(s) == SEER_CHAT_QWEN35 && seer_session_thinking(s));

    marked m;
    seer_turn_stats st;
    send(s, "Hi", &m, &st);
    CHECK_MSG(strcmp(m.thought, " The user greets me. I should answer briefly.</think>") == 0, "thought [%s]",
              m.thought);
    CHECK_MSG(strcmp(m.answer, "\n\nHello there!") == 0, "answer [%s]", m.answer);
    CHECK_MSG(m.marker_thought_len == 8, "the </think> token: %d thought bytes", m.marker_thought_len);
    CHECK_MSG(st.thought_tokens == 9 && st.gen_tokens == 13 && m.n == 13, "thought %d of %d tokens",
              st.thought_tokens, st.gen_tokens);
    CHECK(st.thought_ms > 0 && st.thought_ms <= st.gen_ms);
    check_cache_in_step(s, v, &m, &st);

    /* The next turn: the reply goes back without its thought, and only what
     * follows the last generation prompt's start is prefilled. */
    send(s, "And you?", &m, &st);
    const char *want = "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\nHello there!<|im_end|>\n"
                       "<|im_start|>user\nAnd you?<|im_end|>\n<|im_start|>assistant\n<think>\n The user greets";
    const char *cached = seer_session_cached_text(s);
    CHECK_MSG(strncmp(cached, want, strlen(want)) == 0, "cached [%s]", cached);
    int redone = count_tokens(v, "<|im_start|>assistant\nHello there!<|im_end|>\n<|im_start|>user\nAnd you?<|im_end|>\n"
                                 "<|im_start|>assistant\n<think>\n");
    CHECK_MSG(st.prefill_tokens == redone && m.prefill_tokens == redone, "prefilled %d tokens, want %d",
              st.prefill_tokens, redone);
    check_cache_in_step(s, v, &m, &st);

    /* Thinking off: the prompt closes an empty thought; the model answers at once. */
    seer_session_set_thinking(s, false);
    CHECK(!seer_session_thinking(s));
    send(s, "Bye", &m, &st);
    CHECK_MSG(m.thought[0] == 0 && strcmp(m.answer, "Hello there!") == 0 && st.thought_tokens == 0,
              "thinking off: thought [%s] answer [%s]", m.thought, m.answer);
    cached = seer_session_cached_text(s);
    CHECK_MSG(strstr(cached, "<|im_start|>user\nBye<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\nHello "
                             "there!") != NULL, "cached [%s]", cached);
    /* past replies: answers only */
    CHECK_MSG(strstr(cached, "I should") == NULL, "a past thought was fed back: [%s]", cached);
    check_cache_in_step(s, v, &m, &st);

    /* And on again. */
    seer_session_set_thinking(s, true);
    send(s, "Again", &m, &st);
    CHECK_MSG(st.thought_tokens == 9 && strcmp(m.answer, "\n\nHello there!") == 0, "thinking on again: [%s]", m.answer);
    check_cache_in_step(s, v, &m, &st);
    seer_session_free(s);
}

int main(void) {
    char path[4096], args[4200];
    snprintf(path, sizeof path, "%s/think.gguf", test_tmpdir());
    snprintf(args, sizeof args, "--out '%s'", path);
    if (test_tool_run("make_think_model", args) != 0) {
        CHECK_MSG(0, "no scripted model");
        TEST_MAIN_END();
    }
    seer_error err = {{0}};
    seer_llm *m = seer_llm_load(path, NULL, NULL, &err);
    CHECK_MSG(m != NULL, "load %s: %s", path, err.msg);
    seer_pool *pool = seer_pool_create(1);
    if (m) test_conversation(m, pool);
    seer_llm_free(m);
    seer_pool_destroy(pool);
    TEST_MAIN_END();
}
