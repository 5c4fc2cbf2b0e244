/* The OpenAI request bodies seer serve reads, parsed from JSON into plain
 * structs (no model, no network: the fuzz target runs this alone). */
#ifndef SEER_SERVE_REQUEST_H
#define SEER_SERVE_REQUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SERVE_MAX_STOPS 4
#define SERVE_MAX_MESSAGES 256
#define SERVE_MAX_IMAGES 16      /* per request */
#define SERVE_MAX_INPUTS 256     /* embeddings per request */

typedef struct serve_msg {
    char *role;                  /* "system", "user", "assistant" */
    char *text;                  /* the text parts, joined */
    char **image_urls;           /* image_url parts, in order (they come before the text) */
    int n_images;
} serve_msg;

typedef struct serve_chat_req {
    char *model;                 /* NULL: the loaded one */
    serve_msg *msgs;
    int n_msgs;                  /* >= 1; the last is a user message */
    bool stream, include_usage;
    int max_tokens;              /* -1: the server's default */
    bool has_temperature, has_top_p, has_seed;
    double temperature, top_p;
    uint64_t seed;
    char *stops[SERVE_MAX_STOPS];
    int n_stops;
} serve_chat_req;

typedef struct serve_embed_input {
    bool image;
    char *value;                 /* the text, or the image's URL */
} serve_embed_input;

typedef enum serve_embed_role_kind { SERVE_ROLE_NONE, SERVE_ROLE_QUERY, SERVE_ROLE_PASSAGE } serve_embed_role_kind;

typedef struct serve_embed_req {
    char *model;
    serve_embed_input *inputs;
    int n_inputs;
    serve_embed_role_kind role;  /* "task": "retrieval.query" / "retrieval.passage" (jina), or "query" / "passage" */
    int dimensions;              /* 0: the model's width (Matryoshka cut otherwise) */
    bool base64;                 /* encoding_format "base64": little-endian float32 bytes */
    bool multi_vector;           /* extension: one vector per token ("embeddings": [[...], ...]) */
} serve_embed_req;

/* 0, or -1 with a one-line reason (the client's mistake: HTTP 400). */
int serve_chat_req_parse(const char *body, size_t len, serve_chat_req *out, char *why, size_t why_cap);
void serve_chat_req_free(serve_chat_req *r);
int serve_embed_req_parse(const char *body, size_t len, serve_embed_req *out, char *why, size_t why_cap);
void serve_embed_req_free(serve_embed_req *r);

#endif
