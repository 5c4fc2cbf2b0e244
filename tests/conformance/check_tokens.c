/* Tokenization check: text chunk ids identical, image chunks with the same
 * n_tokens and n_pos. Adjacent text chunks are merged on both sides (where
 * text is split does not matter to the decoder). */
#include <stdlib.h>
#include <string.h>

#include "checks.h"
#include "seer/gguf.h"

typedef struct flat_chunk {
    bool image;
    int32_t *ids; /* text: borrowed pointers are not enough after merging: owned */
    int n, n_pos;
} flat_chunk;

static int push_text(flat_chunk *fc, int *n, const int32_t *ids, int count) {
    if (*n > 0 && !fc[*n - 1].image) {
        flat_chunk *last = &fc[*n - 1];
        int32_t *m = realloc(last->ids, sizeof *m * (size_t)(last->n + count + 1));
        if (!m) return -1;
        memcpy(m + last->n, ids, sizeof *m * (size_t)count);
        last->ids = m;
        last->n += count;
        return 0;
    }
    fc[*n] = (flat_chunk){.ids = malloc(sizeof(int32_t) * (size_t)(count + 1)), .n = count};
    if (!fc[*n].ids) return -1;
    memcpy(fc[*n].ids, ids, sizeof(int32_t) * (size_t)count);
    (*n)++;
    return 0;
}

static void free_flat(flat_chunk *fc, int n) {
    for (int i = 0; i < n; i++) free(fc[i].ids);
    free(fc);
}

static void compare(const flat_chunk *mine, int n_mine, const flat_chunk *ref, int n_ref, check_out *out) {
    if (n_mine != n_ref) {
        out_fail(out, "tokens: %d chunks != %d expected (text runs merged)", n_mine, n_ref);
        return;
    }
    int n_ids = 0, n_img = 0;
    for (int i = 0; i < n_ref; i++) {
        if (mine[i].image != ref[i].image) {
            out_fail(out, "tokens: chunk %d is %s, expected %s", i, mine[i].image ? "an image" : "text",
                    ref[i].image ? "an image" : "text");
            return;
        }
        if (ref[i].image) {
            if (mine[i].n != ref[i].n || mine[i].n_pos != ref[i].n_pos) {
                out_fail(out, "tokens: image chunk %d has %d tokens / %d positions, expected %d / %d", i, mine[i].n,
                        mine[i].n_pos, ref[i].n, ref[i].n_pos);
                return;
            }
            n_img++;
            continue;
        }
        for (int k = 0; k < mine[i].n && k < ref[i].n; k++)
            if (mine[i].ids[k] != ref[i].ids[k]) {
                out_fail(out, "tokens: text chunk %d, token %d: id %d != %d", i, k, mine[i].ids[k], ref[i].ids[k]);
                return;
            }
        if (mine[i].n != ref[i].n) {
            out_fail(out, "tokens: text chunk %d has %d ids, expected %d", i, mine[i].n, ref[i].n);
            return;
        }
        n_ids += ref[i].n;
    }
    out_add(out, "tokens %d ids + %d image chunks ok", n_ids, n_img);
}

void check_tokens(const case_data *cd, const seer_llm *llm, seer_vision *vision, check_out *out) {
    seer_error err = {{0}};
    seer_image *images = calloc((size_t)cd->n_images + 1, sizeof *images);
    int loaded = 0;
    for (; loaded < cd->n_images; loaded++)
        if (seer_image_load(cd->image_paths[loaded], SEER_IMAGE_DEFAULT_MAX_PIXELS, &images[loaded], &err) != 0) break;
    seer_mm_prompt p = {0};
    int rc = -1;
    gguf_file *mm = NULL;
    if (loaded < cd->n_images) {
        out_fail(out, "tokens: image %s: %s", cd->image_paths[loaded], err.msg);
    } else if (vision || cd->n_images == 0) {
        rc = seer_mtmd_tokenize(seer_llm_vocab(llm), vision, cd->prompt, images, cd->n_images, true, &p, &err);
    } else {
        /* No encoder: the image grids come from the mmproj hyper-parameters. */
        seer_vision_hparams hp;
        mm = gguf_open(cd->mmproj_path, &err);
        if (mm && seer_vision_hparams_read(mm, &hp, &err) == 0) {
            hp.preproc = cd->image_preproc; /* as the reference prepared its images */
            rc = seer_mtmd_tokenize_hparams(seer_llm_vocab(llm), &hp, cd->prompt, images, cd->n_images, true, &p,
                                            &err);
        }
    }
    if (rc != 0 && !out->failed) {
        out_fail(out, "tokens: %s", err.msg);
    }
    if (rc == 0) {
        flat_chunk *mine = calloc((size_t)p.n_chunks + 1, sizeof *mine);
        flat_chunk *ref = calloc((size_t)cd->n_chunks + 1, sizeof *ref);
        int n_mine = 0, n_ref = 0;
        for (int i = 0; i < p.n_chunks; i++) {
            const seer_chunk *c = &p.chunks[i];
            if (c->type == SEER_CHUNK_TEXT) push_text(mine, &n_mine, c->tokens, c->n_tokens);
            else mine[n_mine++] = (flat_chunk){.image = true, .n = c->n_tokens, .n_pos = c->n_pos};
        }
        for (int i = 0; i < cd->n_chunks; i++) {
            const ref_chunk *c = &cd->chunks[i];
            if (!c->image) push_text(ref, &n_ref, c->tokens, c->n_tokens);
            else ref[n_ref++] = (flat_chunk){.image = true, .n = c->n_tokens, .n_pos = c->n_pos};
        }
        compare(mine, n_mine, ref, n_ref, out);
        free_flat(mine, n_mine);
        free_flat(ref, n_ref);
        seer_mm_prompt_free(&p);
    }
    gguf_close(mm);
    for (int i = 0; i < loaded; i++) seer_image_free(&images[i]);
    free(images);
}
