/* Fuzz target: seer serve's request bodies (app/serve/request.c: JSON →
 * chat and embeddings requests) and the image URLs in them (data: URLs,
 * base64: app/serve/data_url.c). Invariants: a parsed chat request ends
 * with a user message and keeps the limits; a decoded data: URL is within
 * its limit; base64 of any bytes decodes back to them. */
#include <stdlib.h>
#include <string.h>

#include "serve/data_url.h"
#include "serve/request.h"

#define FUZZ_IMAGE_LIMIT (1u << 16)

static void decode_url(const char *url) {
    uint8_t *bytes = NULL;
    size_t n = 0;
    char why[160];
    if (serve_is_data_url(url) &&
        serve_data_url_decode(url, strlen(url), FUZZ_IMAGE_LIMIT, &bytes, &n, why, sizeof why) == 0) {
        if (n > FUZZ_IMAGE_LIMIT) abort();
        free(bytes);
    }
}

static void base64_round_trip(const uint8_t *data, size_t size) {
    char *enc = serve_base64_encode(data, size);
    uint8_t *dec = NULL;
    size_t n = 0;
    if (!enc || serve_base64_decode(enc, strlen(enc), &dec, &n) != 0 || n != size || (size && memcmp(dec, data, size)))
        abort();
    free(enc);
    free(dec);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char why[512];
    serve_chat_req chat;
    if (serve_chat_req_parse((const char *)data, size, &chat, why, sizeof why) == 0) {
        if (chat.n_msgs < 1 || chat.n_msgs > SERVE_MAX_MESSAGES || strcmp(chat.msgs[chat.n_msgs - 1].role, "user"))
            abort();
        int images = 0;
        for (int i = 0; i < chat.n_msgs; i++)
            for (int k = 0; k < chat.msgs[i].n_images; k++, images++) decode_url(chat.msgs[i].image_urls[k]);
        if (images > SERVE_MAX_IMAGES || chat.n_stops > SERVE_MAX_STOPS) abort();
        serve_chat_req_free(&chat);
    } else if (!why[0]) {
        abort(); /* a refusal always says why */
    }
    serve_embed_req emb;
    if (serve_embed_req_parse((const char *)data, size, &emb, why, sizeof why) == 0) {
        if (emb.n_inputs < 1 || emb.n_inputs > SERVE_MAX_INPUTS) abort();
        for (int i = 0; i < emb.n_inputs; i++)
            if (emb.inputs[i].image) decode_url(emb.inputs[i].value);
        serve_embed_req_free(&emb);
    }
    /* the raw bytes as a data: URL payload and as base64 */
    char *url = malloc(size + 23);
    if (url) {
        memcpy(url, "data:image/png;base64,", 22);
        memcpy(url + 22, data, size);
        url[size + 22] = 0;
        decode_url(url);
        free(url);
    }
    base64_round_trip(data, size < 4096 ? size : 4096);
    return 0;
}
