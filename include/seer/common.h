/* Shared conventions of the engine API: errors are returned, never printed. */
#ifndef SEER_COMMON_H
#define SEER_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SEER_ERR_MAX 512

/* One-line, human-readable description of the last failure. Functions that can
 * fail take a `seer_error *` (may be NULL) and return NULL / a negative value. */
typedef struct seer_error {
    char msg[SEER_ERR_MAX];
} seer_error;

/* printf-style; safe to call with err == NULL. */
void seer_error_set(seer_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Monotonic clock in milliseconds (for timings). */
double seer_time_ms(void);

#endif
