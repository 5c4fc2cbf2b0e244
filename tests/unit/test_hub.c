/* The hub client's own parts: SHA-256, the choice of files for a tag (the
 * rules llama.cpp follows), the cache folder and its links, path checks. */
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hub/hub_internal.h"
#include "seer/safe_write.h"
#include "testlib.h"

static void check_sha(const char *data, size_t len, size_t chunk, const char *want) {
    hub_sha256 s;
    hub_sha256_init(&s);
    for (size_t o = 0; o < len; o += chunk) hub_sha256_update(&s, data + o, len - o < chunk ? len - o : chunk);
    char got[65];
    hub_sha256_hex(&s, got);
    CHECK_MSG(strcmp(got, want) == 0, "sha256 of %zu bytes in %zu-byte chunks = %s, want %s", len, chunk, got, want);
}

static void test_sha256(void) {
    check_sha("", 0, 1, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    check_sha("abc", 3, 1, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *two_blocks = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    for (size_t chunk = 1; chunk <= 64; chunk += 9)
        check_sha(two_blocks, strlen(two_blocks), chunk, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    static char million[1000000];
    memset(million, 'a', sizeof million);
    check_sha(million, sizeof million, 4093, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    /* 55, 56 and 64 bytes: the padding's edge cases */
    check_sha(million, 55, 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
    check_sha(million, 56, 7, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
    check_sha(million, 64, 64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
}

static hub_listing listing(const char *const *paths) {
    hub_listing l = {0};
    for (; *paths; paths++) CHECK(hub_listing_add(&l, *paths, "", 1) == 0);
    return l;
}

static const char *chosen(const hub_listing *l, int i) { return i >= 0 ? l->files[i].path : "(none)"; }

#define CHECK_CHOICE(l, i, want) CHECK_MSG(strcmp(chosen(l, i), want) == 0, "chose %s, want %s", chosen(l, i), want)

static void test_choose(void) {
    const char *files[] = {"README.md", "mmproj-model-f32.gguf", "Model-Q8_0.gguf", "mmproj-model-Q8_0.gguf",
                           "imatrix-Q4_K_M.gguf", "Model-Q4_K_M.gguf", "mmproj-model-bf16.gguf",
                           "mmproj-model-f16.gguf", "Model-F16.gguf", NULL};
    hub_listing l = listing(files);
    CHECK_CHOICE(&l, hub_choose_model(&l, ""), "Model-Q4_K_M.gguf");
    CHECK_CHOICE(&l, hub_choose_model(&l, "q8_0"), "Model-Q8_0.gguf");
    CHECK_CHOICE(&l, hub_choose_model(&l, "F16"), "Model-F16.gguf");
    CHECK(hub_choose_model(&l, "Q4_0") < 0);
    CHECK(hub_choose_model(&l, "Q8") < 0); /* the tag must end at '.' or '-' */
    CHECK_CHOICE(&l, hub_choose_mmproj(&l, "Model-Q8_0.gguf"), "mmproj-model-f16.gguf");
    char tags[128];
    hub_describe_models(&l, tags, sizeof tags);
    CHECK_MSG(strcmp(tags, "Q8_0, Q4_K_M, F16") == 0, "tags '%s'", tags);
    hub_listing_free(&l);

    /* no Q4_K_M: Q8_0; neither: the first model GGUF; BF16 before F32 */
    const char *q8[] = {"a-F16.gguf", "a-Q8_0.gguf", "mmproj-x-f32.gguf", "mmproj-x-bf16.gguf", NULL};
    l = listing(q8);
    CHECK_CHOICE(&l, hub_choose_model(&l, ""), "a-Q8_0.gguf");
    CHECK_CHOICE(&l, hub_choose_mmproj(&l, "a-Q8_0.gguf"), "mmproj-x-bf16.gguf");
    hub_listing_free(&l);
    const char *plain[] = {"notes.txt", "b.gguf", "a.gguf", NULL};
    l = listing(plain);
    CHECK_CHOICE(&l, hub_choose_model(&l, ""), "b.gguf");
    CHECK(hub_choose_mmproj(&l, "b.gguf") < 0);
    hub_listing_free(&l);

    /* split models: the first part, then every part in order; one missing: none */
    const char *split[] = {"big-Q4_K_M-00002-of-00003.gguf", "big-Q4_K_M-00001-of-00003.gguf",
                           "big-Q4_K_M-00003-of-00003.gguf", "small-Q8_0-00001-of-00002.gguf",
                           "big-Q4_K_M-00009-of-00003.gguf", "big-Q4_K_M-00000-of-00003.gguf", NULL};
    l = listing(split);
    const int first = hub_choose_model(&l, "");
    CHECK_CHOICE(&l, first, "big-Q4_K_M-00001-of-00003.gguf");
    int parts[8];
    CHECK(hub_model_parts(&l, first, parts, 8) == 3);
    CHECK(parts[0] == 1 && parts[1] == 0 && parts[2] == 2);
    CHECK(hub_model_parts(&l, hub_choose_model(&l, "Q8_0"), parts, 8) == 0);
    const hub_split_info si = hub_split_info_of("big-Q4_K_M-00002-of-00003.gguf");
    CHECK(si.index == 2 && si.count == 3 && si.prefix_len == strlen("big-Q4_K_M") && !strcmp(si.tag, "Q4_K_M"));
    hub_listing_free(&l);

    /* the projector in the model's folder before one above it; none from a sibling folder */
    const char *dirs[] = {"mmproj-f16.gguf", "q4/m-Q4_K_M.gguf", "q4/mmproj-q8_0.gguf", "other/mmproj-f16.gguf",
                          "q8/m-Q8_0.gguf", NULL};
    l = listing(dirs);
    CHECK_CHOICE(&l, hub_choose_mmproj(&l, "q4/m-Q4_K_M.gguf"), "q4/mmproj-q8_0.gguf");
    CHECK_CHOICE(&l, hub_choose_mmproj(&l, "q8/m-Q8_0.gguf"), "mmproj-f16.gguf");
    hub_listing_free(&l);
}

static void test_names(void) {
    char repo[64], tag[16];
    CHECK(hub_split_repo_tag("ggml-org/SmolVLM-256M-Instruct-GGUF:q8_0", repo, sizeof repo, tag, sizeof tag, NULL));
    CHECK(!strcmp(repo, "ggml-org/SmolVLM-256M-Instruct-GGUF") && !strcmp(tag, "q8_0"));
    CHECK(hub_split_repo_tag("a/b", repo, sizeof repo, tag, sizeof tag, NULL) && !strcmp(tag, ""));
    seer_error err = {{0}};
    CHECK(!hub_split_repo_tag("nobody", repo, sizeof repo, tag, sizeof tag, &err));
    CHECK(strstr(err.msg, "user/repo") != NULL);
    CHECK(!hub_split_repo_tag("a/../b", repo, sizeof repo, tag, sizeof tag, NULL));
    CHECK(!hub_split_repo_tag("a/b/c", repo, sizeof repo, tag, sizeof tag, NULL));
    CHECK(!hub_split_repo_tag("a/b:Q4 K", repo, sizeof repo, tag, sizeof tag, NULL));
    CHECK(hub_path_safe("a/b.gguf") && hub_path_safe("m.gguf"));
    CHECK(!hub_path_safe("../x") && !hub_path_safe("a/../../x") && !hub_path_safe("/etc/x") && !hub_path_safe("a//b") &&
          !hub_path_safe("") && !hub_path_safe("a/.") && !hub_path_safe("a\nb"));
}

static void test_cache(void) {
    char dir[PATH_MAX];
    setenv("HOME", "/home/u", 1);
    unsetenv("LLAMA_CACHE"), unsetenv("HF_HUB_CACHE"), unsetenv("HUGGINGFACE_HUB_CACHE"), unsetenv("HF_HOME");
    unsetenv("XDG_CACHE_HOME");
    CHECK(seer_hub_cache_dir(dir, sizeof dir) && !strcmp(dir, "/home/u/.cache/huggingface/hub"));
    setenv("XDG_CACHE_HOME", "/x", 1);
    CHECK(seer_hub_cache_dir(dir, sizeof dir) && !strcmp(dir, "/x/huggingface/hub"));
    setenv("HF_HOME", "/h", 1);
    CHECK(seer_hub_cache_dir(dir, sizeof dir) && !strcmp(dir, "/h/hub"));
    const char *tmp = test_tmpdir();
    setenv("HF_HUB_CACHE", tmp, 1);
    CHECK(hub_repo_dir("user/Some.Repo", dir, sizeof dir, NULL));
    char want[PATH_MAX];
    snprintf(want, sizeof want, "%s/models--user--Some.Repo", tmp);
    CHECK_MSG(!strcmp(dir, want), "repo dir %s", dir);

    /* refs/main, a nested snapshot link to its blob, and the cached listing */
    const char *commit = "0123456789abcdef0123456789abcdef01234567";
    CHECK(hub_write_ref(dir, "main", commit, NULL) == 0);
    char blobs[PATH_MAX + 16], blob[PATH_MAX + 96], snap[PATH_MAX + 176], got[41] = "";
    snprintf(blobs, sizeof blobs, "%s/blobs", dir);
    CHECK(seer_mkdirs(blobs, 0755, NULL) == 0);
    snprintf(blob, sizeof blob, "%s/%064d", blobs, 7);
    FILE *f = fopen(blob, "w");
    CHECK(f && fputs("bytes", f) >= 0 && fclose(f) == 0);
    snprintf(snap, sizeof snap, "%s/snapshots/%s/sub/m-Q8_0.gguf", dir, commit);
    CHECK(hub_link_snapshot(snap, blob, NULL) == 0);
    char target[PATH_MAX] = "";
    CHECK(readlink(snap, target, sizeof target - 1) > 0);
    snprintf(want, sizeof want, "../../../blobs/%064d", 7);
    CHECK_MSG(!strcmp(target, want), "link target %s", target);
    CHECK(hub_read_ref(dir, got) && !strcmp(got, commit));
    hub_listing l;
    CHECK(hub_cached_listing(dir, &l, NULL) == 0 && l.n == 1 && !strcmp(l.files[0].path, "sub/m-Q8_0.gguf") &&
          l.files[0].size == 5);
    hub_listing_free(&l);
    /* a link whose blob is gone is not a cached file */
    unlink(blob);
    CHECK(hub_cached_listing(dir, &l, NULL) != 0);
    hub_listing_free(&l);
}

int main(void) {
    test_sha256();
    test_choose();
    test_names();
    test_cache();
    TEST_MAIN_END();
}
