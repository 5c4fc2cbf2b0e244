/* Tokenizers on small vocabularies written by the test itself, where every
 * expected id follows by hand from the algorithm: BPE merges by rank inside
 * pre-tokenizer words, SentencePiece merges by score with byte fallback and
 * the "▁" prefix after special tokens, special-token splitting, EOG ids,
 * pieces, streaming detokenization, and the errors of broken vocabularies. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seer/gguf.h"
#include "seer/tokenizer.h"
#include "testlib.h"

#define MAXT 64

static int tokenize(const seer_vocab *v, const char *text, bool add_special, bool parse_special, int32_t *out) {
    int64_t n = seer_tokenize(v, text, strlen(text), add_special, parse_special, out, MAXT);
    CHECK_MSG(n >= 0 && n <= MAXT, "tokenize('%s') returned %lld", text, (long long)n);
    return (int)n;
}

static void expect_ids(const seer_vocab *v, const char *text, bool add_special, bool parse_special, const int32_t *want,
                       int n_want) {
    int32_t got[MAXT];
    int n = tokenize(v, text, add_special, parse_special, got);
    bool ok = n == n_want && memcmp(got, want, (size_t)n * sizeof *got) == 0;
    if (!ok) {
        fprintf(stderr, "tokenize('%s', special %d/%d): got", text, add_special, parse_special);
        for (int i = 0; i < n && i < MAXT; i++) fprintf(stderr, " %d", got[i]);
        fprintf(stderr, ", want");
        for (int i = 0; i < n_want; i++) fprintf(stderr, " %d", want[i]);
        fprintf(stderr, "\n");
    }
    CHECK(ok);
}
#define EXPECT(v, text, add, parse, ...)                                                                          \
    do {                                                                                                          \
        const int32_t want_[] = {__VA_ARGS__};                                                                    \
        expect_ids(v, text, add, parse, want_, (int)(sizeof want_ / sizeof want_[0]));                            \
    } while (0)

static void expect_piece(const seer_vocab *v, int32_t id, bool special, const char *want) {
    char buf[64];
    int n = seer_token_to_piece(v, id, special, buf, sizeof buf);
    CHECK_MSG(n == (int)strlen(want) && memcmp(buf, want, (size_t)n) == 0, "piece of %d: got %d bytes, want '%s'", id, n,
              want);
}

static seer_vocab *load(const char *path, seer_error *err) {
    gguf_file *f = gguf_open(path, err);
    if (!f) return NULL;
    seer_vocab *v = seer_vocab_load(f, err);
    gguf_close(f);
    return v;
}

/* Writes the vocabulary w holds to path (freeing w) and loads it back. */
static seer_vocab *write_and_load(gguf_writer *w, const char *path) {
    seer_error err = {{0}};
    CHECK_MSG(gguf_writer_write(w, path, &err) == 0, "%s", err.msg);
    gguf_writer_free(w);
    seer_vocab *v = load(path, &err);
    CHECK_MSG(v != NULL, "%s", err.msg);
    return v;
}

/* GPT-2's printable stand-in for byte b, as UTF-8. */
static void byte_text(int b, char *out) {
    int printable = (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255);
    int cp = b;
    if (!printable) {
        cp = 256;
        for (int x = 0; x < b; x++)
            if (!((x >= 33 && x <= 126) || (x >= 161 && x <= 172) || (x >= 174 && x <= 255))) cp++;
    }
    if (cp < 0x80) { out[0] = (char)cp; out[1] = 0; }
    else { out[0] = (char)(0xC0 | (cp >> 6)); out[1] = (char)(0x80 | (cp & 0x3F)); out[2] = 0; }
}

/* Byte-level BPE: ids 0..255 are the bytes, then merges and specials. */
enum { BPE_GT = 256, BPE_HE, BPE_GTHE, BPE_IM_START, BPE_IM_END, BPE_TOOL, BPE_EOT, BPE_N };

static void write_bpe(const char *path, const char *pre, bool with_merges) {
    static char texts[256][4];
    const char *toks[BPE_N];
    int32_t types[BPE_N];
    for (int b = 0; b < 256; b++) { byte_text(b, texts[b]); toks[b] = texts[b]; types[b] = 1; }
    const char *extra[] = {"\xc4\xa0t", "he", "\xc4\xa0the", "<|im_start|>", "<|im_end|>", "<tool>", "<|endoftext|>"};
    const int32_t extra_types[] = {1, 1, 1, 3, 3, 4, 3};
    for (int i = 0; i < BPE_N - 256; i++) { toks[256 + i] = extra[i]; types[256 + i] = extra_types[i]; }
    const char *merges[] = {"\xc4\xa0 t", "h e", "\xc4\xa0t he"};
    gguf_writer *w = gguf_writer_new();
    gguf_writer_set_str(w, "general.architecture", "llama");
    gguf_writer_set_str(w, "tokenizer.ggml.model", "gpt2");
    if (pre) gguf_writer_set_str(w, "tokenizer.ggml.pre", pre);
    gguf_writer_set_arr_str(w, "tokenizer.ggml.tokens", toks, BPE_N);
    gguf_writer_set_arr_i32(w, "tokenizer.ggml.token_type", types, BPE_N);
    if (with_merges) gguf_writer_set_arr_str(w, "tokenizer.ggml.merges", merges, 3);
    gguf_writer_set_u32(w, "tokenizer.ggml.eos_token_id", BPE_IM_END);
    gguf_writer_set_u32(w, "tokenizer.ggml.bos_token_id", BPE_IM_START);
    gguf_writer_set_str(w, "tokenizer.chat_template", "{{'<|im_start|>' + message['role']}}");
    seer_error err = {{0}};
    CHECK_MSG(gguf_writer_write(w, path, &err) == 0, "%s", err.msg);
    gguf_writer_free(w);
}

static void test_bpe(void) {
    char path[512];
    snprintf(path, sizeof path, "%s/bpe.gguf", test_tmpdir());
    write_bpe(path, "gpt-2", true);
    seer_error err = {{0}};
    seer_vocab *v = load(path, &err);
    CHECK_MSG(v != NULL, "%s", err.msg);
    if (!v) return;
    CHECK(seer_vocab_size(v) == BPE_N);
    CHECK(strcmp(seer_vocab_model_name(v), "gpt2") == 0 && strcmp(seer_vocab_pre_name(v), "gpt-2") == 0);
    CHECK(seer_vocab_chat_template(v) && strstr(seer_vocab_chat_template(v), "im_start"));
    CHECK(!seer_vocab_add_bos(v) && !seer_vocab_add_eos(v)); /* gpt2 adds nothing unless asked */
    CHECK(seer_vocab_find(v, "<tool>") == BPE_TOOL && seer_vocab_find(v, "nope") == -1);

    /* " the": Ġ t h e → (Ġ,t) rank 0 → (h,e) rank 1 → (Ġt,he) rank 2. */
    EXPECT(v, " the", false, false, BPE_GTHE);
    /* "the" and " the" are separate words: t + he, then Ġthe. */
    EXPECT(v, "the the", false, false, 't', BPE_HE, BPE_GTHE);
    /* The last space of a run stays with the next word ("\s+(?!\S)"). */
    EXPECT(v, "a   the", false, false, 'a', ' ', ' ', BPE_GTHE);
    /* Special tokens: split only with parse_special; user-defined ones always. */
    EXPECT(v, "<|im_start|>he", false, true, BPE_IM_START, BPE_HE);
    EXPECT(v, "<|im_start|>", false, false, '<', '|', 'i', 'm', '_', 's', 't', 'a', 'r', 't', '|', '>');
    EXPECT(v, "a<tool>b", false, false, 'a', BPE_TOOL, 'b');
    int32_t none[1];
    CHECK(seer_tokenize(v, "", 0, true, true, none, 1) == 0);
    /* Invalid UTF-8 becomes U+FFFD (EF BF BD) before byte encoding. */
    EXPECT(v, "\xff", false, false, 0xEF, 0xBF, 0xBD);

    /* Too small an output buffer: the count comes back, nothing is written. */
    int32_t one[1] = {-7};
    CHECK(seer_tokenize(v, "the the", 7, false, false, one, 1) == 3 && one[0] == -7);

    CHECK(seer_vocab_is_eog(v, BPE_IM_END) && seer_vocab_is_eog(v, BPE_EOT) && !seer_vocab_is_eog(v, BPE_IM_START));
    CHECK(!seer_vocab_is_eog(v, 'a') && !seer_vocab_is_eog(v, -1));
    CHECK(seer_vocab_token_attr(v, BPE_IM_START) == SEER_TOKEN_CONTROL);
    CHECK(seer_vocab_token_attr(v, BPE_TOOL) == SEER_TOKEN_USER_DEFINED);
    CHECK(seer_vocab_token_attr(v, 'a') == SEER_TOKEN_NORMAL);
    CHECK(seer_vocab_token_attr(v, BPE_N) == -1);

    expect_piece(v, BPE_GTHE, false, " the");
    expect_piece(v, BPE_IM_START, false, "");
    expect_piece(v, BPE_IM_START, true, "<|im_start|>");
    expect_piece(v, BPE_TOOL, false, "<tool>");
    expect_piece(v, '\n', false, "\n");
    expect_piece(v, 0xC3, false, "\xc3");
    CHECK(seer_token_to_piece(v, BPE_N, false, NULL, 0) < 0);
    char tiny[2];
    CHECK(seer_token_to_piece(v, BPE_GTHE, false, tiny, 2) == 4);

    /* Streaming: "é" arrives as two byte tokens; nothing is shown until it is whole. */
    seer_detok d = {0};
    char out[32];
    CHECK(seer_detok_push(&d, v, 0xC3, out, sizeof out) == 0);
    int n = seer_detok_push(&d, v, 0xA9, out, sizeof out);
    CHECK(n == 2 && memcmp(out, "\xc3\xa9", 2) == 0);
    n = seer_detok_push(&d, v, BPE_GTHE, out, sizeof out);
    CHECK(n == 4 && memcmp(out, " the", 4) == 0);
    /* A stray continuation byte or a lead byte followed by ASCII: U+FFFD, then go on. */
    n = seer_detok_push(&d, v, 0xA9, out, sizeof out);
    CHECK(n == 3 && memcmp(out, "\xef\xbf\xbd", 3) == 0);
    CHECK(seer_detok_push(&d, v, 0xE6, out, sizeof out) == 0);
    n = seer_detok_push(&d, v, 'x', out, sizeof out);
    CHECK(n == 4 && memcmp(out, "\xef\xbf\xbdx", 4) == 0);
    /* A character cut off at the end is flushed as U+FFFD. */
    CHECK(seer_detok_push(&d, v, 0xF0, out, sizeof out) == 0);
    CHECK(seer_detok_push(&d, v, 0x9F, out, sizeof out) == 0);
    CHECK(seer_detok_flush(&d, out, sizeof out) == 3 && memcmp(out, "\xef\xbf\xbd", 3) == 0);
    CHECK(seer_detok_flush(&d, out, sizeof out) == 0);
    seer_vocab_free(v);
}

/* SentencePiece: 0 <unk>, 1 <s>, 2 </s>, 3..258 <0xNN>, then pieces with scores. */
enum { SPM_SPACE = 259, SPM_SPACE_A, SPM_B, SPM_AB, SPM_A, SPM_SPACE_AB, SPM_N };

static void test_spm(void) {
    static char bytes[256][8];
    const char *toks[SPM_N];
    float scores[SPM_N];
    int32_t types[SPM_N];
    toks[0] = "<unk>"; toks[1] = "<s>"; toks[2] = "</s>";
    types[0] = 2; types[1] = 3; types[2] = 3;
    scores[0] = scores[1] = scores[2] = 0;
    for (int b = 0; b < 256; b++) {
        snprintf(bytes[b], sizeof bytes[b], "<0x%02X>", b);
        toks[3 + b] = bytes[b]; types[3 + b] = 6; scores[3 + b] = 0;
    }
    const char *pieces[] = {"\xe2\x96\x81", "\xe2\x96\x81" "a", "b", "ab", "a", "\xe2\x96\x81" "ab"};
    const float piece_scores[] = {-1, -2, -3, -0.5f, -4, -0.1f};
    for (int i = 0; i < 6; i++) { toks[259 + i] = pieces[i]; scores[259 + i] = piece_scores[i]; types[259 + i] = 1; }
    char path[512];
    snprintf(path, sizeof path, "%s/spm.gguf", test_tmpdir());
    gguf_writer *w = gguf_writer_new();
    gguf_writer_set_str(w, "tokenizer.ggml.model", "llama");
    gguf_writer_set_arr_str(w, "tokenizer.ggml.tokens", toks, SPM_N);
    gguf_writer_set_arr_f32(w, "tokenizer.ggml.scores", scores, SPM_N);
    gguf_writer_set_arr_i32(w, "tokenizer.ggml.token_type", types, SPM_N);
    seer_vocab *v = write_and_load(w, path);
    if (!v) return;
    /* SentencePiece defaults: BOS 1 added, EOS 2, no EOS added. */
    CHECK(seer_vocab_bos(v) == 1 && seer_vocab_eos(v) == 2 && seer_vocab_add_bos(v) && !seer_vocab_add_eos(v));
    CHECK(seer_vocab_is_eog(v, 2));

    /* "▁ab": (a,b) scores -0.5 beats (▁,a) at -2; then (▁,ab) → "▁ab". */
    EXPECT(v, "ab", false, false, SPM_SPACE_AB);
    /* "▁b▁a": only (▁,a) is a token. */
    EXPECT(v, "b a", false, false, SPM_SPACE, SPM_B, SPM_SPACE_A);
    /* Missing characters fall back to their UTF-8 bytes. */
    EXPECT(v, "\xc3\xa9", false, false, SPM_SPACE, 3 + 0xC3, 3 + 0xA9);
    /* BOS with add_special; a space prefix again after a special token. */
    EXPECT(v, "b", true, false, 1, SPM_SPACE, SPM_B);
    EXPECT(v, "</s>a", false, true, 2, SPM_SPACE_A);
    EXPECT(v, "</s> a", false, true, 2, SPM_SPACE, SPM_SPACE_A);
    EXPECT(v, "", true, true, 1);
    CHECK(seer_tokenize(v, "", 0, false, false, NULL, 0) == 0);

    expect_piece(v, SPM_SPACE_AB, false, " ab");
    expect_piece(v, 3 + 'A', false, "A");
    expect_piece(v, 1, false, "");
    expect_piece(v, 1, true, "<s>");
    expect_piece(v, 0, true, "<unk>");
    seer_vocab_free(v);
}

static void test_broken_vocabularies(void) {
    char path[512];
    seer_error err = {{0}};
    /* No tokenizer at all. */
    snprintf(path, sizeof path, "%s/none.gguf", test_tmpdir());
    gguf_writer *w = gguf_writer_new();
    gguf_writer_set_str(w, "general.architecture", "llama");
    CHECK(gguf_writer_write(w, path, &err) == 0);
    gguf_writer_free(w);
    CHECK(load(path, &err) == NULL && strstr(err.msg, "tokenizer"));
    /* Unsupported model. */
    snprintf(path, sizeof path, "%s/bert.gguf", test_tmpdir());
    w = gguf_writer_new();
    gguf_writer_set_str(w, "tokenizer.ggml.model", "bert");
    const char *t[] = {"a"};
    gguf_writer_set_arr_str(w, "tokenizer.ggml.tokens", t, 1);
    CHECK(gguf_writer_write(w, path, &err) == 0);
    gguf_writer_free(w);
    CHECK(load(path, &err) == NULL && strstr(err.msg, "bert"));
    /* BPE without merges, and with an unknown pre-tokenizer. */
    snprintf(path, sizeof path, "%s/nomerges.gguf", test_tmpdir());
    write_bpe(path, "gpt-2", false);
    CHECK(load(path, &err) == NULL && strstr(err.msg, "merges"));
    /* A pre-tokenizer name seer does not implement is refused, naming it. */
    snprintf(path, sizeof path, "%s/unknown-pre.gguf", test_tmpdir());
    write_bpe(path, "no-such-pre", true);
    CHECK(load(path, &err) == NULL && strstr(err.msg, "'no-such-pre'") && !strchr(err.msg, '\n'));
    /* No name or "default": llama.cpp's default regexes, which first split
     * off punctuation runs and then digit runs and triples. */
    const char *pres[] = {NULL, "default"};
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/pre%d.gguf", test_tmpdir(), i);
        write_bpe(path, pres[i], true);
        seer_vocab *v = load(path, &err);
        CHECK_MSG(v != NULL, "%s", err.msg);
        if (!v) continue;
        EXPECT(v, " the", false, false, BPE_GTHE);
        EXPECT(v, "a=1234", false, false, 'a', '=', '1', '2', '3', '4');
        seer_vocab_free(v);
    }
    seer_vocab_free(NULL);
    CHECK(seer_tokenize(NULL, "x", 1, true, true, NULL, 0) == -1);
}

/* Gemma 4: BPE over raw UTF-8 (spaces as U+2581, split only at newlines),
 * <0xXX> byte fallback, whole newline runs, BOS always added. */
enum { G4_BYTE0 = 5, G4_SPACE = G4_BYTE0 + 256, G4_A, G4_B, G4_SPACE_B, G4_NL, G4_NL2, G4_NL3, G4_N };

static void test_gemma4(void) {
    static char bytes[256][8];
    const char *toks[G4_N] = {"<pad>", "<eos>", "<bos>", "<unk>", "<turn|>"};
    int32_t types[G4_N] = {3, 3, 3, 2, 3};
    for (int b = 0; b < 256; b++) {
        snprintf(bytes[b], sizeof bytes[b], "<0x%02X>", b);
        toks[G4_BYTE0 + b] = bytes[b];
        types[G4_BYTE0 + b] = 6;
    }
    const char *rest[] = {"\xe2\x96\x81", "a", "b", ("\xe2\x96\x81" "b"), "\n", "\n\n", "\n\n\n"};
    for (int i = 0; i < G4_N - G4_SPACE; i++) { toks[G4_SPACE + i] = rest[i]; types[G4_SPACE + i] = 1; }
    const char *merges[] = {"\xe2\x96\x81 b", "\n \n"};
    char path[512];
    snprintf(path, sizeof path, "%s/gemma4.gguf", test_tmpdir());
    gguf_writer *w = gguf_writer_new();
    gguf_writer_set_str(w, "tokenizer.ggml.model", "gemma4");
    gguf_writer_set_str(w, "tokenizer.ggml.pre", "no-such-pre"); /* the model decides, as in llama.cpp */
    gguf_writer_set_arr_str(w, "tokenizer.ggml.tokens", toks, G4_N);
    gguf_writer_set_arr_i32(w, "tokenizer.ggml.token_type", types, G4_N);
    gguf_writer_set_arr_str(w, "tokenizer.ggml.merges", merges, 2);
    gguf_writer_set_u32(w, "tokenizer.ggml.bos_token_id", 2);
    gguf_writer_set_u32(w, "tokenizer.ggml.eos_token_id", 1);
    gguf_writer_set_bool(w, "tokenizer.ggml.add_bos_token", false);
    seer_vocab *v = write_and_load(w, path);
    if (!v) return;
    CHECK(strcmp(seer_vocab_model_name(v), "gemma4") == 0 && strcmp(seer_vocab_pre_name(v), "gemma4") == 0);
    CHECK(seer_vocab_add_bos(v) && seer_vocab_bos(v) == 2); /* forced on although the file says false */
    /* "a b": one word "a▁b"; (▁,b) merges, a stays. */
    EXPECT(v, "a b", true, false, 2, G4_A, G4_SPACE_B);
    /* A newline run that is a token is kept whole (merges would give \n\n + \n). */
    EXPECT(v, "a\n\n\nb", false, false, G4_A, G4_NL3, G4_B);
    EXPECT(v, "\n\n\n\n", false, false, G4_NL2, G4_NL2);
    /* No token for é (C3 A9): its bytes' <0xXX> tokens. */
    EXPECT(v, "\xc3\xa9", false, false, G4_BYTE0 + 0xC3, G4_BYTE0 + 0xA9);
    expect_piece(v, G4_SPACE_B, false, " b");
    expect_piece(v, G4_BYTE0 + 'A', false, "A");
    expect_piece(v, 4, false, "");
    expect_piece(v, 4, true, "<turn|>");
    CHECK(seer_vocab_is_eog(v, 4) && seer_vocab_is_eog(v, 1) && !seer_vocab_is_eog(v, 2));
    seer_vocab_free(v);
}

int main(void) {
    test_bpe();
    test_spm();
    test_gemma4();
    test_broken_vocabularies();
    TEST_MAIN_END();
}
