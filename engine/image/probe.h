/* Header-only look at an image file (engine/image only). */
#ifndef SEER_IMAGE_PROBE_H
#define SEER_IMAGE_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Format name ("PNG", "JPEG", "GIF", "BMP", "PSD", "PNM", "HDR") from the
 * magic bytes, or NULL (TGA has no magic; stb still recognises it). When
 * the header is complete enough, *have_size is set with the stated size. */
const char *image_probe(const uint8_t *buf, size_t len, int64_t *w, int64_t *h, bool *have_size);

/* Binary PNM (P5/P6): false when the header is incomplete (stb's number
 * parser overflows on some of those); else its maxval (over 255: 16-bit
 * samples, which stb reads wrongly and whose channel conversion then
 * overreads) and whether the file holds fewer sample bytes than the header
 * promises (stb decodes those silently, missing pixels black). */
bool image_pnm_inspect(const uint8_t *buf, size_t len, int64_t *maxval, bool *truncated);

/* JPEG with a Huffman table (in any DHT segment, read as stb reads it)
 * holding more than 256 codes or more codes than their lengths allow, or
 * with a scan that decodes with a table no DHT before it defined: Debian's
 * stb_image reads and writes out of bounds on those (fuzzer finds). */
bool image_jpeg_tables_bad(const uint8_t *buf, size_t len);

#endif
