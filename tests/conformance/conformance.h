/* The conformance runner: every folder holding a case.json is a case,
 * checked against the expected files llama.cpp produced (see the data's
 * README, "Using a case"). */
#ifndef SEER_CONFORMANCE_H
#define SEER_CONFORMANCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "json.h"
#include "seer/threadpool.h"

typedef enum case_status { CASE_PASS, CASE_FAIL, CASE_SKIP } case_status;

/* What one case reports: its status and the text after the name. */
typedef struct case_result {
    case_status status;
    char detail[1024];
} case_result;

/* --vision-precision bf16: the encoder check also encodes at BF16
 * precision and holds that to its own tolerance (check_encoder.c); the
 * decoder and pipeline checks, which say nothing about it, do not run. */
extern bool conformance_bf16;

/* Runs the case in folder dir. */
void run_case(const char *dir, seer_pool *pool, case_result *res);

/* ---- helpers (files.c) ---- */
/* dir + "/" + rel into a new string. */
char *path_join(const char *dir, const char *rel);
/* Whole file; *len gets its size. NULL if unreadable. */
char *read_file(const char *path, size_t *len);
/* Raw little-endian f32 file; *n gets the count of floats. */
float *read_f32(const char *path, size_t *n);
bool file_exists(const char *path);
double rel_l2(const float *x, const float *ref, size_t n);
/* Appends printf-style text to res->detail. */
void detail_add(case_result *res, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
