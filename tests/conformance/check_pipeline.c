/* Full pipeline: images → preprocessing → encoder + projector → embeddings
 * compared with image_embd_<k>.f32, then the prompt through the decoder. */
#include <math.h>
#include <stdlib.h>

#include "checks.h"

/* seer's encoder inputs against the kept image_input_<k>.f32 files (the i-th
 * image chunk against the i-th expected one); 0 when within image_input_max_abs. */
static int compare_pixels(const case_data *cd, const seer_mm_prompt *p, check_out *out) {
    double worst = 0;
    int ref_i = 0, n_compared = 0;
    for (int i = 0; i < p->n_chunks; i++) {
        const seer_chunk *c = &p->chunks[i];
        if (c->type != SEER_CHUNK_IMAGE) continue;
        while (ref_i < cd->n_chunks && !cd->chunks[ref_i].image) ref_i++;
        if (ref_i >= cd->n_chunks) break; /* the embedding comparison reports the extra chunk */
        const ref_chunk *r = &cd->chunks[ref_i++];
        size_t n = 0;
        float *ref = r->input_w > 0 ? case_data_image_input(cd, r->index, &n) : NULL;
        if (!ref) continue; /* not kept */
        const double d = n == (size_t)3 * r->input_w * r->input_h ? pixels_max_abs(&c->pixels, ref, r->input_w, r->input_h)
                                                                  : INFINITY;
        free(ref);
        if (!(d <= cd->tol_pixels)) {
            if (isinf(d))
                out_fail(out, "image_input_%d: seer's input is %dx%d, the reference's %dx%d", r->index, c->pixels.w,
                         c->pixels.h, r->input_w, r->input_h);
            else
                out_fail(out, "image_input_%d max abs %.3g > %.3g", r->index, d, cd->tol_pixels);
            return -1;
        }
        if (d > worst) worst = d;
        n_compared++;
    }
    if (n_compared) out_add(out, "pixels %.2g, ", worst);
    return 0;
}

void check_pipeline(const case_data *cd, const seer_llm *llm, seer_vision *vision, seer_pool *pool,
                    check_out *out) {
    seer_error err = {{0}};
    seer_image *images = calloc((size_t)cd->n_images + 1, sizeof *images);
    int loaded = 0;
    for (; loaded < cd->n_images; loaded++)
        if (seer_image_load(cd->image_paths[loaded], SEER_IMAGE_DEFAULT_MAX_PIXELS, &images[loaded], &err) != 0) break;
    seer_mm_prompt p = {0};
    seer_ctx *ctx = NULL;
    if (loaded < cd->n_images) {
        out_fail(out, "image %s: %s", cd->image_paths[loaded], err.msg);
        goto done;
    }
    if (seer_mtmd_tokenize(seer_llm_vocab(llm), vision, cd->prompt, images, cd->n_images, true, &p, &err) != 0) {
        out_fail(out, "%s", err.msg);
        goto done;
    }
    if (cd->tol_pixels >= 0 && compare_pixels(cd, &p, out) != 0) goto done;
    if (seer_mtmd_encode(vision, pool, &p, NULL, &err) != 0) {
        out_fail(out, "%s", err.msg);
        goto done;
    }
    /* The i-th image chunk against the i-th expected image chunk. */
    double worst = 0;
    int ref_i = 0;
    for (int i = 0; i < p.n_chunks; i++) {
        const seer_chunk *c = &p.chunks[i];
        if (c->type != SEER_CHUNK_IMAGE) continue;
        while (ref_i < cd->n_chunks && !cd->chunks[ref_i].image) ref_i++;
        if (ref_i >= cd->n_chunks) {
            out_fail(out, "more image chunks than expected");
            goto done;
        }
        const int k = cd->chunks[ref_i++].index;
        size_t n = 0;
        float *ref = case_data_image_embd(cd, k, &n);
        if (!ref || n != (size_t)c->n_tokens * (size_t)p.n_embd) {
            out_fail(out, "image chunk %d: %d x %d embeddings, expected/image_embd_%d.f32 has %zu floats", k,
                    c->n_tokens, p.n_embd, k, n);
            free(ref);
            goto done;
        }
        const double d = rel_l2(c->embd, ref, n);
        free(ref);
        if (!(d <= cd->tol_embd)) {
            out_fail(out, "image_embd_%d rel_l2 %.3g > %.3g", k, d, cd->tol_embd);
            goto done;
        }
        if (d > worst) worst = d;
    }
    out_add(out, "embd %.2g, ", worst);
    ctx = seer_ctx_new(llm, p.n_tokens + cd->n_predict + 16, cd->kv_type, pool, &err);
    if (!ctx || seer_mtmd_eval(ctx, &p, NULL, &err) != 0) {
        out_fail(out, "%s", err.msg);
        goto done;
    }
    check_logits_and_greedy(cd, llm, ctx, seer_ctx_next_pos(ctx), out);
done:
    seer_ctx_free(ctx);
    seer_mm_prompt_free(&p);
    for (int i = 0; i < loaded; i++) seer_image_free(&images[i]);
    free(images);
}
