/* One embedding model held open for many inputs (seer index, seer search,
 * the TUI's /find): text and images to single vectors (and multi-vectors
 * when a projector is loaded), as `seer embed` computes them. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "seer/search.h"
#include "seer/threadpool.h"

#define EMBEDDER_IMAGE_TOKENS 768 /* jina-embeddings-v4's cap (max_pixels 768·28²) */

struct seer_embedder {
    seer_pool *pool;
    seer_llm *llm;
    seer_vision *vision;
    seer_mv_proj *mv;
    seer_ctx *ctx;
};

void seer_embedding_free(seer_embedding *e) {
    if (!e) return;
    free(e->single);
    free(e->multi);
    memset(e, 0, sizeof *e);
}

void seer_embedder_free(seer_embedder *e) {
    if (!e) return;
    seer_ctx_free(e->ctx);
    seer_mv_proj_free(e->mv);
    seer_vision_free(e->vision);
    seer_llm_free(e->llm);
    seer_pool_destroy(e->pool);
    free(e);
}

seer_embedder *seer_embedder_open(const seer_embedder_opts *o, seer_error *err) {
    seer_embedder *e = calloc(1, sizeof *e);
    if (!e) {
        seer_error_set(err, "out of memory");
        return NULL;
    }
    if (!(e->pool = seer_pool_create(o->threads))) {
        seer_error_set(err, "cannot start the worker threads");
        goto fail;
    }
    if (!(e->llm = seer_llm_load(o->model, NULL, NULL, err))) goto fail;
    const int n_embd = seer_llm_get_info(e->llm)->n_embd;
    if (o->mmproj) {
        if (!(e->vision = seer_vision_load(o->mmproj, err))) goto fail;
        seer_vision_set_preproc(e->vision, SEER_PREPROC_ORIGINAL);
        seer_vision_set_max_image_tokens(e->vision, o->image_max_tokens > 0 ? o->image_max_tokens
                                                                              : EMBEDDER_IMAGE_TOKENS);
        if (seer_mtmd_check_pair(e->llm, e->vision, err) != 0) goto fail;
    }
    if (o->mv_proj) {
        if (!(e->mv = seer_mv_proj_load(o->mv_proj, err))) goto fail;
        if (seer_mv_proj_n_in(e->mv) != n_embd) {
            seer_error_set(err, "%s: the multi-vector projector takes rows of %d, the model's are %d", o->mv_proj,
                           seer_mv_proj_n_in(e->mv), n_embd);
            goto fail;
        }
    }
    if (!(e->ctx = seer_ctx_new(e->llm, o->n_ctx, SEER_KV_F32, e->pool, err))) goto fail;
    return e;
fail:
    seer_embedder_free(e);
    return NULL;
}

bool seer_embedder_has_vision(const seer_embedder *e) { return e && e->vision; }
bool seer_embedder_has_multi(const seer_embedder *e) { return e && e->mv; }
const char *seer_embedder_model_name(const seer_embedder *e) { return seer_llm_get_info(e->llm)->name; }
int seer_embedder_dim(const seer_embedder *e) { return seer_llm_get_info(e->llm)->n_embd; }
int seer_embedder_mv_dim(const seer_embedder *e) { return e->mv ? seer_mv_proj_dim(e->mv) : 0; }

/* The vectors of a prompt whose images are encoded already. */
static int vectors(seer_embedder *e, seer_mm_prompt *p, seer_embedding *out, const volatile int *cancel,
                   seer_error *err) {
    seer_embed_states st = {0};
    memset(out, 0, sizeof *out);
    if (seer_embed_states_compute(e->ctx, e->vision, e->pool, p, &st, cancel, err) != 0) return -1;
    out->dim = st.n_embd;
    out->single = malloc(sizeof(float) * (size_t)st.n_embd);
    if (e->mv) {
        out->mv_dim = seer_mv_proj_dim(e->mv);
        out->n_multi = st.n_tokens;
        out->multi = malloc(sizeof(float) * (size_t)st.n_tokens * (size_t)out->mv_dim);
    }
    int rc = 0;
    if (!out->single || (e->mv && !out->multi) || seer_embed_single(&st, 0, out->single) < 0) {
        seer_error_set(err, "out of memory for the embeddings");
        seer_embedding_free(out);
        rc = -1;
    } else if (e->mv) {
        seer_mv_proj_apply(e->mv, st.hidden, st.n_tokens, out->multi);
    }
    seer_embed_states_free(&st);
    return rc;
}

int seer_embedder_text(seer_embedder *e, seer_embed_role role, const char *text, seer_embedding *out,
                       seer_error *err) {
    seer_mm_prompt p;
    if (seer_embed_text_prompt(seer_llm_vocab(e->llm), role, text, &p, err) != 0) return -1;
    int rc = vectors(e, &p, out, NULL, err);
    seer_mm_prompt_free(&p);
    return rc;
}

int seer_embedder_images(seer_embedder *e, const char *const *paths, int n, seer_embedding *out, int *bad,
                         const volatile int *cancel, seer_error *err) {
    seer_mm_prompt prompts[SEER_VISION_MAX_BATCH];
    int made = 0, rc = 0, done = 0;
    *bad = -1;
    if (!e->vision) {
        seer_error_set(err, "images need the model's mmproj");
        return -1;
    }
    if (n < 1 || n > SEER_VISION_MAX_BATCH) {
        seer_error_set(err, "%d images in one group (1..%d)", n, SEER_VISION_MAX_BATCH);
        return -1;
    }
    for (; made < n; made++) {
        seer_image img;
        if (seer_image_load(paths[made], 0, &img, err) != 0) {
            *bad = made;
            rc = -1;
            break;
        }
        rc = seer_embed_image_prompt(seer_llm_vocab(e->llm), e->vision, &img, &prompts[made], err);
        seer_image_free(&img);
        if (rc != 0) {
            *bad = made;
            break;
        }
    }
    if (rc == 0)
        rc = seer_embed_encode_images(e->vision, e->pool, prompts, n, SEER_VISION_PASS_PATCHES, NULL, cancel, err);
    for (; rc == 0 && done < n; done++) rc = vectors(e, &prompts[done], &out[done], cancel, err);
    for (int i = 0; i < made; i++) seer_mm_prompt_free(&prompts[i]);
    if (rc != 0)
        for (int i = 0; i < done; i++) seer_embedding_free(&out[i]);
    return rc;
}

/* FNV-1a over the size and 64 blocks of 4 KiB spread along the file:
 * cheap on a multi-GB model, and any retraining changes the sampled bytes. */
uint64_t seer_file_fingerprint(const char *path, seer_error *err) {
    FILE *f = fopen(path, "rb");
    struct stat st;
    if (!f || fstat(fileno(f), &st) != 0) {
        if (f) fclose(f);
        seer_error_set(err, "cannot open %s", path);
        return 0;
    }
    const uint64_t size = (uint64_t)st.st_size;
    uint64_t h = seer_fnv1a(SEER_FNV_INIT, &size, sizeof size);
    unsigned char buf[4096];
    for (int b = 0; b < 64; b++) {
        uint64_t off = size > sizeof buf ? (size - sizeof buf) / 63 * (uint64_t)b : 0;
        if (fseeko(f, (off_t)off, SEEK_SET) != 0) break;
        size_t got = fread(buf, 1, sizeof buf, f);
        h = seer_fnv1a(h, buf, got);
        if (size <= sizeof buf) break;
    }
    fclose(f);
    return h ? h : 1;
}

int seer_embed_encode_images(seer_vision *vision, seer_pool *pool, seer_mm_prompt *prompts, int n, int max_patches,
                             seer_vision_passes *passes, const volatile int *cancel, seer_error *err) {
    seer_mm_prompt **each = malloc(sizeof *each * (size_t)(n + 1));
    if (!each) {
        seer_error_set(err, "out of memory");
        return -1;
    }
    for (int i = 0; i < n; i++) each[i] = &prompts[i];
    const int rc = seer_mtmd_encode_many(vision, pool, each, n, max_patches, passes, cancel, err);
    free(each);
    return rc;
}
