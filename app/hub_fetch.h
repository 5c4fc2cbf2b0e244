/* `-hf user/repo[:TAG]` on the command line of the chat, bench and info:
 * its options, and the files it names fetched with a progress display. */
#ifndef SEER_APP_HUB_FETCH_H
#define SEER_APP_HUB_FETCH_H

#include <stdbool.h>
#include <stdio.h>

#include "seer/hub.h"

typedef struct app_hub_args {
    const char *repo; /* -hf, --hf-repo user/repo[:TAG] */
    const char *file; /* --hf-file PATH in the repository */
    bool offline;     /* --offline: the cache alone */
    bool no_mmproj;   /* --no-mmproj: not the repository's projector */
} app_hub_args;

/* If argv[*i] is one of the options above (also as --name=value), stores it,
 * steps *i past its value and returns 1; 0 when it is not one; -1 when its
 * value is missing. */
int app_hub_arg(int argc, char **argv, int *i, app_hub_args *a);

/* The options' lines for a --help text. */
void app_hub_usage(FILE *out);

/* A usage problem of the options (e.g. --hf-file without -hf), or NULL. */
const char *app_hub_args_problem(const app_hub_args *a);

/* Fetches what a->repo names (the projector too when want_mmproj), with a
 * progress bar on a terminal and plain lines otherwise (stderr), Ctrl-C
 * stopping it resumably. Returns 0, or an exit code (1 failure, 130
 * interrupted) with the one-line reason in err, for the caller to show. */
int app_hub_fetch(const app_hub_args *a, bool want_mmproj, seer_hub_files *files, seer_error *err);

#endif
