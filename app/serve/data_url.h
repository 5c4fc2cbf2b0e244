/* data: URLs (RFC 2397) and base64 (RFC 4648), as OpenAI clients send images. */
#ifndef SEER_SERVE_DATA_URL_H
#define SEER_SERVE_DATA_URL_H

#include <stddef.h>
#include <stdint.h>

/* Decodes base64 (standard or URL-safe alphabet, padding optional, ASCII
 * whitespace skipped) into a new buffer. -1 on a bad character or length. */
int serve_base64_decode(const char *in, size_t len, uint8_t **out, size_t *out_len);
/* Encodes into a new NUL-terminated string (NULL: out of memory). */
char *serve_base64_encode(const uint8_t *in, size_t len);

/* Whether url starts with "data:" (any case). */
int serve_is_data_url(const char *url);
/* The bytes of "data:[type][;params][;base64],payload" (payload
 * percent-encoded without ;base64), at most max bytes. Returns 0, or -1 with
 * a one-line reason in why. */
int serve_data_url_decode(const char *url, size_t len, size_t max, uint8_t **out, size_t *out_len, char *why,
                          size_t why_cap);

#endif
