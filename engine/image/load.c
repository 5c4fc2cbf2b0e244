/* Image decoding through stb_image (the decoder llama.cpp uses, so JPEG pixels
 * match the reference bit for bit). The header is read first so that huge or
 * empty images are refused before any pixel memory is allocated. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <stb_image.h>

#include "image/probe.h"
#include "seer/image.h"
#include "seer/sanitize.h"

/* Compressed files larger than this are refused before reading: no sane
 * picture under the pixel limit needs more. */
#define IMAGE_FILE_MAX_BYTES (512LL * 1024 * 1024)

static void format_megapixels(int64_t max_pixels, char *buf, size_t cap) {
    if (max_pixels % 1000000 == 0) snprintf(buf, cap, "%lld megapixels", (long long)(max_pixels / 1000000));
    else snprintf(buf, cap, "%lld pixels", (long long)max_pixels);
}

int seer_image_load_memory(const uint8_t *buf, size_t len, const char *name, int64_t max_pixels,
                           seer_image *out, seer_error *err) {
    /* The name is outside text that ends up on a terminal: make it harmless. */
    char shown[256];
    seer_text_sanitize(name ? name : "image", name ? strlen(name) : 5, shown, sizeof shown, 0);
    name = shown;
    if (out) memset(out, 0, sizeof *out);
    if (!buf || len == 0) {
        seer_error_set(err, "%s: empty file", name);
        return -1;
    }
    if (len > (size_t)INT32_MAX) {
        seer_error_set(err, "%s: file too large (%zu bytes)", name, len);
        return -1;
    }
    if (max_pixels <= 0) max_pixels = SEER_IMAGE_DEFAULT_MAX_PIXELS;
    int64_t pw, ph;
    bool have_size;
    const char *fmt = image_probe(buf, len, &pw, &ph, &have_size);
    /* Our own header reading first: stb refuses very large images with a
     * terse "too large" before we could name the size. */
    if (have_size && (pw == 0 || ph == 0)) {
        seer_error_set(err, "%s: %s image has no pixels (%lld\u00d7%lld)", name, fmt, (long long)pw, (long long)ph);
        return -1;
    }
    if (have_size && pw > max_pixels / ph) { /* division: headers may hold 2^32 × 2^32 */
        char lim[64];
        format_megapixels(max_pixels, lim, sizeof lim);
        seer_error_set(err, "%s: %lld\u00d7%lld is over the limit of %s", name, (long long)pw, (long long)ph, lim);
        return -1;
    }

    if (fmt && strcmp(fmt, "PNM") == 0) {
        int64_t maxval;
        bool truncated;
        if (!image_pnm_inspect(buf, len, &maxval, &truncated)) {
            seer_error_set(err, "%s: truncated or corrupt PNM (incomplete header)", name);
            return -1;
        }
        if (maxval > 255) {
            seer_error_set(err, "%s: 16-bit PNM (maxval %lld) is not supported; convert it to 8-bit or PNG", name,
                           (long long)maxval);
            return -1;
        }
        if (truncated) {
            seer_error_set(err, "%s: truncated PNM (fewer pixel bytes than its %lld\u00d7%lld header promises)", name,
                           (long long)pw, (long long)ph);
            return -1;
        }
    }
    if (image_jpeg_tables_bad(buf, len)) { /* any FF… D8 start: stb decodes it as JPEG */
        seer_error_set(err, "%s: corrupt JPEG (Huffman tables missing or invalid)", name);
        return -1;
    }

    int w = 0, h = 0, comp = 0;
    if (!stbi_info_from_memory(buf, (int)len, &w, &h, &comp)) {
        const char *why = stbi_failure_reason();
        if (fmt) seer_error_set(err, "%s: truncated or corrupt %s (%s)", name, fmt, why ? why : "bad header");
        else seer_error_set(err, "%s: not an image (unknown format)", name);
        return -1;
    }
    if (w <= 0 || h <= 0) {
        seer_error_set(err, "%s: image has no pixels (%d\u00d7%d)", name, w, h);
        return -1;
    }
    if ((int64_t)w * h > max_pixels) {
        char lim[64];
        format_megapixels(max_pixels, lim, sizeof lim);
        seer_error_set(err, "%s: %d\u00d7%d is over the limit of %s", name, w, h, lim);
        return -1;
    }

    /* The file's own channels (16-bit samples reduced to their high byte);
     * RGB is made below, not by stb's channel conversion, which is where it
     * read past its buffer on 16-bit PNM (a fuzzer find). */
    int dw = 0, dh = 0, dc = 0;
    uint8_t *px = stbi_load_from_memory(buf, (int)len, &dw, &dh, &dc, 0);
    if (!px) {
        const char *why = stbi_failure_reason();
        seer_error_set(err, "%s: truncated or corrupt %s (%s)", name, fmt ? fmt : "image", why ? why : "decode failed");
        return -1;
    }
    if (dw != w || dh != h || dc < 1 || dc > 4) { /* the header lied about the size */
        stbi_image_free(px);
        seer_error_set(err, "%s: corrupt %s (header says %d\u00d7%d, data %d\u00d7%d)", name, fmt ? fmt : "image", w, h,
                       dw, dh);
        return -1;
    }
    size_t n = (size_t)w * h * 3;
    uint8_t *rgb = malloc(n);
    if (!rgb) {
        stbi_image_free(px);
        seer_error_set(err, "%s: out of memory for %d\u00d7%d pixels", name, w, h);
        return -1;
    }
    /* Own copy (seer_image_free is a plain free() whatever allocator stb
     * uses) in RGB: grey is replicated, alpha dropped (not blended). */
    for (size_t i = 0; i < (size_t)w * h; i++) {
        const uint8_t *src = px + i * (size_t)dc;
        bool grey = dc < 3;
        rgb[3 * i] = src[0];
        rgb[3 * i + 1] = grey ? src[0] : src[1];
        rgb[3 * i + 2] = grey ? src[0] : src[2];
    }
    stbi_image_free(px);
    out->w = w;
    out->h = h;
    out->rgb = rgb;
    return 0;
}

int seer_image_load(const char *path_raw, int64_t max_pixels, seer_image *out, seer_error *err) {
    if (out) memset(out, 0, sizeof *out);
    if (!path_raw || !*path_raw) {
        seer_error_set(err, "no image path given");
        return -1;
    }
    char path[256]; /* for messages only: sanitised, maybe shortened */
    seer_text_sanitize(path_raw, strlen(path_raw), path, sizeof path, 0);
    FILE *f = fopen(path_raw, "rb");
    if (!f) {
        seer_error_set(err, "%s: %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fileno(f), &st) != 0) {
        seer_error_set(err, "%s: %s", path, strerror(errno));
        fclose(f);
        return -1;
    }
    if (S_ISDIR(st.st_mode)) {
        seer_error_set(err, "%s: is a directory, not an image", path);
        fclose(f);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        seer_error_set(err, "%s: not a regular file", path);
        fclose(f);
        return -1;
    }
    if (st.st_size == 0) {
        seer_error_set(err, "%s: empty file", path);
        fclose(f);
        return -1;
    }
    if ((long long)st.st_size > IMAGE_FILE_MAX_BYTES) {
        seer_error_set(err, "%s: file is %lld MiB, over the %lld MiB limit for images", path,
                       (long long)st.st_size >> 20, IMAGE_FILE_MAX_BYTES >> 20);
        fclose(f);
        return -1;
    }
    size_t len = (size_t)st.st_size;
    uint8_t *buf = malloc(len);
    if (!buf) {
        seer_error_set(err, "%s: out of memory reading %zu bytes", path, len);
        fclose(f);
        return -1;
    }
    size_t got = fread(buf, 1, len, f);
    int read_err = ferror(f);
    fclose(f);
    if (got != len || read_err) {
        seer_error_set(err, "%s: read error (%zu of %zu bytes)", path, got, len);
        free(buf);
        return -1;
    }
    int rc = seer_image_load_memory(buf, len, path_raw, max_pixels, out, err);
    free(buf);
    return rc;
}

uint64_t seer_image_hash(const seer_image *img) {
    uint64_t h = 1469598103934665603ull;
    const size_t n = (size_t)img->w * (size_t)img->h * 3;
    h = (h ^ (uint32_t)img->w) * 1099511628211ull;
    h = (h ^ (uint32_t)img->h) * 1099511628211ull;
    for (size_t i = 0; i < n; i++) h = (h ^ img->rgb[i]) * 1099511628211ull;
    return h ? h : 1; /* 0 stands for "no image" */
}

void seer_image_free(seer_image *img) {
    if (!img) return;
    free(img->rgb);
    img->rgb = NULL;
    img->w = img->h = 0;
}
