/* Minimal assertions for the unit tests: each failure prints file:line and
 * the test binary exits non-zero at the end. */
#ifndef SEER_TESTLIB_H
#define SEER_TESTLIB_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int test_failures;

#define CHECK(cond) do { if (!(cond)) { fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); test_failures++; } } while (0)
#define CHECK_MSG(cond, ...) do { if (!(cond)) { fprintf(stderr, "%s:%d: ", __FILE__, __LINE__); fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); test_failures++; } } while (0)
#define CHECK_NEAR(a, b, tol) CHECK_MSG(fabs((double)(a) - (double)(b)) <= (tol), "%s = %g, expected %g ± %g", #a, (double)(a), (double)(b), (double)(tol))
#define TEST_MAIN_END() do { if (test_failures) { fprintf(stderr, "%d check(s) failed\n", test_failures); return 1; } return 0; } while (0)

/* A fresh temporary directory for the test (removed by the OS / CI). */
const char *test_tmpdir(void);
/* Path of the shared conformance folder, or NULL (test then skips that part). */
const char *test_conformance_dir(void);
/* Calls fn(root, name, ctx) for every case folder under root/cases in name
 * order and returns the sum of what it returned; a missing folder is
 * reported as skipped and gives 0. */
int test_each_case(const char *root, int (*fn)(const char *root, const char *name, void *ctx), void *ctx);
/* test_each_case over the shared cases (test_conformance_dir(); a SKIP line
 * when absent) and then the project's own (tests/conformance, relative to
 * the source tree the tests run from: Qwen3-VL, Gemma 3, …). *have_shared
 * tells whether the shared folder was there. */
int test_each_conformance_case(int (*fn)(const char *root, const char *name, void *ctx), void *ctx,
                               int *have_shared);

#endif
