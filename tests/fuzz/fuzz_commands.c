/* Fuzz target: the TUI's command-line parser (ui/command_parse.c, compiled
 * in) on any line, with the invariants the TUI relies on: a known kind, a
 * one-line-buffer error, /image paths that stay inside the line, /set values
 * that are finite and in range for the casts the TUI does. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../ui/command_parse.c"

/* Half of the candidate names "exist", decided by their bytes, so both the
 * pasted-path and the command branches run. */
static bool fake_is_file(const char *path) {
    unsigned h = 0;
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) h = h * 31 + *p;
    return h & 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *line = malloc(size + 1);
    if (!line) return 0;
    memcpy(line, data, size);
    line[size] = 0; /* the TUI hands over a C string: stops at a NUL */
    const size_t len = strlen(line);
    char *orig = strdup(line);
    if (!orig) return free(line), 0;
    static cmd c;
    cmd_kind kind = cmd_parse(line, fake_is_file, &c);
    if (kind != c.kind || kind < CMD_NONE || kind > CMD_ERROR) abort();
    if (strlen(c.error) >= sizeof c.error || (kind == CMD_ERROR) != (c.error[0] != 0)) abort();
    if (!c.text || strlen(c.text) > len) abort();
    switch (kind) {
    case CMD_NONE:
        for (size_t i = 0; i < len; i++)
            if (!isspace((unsigned char)orig[i])) abort();
        break;
    case CMD_TURN:
        if (!*c.text || isspace((unsigned char)c.text[0]) || isspace((unsigned char)c.text[strlen(c.text) - 1])) abort();
        break;
    case CMD_ATTACH: {
        /* every path non-empty and inside its buffer */
        const bool pasted = c.paths == c.pasted;
        const char *end = pasted ? c.pasted + sizeof c.pasted : line + len + 1;
        if (c.n_paths < 1 || (pasted && c.n_paths != 1)) abort();
        const char *p = c.paths;
        for (int i = 0; i < c.n_paths; i++) {
            if (p < (pasted ? c.pasted : line) || p >= end) abort();
            size_t n = strnlen(p, (size_t)(end - p));
            if (n == 0 || p + n >= end) abort();
            p += n + 1;
        }
        break;
    }
    case CMD_SET: {
        if (!isfinite(c.value)) abort();
        if (c.value < 0 && c.setting != SET_N_PREDICT) abort();
        /* the TUI's casts: UBSan reports any value out of their range */
        volatile int as_int = c.setting == SET_SEED ? 0 : (int)c.value;
        volatile uint64_t as_seed = c.setting == SET_SEED ? (uint64_t)c.value : 0;
        (void)as_int;
        (void)as_seed;
        break;
    }
    default: break;
    }
    free(orig);
    free(line);
    return 0;
}
