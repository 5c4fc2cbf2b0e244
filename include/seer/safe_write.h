/* Writing an output file safely, the one way every writer of seer does it.
 *
 * - A regular file, or a path that does not exist yet, is written to a
 *   temporary file in the same folder, synced, then renamed over it: a
 *   reader never sees half a file and a failed run leaves the old one.
 *   An existing file keeps its permission bits (and owner, where allowed).
 * - Anything else that exists (a character device such as /dev/null, a
 *   FIFO, a Unix socket: a stream connection to its listener) is written in
 *   place: renaming over it would replace the device.
 * - A symbolic link is followed: its target is replaced, the link stays.
 * - "-" is standard output.
 * - On failure nothing is left behind and the error is one line naming the
 *   path and the reason. */
#ifndef SEER_SAFE_WRITE_H
#define SEER_SAFE_WRITE_H

#include <stdio.h>

#include "seer/common.h"

typedef struct seer_safe_file {
    FILE *f;      /* write here */
    char *path;   /* as the caller named it (for messages) */
    char *target; /* the file that ends up written (symbolic links followed) */
    char *tmp;    /* the temporary renamed over target, or NULL when written in place */
} seer_safe_file;

/* Opens path for writing as above (mode: "w" or "wb"; the same on POSIX). */
int seer_safe_open(seer_safe_file *sf, const char *path, seer_error *err);

/* The path the bytes go to (the temporary, or target when in place), for a
 * library that writes by name (readline's write_history); NULL for "-". */
const char *seer_safe_write_path(const seer_safe_file *sf);

/* Flushes, syncs and closes, then renames the temporary into place. On
 * failure removes the temporary and sets "cannot write PATH: reason". */
int seer_safe_commit(seer_safe_file *sf, seer_error *err);

/* Gives up: closes and removes the temporary (the target is untouched). */
void seer_safe_abandon(seer_safe_file *sf);

/* Whether path (links followed) is an existing regular file: what an
 * "already exists" guard should refuse to replace (/dev/null is not one). */
bool seer_safe_is_regular(const char *path);

/* mkdir -p: creates dir and every missing folder above it (mode before
 * the umask); an existing folder is fine, a file in the way is an error
 * ("cannot create the folder PATH: reason", one line). */
int seer_mkdirs(const char *dir, unsigned mode, seer_error *err);

#endif
