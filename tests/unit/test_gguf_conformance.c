/* Every GGUF file in the shared conformance folder (written by llama.cpp's
 * tools) must open, and its structure must be self-consistent in ways that
 * hold for any llama.cpp-written file: tensor data tiles the data section up
 * to the end of the file (padding only), the embedding matrix has one row per
 * vocabulary entry, the LLaVA projector widths chain up. */
#include "testlib.h"

#include <dirent.h>
#include <math.h>
#include <stdint.h>

#include "seer/gguf.h"

static int files_opened;

static void check_layout(const gguf_file *f) {
    uint64_t end = 0;
    for (uint64_t i = 0; i < f->n_tensors; i++) {
        const gguf_tensor *t = &f->tensors[i];
        CHECK(t->data == (const char *)f->map + f->data_offset + t->offset);
        CHECK(t->offset % f->alignment == 0);
        CHECK(gguf_find_tensor(f, t->name) == t);
        if (t->offset + t->nbytes > end) end = t->offset + t->nbytes;
    }
    if (f->n_tensors) {
        /* the last tensor ends within one alignment unit of the end of the file */
        uint64_t file_data = f->map_size - f->data_offset;
        CHECK_MSG(end <= file_data && file_data - end < f->alignment, "%s: data ends at %llu, file data %llu",
                  f->path, (unsigned long long)end, (unsigned long long)file_data);
    }
    for (uint64_t i = 0; i < f->n_kv; i++) CHECK(gguf_find_kv(f, f->kv[i].key) == &f->kv[i]);
}

static void check_model(const gguf_file *f) {
    const char *arch = gguf_get_str(f, "general.architecture");
    CHECK_MSG(arch != NULL, "%s: no general.architecture", f->path);
    uint64_t n_vocab = gguf_get_arr_n(f, "tokenizer.ggml.tokens");
    const gguf_tensor *emb = gguf_find_tensor(f, "token_embd.weight");
    if (emb) {
        CHECK_MSG((uint64_t)emb->ne[1] == n_vocab, "%s: token_embd rows %lld vs %llu tokens", f->path,
                  (long long)emb->ne[1], (unsigned long long)n_vocab);
        char key[128];
        snprintf(key, sizeof key, "%s.embedding_length", arch ? arch : "");
        CHECK(gguf_get_int(f, key, -1) == emb->ne[0]);
    }
    if (arch && strcmp(arch, "clip") == 0) {
        /* the projector's output width is the LLM's embedding width: mm.2 for LLaVA */
        const gguf_tensor *mm0 = gguf_find_tensor(f, "mm.0.weight"), *mm2 = gguf_find_tensor(f, "mm.2.weight");
        if (mm0 && mm2) CHECK(mm2->ne[0] == mm0->ne[1]);
        CHECK(gguf_get_int(f, "clip.vision.image_size", -1) > 0);
        CHECK(gguf_get_int(f, "clip.vision.patch_size", -1) > 0);
        CHECK(gguf_get_arr_n(f, "clip.vision.image_mean") == 3);
        double m = gguf_get_arr_float(f, "clip.vision.image_mean", 0, -1);
        CHECK(m > 0 && m < 1);
    }
}

static void open_one(const char *path) {
    seer_error err = {{0}};
    gguf_file *f = gguf_open(path, &err);
    CHECK_MSG(f != NULL, "cannot open %s: %s", path, err.msg);
    if (!f) return;
    files_opened++;
    CHECK(f->version == 2 || f->version == 3);
    check_layout(f);
    check_model(f);
    gguf_close(f);
}

static void open_dir(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n > 5 && strcmp(e->d_name + n - 5, ".gguf") == 0) {
            char path[1700];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            open_one(path);
        }
    }
    closedir(d);
}

int main(void) {
    const char *conf = test_conformance_dir();
    if (!conf) {
        printf("SKIP: conformance folder not found (set CONFORMANCE_DIR)\n");
        return 0;
    }
    char path[1024];
    snprintf(path, sizeof path, "%s/vocab", conf);
    open_dir(path);
    snprintf(path, sizeof path, "%s/cases", conf);
    DIR *d = opendir(path);
    CHECK(d != NULL);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char sub[1400];
        snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
        open_dir(sub);
    }
    if (d) closedir(d);
    CHECK_MSG(files_opened >= 20, "only %d GGUF files opened", files_opened);
    printf("opened %d GGUF files\n", files_opened);
    TEST_MAIN_END();
}
