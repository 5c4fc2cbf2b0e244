/* Where each patch goes in the sequence. CLIP/SigLIP: raster order. Qwen:
 * patches grouped by merged 2×2 cell (top-left, top-right, bottom-left,
 * bottom-right) so the merger takes 4 consecutive rows; with window
 * attention the cells are also grouped window by window, so each window is
 * a contiguous segment (attention is order-independent given the positions,
 * and the merger output is put back in raster order at the end). */
#include <stdlib.h>
#include <string.h>

#include "vision/vision_internal.h"

int vit_window_partition(int cols, int rows, int win, int *cell_order, int *window_start) {
    if (!cell_order || !window_start || cols <= 0 || rows <= 0 || win <= 0) return -1;
    int nwx = (cols + win - 1) / win, nwy = (rows + win - 1) / win, k = 0, w = 0;
    for (int wy = 0; wy < nwy; wy++) {
        for (int wx = 0; wx < nwx; wx++) {
            window_start[w++] = k;
            int y1 = (wy + 1) * win < rows ? (wy + 1) * win : rows;
            int x1 = (wx + 1) * win < cols ? (wx + 1) * win : cols;
            for (int y = wy * win; y < y1; y++)
                for (int x = wx * win; x < x1; x++) cell_order[k++] = y * cols + x;
        }
    }
    window_start[w] = k;
    return w;
}

void vit_layout_free(vit_layout *l) {
    if (!l) return;
    free(l->row);
    free(l->col);
    free(l->seg_start);
    free(l->cell_raster);
    memset(l, 0, sizeof *l);
}

int vit_layout_build(const seer_vision *v, int w, int h, bool windows, vit_layout *l) {
    memset(l, 0, sizeof *l);
    int p = v->hp.patch_size;
    l->gw = w / p;
    l->gh = h / p;
    l->n_patches = l->gw * l->gh;
    int n = l->n_patches;
    l->row = malloc((size_t)n * sizeof(int));
    l->col = malloc((size_t)n * sizeof(int));
    if (!l->row || !l->col) goto fail;

    if (!v->cfg.rope2d || v->cfg.rope2d_raster) {
        for (int i = 0; i < n; i++) {
            l->row[i] = i / l->gw;
            l->col[i] = i % l->gw;
        }
        l->n_segments = 1;
        l->seg_start = malloc(2 * sizeof(int));
        if (!l->seg_start) goto fail;
        l->seg_start[0] = 0;
        l->seg_start[1] = n + (v->cfg.class_token ? 1 : 0);
        return 0;
    }

    int cw = l->gw / 2, ch = l->gh / 2, n_cells = cw * ch;
    l->cell_raster = malloc((size_t)n_cells * sizeof(int));
    l->seg_start = malloc((size_t)(n_cells + 1) * sizeof(int));
    if (!l->cell_raster || !l->seg_start) goto fail;
    if (windows) {
        int win = VIT_QWEN_WINDOW_PX / (2 * p);
        if (win < 1) win = 1;
        l->n_segments = vit_window_partition(cw, ch, win, l->cell_raster, l->seg_start);
        for (int s = 0; s <= l->n_segments; s++) l->seg_start[s] *= 4; /* cells → patch rows */
    } else {
        for (int c = 0; c < n_cells; c++) l->cell_raster[c] = c;
        l->n_segments = 1;
        l->seg_start[0] = 0;
        l->seg_start[1] = n;
    }
    for (int s = 0; s < n_cells; s++) {
        int r = l->cell_raster[s], cy = r / cw, cx = r % cw;
        for (int k = 0; k < 4; k++) {
            l->row[4 * s + k] = 2 * cy + k / 2;
            l->col[4 * s + k] = 2 * cx + k % 2;
        }
    }
    return 0;
fail:
    vit_layout_free(l);
    return -1;
}

int vit_layout_concat(const vit_layout *parts, int n, vit_layout *out) {
    memset(out, 0, sizeof *out);
    int n_patches = 0, n_segments = 0;
    for (int i = 0; i < n; i++) {
        n_patches += parts[i].n_patches;
        n_segments += parts[i].n_segments;
    }
    out->n_patches = n_patches;
    out->n_segments = n_segments;
    out->row = malloc((size_t)n_patches * sizeof(int));
    out->col = malloc((size_t)n_patches * sizeof(int));
    out->seg_start = malloc((size_t)(n_segments + 1) * sizeof(int));
    if (!out->row || !out->col || !out->seg_start) {
        vit_layout_free(out);
        return -1;
    }
    int rows = 0, segs = 0;
    for (int i = 0; i < n; i++) {
        const vit_layout *p = &parts[i];
        memcpy(out->row + rows, p->row, (size_t)p->n_patches * sizeof(int));
        memcpy(out->col + rows, p->col, (size_t)p->n_patches * sizeof(int));
        for (int s = 0; s < p->n_segments; s++) out->seg_start[segs++] = rows + p->seg_start[s];
        rows += p->n_patches;
    }
    out->seg_start[segs] = rows;
    return 0;
}
