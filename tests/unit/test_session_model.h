/* Tiny random-weight models for the session/worker tests, written by the
 * project's own tool (build/tests/tools/make_tiny_model, built by `make unit`
 * next to the test binaries), run through TEST_RUNNER when set (qemu-user
 * for a cross build: the kernel cannot start the tool itself). */
#ifndef SEER_TEST_SESSION_MODEL_H
#define SEER_TEST_SESSION_MODEL_H

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Runs build/tests/tools/<tool> with args (already quoted); 0 when it worked. */
static inline int test_tool_run(const char *tool, const char *args) {
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return -1;
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (!slash) return -1;
    *slash = 0;
    const char *runner = getenv("TEST_RUNNER");
    char cmd[5 * PATH_MAX + 256];
    snprintf(cmd, sizeof cmd, "%s '%s/tools/%s' %s", runner ? runner : "", exe, tool, args);
    int rc = system(cmd);
    if (rc != 0) fprintf(stderr, "cannot write the model: %s (exit %d)\n", cmd, rc);
    return rc == 0 ? 0 : -1;
}

/* Writes <tmp>/tiny-llm.gguf (and tiny-mmproj.gguf when mmproj) and returns 0. */
static inline int tiny_model_write(const char *dir, const char *type, bool mmproj, char *llm, size_t llm_cap, char *proj,
                            size_t proj_cap) {
    snprintf(llm, llm_cap, "%s/tiny-llm-%s.gguf", dir, type);
    snprintf(proj, proj_cap, "%s/tiny-mmproj.gguf", dir);
    char args[3 * PATH_MAX + 128];
    snprintf(args, sizeof args, "--arch llama --type %s --out '%s'%s%s%s", type, llm, mmproj ? " --mmproj '" : "",
             mmproj ? proj : "", mmproj ? "'" : "");
    return test_tool_run("make_tiny_model", args);
}

#endif
