/* Vision hyper-parameters for the preprocessing tests: through the engine's
 * reader (gguf_open + seer_vision_hparams_read) when it works, else through
 * a minimal reader of the few clip.* metadata keys preprocessing needs, so
 * these tests do not depend on the GGUF and ViT code being finished. */
#ifndef SEER_TEST_IMAGE_HPARAMS_H
#define SEER_TEST_IMAGE_HPARAMS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seer/gguf.h"
#include "seer/vision.h"

static int th_rd(FILE *f, void *dst, size_t n) { return fread(dst, 1, n, f) == n ? 0 : -1; }

static int th_skip_value(FILE *f, uint32_t type, double *num, char *str, size_t str_cap, double *arr, int arr_cap,
                         int *arr_n) {
    static const int sizes[13] = {1, 1, 2, 2, 4, 4, 4, 1, 0, 0, 8, 8, 8};
    if (type == 8) {
        uint64_t n;
        if (th_rd(f, &n, 8)) return -1;
        if (str && n < str_cap) {
            if (th_rd(f, str, n)) return -1;
            str[n] = 0;
        } else if (fseek(f, (long)n, SEEK_CUR)) return -1;
        return 0;
    }
    if (type == 9) {
        uint32_t at;
        uint64_t n;
        if (th_rd(f, &at, 4) || th_rd(f, &n, 8)) return -1;
        if (arr_n) *arr_n = (int)n;
        for (uint64_t i = 0; i < n; i++) {
            double v = 0;
            if (th_skip_value(f, at, &v, NULL, 0, NULL, 0, NULL)) return -1;
            if (arr && (int)i < arr_cap) arr[i] = v;
        }
        return 0;
    }
    if (type > 12) return -1;
    unsigned char b[8] = {0};
    if (th_rd(f, b, (size_t)sizes[type])) return -1;
    double v = 0;
    switch (type) {
    case 0: v = b[0]; break;
    case 1: v = (int8_t)b[0]; break;
    case 2: { uint16_t x; memcpy(&x, b, 2); v = x; } break;
    case 3: { int16_t x; memcpy(&x, b, 2); v = x; } break;
    case 4: { uint32_t x; memcpy(&x, b, 4); v = x; } break;
    case 5: { int32_t x; memcpy(&x, b, 4); v = x; } break;
    case 6: { float x; memcpy(&x, b, 4); v = x; } break;
    case 7: v = b[0]; break;
    case 10: { uint64_t x; memcpy(&x, b, 8); v = (double)x; } break;
    case 11: { int64_t x; memcpy(&x, b, 8); v = (double)x; } break;
    case 12: memcpy(&v, b, 8); break;
    }
    if (num) *num = v;
    return 0;
}

static int th_read_minimal(const char *path, seer_vision_hparams *hp) {
    memset(hp, 0, sizeof *hp);
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    char magic[4];
    uint32_t version;
    uint64_t n_tensors, n_kv;
    int rc = -1;
    if (th_rd(f, magic, 4) || memcmp(magic, "GGUF", 4) || th_rd(f, &version, 4) || version < 2 ||
        th_rd(f, &n_tensors, 8) || th_rd(f, &n_kv, 8))
        goto done;
    for (uint64_t i = 0; i < n_kv; i++) {
        uint64_t klen;
        char key[256];
        uint32_t type;
        if (th_rd(f, &klen, 8) || klen >= sizeof key || th_rd(f, key, klen)) goto done;
        key[klen] = 0;
        if (th_rd(f, &type, 4)) goto done;
        double num = 0, arr[2 * SEER_MAX_PINPOINTS] = {0};
        char str[64] = "";
        int arr_n = 0;
        if (th_skip_value(f, type, &num, str, sizeof str, arr, 2 * SEER_MAX_PINPOINTS, &arr_n)) goto done;
        if (!strcmp(key, "clip.projector_type")) {
            snprintf(hp->projector_name, sizeof hp->projector_name, "%s", str);
            hp->projector = !strcmp(str, "idefics3")           ? SEER_PROJ_IDEFICS3
                            : !strcmp(str, "qwen2vl_merger")   ? SEER_PROJ_QWEN2VL
                            : !strcmp(str, "qwen2.5vl_merger") ? SEER_PROJ_QWEN25VL
                                                               : SEER_PROJ_MLP;
        } else if (!strcmp(key, "clip.vision.image_size")) hp->image_size = (int)num;
        else if (!strcmp(key, "clip.vision.patch_size")) hp->patch_size = (int)num;
        else if (!strcmp(key, "clip.vision.projector.scale_factor")) hp->scale_factor = (int)num;
        else if (!strcmp(key, "clip.vision.preproc_image_size")) hp->preproc_image_size = (int)num;
        else if (!strcmp(key, "clip.vision.image_mean")) for (int c = 0; c < 3; c++) hp->mean[c] = (float)arr[c];
        else if (!strcmp(key, "clip.vision.image_std")) for (int c = 0; c < 3; c++) hp->std[c] = (float)arr[c];
        else if (!strcmp(key, "clip.vision.image_grid_pinpoints")) {
            hp->anyres = arr_n >= 2;
            hp->n_pinpoints = arr_n / 2 < SEER_MAX_PINPOINTS ? arr_n / 2 : SEER_MAX_PINPOINTS;
            for (int p = 0; p < hp->n_pinpoints; p++) {
                hp->pinpoints[p][0] = (int)arr[2 * p];
                hp->pinpoints[p][1] = (int)arr[2 * p + 1];
            }
        }
    }
    rc = 0;
done:
    fclose(f);
    return rc;
}

/* Returns 0 and sets *via_engine to tell which reader answered. */
static int test_vision_hparams(const char *path, seer_vision_hparams *hp, int *via_engine) {
    seer_error err;
    *via_engine = 0;
    gguf_file *g = gguf_open(path, &err);
    if (g) {
        int rc = seer_vision_hparams_read(g, hp, &err);
        gguf_close(g);
        if (rc == 0) {
            *via_engine = 1;
            hp->preproc = SEER_PREPROC_LLAMACPP; /* the conformance data is llama.cpp's */
            return 0;
        }
    }
    int rc = th_read_minimal(path, hp);
    hp->preproc = SEER_PREPROC_LLAMACPP;
    return rc;
}

#endif
