/* Image loading: every stb format written by small encoders here (so the
 * expected pixels are known independently of the decoder), odd sizes, and
 * every kind of bad file with its clear error. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <stb_image_write.h>

#include "seer/image.h"
#include "testlib.h"

/* ---- a growable byte buffer ---- */
typedef struct { uint8_t *p; size_t n, cap; } buf_t;
static void put(buf_t *b, const void *d, size_t n) {
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2 + 64;
        b->p = realloc(b->p, b->cap);
    }
    memcpy(b->p + b->n, d, n);
    b->n += n;
}
static void put8(buf_t *b, unsigned v) { uint8_t c = (uint8_t)v; put(b, &c, 1); }
static void put16le(buf_t *b, unsigned v) { put8(b, v & 255); put8(b, v >> 8); }
static void put32le(buf_t *b, uint32_t v) { put16le(b, v & 0xFFFF); put16le(b, v >> 16); }
static void put16be(buf_t *b, unsigned v) { put8(b, (v >> 8) & 255); put8(b, v & 255); }
static void put32be(buf_t *b, uint32_t v) { put16be(b, v >> 16); put16be(b, v & 0xFFFF); }

/* Test picture: distinct values in every channel. */
static uint8_t pix(int x, int y, int c) {
    switch (c) {
    case 0: return (uint8_t)(x * 37 + y * 11);
    case 1: return (uint8_t)(x * 5 + y * 29 + 7);
    case 2: return (uint8_t)((x ^ y) * 13 + 100);
    default: return (uint8_t)(x + y * 3 + 1); /* alpha */
    }
}

/* ---- PNG with stored (uncompressed) deflate blocks ---- */
static uint32_t crc32_of(const uint8_t *p, size_t n) {
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1)));
    }
    return c ^ 0xFFFFFFFFu;
}
static void png_chunk(buf_t *b, const char *type, const uint8_t *d, size_t n) {
    put32be(b, (uint32_t)n);
    size_t start = b->n;
    put(b, type, 4);
    if (n) put(b, d, n);
    put32be(b, crc32_of(b->p + start, n + 4));
}
/* colour type 0 grey, 2 RGB, 4 grey+alpha, 6 RGBA; depth 8 or 16. Grey
 * samples are channel 0 of pix(). 16-bit samples are v·257 + 3 so the low
 * byte differs from the high byte. */
static buf_t make_png(int w, int h, int ctype, int depth) {
    int nch = ctype == 0 ? 1 : ctype == 2 ? 3 : ctype == 4 ? 2 : 4;
    buf_t raw = {0};
    for (int y = 0; y < h; y++) {
        put8(&raw, 0); /* filter: none */
        for (int x = 0; x < w; x++)
            for (int c = 0; c < nch; c++) {
                int src = (ctype == 4 && c == 1) ? 3 : c;
                unsigned v = pix(x, y, src);
                if (depth == 16) put16be(&raw, v * 257 + 3 > 65535 ? 65535 : v * 257 + 3);
                else put8(&raw, v);
            }
    }
    buf_t z = {0};
    put8(&z, 0x78);
    put8(&z, 0x01);
    size_t off = 0;
    do {
        size_t len = raw.n - off > 65535 ? 65535 : raw.n - off;
        put8(&z, off + len == raw.n);
        put16le(&z, (unsigned)len);
        put16le(&z, (unsigned)(~len & 0xFFFF));
        put(&z, raw.p + off, len);
        off += len;
    } while (off < raw.n);
    uint32_t a = 1, bsum = 0;
    for (size_t i = 0; i < raw.n; i++) {
        a = (a + raw.p[i]) % 65521;
        bsum = (bsum + a) % 65521;
    }
    put32be(&z, bsum << 16 | a);
    buf_t b = {0};
    put(&b, "\x89PNG\r\n\x1a\n", 8);
    uint8_t ihdr[13];
    buf_t hb = {0};
    put32be(&hb, (uint32_t)w);
    put32be(&hb, (uint32_t)h);
    memcpy(ihdr, hb.p, 8);
    ihdr[8] = (uint8_t)depth;
    ihdr[9] = (uint8_t)ctype;
    ihdr[10] = ihdr[11] = ihdr[12] = 0;
    png_chunk(&b, "IHDR", ihdr, 13);
    png_chunk(&b, "IDAT", z.p, z.n);
    png_chunk(&b, "IEND", NULL, 0);
    free(raw.p);
    free(z.p);
    free(hb.p);
    return b;
}

static buf_t make_bmp(int w, int h) {
    int stride = (w * 3 + 3) & ~3;
    buf_t b = {0};
    put(&b, "BM", 2);
    put32le(&b, (uint32_t)(54 + stride * h));
    put32le(&b, 0);
    put32le(&b, 54);
    put32le(&b, 40);
    put32le(&b, (uint32_t)w);
    put32le(&b, (uint32_t)h); /* bottom-up */
    put16le(&b, 1);
    put16le(&b, 24);
    put32le(&b, 0);
    put32le(&b, (uint32_t)(stride * h));
    put32le(&b, 2835);
    put32le(&b, 2835);
    put32le(&b, 0);
    put32le(&b, 0);
    for (int y = h - 1; y >= 0; y--) {
        for (int x = 0; x < w; x++) {
            put8(&b, pix(x, y, 2));
            put8(&b, pix(x, y, 1));
            put8(&b, pix(x, y, 0));
        }
        for (int p = w * 3; p < stride; p++) put8(&b, 0);
    }
    return b;
}

static buf_t make_tga(int w, int h) {
    buf_t b = {0};
    put8(&b, 0);
    put8(&b, 0);
    put8(&b, 2); /* uncompressed true colour */
    for (int i = 0; i < 5; i++) put8(&b, 0);
    put16le(&b, 0);
    put16le(&b, 0);
    put16le(&b, (unsigned)w);
    put16le(&b, (unsigned)h);
    put8(&b, 24);
    put8(&b, 0x20); /* top-left origin */
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            put8(&b, pix(x, y, 2));
            put8(&b, pix(x, y, 1));
            put8(&b, pix(x, y, 0));
        }
    return b;
}

/* Binary PGM/PPM; depth 16: maxval 65535, samples v·257 + 3 big-endian. */
static buf_t make_pnm(int w, int h, bool grey, int depth) {
    buf_t b = {0};
    char hdr[64];
    int n = snprintf(hdr, sizeof hdr, "%s\n# comment\n%d %d\n%d\n", grey ? "P5" : "P6", w, h,
                     depth == 16 ? 65535 : 255);
    put(&b, hdr, (size_t)n);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            for (int c = 0; c < (grey ? 1 : 3); c++) {
                unsigned v = pix(x, y, c);
                if (depth == 16) put16be(&b, v * 257 + 3 > 65535 ? 65535 : v * 257 + 3);
                else put8(&b, v);
            }
    return b;
}

/* Raw (uncompressed) RGB PSD: planar channel data. */
static buf_t make_psd(int w, int h) {
    buf_t b = {0};
    put(&b, "8BPS", 4);
    put16be(&b, 1);
    for (int i = 0; i < 6; i++) put8(&b, 0);
    put16be(&b, 3);
    put32be(&b, (uint32_t)h);
    put32be(&b, (uint32_t)w);
    put16be(&b, 8);
    put16be(&b, 3); /* RGB */
    put32be(&b, 0);
    put32be(&b, 0);
    put32be(&b, 0);
    put16be(&b, 0); /* raw */
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) put8(&b, pix(x, y, c));
    return b;
}

/* GIF with a 256-entry palette where index i = (i, 255-i, i/2);
 * 9-bit LZW codes with a clear code often enough that the code size never
 * grows. Two frames: the second is all index 7 (only the first must load). */
typedef struct { buf_t *b; uint32_t acc; int nbits; buf_t block; } gif_bits;
static void gif_code(gif_bits *g, unsigned code) {
    g->acc |= code << g->nbits;
    g->nbits += 9;
    while (g->nbits >= 8) {
        put8(&g->block, g->acc & 255);
        g->acc >>= 8;
        g->nbits -= 8;
    }
}
static void gif_frame(buf_t *b, int w, int h, int frame) {
    put8(b, 0x2C);
    put16le(b, 0);
    put16le(b, 0);
    put16le(b, (unsigned)w);
    put16le(b, (unsigned)h);
    put8(b, 0);
    put8(b, 8); /* LZW minimum code size */
    gif_bits g = {b, 0, 0, {0}};
    int since_clear = 0;
    gif_code(&g, 256);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            if (since_clear == 200) {
                gif_code(&g, 256);
                since_clear = 0;
            }
            gif_code(&g, frame == 0 ? pix(x, y, 0) : 7);
            since_clear++;
        }
    gif_code(&g, 257);
    if (g.nbits) put8(&g.block, g.acc & 255);
    for (size_t off = 0; off < g.block.n; off += 255) {
        size_t len = g.block.n - off > 255 ? 255 : g.block.n - off;
        put8(b, (unsigned)len);
        put(b, g.block.p + off, len);
    }
    put8(b, 0);
    free(g.block.p);
}
static void gif_palette(int i, uint8_t rgb[3]) {
    rgb[0] = (uint8_t)i;
    rgb[1] = (uint8_t)(255 - i);
    rgb[2] = (uint8_t)(i / 2);
}
static buf_t make_gif(int w, int h) {
    buf_t b = {0};
    put(&b, "GIF89a", 6);
    put16le(&b, (unsigned)w);
    put16le(&b, (unsigned)h);
    put8(&b, 0xF7); /* global colour table, 256 entries */
    put8(&b, 0);
    put8(&b, 0);
    for (int i = 0; i < 256; i++) {
        uint8_t rgb[3];
        gif_palette(i, rgb);
        put(&b, rgb, 3);
    }
    gif_frame(&b, w, h, 0);
    gif_frame(&b, w, h, 1);
    put8(&b, 0x3B);
    return b;
}

/* Radiance HDR, flat (not run-length) RGBE scanlines; stb turns it into
 * 8-bit with gamma 1/2.2: v = (m·2^(e−136))^(1/2.2)·255 + 0.5 with e = 128. Width < 8
 * keeps the scanlines flat. */
static buf_t make_hdr(int w, int h) {
    buf_t b = {0};
    char hdr[128];
    int n = snprintf(hdr, sizeof hdr, "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y %d +X %d\n", h, w);
    put(&b, hdr, (size_t)n);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            for (int c = 0; c < 3; c++) put8(&b, pix(x, y, c));
            put8(&b, 128); /* scale 2^-8: values m/256 */
        }
    return b;
}
static uint8_t exp_hdr(int x, int y, int c) {
    double v = pow(pix(x, y, c) / 256.0, 1.0 / 2.2) * 255.0 + 0.5;
    return (uint8_t)(v > 255 ? 255 : v);
}

static void jpg_sink(void *ctx, void *data, int size) { put((buf_t *)ctx, data, (size_t)size); }
static buf_t make_jpeg(int w, int h, const uint8_t *rgb) {
    buf_t b = {0};
    stbi_write_jpg_to_func(jpg_sink, &b, w, h, 3, rgb, 100);
    return b;
}

static char *write_file(const char *name, const void *d, size_t n) {
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", test_tmpdir(), name);
    FILE *f = fopen(path, "wb");
    if (n) fwrite(d, 1, n, f);
    fclose(f);
    return path;
}

/* Loads buf through a file and checks every pixel with expect(x, y, c). */
typedef uint8_t (*expect_fn)(int x, int y, int c);
static void check_load(const char *what, const char *name, buf_t b, int w, int h, expect_fn expect, int tol) {
    seer_image img;
    seer_error err = {{0}};
    const char *path = write_file(name, b.p, b.n);
    int rc = seer_image_load(path, 0, &img, &err);
    CHECK_MSG(rc == 0, "%s (%dx%d): load failed: %s", what, w, h, err.msg);
    if (rc == 0) {
        CHECK_MSG(img.w == w && img.h == h, "%s: size %dx%d, expected %dx%d", what, img.w, img.h, w, h);
        int bad = 0, worst = 0;
        for (int y = 0; y < h && img.w == w && img.h == h; y++)
            for (int x = 0; x < w; x++)
                for (int c = 0; c < 3; c++) {
                    int d = abs((int)img.rgb[((size_t)y * w + x) * 3 + c] - (int)expect(x, y, c));
                    if (d > tol) bad++;
                    if (d > worst) worst = d;
                }
        CHECK_MSG(bad == 0, "%s (%dx%d): %d samples off (worst by %d)", what, w, h, bad, worst);
        seer_image_free(&img);
    }
    /* And from memory: same answer. */
    seer_image m;
    CHECK_MSG(seer_image_load_memory(b.p, b.n, name, 0, &m, &err) == 0, "%s: memory load failed: %s", what, err.msg);
    seer_image_free(&m);
    free(b.p);
}

static uint8_t exp_rgb(int x, int y, int c) { return pix(x, y, c); }
static uint8_t exp_grey(int x, int y, int c) { (void)c; return pix(x, y, 0); }
static uint8_t exp_gif(int x, int y, int c) {
    uint8_t rgb[3];
    gif_palette(pix(x, y, 0), rgb);
    return rgb[c];
}
/* 16-bit sample v·257+3 → high byte v (clamped at 65535 → 255). */
static uint8_t exp_rgb16(int x, int y, int c) {
    unsigned v = pix(x, y, c) * 257u + 3;
    return (uint8_t)((v > 65535 ? 65535 : v) >> 8);
}
static uint8_t exp_grey16(int x, int y, int c) { return exp_rgb16(x, y, 0) + 0 * c; }

/* Expects failure with an error that contains every fragment. */
static void expect_error(const char *what, const char *path, int64_t max_pixels, const char *frag1,
                         const char *frag2) {
    seer_image img;
    seer_error err = {{0}};
    int rc = seer_image_load(path, max_pixels, &img, &err);
    CHECK_MSG(rc != 0, "%s: loaded, expected an error", what);
    if (rc == 0) {
        seer_image_free(&img);
        return;
    }
    CHECK_MSG(img.rgb == NULL, "%s: output not cleared", what);
    CHECK_MSG(strstr(err.msg, frag1) != NULL, "%s: error '%s' lacks '%s'", what, err.msg, frag1);
    if (frag2) CHECK_MSG(strstr(err.msg, frag2) != NULL, "%s: error '%s' lacks '%s'", what, err.msg, frag2);
    CHECK_MSG(strchr(err.msg, '\n') == NULL, "%s: error is not one line", what);
}

static void test_formats(void) {
    static const int sizes[][2] = {{1, 1}, {3, 500}, {500, 3}, {17, 9}};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int w = sizes[s][0], h = sizes[s][1];
        check_load("PNG RGB", "a.png", make_png(w, h, 2, 8), w, h, exp_rgb, 0);
        check_load("PNG RGBA (alpha dropped)", "a.png", make_png(w, h, 6, 8), w, h, exp_rgb, 0);
        check_load("PNG grey", "a.png", make_png(w, h, 0, 8), w, h, exp_grey, 0);
        check_load("PNG grey+alpha", "a.png", make_png(w, h, 4, 8), w, h, exp_grey, 0);
        check_load("PNG 16-bit RGB", "a.png", make_png(w, h, 2, 16), w, h, exp_rgb16, 0);
        check_load("PNG 16-bit RGBA", "a.png", make_png(w, h, 6, 16), w, h, exp_rgb16, 0);
        check_load("PNG 16-bit grey", "a.png", make_png(w, h, 0, 16), w, h, exp_grey16, 0);
        check_load("BMP", "a.bmp", make_bmp(w, h), w, h, exp_rgb, 0);
        check_load("TGA", "a.tga", make_tga(w, h), w, h, exp_rgb, 0);
        check_load("PPM", "a.ppm", make_pnm(w, h, false, 8), w, h, exp_rgb, 0);
        check_load("PGM", "a.pgm", make_pnm(w, h, true, 8), w, h, exp_grey, 0);

        check_load("PSD", "a.psd", make_psd(w, h), w, h, exp_rgb, 0);
        check_load("GIF (first frame)", "a.gif", make_gif(w, h), w, h, exp_gif, 0);
        if (w < 8) check_load("HDR", "a.hdr", make_hdr(w, h), w, h, exp_hdr, 1);
    }
    /* JPEG is lossy: a smooth picture must come back close. */
    int w = 64, h = 48;
    uint8_t *rgb = malloc((size_t)w * h * 3);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            rgb[(y * w + x) * 3 + 0] = (uint8_t)(x * 4);
            rgb[(y * w + x) * 3 + 1] = (uint8_t)(y * 5);
            rgb[(y * w + x) * 3 + 2] = 128;
        }
    buf_t j = make_jpeg(w, h, rgb);
    seer_image img;
    seer_error err;
    CHECK_MSG(seer_image_load_memory(j.p, j.n, "a.jpg", 0, &img, &err) == 0, "JPEG: %s", err.msg);
    if (img.rgb) {
        CHECK(img.w == w && img.h == h);
        double se = 0;
        for (int i = 0; i < w * h * 3; i++) se += pow((double)img.rgb[i] - rgb[i], 2);
        CHECK_MSG(sqrt(se / (w * h * 3)) < 4.0, "JPEG rms error %.2f", sqrt(se / (w * h * 3)));
        seer_image_free(&img);
    }
    /* Truncated JPEG: cut inside the header. */
    const char *p = write_file("cut.jpg", j.p, 40);
    expect_error("truncated JPEG", p, 0, "cut.jpg: ", "JPEG");
    free(j.p);
    free(rgb);
}

/* stb misreads 16-bit PNM samples (and overread its buffer converting grey
 * to RGB): refused by name. */
static void test_pnm16(void) {
    for (int grey = 0; grey < 2; grey++) {
        buf_t b = make_pnm(12, 9, grey, 16);
        const char *p = write_file(grey ? "deep.pgm" : "deep.ppm", b.p, b.n);
        expect_error("16-bit PNM", p, 0, "16-bit PNM (maxval 65535) is not supported", grey ? "deep.pgm" : "deep.ppm");
        free(b.p);
    }
    /* A header cut off before its maxval: refused by our own header reading
     * (stb's number parser overflows an int on long numbers in these). */
    const char *cut = "P5 12 9";
    expect_error("incomplete PNM header", write_file("cut.pgm", cut, strlen(cut)), 0,
                 "cut.pgm: truncated or corrupt PNM (incomplete header)", NULL);
}

/* A scan decoding with a Huffman table no DHT defined, or a DHT with more
 * codes than its lengths allow: Debian's stb reads out of bounds on these
 * (fuzzer find), so they are refused before stb sees them. */
static void test_jpeg_tables(void) {
    uint8_t *rgb = calloc(16 * 16 * 3, 1);
    buf_t j = make_jpeg(16, 16, rgb);
    size_t sos = 0, dht = 0;
    for (size_t i = 2; i + 1 < j.n && !sos; i++) {
        if (j.p[i] == 0xFF && j.p[i + 1] == 0xDA) sos = i;
        if (j.p[i] == 0xFF && j.p[i + 1] == 0xC4 && !dht) dht = i;
    }
    CHECK(sos && dht);
    if (sos && dht) {
        uint8_t keep = j.p[sos + 6];
        j.p[sos + 6] = 0x33; /* first component: DC and AC table 3, never defined */
        expect_error("undefined Huffman table", write_file("notable.jpg", j.p, j.n), 0, "notable.jpg: ",
                     "Huffman tables missing or invalid");
        j.p[sos + 6] = keep;
        j.p[dht + 5] = 3; /* three 1-bit codes */
        expect_error("overfull Huffman table", write_file("overfull.jpg", j.p, j.n), 0, "overfull.jpg: ", "JPEG");
    }
    free(j.p);
    free(rgb);

    /* A DHT segment whose length leaves 4 bytes after its first table: stb
     * reads a second table on into the bytes after the segment, and that one
     * holds 265 codes (its size list has room for 256). */
    static const uint8_t spill[] = {
        0xFF, 0xD8, 0xFF, 0xC4, 0x00, 24,                                 /* DHT, 2 + 17 + 1 + 4 bytes */
        0x00, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x00,        /* DC 0: one 1-bit code */
        0x01, 0, 0, 0,                                                  /* DC 1: lengths 1-3 ... */
        0, 0, 0, 0, 0, 255, 10, 0, 0, 0, 0, 0, 0,                       /* ... 4-16, past the segment */
        0xFF, 0xD9};
    expect_error("Huffman table past its segment", write_file("spill.jpg", spill, sizeof spill), 0, "spill.jpg: ",
                 "Huffman tables missing or invalid");
    /* stb also takes FF FF D8 (a fill byte first) for the start of a JPEG */
    uint8_t filled[sizeof spill + 1] = {0xFF};
    memcpy(filled + 1, spill, sizeof spill);
    expect_error("fill byte before the start", write_file("filled.jpg", filled, sizeof filled), 0, "filled.jpg: ",
                 "Huffman tables missing or invalid");
}

static void test_bad_files(void) {
    char dir[600];
    snprintf(dir, sizeof dir, "%s/adir.png", test_tmpdir());
    mkdir(dir, 0700);
    expect_error("directory", dir, 0, "adir.png: ", "directory");
    snprintf(dir, sizeof dir, "%s/missing.png", test_tmpdir());
    expect_error("missing", dir, 0, "missing.png: ", "No such file");
    expect_error("empty", write_file("empty.png", "", 0), 0, "empty.png: ", "empty");
    const char *txt = "hello, this is not an image at all\n";
    expect_error("text", write_file("photo.jpg", txt, strlen(txt)), 0, "photo.jpg: not an image (unknown format)",
                 NULL);

    /* A hostile file name never puts control bytes into the message. */
    seer_image img;
    seer_error err;
    CHECK(seer_image_load(write_file("evil\x1b]2;pwned\x07.png", txt, strlen(txt)), 0, &img, &err) != 0);
    CHECK_MSG(strchr(err.msg, 0x1b) == NULL && strchr(err.msg, 0x07) == NULL, "control bytes in '%s'", err.msg);
    CHECK(strstr(err.msg, "not an image") != NULL);
    CHECK(seer_image_load_memory((const uint8_t *)txt, strlen(txt), "a\x1b[2Jb", 0, &img, &err) != 0);
    CHECK_MSG(strchr(err.msg, 0x1b) == NULL, "control bytes in '%s'", err.msg);

    /* Truncated PNG: header intact, IDAT cut short. */
    buf_t png = make_png(40, 30, 2, 8);
    expect_error("truncated PNG", write_file("x.png", png.p, png.n / 2), 0, "x.png: truncated or corrupt PNG (",
                 NULL);
    /* Corrupt PNG: compressed data overwritten. */
    for (size_t i = 45; i < png.n - 20; i++) png.p[i] ^= 0x5A;
    expect_error("corrupt PNG", write_file("x.png", png.p, png.n), 0, "x.png: ", "PNG");
    free(png.p);

    /* Oversized: a 100000×100000 header refused before decoding anything. */
    buf_t big = make_png(1, 1, 2, 8);
    big.p[16] = 0; big.p[17] = 0x01; big.p[18] = 0x86; big.p[19] = 0xA0; /* 100000 */
    big.p[20] = 0; big.p[21] = 0x01; big.p[22] = 0x86; big.p[23] = 0xA0;
    expect_error("oversized PNG", write_file("big.png", big.p, big.n), 0,
                 "big.png: 100000\xc3\x97" "100000 is over the limit of 64 megapixels", NULL);
    /* Zero-sized. */
    memset(big.p + 16, 0, 4);
    expect_error("0-width PNG", write_file("zero.png", big.p, big.n), 0, "zero.png: ", "no pixels");
    free(big.p);
    buf_t bmp = make_bmp(1, 1);
    bmp.p[18] = 0x20; bmp.p[19] = 0x4E; bmp.p[20] = 0; bmp.p[21] = 0; /* 20000 */
    bmp.p[22] = 0x20; bmp.p[23] = 0x4E; bmp.p[24] = 0; bmp.p[25] = 0;
    expect_error("oversized BMP", write_file("big.bmp", bmp.p, bmp.n), 0, "20000\xc3\x97" "20000 is over the limit",
                 NULL);
    free(bmp.p);
    /* Header sizes near 2^32 × 2^32 (PSD) must not overflow the check. */
    buf_t psd = make_psd(1, 1);
    memset(psd.p + 14, 0xFF, 8);
    expect_error("huge PSD", write_file("huge.psd", psd.p, psd.n), 0, "huge.psd: 4294967295\xc3\x97" "4294967295 is over", NULL);
    free(psd.p);
    /* A caller's own limit. */
    buf_t small = make_png(17, 9, 2, 8);
    expect_error("limit", write_file("s.png", small.p, small.n), 100, "s.png: 17\xc3\x97" "9 is over the limit of 100 pixels",
                 NULL);
    free(small.p);
}

int main(void) {
    test_formats();
    test_pnm16();
    test_jpeg_tables();
    test_bad_files();
    seer_image_free(NULL);
    TEST_MAIN_END();
}
