/* Image files by name: the extensions seer reads, and the images under a
 * directory (seer embed --image DIR, seer index DIR). */
#ifndef SEER_APP_IMAGE_FILES_H
#define SEER_APP_IMAGE_FILES_H

#include <stdbool.h>

/* Whether a file name ends in an image extension seer decodes (not a dot file). */
bool app_image_name(const char *name);

/* The images under dir, as paths relative to it, sorted by name; with
 * recursive, in subdirectories too (hidden ones skipped). *names is
 * malloc'd (free with app_free_names); 0 ok, -1 with errno set. */
int app_list_images(const char *dir, bool recursive, char ***names, int *n);
void app_free_names(char **names, int n);
/* qsort / bsearch order of such names (char * elements). */
int app_compare_names(const void *x, const void *y);

#endif
