/* Attaching images: each is preprocessed and encoded once, when attached (or
 * later, together with other sessions' images: a server's vision batch);
 * its embeddings are kept for every later prefill (also re-prefills). */
#include <stdlib.h>
#include <string.h>

#include "session/session_internal.h"

/* The encoding of an image with these pixels from before a restart (moved
 * out of s->kept), if there is one. */
static bool take_kept(seer_session *s, uint64_t hash, int w, int h, session_image *out) {
    for (int i = 0; i < s->n_kept; i++) {
        session_image *k = &s->kept[i];
        if (k->hash != hash || k->w != w || k->h != h || !k->mm.n_chunks) continue;
        *out = *k;
        free(k->path);
        k->path = out->path = NULL;
        out->encode_ms = 0;
        out->sent = false;
        out->reused = true;
        memset(&k->mm, 0, sizeof k->mm);
        return true;
    }
    return false;
}

int seer_session_attach_rgb_unencoded(seer_session *s, const seer_image *img, const char *name, seer_error *err) {
    if (!s->vision) {
        seer_error_set(err, "this model has no vision part: start seer with --mmproj FILE to attach images");
        return -1;
    }
    if (s->n_images >= SEER_MTMD_MAX_IMAGES) {
        seer_error_set(err, "too many images (at most %d per conversation): /clear to start over", SEER_MTMD_MAX_IMAGES);
        return -1;
    }
    if (s->n_images == s->cap_images) {
        int cap = s->cap_images ? s->cap_images * 2 : 8;
        session_image *p = realloc(s->images, sizeof *p * (size_t)cap);
        if (!p) {
            seer_error_set(err, "out of memory");
            return -1;
        }
        s->images = p;
        s->cap_images = cap;
    }
    session_image im = {0};
    const uint64_t hash = seer_image_hash(img);
    if (!take_kept(s, hash, img->w, img->h, &im)) {
        const double t0 = seer_time_ms();
        if (seer_mtmd_tokenize(s->vocab, s->vision, SEER_MTMD_MARKER, img, 1, false, &im.mm, err) != 0) return -1;
        im.encode_ms = seer_time_ms() - t0; /* preprocessing; the encoder's time is its chunks' */
        for (int i = 0; i < im.mm.n_chunks; i++)
            if (im.mm.chunks[i].type == SEER_CHUNK_IMAGE) im.n_tokens += im.mm.chunks[i].n_tokens;
        im.w = img->w;
        im.h = img->h;
        im.hash = hash;
    }
    im.path = strdup(name ? name : "image");
    s->images[s->n_images] = im;
    return s->n_images++;
}

int seer_session_attach_rgb(seer_session *s, const seer_image *img, const char *name, const volatile int *cancel,
                            seer_error *err) {
    const int i = seer_session_attach_rgb_unencoded(s, img, name, err);
    if (i < 0) return -1;
    if (seer_mtmd_encode(s->vision, s->pool, &s->images[i].mm, cancel, err) != 0) {
        session_image *im = &s->images[--s->n_images];
        seer_mm_prompt_free(&im->mm);
        free(im->path);
        if (cancel && *cancel) seer_error_set(err, "image encoding cancelled");
        return -1;
    }
    return i;
}

static bool encoded(const session_image *im) {
    for (int i = 0; i < im->mm.n_chunks; i++)
        if (im->mm.chunks[i].type == SEER_CHUNK_IMAGE && !im->mm.chunks[i].embd) return false;
    return true;
}

int seer_session_unencoded_images(seer_session *s, seer_mm_prompt **out, int cap) {
    int n = 0;
    for (int i = 0; i < s->n_images; i++)
        if (!encoded(&s->images[i])) {
            if (n < cap) out[n] = &s->images[i].mm;
            n++;
        }
    return n;
}

int seer_session_attach_image(seer_session *s, const char *path, const volatile int *cancel, seer_error *err) {
    if (!s->vision) {
        seer_error_set(err, "this model has no vision part: start seer with --mmproj FILE to attach images");
        return -1;
    }
    seer_image img;
    if (seer_image_load(path, 0, &img, err) != 0) return -1;
    int rc = seer_session_attach_rgb(s, &img, path, cancel, err);
    seer_image_free(&img);
    return rc;
}

int seer_session_n_images(const seer_session *s) { return s->n_images; }

seer_session_image seer_session_get_image(const seer_session *s, int i) {
    if (i < 0 || i >= s->n_images) return (seer_session_image){0};
    const session_image *im = &s->images[i];
    double ms = im->encode_ms;
    for (int k = 0; !im->reused && k < im->mm.n_chunks; k++) ms += im->mm.chunks[k].encode_ms;
    return (seer_session_image){im->path, im->w, im->h, im->n_tokens, im->reused ? 0 : ms, im->sent, im->reused};
}
