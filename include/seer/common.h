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

/* A buffer that is streamed on every token (weights, KV cache), on 2 MiB
 * pages where the kernel allows: one TLB entry per 2 MiB instead of 512,
 * which the decode loops otherwise stall on. Pages are only resident once
 * touched; contents undefined; release with free(). NULL when out of memory. */
void *seer_huge_alloc(size_t bytes);
/* A work buffer: 64-byte aligned, and from 2 MiB on huge pages too, since
 * the work that first touches it would otherwise fault it in 4 KiB at a
 * time (46 MB written the first time: 156 ms, the second: 2 ms). Release
 * with free(); NULL when out of memory. */
void *seer_buffer_alloc(size_t bytes);

#endif
