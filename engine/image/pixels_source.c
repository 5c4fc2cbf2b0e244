/* Deferred encoder inputs: a tiled canvas that upscales its image (SmolVLM
 * makes a 2048-pixel canvas of a 256-pixel picture: 16 tiles, 12.6 MB of
 * pixels) keeps only a copy of the image, shared by its tiles, and each
 * tile's pixels are made when it is encoded and dropped after. */
#include <stdlib.h>
#include <string.h>

#include "image/preprocess_internal.h"

seer_pixels_source *pixels_source_new(const canvas_spec *c, int refs) {
    seer_pixels_source *s = calloc(1, sizeof *s);
    size_t bytes = (size_t)c->src->w * c->src->h * 3;
    if (!s || !(s->img.rgb = malloc(bytes))) {
        free(s);
        return NULL;
    }
    memcpy(s->img.rgb, c->src->rgb, bytes);
    s->img.w = c->src->w;
    s->img.h = c->src->h;
    s->canvas = *c;
    s->canvas.src = &s->img;
    s->refs = refs;
    return s;
}

void pixels_source_release(seer_pixels_source *s) {
    if (!s || --s->refs > 0) return;
    seer_image_free(&s->img);
    free(s);
}

bool seer_pixels_present(const seer_pixels *p) { return p && (p->data || p->rgb || p->source); }

const seer_pixels *seer_pixels_readable(const seer_pixels *p, seer_pixels *tmp) {
    if (!p->source || p->data || p->rgb) return p;
    *tmp = *p;
    tmp->source = NULL;
    tmp->rgb = malloc((size_t)p->w * p->h * 3);
    if (tmp->rgb && canvas_rect(&p->source->canvas, p->source_x, p->source_y, p->w, p->h, tmp->rgb) == 0) return tmp;
    seer_pixels_free(tmp);
    return NULL;
}
