/* The TUI's command-line parser (ui/command_parse.c, compiled in: the unit
 * tests link only the engine): every command, its argument checks and
 * messages, /image path lists with escapes, pasted image paths. */
#include <limits.h>
#include <math.h>

#include "../../ui/command_parse.c"
#include "testlib.h"

/* Files that "exist" for these tests. */
static bool fake_is_file(const char *path) {
    static const char *const files[] = {"/tmp/my pic.png", "/tmp/a.PNG", "/tmp/a b.jpg", "/tmp/a.txt", "shot.jpeg"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        if (!strcmp(path, files[i])) return true;
    return false;
}

static cmd c;

static cmd_kind parse(const char *line) {
    static char buf[8192];
    snprintf(buf, sizeof buf, "%s", line);
    return cmd_parse(buf, fake_is_file, &c);
}

static void check_error(const char *line, const char *want) {
    CHECK_MSG(parse(line) == CMD_ERROR && !strcmp(c.error, want), "%s -> kind %d error '%s', want '%s'", line, c.kind, c.error,
              want);
}

static void check_paths(const char *line, int n, const char *const *want) {
    CHECK_MSG(parse(line) == CMD_ATTACH && c.n_paths == n, "%s -> kind %d, %d paths", line, c.kind, c.n_paths);
    const char *p = c.paths;
    for (int i = 0; i < n && i < c.n_paths; p += strlen(p) + 1, i++)
        CHECK_MSG(!strcmp(p, want[i]), "%s: path %d is '%s', want '%s'", line, i, p, want[i]);
}

static void check_set(const char *line, cmd_setting s, const char *name, double v) {
    CHECK_MSG(parse(line) == CMD_SET && c.setting == s && !strcmp(c.setting_name, name) && c.value == v,
              "%s -> kind %d setting %d value %g (%s)", line, c.kind, c.setting, c.value, c.error);
}

int main(void) {
    CHECK(parse("") == CMD_NONE);
    CHECK(parse(" \t ") == CMD_NONE);
    CHECK(parse("  hi there \t") == CMD_TURN && !strcmp(c.text, "hi there"));
    CHECK(parse("what is 3/4?") == CMD_TURN);
    CHECK(parse("/quit") == CMD_QUIT && parse("/exit") == CMD_QUIT && parse(" /q ") == CMD_QUIT);
    CHECK(parse("/help") == CMD_HELP && parse("/?") == CMD_HELP);
    CHECK(parse("/clear") == CMD_CLEAR && parse("/stats") == CMD_STATS && parse("/tokens") == CMD_TOKENS);
    check_error("/quitx", "unknown command /quitx: /help lists the commands");
    check_error("/", "unknown command /: /help lists the commands");

    /* /image: blank-separated paths, "\ " keeps a space */
    check_error("/image", "usage: /image PATH…");
    check_error("/image   ", "usage: /image PATH…");
    check_paths("/image a.png", 1, (const char *const[]){"a.png"});
    check_paths("/image a.png  b\\ c.png\td.jpg", 3, (const char *const[]){"a.png", "b c.png", "d.jpg"});
    check_paths("/image x\\\\y \\", 2, (const char *const[]){"x\\y", "\\"});

    /* a line that is the path of an existing image attaches it */
    check_paths("'/tmp/my pic.png'", 1, (const char *const[]){"/tmp/my pic.png"});
    check_paths("\"file:///tmp/a.PNG\"", 1, (const char *const[]){"/tmp/a.PNG"});
    check_paths("/tmp/a\\ b.jpg", 1, (const char *const[]){"/tmp/a b.jpg"});
    check_paths("shot.jpeg", 1, (const char *const[]){"shot.jpeg"});
    check_error("/tmp/a.txt", "unknown command /tmp/a.txt: /help lists the commands"); /* not an image */
    check_error("/tmp/gone.png", "unknown command /tmp/gone.png: /help lists the commands");
    CHECK(parse("gone.png") == CMD_TURN);

    CHECK(parse("/images") == CMD_IMAGES && !*c.text);
    CHECK(parse("/images 2") == CMD_IMAGES && c.image == 2 && !strcmp(c.text, "2"));
    CHECK(parse("/images x") == CMD_IMAGES && c.image == 0 && !strcmp(c.text, "x"));
    CHECK(parse("/images 99999999999999999999") == CMD_IMAGES && c.image == INT_MAX);
    CHECK(parse("/images -99999999999999999999") == CMD_IMAGES && c.image == INT_MIN);

    check_set("/set temp 0.5", SET_TEMP, "temp", 0.5);
    check_set("/set\ttop_k  7 ", SET_TOP_K, "top_k", 7);
    check_set("/set top_p 1", SET_TOP_P, "top_p", 1);
    check_set("/set min_p 0", SET_MIN_P, "min_p", 0);
    check_set("/set seed 1e19", SET_SEED, "seed", 1e19);
    check_set("/set n_predict -1", SET_N_PREDICT, "n_predict", -1);
    check_set("/set repeat_penalty 1.1", SET_REPEAT_PENALTY, "repeat_penalty", 1.1);
    check_error("/set", "usage: /set temp|top_k|top_p|min_p|seed|n_predict|repeat_penalty VALUE");
    check_error("/set temp", "usage: /set temp|top_k|top_p|min_p|seed|n_predict|repeat_penalty VALUE");
    check_error("/set temp hot", "usage: /set temp|top_k|top_p|min_p|seed|n_predict|repeat_penalty VALUE");
    check_error("/set temp nan", "temp: nan is out of range");
    check_error("/set top_k 1e30", "top_k: 1e+30 is out of range");
    check_error("/set seed 1e20", "seed: 1e+20 is out of range");
    check_error("/set temp -0.1", "temp must not be negative");
    check_error("/set bogus 1", "unknown setting 'bogus' (temp, top_k, top_p, min_p, seed, n_predict, repeat_penalty)");

    CHECK(parse("/system  be brief ") == CMD_SYSTEM && !strcmp(c.text, "be brief"));
    CHECK(parse("/system") == CMD_SYSTEM && !*c.text);
    CHECK(parse("/theme") == CMD_THEME && !*c.text);
    CHECK(parse("/think off") == CMD_THINK && c.think == 0 && parse("/think  on ") == CMD_THINK && c.think == 1);
    CHECK(parse("/think") == CMD_THINK && c.think == -1);
    CHECK(parse("/ocr") == CMD_OCR && !*c.text && parse("/ocr  Table Recognition: ") == CMD_OCR &&
          !strcmp(c.text, "Table Recognition:"));
    CHECK(parse("/think maybe") == CMD_ERROR && strstr(c.error, "/think on|off"));
    CHECK(parse("/theme solarized") == CMD_THEME && !strcmp(c.text, "solarized"));
    CHECK(parse("/save notes.md") == CMD_SAVE && !strcmp(c.text, "notes.md"));
    check_error("/save", "usage: /save FILE.md");

    /* a long command name stays one line, cut to the error buffer */
    static char longline[6000];
    memset(longline, 'x', sizeof longline - 1);
    longline[0] = '/';
    CHECK(parse(longline) == CMD_ERROR && strlen(c.error) == sizeof c.error - 1 && !strchr(c.error, '\n'));
    TEST_MAIN_END();
}
