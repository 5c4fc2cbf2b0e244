/* The HTTP side of seer serve, on libmicrohttpd (one thread per connection:
 * a streaming reply's reader waits for the worker's next token). */
#ifndef SEER_SERVE_HTTP_H
#define SEER_SERVE_HTTP_H

#include "serve.h"

typedef struct serve_http serve_http;

/* Listens on cfg->host:cfg->port; *port gets the port bound. NULL with a
 * one-line reason. */
serve_http *serve_http_start(serve_state *st, int *port, char *why, size_t why_cap);
/* Stops accepting connections (the ones open go on). */
void serve_http_quiesce(serve_http *h);
/* Closes everything once the open connections have closed (their
 * replies sent), or after 2 s (waits for the connections' threads). */
void serve_http_stop(serve_http *h);

#endif
