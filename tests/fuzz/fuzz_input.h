/* Helpers shared by the fuzz targets: fuzz bytes as a file the engine can open. */
#ifndef SEER_FUZZ_INPUT_H
#define SEER_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>

/* Path of an in-memory file (memfd) holding exactly data[0..size). */
const char *fuzz_as_file(const uint8_t *data, size_t size);

#endif
