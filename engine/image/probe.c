/* Reads an image's format and size from its header without decoding, so
 * that errors can be precise ("0×0", "100000×100000 is over the limit")
 * even where stb_image refuses the header with a terse reason first. */
#include <string.h>

#include "image/probe.h"

static uint32_t be16(const uint8_t *p) { return (uint32_t)p[0] << 8 | p[1]; }
static uint32_t be32(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }
static uint32_t le16(const uint8_t *p) { return (uint32_t)p[1] << 8 | p[0]; }
static int32_t le32s(const uint8_t *p) { return (int32_t)((uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0]); }

/* Walks JPEG segments up to the first start-of-frame marker. */
static bool jpeg_size(const uint8_t *b, size_t n, int64_t *w, int64_t *h) {
    size_t i = 2;
    while (i + 4 <= n) {
        if (b[i] != 0xFF) return false;
        uint8_t m = b[i + 1];
        if (m == 0xFF) { i++; continue; } /* fill byte */
        if (m == 0xD8 || (m >= 0xD0 && m <= 0xD7) || m == 0x01) { i += 2; continue; }
        size_t len = be16(b + i + 2);
        bool sof = m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC;
        if (sof) {
            if (i + 9 > n) return false;
            *h = be16(b + i + 5);
            *w = be16(b + i + 7);
            return true;
        }
        if (len < 2) return false;
        i += 2 + len;
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

bool image_pnm_truncated(const uint8_t *b, size_t n) {
    if (n < 2 || b[0] != 'P' || (b[1] != '5' && b[1] != '6')) return false;
    size_t i = 2;
    int64_t w, h, maxval;
    if (!pnm_number(b, n, &i, &w) || !pnm_number(b, n, &i, &h) || !pnm_number(b, n, &i, &maxval)) return false;
    i++; /* the single whitespace byte before the samples */
    int64_t channels = b[1] == '6' ? 3 : 1, bytes = maxval > 255 ? 2 : 1;
    if (w <= 0 || h <= 0 || w > ((int64_t)1 << 30) / h) return false; /* the size checks report these */
    return i > n || (int64_t)(n - i) < w * h * channels * bytes;
}

int64_t image_pnm_maxval(const uint8_t *b, size_t n) {
    if (n < 2 || b[0] != 'P' || (b[1] != '5' && b[1] != '6')) return -1;
    size_t i = 2;
    int64_t w, h, maxval;
    if (!pnm_number(b, n, &i, &w) || !pnm_number(b, n, &i, &h) || !pnm_number(b, n, &i, &maxval)) return -1;
    return maxval;
}

bool image_jpeg_tables_bad(const uint8_t *b, size_t n) {
    if (n < 4 || b[0] != 0xFF || b[1] != 0xD8) return false;
    bool defined[2][4] = {{false}}, progressive = false, scanned = false;
    size_t i = 2;
    while (i + 4 <= n) {
        if (b[i] != 0xFF) { i++; continue; } /* stb skips padding between segments too */
        uint8_t m = b[i + 1];
        if (m == 0xFF || m == 0x00) { i++; continue; }
        if (m == 0xD8 || (m >= 0xD0 && m <= 0xD7) || m == 0x01) { i += 2; continue; }
        if (m == 0xD9) return false;
        size_t len = be16(b + i + 2);
        if (len < 2) return false;
        const uint8_t *s = b + i + 4;
        /* a segment cut short by the end of the file is read as far as it goes, as stb does */
        size_t sl = i + 2 + len <= n ? len - 2 : n - (i + 4);
        if (m == 0xC2) progressive = true;
        if (m == 0xC4) {
            for (size_t j = 0; j + 17 <= sl;) {
                int tc = s[j] >> 4, th = s[j] & 15;
                if (tc > 1 || th > 3) return false; /* stb refuses these */
                unsigned total = 0, code = 0;
                for (int l = 0; l < 16; l++) {
                    total += s[j + 1 + l];
                    code += s[j + 1 + l];
                    if (code > (1u << (l + 1))) return true; /* more codes than bits allow */
                    code <<= 1;
                }
                if (total > 256) return true;
                defined[tc][th] = true;
                j += 17 + total;
            }
        }
        if (m == 0xDA && !scanned) { /* the first scan: every table it decodes with must exist */
            scanned = true;
            size_t ns = sl ? s[0] : 0;
            if (sl < 1 + 2 * ns + 3) return false;
            int ss = s[1 + 2 * ns], ah = s[3 + 2 * ns] >> 4;
            bool dc = !progressive || (ss == 0 && ah == 0), ac = !progressive || ss > 0;
            for (size_t c = 0; c < ns; c++) {
                int td = s[2 + 2 * c] >> 4, ta = s[2 + 2 * c] & 15;
                if (td > 3 || ta > 3) return false;
                if ((dc && !defined[0][td]) || (ac && !defined[1][ta])) return true;
            }
        }
        /* later segments (tables between progressive scans) are walked too:
         * the scan data in between is skipped byte by byte above */
        i += 2 + len;
    }
    return false;
}
