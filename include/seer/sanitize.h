/* The one gate for text that reaches a terminal from outside (model output,
 * file names, GGUF metadata): control characters and escape sequences are
 * neutralised, valid UTF-8 text is kept. */
#ifndef SEER_SANITIZE_H
#define SEER_SANITIZE_H

#include "seer/common.h"

enum seer_sanitize_flags {
    SEER_SANITIZE_KEEP_NEWLINES = 1,  /* keep '\n' (transcripts); otherwise shown as ␊ */
    SEER_SANITIZE_KEEP_TABS = 2,      /* keep '\t'; otherwise shown as ␉ */
};

/* Writes a terminal-safe copy of src[0..len) into dst (always NUL-terminated
 * when cap > 0). C0 controls become their visible Control Pictures (ESC → ␛,
 * so no escape sequence survives), DEL → ␡, C1 controls, bidi overrides and
 * invalid UTF-8 → U+FFFD. Returns the length the full result needs (without
 * the NUL), like snprintf. */
size_t seer_text_sanitize(const char *src, size_t len, char *dst, size_t cap, unsigned flags);

/* Same, into a new malloc'd string (NULL only when out of memory). */
char *seer_text_sanitize_dup(const char *src, size_t len, unsigned flags);

/* Length of the valid UTF-8 sequence at s (1..4), or 0 if s[0..len) does not
 * start with one (also for overlong forms, surrogates, > U+10FFFF). */
int seer_utf8_seq_len(const unsigned char *s, size_t len, uint32_t *codepoint);

#endif
