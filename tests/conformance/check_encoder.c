/* Encoder check: the pixels llama.cpp fed its encoder (expected/
 * image_input_<k>.f32) through seer's encoder and projector, compared with
 * image_embd_<k>.f32. This checks the encoder apart from the resizer; the
 * pipeline check then covers preprocessing.
 * With --vision-precision bf16 each input is encoded a second time with the
 * encoder's products in BF16 (seer_vision_set_precision), and that is held
 * to BF16_EMBD_REL_L2 against the same reference; the line gives its
 * rel_l2, largest and mean |error|, and the reference's RMS for scale. */
#include <math.h>
#include <stdlib.h>

#include "checks.h"
#include "conformance.h"

/* The BF16 encoder's tolerance: 8 significant bits per weight and
 * activation instead of F16's 11 (or F32's 24), through every block. */
#define BF16_EMBD_REL_L2 0.03 /* the golden cases: 0.0005-0.016 (docs/correctness.md) */

typedef struct bf16_stats {
    double rel_l2, max_abs, mean_abs, ref_rms;
} bf16_stats;

/* The input encoded with BF16 products, compared with ref; false when the encode fails. */
static bool encode_bf16(seer_vision *vision, seer_pool *pool, const seer_pixels *px, const float *ref, size_t n,
                        float *buf, bf16_stats *st, seer_error *err) {
    seer_vision_set_precision(vision, SEER_VISION_BF16);
    const int rc = seer_vision_encode(vision, pool, px, buf, NULL, NULL, err);
    seer_vision_set_precision(vision, SEER_VISION_EXACT);
    if (rc != 0) return false;
    double sum = 0, sq = 0;
    st->max_abs = 0;
    for (size_t i = 0; i < n; i++) {
        const double e = fabs((double)buf[i] - ref[i]);
        if (e > st->max_abs) st->max_abs = e;
        sum += e;
        sq += (double)ref[i] * ref[i];
    }
    st->rel_l2 = rel_l2(buf, ref, n);
    st->mean_abs = sum / (double)n;
    st->ref_rms = sqrt(sq / (double)n);
    return true;
}

void check_encoder(const case_data *cd, seer_vision *vision, seer_pool *pool, check_out *out) {
    const seer_vision_hparams *hp = seer_vision_get_hparams(vision);
    double worst = 0;
    int n_checked = 0;
    for (int i = 0; i < cd->n_chunks && !out->failed; i++) {
        const ref_chunk *r = &cd->chunks[i];
        if (!r->image || r->input_w <= 0) continue;
        size_t n_in = 0, n_ref = 0;
        float *in = case_data_image_input(cd, r->index, &n_in);
        float *ref = in ? case_data_image_embd(cd, r->index, &n_ref) : NULL;
        float *mine = NULL;
        int nx = 0, ny = 0;
        if (!in) goto next; /* not kept for this chunk */
        if (n_in != (size_t)3 * r->input_w * r->input_h) {
            out_fail(out, "image_input_%d.f32 has %zu floats, not 3 x %d x %d", r->index, n_in, r->input_h, r->input_w);
            goto next;
        }
        seer_vision_out_grid(vision, r->input_w, r->input_h, &nx, &ny);
        const size_t n_out = (size_t)seer_projector_tokens(hp->projector, nx, ny) * hp->n_embd_out;
        if (!ref || n_ref != n_out) {
            out_fail(out, "image %d: %d rows of %d from its %d x %d grid, image_embd_%d.f32 has %zu floats", r->index,
                     seer_projector_tokens(hp->projector, nx, ny), hp->n_embd_out, nx, ny, r->index, n_ref);
            goto next;
        }
        mine = malloc(sizeof *mine * n_out);
        seer_pixels px = {.w = r->input_w, .h = r->input_h, .data = in};
        seer_error err = {{0}};
        if (!mine || seer_vision_encode(vision, pool, &px, mine, NULL, NULL, &err) != 0) {
            out_fail(out, "image %d: %s", r->index, mine ? err.msg : "out of memory");
            goto next;
        }
        const double d = rel_l2(mine, ref, n_out);
        if (!(d <= cd->tol_embd)) {
            out_fail(out, "image_embd_%d from the reference pixels rel_l2 %.3g > %.3g", r->index, d, cd->tol_embd);
            goto next;
        }
        if (d > worst) worst = d;
        if (conformance_bf16) {
            bf16_stats st;
            if (!encode_bf16(vision, pool, &px, ref, n_out, mine, &st, &err)) {
                out_fail(out, "image %d at bf16: %s", r->index, err.msg);
                goto next;
            }
            if (!(st.rel_l2 <= BF16_EMBD_REL_L2)) {
                out_fail(out, "image_embd_%d at bf16 rel_l2 %.3g > %.3g", r->index, st.rel_l2, BF16_EMBD_REL_L2);
                goto next;
            }
            out_add(out, "image %d bf16 rel_l2 %.2g max|e| %.3g mean|e| %.3g (ref rms %.3g; exact rel_l2 %.2g); ",
                    r->index, st.rel_l2, st.max_abs, st.mean_abs, st.ref_rms, d);
        }
        n_checked++;
    next:
        free(in);
        free(ref);
        free(mine);
    }
    if (!out->failed && n_checked) out_add(out, "embd %.2g", worst);
}

/* Largest |seer's pixel - reference pixel| over one encoder input; a size
 * mismatch is reported as infinite. */
double pixels_max_abs(const seer_pixels *mine, const float *ref, int w, int h) {
    seer_pixels tmp = {0};
    const seer_pixels *p = seer_pixels_readable(mine, &tmp);
    double worst = 0;
    if (!p || p->w != w || p->h != h) {
        worst = INFINITY;
    } else {
        for (int c = 0; c < 3; c++)
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++) {
                    const double d = fabs((double)seer_pixel_at(p, c, y, x) - ref[((size_t)c * h + y) * w + x]);
                    if (d > worst) worst = d;
                }
    }
    if (p == &tmp) seer_pixels_free(&tmp);
    return worst;
}
