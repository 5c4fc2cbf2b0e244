/* Reads an image's format and size from its header without decoding, so
 * that errors can be precise ("0×0", "100000×100000 is over the limit")
 * even where stb_image refuses the header with a terse reason first. */
#include <string.h>

#include "image/probe.h"

static uint32_t be16(const uint8_t *p) { return (uint32_t)p[0] << 8 | p[1]; }
static uint32_t be32(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }
static uint32_t le16(const uint8_t *p) { return (uint32_t)p[1] << 8 | p[0]; }
static int32_t le32s(const uint8_t *p) { return (int32_t)((uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0]); }

/* The next marker segment at or after *i, skipping what stb_image skips
 * between segments (bytes other than FF, fill FFs, stuffed FF 00, markers
 * without a length). Sets *m and *seg (the offset of the segment's length
 * field); false at the end of the file or at end-of-image. */
static bool jpeg_next_segment(const uint8_t *b, size_t n, size_t *i, uint8_t *m, size_t *seg) {
    while (*i + 4 <= n) {
        if (b[*i] != 0xFF) { (*i)++; continue; }
        uint8_t k = b[*i + 1];
        if (k == 0xFF || k == 0x00) { (*i)++; continue; }
        if (k == 0xD8 || (k >= 0xD0 && k <= 0xD7) || k == 0x01) { *i += 2; continue; }
        if (k == 0xD9) return false;
        *m = k;
        *seg = *i + 2;
        return true;
    }
    return false;
}

static bool jpeg_is_sof(uint8_t m) { return m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC; }

static bool jpeg_size(const uint8_t *b, size_t n, int64_t *w, int64_t *h) {
    size_t i = 2, seg;
    uint8_t m;
    while (jpeg_next_segment(b, n, &i, &m, &seg)) {
        if (jpeg_is_sof(m)) {
            if (seg + 7 > n) return false;
            *h = be16(b + seg + 3);
            *w = be16(b + seg + 5);
            return true;
        }
        size_t len = be16(b + seg);
        if (len < 2) return false;
        i = seg + len;
    }
    return false;
}

/* Decimal number after whitespace/comments in a PNM header. */
static bool pnm_number(const uint8_t *b, size_t n, size_t *i, int64_t *v) {
    while (*i < n) {
        if (b[*i] == '#') {
            while (*i < n && b[*i] != '\n') (*i)++;
        } else if (b[*i] == ' ' || b[*i] == '\t' || b[*i] == '\r' || b[*i] == '\n') {
            (*i)++;
        } else break;
    }
    if (*i >= n || b[*i] < '0' || b[*i] > '9') return false;
    *v = 0;
    while (*i < n && b[*i] >= '0' && b[*i] <= '9' && *v < ((int64_t)1 << 40)) *v = *v * 10 + (b[(*i)++] - '0');
    return true;
}

const char *image_probe(const uint8_t *b, size_t n, int64_t *w, int64_t *h, bool *have_size) {
    *have_size = false;
    *w = *h = 0;
    if (n >= 8 && memcmp(b, "\x89PNG\r\n\x1a\n", 8) == 0) {
        if (n >= 24 && memcmp(b + 12, "IHDR", 4) == 0) {
            *w = be32(b + 16);
            *h = be32(b + 20);
            *have_size = true;
        }
        return "PNG";
    }
    if (n >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF) {
        *have_size = jpeg_size(b, n, w, h);
        return "JPEG";
    }
    if (n >= 6 && (memcmp(b, "GIF87a", 6) == 0 || memcmp(b, "GIF89a", 6) == 0)) {
        if (n >= 10) {
            *w = le16(b + 6);
            *h = le16(b + 8);
            *have_size = true;
        }
        return "GIF";
    }
    if (n >= 2 && b[0] == 'B' && b[1] == 'M') {
        if (n >= 26 && le32s(b + 14) >= 40) {
            int32_t bw = le32s(b + 18), bh = le32s(b + 22);
            *w = bw < 0 ? -(int64_t)bw : bw;
            *h = bh < 0 ? -(int64_t)bh : bh; /* negative height: top-down rows */
            *have_size = true;
        }
        return "BMP";
    }
    if (n >= 4 && memcmp(b, "8BPS", 4) == 0) {
        if (n >= 22) {
            *h = be32(b + 14);
            *w = be32(b + 18);
            *have_size = true;
        }
        return "PSD";
    }
    if (n >= 2 && b[0] == 'P' && (b[1] == '5' || b[1] == '6')) {
        size_t i = 2;
        *have_size = pnm_number(b, n, &i, w) && pnm_number(b, n, &i, h);
        return "PNM";
    }
    if (n >= 10 && memcmp(b, "#?RADIANCE", 10) == 0) return "HDR";
    if (n >= 6 && memcmp(b, "#?RGBE", 6) == 0) return "HDR";
    return NULL;
}

/* Binary PNM (P5/P6) header: size, maxval, offset of the first sample. */
static bool pnm_header(const uint8_t *b, size_t n, int64_t *w, int64_t *h, int64_t *maxval, size_t *data) {
    if (n < 2 || b[0] != 'P' || (b[1] != '5' && b[1] != '6')) return false;
    size_t i = 2;
    if (!pnm_number(b, n, &i, w) || !pnm_number(b, n, &i, h) || !pnm_number(b, n, &i, maxval)) return false;
    *data = i + 1; /* the single whitespace byte before the samples */
    return true;
}

bool image_pnm_inspect(const uint8_t *b, size_t n, int64_t *maxval, bool *truncated) {
    int64_t w, h;
    size_t i;
    if (!pnm_header(b, n, &w, &h, maxval, &i)) return false;
    int64_t channels = b[1] == '6' ? 3 : 1, bytes = *maxval > 255 ? 2 : 1;
    /* a bad size is not "truncated": the size checks report it */
    bool size_ok = w > 0 && h > 0 && w <= ((int64_t)1 << 30) / h;
    *truncated = size_ok && (i > n || (int64_t)(n - i) < w * h * channels * bytes);
    return true;
}

/* A byte as stb_image reads it: past the end it reads zeros. */
static unsigned byte_at(const uint8_t *b, size_t n, size_t i) { return i < n ? b[i] : 0; }

/* Checks a DHT segment's tables as stb reads them: one after another from
 * the stream while the segment's length says more is left, even when a
 * table runs past the segment's end. Returns 1 when a table is bad, 0 when
 * all are good (*next = where stb goes on reading), -1 when stb refuses the
 * segment safely. */
static int jpeg_dht_bad(const uint8_t *b, size_t n, size_t seg, bool defined[2][4], size_t *next) {
    long left = (long)be16(b + seg) - 2;
    size_t p = seg + 2;
    while (left > 0) {
        unsigned q = byte_at(b, n, p), tc = q >> 4, th = q & 15;
        if (tc > 1 || th > 3) return -1;
        unsigned total = 0, code = 0;
        for (int l = 0; l < 16; l++) {
            unsigned count = byte_at(b, n, p + 1 + l);
            total += count;
            code += count;
            if (code > (1u << (l + 1))) return 1; /* more codes than bits allow */
            code <<= 1;
        }
        if (total > 256) return 1; /* stb's size[257] overflows */
        defined[tc][th] = true;
        p += 17 + total;
        left -= 17 + (long)total;
    }
    *next = p;
    return left == 0 ? 0 : -1;
}

bool image_jpeg_tables_bad(const uint8_t *b, size_t n) {
    size_t i = 0, seg;
    while (i < n && b[i] == 0xFF) i++; /* stb takes FF FF … D8 for the start marker too */
    if (i < 1 || i >= n || b[i] != 0xD8) return false;
    i++;
    bool defined[2][4] = {{false}}, progressive = false;
    uint8_t m;
    /* Every segment, also those between progressive scans: the scan data in
     * between is skipped like padding. */
    while (jpeg_next_segment(b, n, &i, &m, &seg)) {
        size_t len = be16(b + seg);
        if (len < 2) return false;
        if (m == 0xC2) progressive = true;
        if (m == 0xC4) {
            int bad = jpeg_dht_bad(b, n, seg, defined, &i);
            if (bad) return bad > 0;
            continue;
        }
        if (m == 0xDA) { /* a scan: every table it decodes with must exist */
            size_t ns = byte_at(b, n, seg + 2), sel = seg + 3 + 2 * ns;
            if (len != 6 + 2 * ns) return false; /* stb refuses it */
            int ss = byte_at(b, n, sel), ah = byte_at(b, n, sel + 2) >> 4;
            bool dc = !progressive || (ss == 0 && ah == 0), ac = !progressive || ss > 0;
            for (size_t c = 0; c < ns; c++) {
                unsigned t = byte_at(b, n, seg + 4 + 2 * c), td = t >> 4, ta = t & 15;
                if (td > 3 || ta > 3) return false;
                if ((dc && !defined[0][td]) || (ac && !defined[1][ta])) return true;
            }
        }
        i = seg + len;
    }
    return false;
}
