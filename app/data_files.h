/* seer's own data files (the demo model and image, themes) wherever seer
 * runs from: the source tree (./seer, build-san/seer) or an installed
 * PREFIX/bin/seer beside PREFIX/share/seer (make install). */
#ifndef SEER_APP_DATA_FILES_H
#define SEER_APP_DATA_FILES_H

#include <stdbool.h>
#include <stddef.h>

/* Finds data file `rel` ("models/demo-llm.gguf", "images/demo.png") next to
 * the running binary: <bin>/assets/REL, <bin>/../assets/REL, then
 * <bin>/../share/seer/REL. Writes the first that exists into out. */
bool app_data_file(const char *rel, char *out, size_t cap);

#endif
