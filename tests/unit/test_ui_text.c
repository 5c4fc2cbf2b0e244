/* Transcript text layout: display widths (wide CJK, combining marks) and
 * wrapping on word boundaries. The UI's own file is compiled in, as the unit
 * tests link only the engine. */
#include <locale.h>

#include "../../ui/text.c"
#include "testlib.h"

/* The wrapped lines of s at width w, joined by '|'. */
static void wrapped(const char *s, int w, char *out, size_t cap) {
    ui_span *sp;
    int n = ui_wrap(s, strlen(s), w, &sp);
    out[0] = 0;
    for (int i = 0; i < n; i++) {
        size_t len = strlen(out);
        snprintf(out + len, cap - len, "%s%.*s", i ? "|" : "", sp[i].len, s + sp[i].start);
    }
    free(sp);
}

static void check_wrap(const char *s, int w, const char *want) {
    char got[1024];
    wrapped(s, w, got, sizeof got);
    CHECK_MSG(strcmp(got, want) == 0, "wrap(\"%s\", %d) = \"%s\", want \"%s\"", s, w, got, want);
}

int main(void) {
    if (!setlocale(LC_CTYPE, "C.UTF-8")) {
        fprintf(stderr, "SKIP: no C.UTF-8 locale\n");
        return 0;
    }
    CHECK(ui_text_width("hello", 5) == 5);
    CHECK(ui_text_width("日本語", strlen("日本語")) == 6);       /* wide: 2 columns each */
    CHECK(ui_text_width("e\xcc\x81", 3) == 1);                   /* e + combining acute */
    CHECK(ui_text_width("\xff", 1) == 1);                        /* invalid byte: one cell */
    CHECK(ui_text_fit("日本語", strlen("日本語"), 5) == 6);       /* two characters fit in 5 */
    CHECK(ui_text_fit("abc", 3, 0) == 0);

    check_wrap("the quick brown fox", 10, "the quick|brown fox");
    check_wrap("the quick brown fox", 19, "the quick brown fox");
    check_wrap("abcdefghijkl", 5, "abcde|fghij|kl");              /* no space: hard break */
    check_wrap("one\ntwo three", 5, "one|two|three");
    check_wrap("a\n\nb", 5, "a||b");                            /* blank lines survive */
    check_wrap("", 5, "");
    check_wrap("日本語テキスト", 6, "日本語|テキス|ト");            /* by columns, not bytes */
    check_wrap("ab 日本", 4, "ab|日本");
    check_wrap("word    spaced", 6, "word|spaced");                 /* spaces at a break are dropped */
    /* Every line fits its width. */
    const char *long_text = "Ünïcödé wörds wräp on spaces, 中文字符也可以, and very-long-unbroken-words-too.";
    for (int w = 1; w < 30; w++) {
        ui_span *sp;
        int n = ui_wrap(long_text, strlen(long_text), w, &sp);
        size_t covered = 0;
        for (int i = 0; i < n; i++) {
            int lw = ui_text_width(long_text + sp[i].start, (size_t)sp[i].len);
            CHECK_MSG(lw <= w || (sp[i].len > 0 && lw == 2 && w == 1), "line %d is %d wide at width %d", i, lw, w);
            covered += (size_t)sp[i].len;
        }
        CHECK(covered > 0 && covered <= strlen(long_text));
        free(sp);
    }
    TEST_MAIN_END();
}
