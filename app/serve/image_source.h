/* An image a request names: a data: URL, an http(s) URL (fetched with size
 * and time limits), or a local path (only when the server allows it). */
#ifndef SEER_SERVE_IMAGE_SOURCE_H
#define SEER_SERVE_IMAGE_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

#include "seer/image.h"

#define SERVE_IMAGE_MAX_BYTES (20u << 20)
#define SERVE_IMAGE_FETCH_SECONDS 20L

/* Decodes the image url names into out. Returns 0, or -1 with a one-line
 * reason; *status is the HTTP status the client gets (400 its mistake, 403 a
 * local path refused, 502 a fetch that failed). */
int serve_image_from_url(const char *url, bool allow_local_files, seer_image *out, int *status, char *why,
                         size_t why_cap);

#endif
