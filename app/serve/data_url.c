/* data: URLs and base64, strict enough that garbage is refused in one line. */
#include "data_url.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int b64_value(unsigned char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+' || c == '-') return 62;
    if (c == '/' || c == '_') return 63;
    return -1;
}

int serve_base64_decode(const char *in, size_t len, uint8_t **out, size_t *out_len) {
    uint8_t *buf = malloc(len / 4 * 3 + 3);
    if (!buf) return -1;
    size_t o = 0, pad = 0;
    unsigned acc = 0;
    int bits = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)in[i];
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
        if (c == '=') {
            pad++;
            continue;
        }
        int v = b64_value(c);
        if (v < 0 || pad) { /* a bad character, or data after the padding */
            free(buf);
            return -1;
        }
        acc = (acc << 6) | (unsigned)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            buf[o++] = (uint8_t)(acc >> bits);
        }
    }
    /* 6 leftover bits can only come from a truncated quantum */
    if (bits >= 6 || pad > 2 || (acc & ((1u << bits) - 1))) {
        free(buf);
        return -1;
    }
    *out = buf;
    *out_len = o;
    return 0;
}

char *serve_base64_encode(const uint8_t *in, size_t len) {
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *out = malloc((len + 2) / 3 * 4 + 1);
    if (!out) return NULL;
    size_t o = 0;
    for (size_t i = 0; i < len; i += 3) {
        unsigned v = (unsigned)in[i] << 16 | (i + 1 < len ? (unsigned)in[i + 1] << 8 : 0) | (i + 2 < len ? in[i + 2] : 0);
        out[o++] = alphabet[v >> 18 & 63];
        out[o++] = alphabet[v >> 12 & 63];
        out[o++] = i + 1 < len ? alphabet[v >> 6 & 63] : '=';
        out[o++] = i + 2 < len ? alphabet[v & 63] : '=';
    }
    out[o] = 0;
    return out;
}

int serve_is_data_url(const char *url) { return strncasecmp(url, "data:", 5) == 0; }

static int hex_digit(unsigned char c) {
    return isdigit(c) ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : (c >= 'A' && c <= 'F') ? c - 'A' + 10 : -1;
}

static int percent_decode(const char *in, size_t len, uint8_t **out, size_t *out_len) {
    uint8_t *buf = malloc(len + 1);
    if (!buf) return -1;
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        if (in[i] != '%') {
            buf[o++] = (uint8_t)in[i];
            continue;
        }
        int hi = i + 2 < len ? hex_digit((unsigned char)in[i + 1]) : -1;
        int lo = hi >= 0 ? hex_digit((unsigned char)in[i + 2]) : -1;
        if (lo < 0) {
            free(buf);
            return -1;
        }
        buf[o++] = (uint8_t)(hi << 4 | lo);
        i += 2;
    }
    *out = buf;
    *out_len = o;
    return 0;
}

int serve_data_url_decode(const char *url, size_t len, size_t max, uint8_t **out, size_t *out_len, char *why,
                          size_t why_cap) {
    if (len < 5 || !serve_is_data_url(url)) {
        snprintf(why, why_cap, "not a data: URL");
        return -1;
    }
    const char *comma = memchr(url, ',', len);
    if (!comma) {
        snprintf(why, why_cap, "the data: URL has no ',' before its data");
        return -1;
    }
    /* the header: media type and parameters; ";base64" must be the last */
    const size_t head = (size_t)(comma - url);
    const int base64 = head >= 12 && strncasecmp(comma - 7, ";base64", 7) == 0;
    const char *data = comma + 1;
    const size_t n = len - head - 1;
    if ((base64 ? n / 4 * 3 : n) > max + 3) {
        snprintf(why, why_cap, "the data: URL holds more than %zu MB", max >> 20);
        return -1;
    }
    if ((base64 ? serve_base64_decode(data, n, out, out_len) : percent_decode(data, n, out, out_len)) != 0) {
        snprintf(why, why_cap, base64 ? "the data: URL is not valid base64" : "the data: URL has a bad %%-escape");
        return -1;
    }
    if (*out_len > max) {
        free(*out);
        *out = NULL;
        snprintf(why, why_cap, "the data: URL holds more than %zu MB", max >> 20);
        return -1;
    }
    return 0;
}
