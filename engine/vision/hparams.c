/* clip.* metadata of an mmproj file: which projector, the ViT's sizes, the
 * preprocessing constants. Everything is checked here so the encoder can
 * trust it; a projector we do not implement is an error that names it. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "seer/vision.h"

#define SUPPORTED_LIST "mlp, idefics3, qwen2vl_merger, qwen2.5vl_merger, qwen3vl_merger, gemma3, gemma4v, internvl, ldp, ldpv2, pixtral, lfm2, resampler, glm4v, paddleocr, dots_ocr, hunyuanvl, lightonocr"
/* Sanity bounds: far above any real model, low enough that sizes derived
 * from them cannot overflow. */
#define MAX_WIDTH 65536
#define MAX_LAYERS 1024
#define MAX_IMAGE_SIZE 16384

static const char *file_label(const gguf_file *f) { return f->path ? f->path : "mmproj"; }

static int projector_from_name(const char *name, seer_projector *out) {
    static const struct { const char *name; seer_projector p; } known[] = {
        {"mlp", SEER_PROJ_MLP},
        {"mlp_norm", SEER_PROJ_MLP},
        {"idefics3", SEER_PROJ_IDEFICS3},
        {"qwen2vl_merger", SEER_PROJ_QWEN2VL},
        {"qwen2.5vl_merger", SEER_PROJ_QWEN25VL},
        {"qwen3vl_merger", SEER_PROJ_QWEN3VL},
        {"gemma3", SEER_PROJ_GEMMA3},
        {"gemma4v", SEER_PROJ_GEMMA4V},
        {"internvl", SEER_PROJ_INTERNVL},
        {"ldp", SEER_PROJ_LDP},
        {"ldpv2", SEER_PROJ_LDPV2},
        {"pixtral", SEER_PROJ_PIXTRAL},
        {"lfm2", SEER_PROJ_LFM2},
        {"resampler", SEER_PROJ_RESAMPLER},
        {"glm4v", SEER_PROJ_GLM4V},
        {"paddleocr", SEER_PROJ_PADDLEOCR},
        {"dots_ocr", SEER_PROJ_DOTS_OCR},
        {"hunyuanvl", SEER_PROJ_HUNYUANVL},
        {"lightonocr", SEER_PROJ_LIGHTONOCR},
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        if (strcmp(name, known[i].name) == 0) {
            *out = known[i].p;
            return 0;
        }
    }
    return -1;
}

/* Output width of a 2-D tensor (ne[1]), or 0 when absent / not a matrix. */
static int tensor_n_out(const gguf_file *f, const char *name) {
    const gguf_tensor *t = gguf_find_tensor(f, name);
    if (!t || t->n_dims != 2 || t->ne[1] <= 0 || t->ne[1] > MAX_WIDTH) return 0;
    return (int)t->ne[1];
}

/* LLM width the projector produces, from its last matrix: projection_dim is
 * not reliable (LLaVA files store CLIP's own projection width there). */
static int projector_out_width(const gguf_file *f, seer_projector p) {
    switch (p) {
    case SEER_PROJ_MLP: {
        int n = tensor_n_out(f, "mm.3.weight"); /* mlp_norm */
        return n ? n : tensor_n_out(f, "mm.2.weight");
    }
    case SEER_PROJ_IDEFICS3: return tensor_n_out(f, "mm.model.fc.weight");
    case SEER_PROJ_INTERNVL:
    case SEER_PROJ_LDP: return tensor_n_out(f, "mm.model.mlp.3.weight");
    case SEER_PROJ_LDPV2: return tensor_n_out(f, "mm.model.mlp.2.weight");
    case SEER_PROJ_QWEN2VL:
    case SEER_PROJ_QWEN25VL:
    case SEER_PROJ_QWEN3VL:
    case SEER_PROJ_PIXTRAL:
    case SEER_PROJ_LIGHTONOCR:
    case SEER_PROJ_LFM2:
    case SEER_PROJ_PADDLEOCR:
    case SEER_PROJ_DOTS_OCR: return tensor_n_out(f, "mm.2.weight");
    case SEER_PROJ_RESAMPLER: return tensor_n_out(f, "resampler.proj.weight"); /* square */
    case SEER_PROJ_GLM4V: return tensor_n_out(f, "mm.down.weight");
    case SEER_PROJ_HUNYUANVL: return tensor_n_out(f, "mm.model.fc.weight");
    case SEER_PROJ_GEMMA4V: return tensor_n_out(f, "mm.input_projection.weight"); /* a plain linear here */
    case SEER_PROJ_GEMMA3: { /* stored transposed: [n_text, n_v] */
        const gguf_tensor *t = gguf_find_tensor(f, "mm.input_projection.weight");
        return t && t->n_dims == 2 && t->ne[0] > 0 && t->ne[0] <= MAX_WIDTH ? (int)t->ne[0] : 0;
    }
    }
    return 0;
}

/* Qwen3-VL: the blocks with a DeepStack merger, found by their tensors
 * (the file's is_deepstack_layers key is not read, as in llama.cpp). */
static int read_deepstack(const gguf_file *f, seer_vision_hparams *hp, seer_error *err) {
    char name[96];
    for (int l = 0; l < hp->n_layer; l++) {
        snprintf(name, sizeof name, "v.deepstack.%d.fc1.weight", l);
        if (!gguf_find_tensor(f, name)) continue;
        if (hp->n_deepstack == SEER_MAX_DEEPSTACK) {
            seer_error_set(err, "%s: more than %d DeepStack layers", file_label(f), SEER_MAX_DEEPSTACK);
            return -1;
        }
        hp->deepstack_layers[hp->n_deepstack++] = l;
    }
    return 0;
}

static int read_mean_std(const gguf_file *f, const char *key, const float def[3], float out[3], seer_error *err) {
    uint64_t n = gguf_get_arr_n(f, key);
    if (n == 0) {
        memcpy(out, def, 3 * sizeof(float));
        return 0;
    }
    if (n != 3) {
        seer_error_set(err, "%s: %s has %llu values, expected 3", file_label(f), key, (unsigned long long)n);
        return -1;
    }
    for (uint64_t i = 0; i < 3; i++) {
        double v = gguf_get_arr_float(f, key, i, NAN);
        if (!isfinite(v)) {
            seer_error_set(err, "%s: %s[%llu] is not a finite number", file_label(f), key, (unsigned long long)i);
            return -1;
        }
        out[i] = (float)v;
    }
    return 0;
}

static int read_pinpoints(const gguf_file *f, seer_vision_hparams *hp, seer_error *err) {
    const char *key = "clip.vision.image_grid_pinpoints";
    uint64_t n = gguf_get_arr_n(f, key);
    if (n == 0) return 0;
    if (n % 2 != 0 || n / 2 > SEER_MAX_PINPOINTS) {
        seer_error_set(err, "%s: %s must hold 1 to %d (width, height) pairs, has %llu values", file_label(f), key,
                       SEER_MAX_PINPOINTS, (unsigned long long)n);
        return -1;
    }
    hp->n_pinpoints = (int)(n / 2);
    for (int i = 0; i < hp->n_pinpoints; i++) {
        for (int k = 0; k < 2; k++) {
            int64_t v = gguf_get_arr_int(f, key, (uint64_t)(2 * i + k), -1);
            if (v <= 0 || v > MAX_IMAGE_SIZE) {
                seer_error_set(err, "%s: %s has an invalid size %lld", file_label(f), key, (long long)v);
                return -1;
            }
            hp->pinpoints[i][k] = (int)v;
        }
    }
    hp->anyres = true;
    return 0;
}

static int check_range(const gguf_file *f, const char *what, int64_t v, int64_t lo, int64_t hi, seer_error *err) {
    if (v < lo || v > hi) {
        seer_error_set(err, "%s: %s is %lld (must be %lld to %lld)", file_label(f), what, (long long)v, (long long)lo,
                       (long long)hi);
        return -1;
    }
    return 0;
}

/* InternVL: llama.cpp's tile grids (set_internvl_dhr_res_candidates): a
 * columns from min to max, b rows from max(ceil(min/a), min) to
 * min(max/a, max), each a·image_size × b·image_size. */
static int internvl_grids(const gguf_file *f, seer_vision_hparams *hp, seer_error *err) {
    /* llama.cpp's defaults when the converter wrote no tile counts (older InternVL) */
    int64_t lo = gguf_get_int(f, "clip.vision.preproc_min_tiles", 1);
    int64_t hi = gguf_get_int(f, "clip.vision.preproc_max_tiles", 12);
    if (lo < 1 || hi < lo || hi > SEER_MAX_PINPOINTS) {
        seer_error_set(err, "%s: preproc tiles %lld to %lld (must be 1 ≤ min ≤ max ≤ %d)", file_label(f),
                       (long long)lo, (long long)hi, SEER_MAX_PINPOINTS);
        return -1;
    }
    hp->min_tiles = (int)lo;
    hp->max_tiles = (int)hi;
    hp->n_pinpoints = 0;
    for (int a = hp->min_tiles; a <= hp->max_tiles; a++) {
        int b_lo = (hp->min_tiles + a - 1) / a, b_hi = hp->max_tiles / a;
        if (b_lo < hp->min_tiles) b_lo = hp->min_tiles;
        for (int b = b_lo; b <= b_hi; b++) {
            if (hp->n_pinpoints == SEER_MAX_PINPOINTS) {
                seer_error_set(err, "%s: up to %lld tiles make more than %d grids", file_label(f), (long long)hi,
                               SEER_MAX_PINPOINTS);
                return -1;
            }
            hp->pinpoints[hp->n_pinpoints][0] = a * hp->image_size;
            hp->pinpoints[hp->n_pinpoints][1] = b * hp->image_size;
            hp->n_pinpoints++;
        }
    }
    return 0;
}

/* InternVL: the 300M InternViT (LayerNorm, no q/k norm) runs; the 6B one
 * (RMSNorm and q/k norms, llama.cpp's 3200-wide 45-block rule) does not. */
static int internvl_check(const gguf_file *f, seer_vision_hparams *hp, seer_error *err) {
    if ((hp->n_embd == 3200 && hp->n_layer == 45) || gguf_find_tensor(f, "v.blk.0.attn_q_norm.weight")) {
        seer_error_set(err, "%s: InternViT-6B (RMSNorm, q/k norm) is not supported, only the 300M InternViT",
                       file_label(f));
        return -1;
    }
    int64_t s = gguf_get_int(f, "clip.vision.projector.scale_factor", 0);
    if (check_range(f, "clip.vision.projector.scale_factor", s, 1, 64, err)) return -1;
    if (hp->image_size % hp->patch_size != 0 || (hp->image_size / hp->patch_size) % s != 0) {
        seer_error_set(err, "%s: the %d-pixel tile is not a whole number of %lld×%lld-patch cells", file_label(f),
                       hp->image_size, (long long)s, (long long)s);
        return -1;
    }
    hp->scale_factor = (int)s;
    return internvl_grids(f, hp, err);
}

/* MiniCPM-V: the version (llama.cpp reads 0 or no key as 2, MiniCPM-Llama3-V 2.5) and the query count
 * (clip.minicpmv_query_num; 0 or absent: 96 for 2.5, 64 for the others, as llama.cpp's fallback). */
static int resampler_check(const gguf_file *f, seer_vision_hparams *hp, seer_error *err) {
    int64_t ver = gguf_get_int(f, "clip.minicpmv_version", 0);
    if (ver == 0) ver = 2;
    if (!((ver >= 2 && ver <= 6) || ver == 100045)) {
        seer_error_set(err, "%s: clip.minicpmv_version %lld is not supported (2 to 6 or 100045)", file_label(f),
                       (long long)ver);
        return -1;
    }
    int64_t q = gguf_get_int(f, "clip.minicpmv_query_num", 0);
    if (q == 0) q = ver == 2 ? 96 : 64;
    if (check_range(f, "clip.minicpmv_query_num", q, 1, 4096, err)) return -1;
    hp->minicpmv_version = (int)ver;
    hp->n_queries = (int)q;
    return 0;
}

/* HunyuanVL's budget when the file has no keys: llama.cpp's 256..16384
 * merged cells of (2·patch)² pixels. */
#define HUNYUANVL_MIN_TOKENS 256
#define HUNYUANVL_MAX_TOKENS 16384

/* PaddleOCR-VL: a 2×2 unshuffle (llama.cpp's n_merge, fixed; dots.ocr's from
 * the file) and the resize's pixel budget, both keys required as llama.cpp
 * requires them (HunyuanVL: optional, its token limits otherwise). */
static int pixel_budget_check(const gguf_file *f, seer_vision_hparams *hp, seer_error *err) {
    const char *kmin = "clip.vision.image_min_pixels", *kmax = "clip.vision.image_max_pixels";
    const int64_t cell = (int64_t)hp->patch_size * hp->patch_size;
    const bool hunyuan = hp->projector == SEER_PROJ_HUNYUANVL;
    int64_t lo = gguf_get_int(f, kmin, hunyuan ? HUNYUANVL_MIN_TOKENS * 4 * cell : -1),
            hi = gguf_get_int(f, kmax, hunyuan ? HUNYUANVL_MAX_TOKENS * 4 * cell : -1);
    if (lo < 0 || hi < 0) {
        seer_error_set(err, "%s: %s is missing", file_label(f), lo < 0 ? kmin : kmax);
        return -1;
    }
    if (check_range(f, kmin, lo, 1, 64LL << 20, err) || check_range(f, kmax, hi, cell, 64LL << 20, err)) return -1;
    hp->scale_factor = 2;
    if (hp->projector == SEER_PROJ_DOTS_OCR) {
        int64_t s = gguf_get_int(f, "clip.vision.projector.scale_factor", -1);
        if (check_range(f, "clip.vision.projector.scale_factor", s, 1, 8, err)) return -1;
        hp->scale_factor = (int)s;
    }
    hp->image_min_pixels = lo;
    hp->image_max_pixels = hi;
    return 0;
}

int seer_vision_hparams_read(const gguf_file *f, seer_vision_hparams *hp, seer_error *err) {
    if (!f || !hp) {
        seer_error_set(err, "vision: no model file");
        return -1;
    }
    memset(hp, 0, sizeof *hp);
    const char *arch = gguf_get_str(f, "general.architecture");
    if (arch && strcmp(arch, "clip") != 0) {
        seer_error_set(err, "%s: architecture '%s' is not a vision projector (expected 'clip')", file_label(f), arch);
        return -1;
    }
    if (!gguf_get_bool(f, "clip.has_vision_encoder", true)) {
        seer_error_set(err, "%s: the file has no vision encoder", file_label(f));
        return -1;
    }
    /* Legacy LLaVA converters may omit the key: their projector is "mlp". */
    const char *proj = gguf_get_str(f, "clip.projector_type");
    if (!proj) proj = gguf_get_str(f, "clip.vision.projector_type"); /* files with an audio tower too (Gemma 4) */
    if (!proj) proj = "mlp";
    if (projector_from_name(proj, &hp->projector) != 0) {
        seer_error_set(err, "%s: projector type '%s' is not supported (supported: " SUPPORTED_LIST ")", file_label(f),
                       proj);
        return -1;
    }
    snprintf(hp->projector_name, sizeof hp->projector_name, "%s", proj);

    int64_t image_size = gguf_get_int(f, "clip.vision.image_size", 0);
    /* dots.ocr's converter writes 0 (any size): its pixel budget bounds the
     * image; a nominal side keeps the generic checks meaningful */
    if (hp->projector == SEER_PROJ_DOTS_OCR && image_size == 0) {
        const double max_px = (double)gguf_get_int(f, "clip.vision.image_max_pixels", 0);
        image_size = max_px >= 1 && max_px <= (double)MAX_IMAGE_SIZE * MAX_IMAGE_SIZE ? (int64_t)sqrt(max_px) : 0;
    }
    int64_t patch_size = gguf_get_int(f, "clip.vision.patch_size", 0);
    int64_t n_embd = gguf_get_int(f, "clip.vision.embedding_length", 0);
    int64_t n_ff = gguf_get_int(f, "clip.vision.feed_forward_length", 0);
    int64_t n_layer = gguf_get_int(f, "clip.vision.block_count", 0);
    int64_t n_head = gguf_get_int(f, "clip.vision.attention.head_count", 0);
    double eps = gguf_get_float(f, "clip.vision.attention.layer_norm_epsilon", 1e-6);
    if (check_range(f, "clip.vision.image_size", image_size, 1, MAX_IMAGE_SIZE, err) ||
        check_range(f, "clip.vision.patch_size", patch_size, 1, 1024, err) ||
        check_range(f, "clip.vision.embedding_length", n_embd, 1, MAX_WIDTH, err) ||
        check_range(f, "clip.vision.block_count", n_layer, 1, MAX_LAYERS, err) ||
        check_range(f, "clip.vision.attention.head_count", n_head, 1, n_embd, err))
        return -1;
    if (n_embd % n_head != 0) {
        seer_error_set(err, "%s: embedding_length %lld is not a multiple of head_count %lld", file_label(f),
                       (long long)n_embd, (long long)n_head);
        return -1;
    }
    if (!(eps > 0 && eps < 1)) {
        seer_error_set(err, "%s: clip.vision.attention.layer_norm_epsilon %g is out of range", file_label(f), eps);
        return -1;
    }
    /* The real MLP width is the first MLP matrix's output (Qwen2-VL stores
     * the LLM width in feed_forward_length; legacy LLaVA swaps the names). */
    const gguf_tensor *up = gguf_find_tensor(f, "v.blk.0.ffn_up.weight");
    const gguf_tensor *down = gguf_find_tensor(f, "v.blk.0.ffn_down.weight");
    if (down && down->ne[0] == n_embd && down->ne[1] != n_embd) n_ff = down->ne[1];
    else if (up && up->ne[0] == n_embd) n_ff = up->ne[1];
    if (check_range(f, "the MLP width (clip.vision.feed_forward_length)", n_ff, 1, 4 * (int64_t)MAX_WIDTH, err))
        return -1;

    hp->image_size = (int)image_size;
    hp->patch_size = (int)patch_size;
    hp->n_embd = (int)n_embd;
    hp->n_ff = (int)n_ff;
    hp->n_layer = (int)n_layer;
    hp->n_head = (int)n_head;
    hp->eps = (float)eps;
    hp->use_gelu = gguf_get_bool(f, "clip.use_gelu", false);
    hp->use_silu = gguf_get_bool(f, "clip.use_silu", false);

    static const float clip_mean[3] = {0.48145466f, 0.4578275f, 0.40821073f};
    static const float clip_std[3] = {0.26862954f, 0.26130258f, 0.27577711f};
    if (read_mean_std(f, "clip.vision.image_mean", clip_mean, hp->mean, err) ||
        read_mean_std(f, "clip.vision.image_std", clip_std, hp->std, err))
        return -1;
    for (int c = 0; c < 3; c++) {
        if (hp->std[c] == 0.0f) {
            seer_error_set(err, "%s: clip.vision.image_std[%d] is zero", file_label(f), c);
            return -1;
        }
    }
    if (read_pinpoints(f, hp, err) != 0) return -1;

    if (hp->projector == SEER_PROJ_GEMMA3) {
        /* llama.cpp's default; written only by converters of test-sized models */
        int64_t k = gguf_get_int(f, "clip.vision.projector.scale_factor", 4);
        if (check_range(f, "clip.vision.projector.scale_factor", k, 1, 64, err)) return -1;
        if ((image_size / patch_size) % k != 0 || image_size % patch_size != 0) {
            seer_error_set(err, "%s: the %lld-pixel image is not a whole number of %lld×%lld-patch pooling cells",
                           file_label(f), (long long)image_size, (long long)k, (long long)k);
            return -1;
        }
        hp->scale_factor = (int)k;
    }
    if (hp->projector == SEER_PROJ_GEMMA4V) {
        /* pooling_kernel_size (llama.cpp's n_merge, default 3) */
        int64_t k = gguf_get_int(f, "clip.vision.projector.scale_factor", 3);
        if (check_range(f, "clip.vision.projector.scale_factor", k, 1, 16, err)) return -1;
        hp->scale_factor = (int)k;
        if ((n_embd / n_head) % 4 != 0) {
            seer_error_set(err, "%s: head size %lld is not a multiple of 4 (2-D rotary embedding)", file_label(f),
                           (long long)(n_embd / n_head));
            return -1;
        }
    }
    if (hp->projector == SEER_PROJ_IDEFICS3) {
        int64_t s = gguf_get_int(f, "clip.vision.projector.scale_factor", 1);
        int64_t pre = gguf_get_int(f, "clip.vision.preproc_image_size", image_size);
        if (check_range(f, "clip.vision.projector.scale_factor", s, 1, 64, err) ||
            check_range(f, "clip.vision.preproc_image_size", pre, 1, MAX_IMAGE_SIZE, err))
            return -1;
        if ((image_size / patch_size) % s != 0) {
            seer_error_set(err, "%s: the %lld-patch grid does not divide by scale_factor %lld", file_label(f),
                           (long long)(image_size / patch_size), (long long)s);
            return -1;
        }
        hp->scale_factor = (int)s;
        hp->preproc_image_size = (int)pre;
    }
    if (hp->projector == SEER_PROJ_INTERNVL && internvl_check(f, hp, err) != 0) return -1;
    if (hp->projector == SEER_PROJ_RESAMPLER && resampler_check(f, hp, err) != 0) return -1;
    if (hp->projector == SEER_PROJ_LFM2) {
        /* pixel unshuffle (llama.cpp: n_merge, default 2); image_size is the converter's dummy 256 */
        int64_t s = gguf_get_int(f, "clip.vision.projector.scale_factor", 2);
        if (check_range(f, "clip.vision.projector.scale_factor", s, 1, 8, err)) return -1;
        hp->scale_factor = (int)s;
    }
    if ((hp->projector == SEER_PROJ_PADDLEOCR || hp->projector == SEER_PROJ_DOTS_OCR ||
         hp->projector == SEER_PROJ_HUNYUANVL) &&
        pixel_budget_check(f, hp, err) != 0)
        return -1;
    if (seer_projector_pixtral_vit(hp->projector)) {
        /* Mistral Small 3.1's patch merger (absent: Pixtral 12B, 1); llama.cpp's graph takes any size */
        int64_t m = gguf_get_int(f, "clip.vision.spatial_merge_size", 1);
        if (check_range(f, "clip.vision.spatial_merge_size", m, 1, 8, err)) return -1;
        hp->scale_factor = (int)m;
    }
    if (hp->projector == SEER_PROJ_LIGHTONOCR) {
        /* the resize's longest edge: clip.vision.preproc_image_size, else image_size (llama.cpp) */
        int64_t e = gguf_get_int(f, "clip.vision.preproc_image_size", image_size);
        if (check_range(f, "clip.vision.preproc_image_size", e, 1, MAX_IMAGE_SIZE, err)) return -1;
        hp->preproc_image_size = (int)e;
    }
    if (hp->projector == SEER_PROJ_LDP || hp->projector == SEER_PROJ_LDPV2) {
        /* the second block (ldp) or the pool (ldpv2) halves the patch grid */
        hp->scale_factor = 2;
        if (image_size % patch_size != 0 || (image_size / patch_size) % 2 != 0) {
            seer_error_set(err, "%s: the %lld-pixel image is not an even number of %lld-pixel patches", file_label(f),
                           (long long)image_size, (long long)patch_size);
            return -1;
        }
    }
    if (hp->projector == SEER_PROJ_QWEN25VL) {
        int64_t n = gguf_get_int(f, "clip.vision.n_wa_pattern", 0);
        if (check_range(f, "clip.vision.n_wa_pattern", n, 0, MAX_LAYERS, err)) return -1;
        hp->n_wa_pattern = (int)n;
    }
    if (hp->projector == SEER_PROJ_QWEN3VL || hp->projector == SEER_PROJ_GLM4V || hp->projector == SEER_PROJ_HUNYUANVL) {
        /* llama.cpp's Qwen3-VL and GLM-4V graphs hard-code the 2×2 merge (other sizes do not run there either;
         * HunyuanVL's conv is 2×2 in the file) */
        int64_t m = gguf_get_int(f, "clip.vision.spatial_merge_size", 2);
        if (m != 2) {
            seer_error_set(err, "%s: clip.vision.spatial_merge_size is %lld (only 2 is supported)", file_label(f),
                           (long long)m);
            return -1;
        }
        if (hp->projector == SEER_PROJ_QWEN3VL && read_deepstack(f, hp, err) != 0) return -1;
    }
    if (seer_projector_mrope(hp->projector) || seer_projector_pixtral_vit(hp->projector) ||
        hp->projector == SEER_PROJ_DOTS_OCR) {
        if ((n_embd / n_head) % 4 != 0) {
            seer_error_set(err, "%s: head size %lld is not a multiple of 4 (2-D rotary embedding)", file_label(f),
                           (long long)(n_embd / n_head));
            return -1;
        }
    }

    hp->n_embd_text = projector_out_width(f, hp->projector);
    if (hp->n_embd_text <= 0) {
        seer_error_set(err, "%s: the '%s' projector's output matrix is missing", file_label(f), proj);
        return -1;
    }
    hp->n_embd_out = hp->n_embd_text * (1 + hp->n_deepstack);
    if (hp->projector == SEER_PROJ_GLM4V) hp->n_ff_proj = tensor_n_out(f, "mm.gate.weight");
    if (hp->projector == SEER_PROJ_RESAMPLER && hp->n_embd_text % SEER_RESAMPLER_HEAD_DIM != 0) {
        seer_error_set(err, "%s: the resampler's width %d is not a whole number of %d-wide heads", file_label(f),
                       hp->n_embd_text, SEER_RESAMPLER_HEAD_DIM);
        return -1;
    }
    return 0;
}
