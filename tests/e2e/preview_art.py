#!/usr/bin/env python3
"""Test images for the text-art preview and the check of what tmux shows
(tui_preview.sh). Each character cell is read back into its sub-pixels
from the glyph's shape, as Unicode names it (half blocks, quadrants,
sextants), and the cell's foreground and background colours.

  preview_art.py make KIND ART PANE_W PANE_H FILE.ppm
  preview_art.py check KIND ART SCREEN.ans PANE_X PANE_Y PANE_W PANE_H FILE.ppm

KIND: quad (colour quadrants: red, green / blue, white), or vstripes /
hstripes: two colours per cell in random stripes, sized so that the picture
maps one to one onto the sub-pixel grid in the direction the stripes vary
(and is constant in the other), so every sub-pixel is known exactly."""
import random
import re
import sys
import unicodedata

GRID = {"halfblock": (1, 2), "quadrant": (2, 2), "sextant": (2, 3)}
# Pure colours: exact in the xterm 256-colour cube.
PALETTE = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255), (255, 255, 0), (255, 0, 255), (0, 255, 255)]


def xterm256(rgb):
    r, g, b = (round(c / 51) for c in rgb)  # 0 or 255 -> level 0 or 5
    return 16 + 36 * r + 6 * g + b


def size_of(kind, art, pane_w, pane_h):
    sx, sy = GRID[art]
    if kind == "quad":
        return 64, 48
    if kind == "vstripes":  # as wide as the pane's sub-pixel columns, a few cells high
        return pane_w * sx, 8
    return 6, pane_h * sy  # hstripes: as high as the pane's sub-pixel rows


def make(kind, art, pane_w, pane_h, path):
    w, h = size_of(kind, art, pane_w, pane_h)
    sx, sy = GRID[art]
    rnd = random.Random(f"{kind} {art}")
    if kind == "quad":
        px = [[PALETTE[(0 if x < w // 2 else 1) if y < h // 2 else (2 if x < w // 2 else 3)] for x in range(w)]
              for y in range(h)]
    else:
        n, step = (w, sx) if kind == "vstripes" else (h, sy)
        line = []
        for _ in range(0, n, step):  # one cell: two colours, a random choice per sub-pixel line
            a, b = rnd.sample(PALETTE, 2)
            line += [rnd.choice((a, b)) for _ in range(step)]
        px = [line[:w] for _ in range(h)] if kind == "vstripes" else [[line[y]] * w for y in range(h)]
    with open(path, "wb") as f:
        f.write(b"P6 %d %d 255\n" % (w, h) + bytes(c for row in px for p in row for c in p))


def read_ppm(path):
    data = open(path, "rb").read()
    _, w, h, _, body = data.split(maxsplit=4)
    w, h = int(w), int(h)
    return [[tuple(body[(y * w + x) * 3:(y * w + x) * 3 + 3]) for x in range(w)] for y in range(h)]


def screen_cells(path):
    """Rows of (char, fg, bg) from `tmux capture-pane -e` (256-colour SGR)."""
    rows = []
    for line in open(path, encoding="utf-8", errors="replace"):
        fg = bg = None
        cells = []
        for m in re.finditer(r"\x1b\[([0-9;]*)m|([^\x1b\n])", line):
            if m.group(1) is not None:
                p = [int(x) if x else 0 for x in m.group(1).split(";")]
                i = 0
                while i < len(p):
                    if p[i] == 0:
                        fg = bg = None
                    elif p[i] in (38, 48) and i + 2 < len(p) and p[i + 1] == 5:
                        if p[i] == 38:
                            fg = p[i + 2]
                        else:
                            bg = p[i + 2]
                        i += 2
                    elif p[i] == 39:
                        fg = None
                    elif p[i] == 49:
                        bg = None
                    i += 1
            else:
                cells.append((m.group(2), fg, bg))
        rows.append(cells)
    return rows


def ink(ch, u, v):
    """Whether the glyph covers the point (u, v) of its cell (0..1, y down)."""
    if ch == " ":
        return False
    name = unicodedata.name(ch, "")
    if name == "FULL BLOCK":
        return True
    halves = {"UPPER HALF BLOCK": v < 0.5, "LOWER HALF BLOCK": v >= 0.5,
              "LEFT HALF BLOCK": u < 0.5, "RIGHT HALF BLOCK": u >= 0.5}
    if name in halves:
        return halves[name]
    if name.startswith("QUADRANT "):
        here = ("UPPER" if v < 0.5 else "LOWER") + " " + ("LEFT" if u < 0.5 else "RIGHT")
        return here in name[len("QUADRANT "):].split(" AND ")
    if name.startswith("BLOCK SEXTANT-"):
        pos = 1 + int(u >= 0.5) + 2 * min(int(v * 3), 2)
        return str(pos) in name[len("BLOCK SEXTANT-"):]
    raise AssertionError(f"unexpected glyph {ch!r} ({name or hex(ord(ch))}) in the preview")


def check(kind, art, screen, pane_x, pane_y, pane_w, pane_h, ppm):
    sx, sy = GRID[art]
    rows = screen_cells(screen)
    colours = {xterm256(c) for c in PALETTE}
    # The art: cells of the pane painted with the pictures' colours.
    art_cells = [(y, x) for y in range(pane_y, pane_y + pane_h) for x in range(pane_x, pane_x + pane_w)
                 if y < len(rows) and x < len(rows[y]) and rows[y][x][2] in colours]
    assert art_cells, "no text art in the preview pane"
    y0, y1 = min(y for y, _ in art_cells), max(y for y, _ in art_cells)
    x0, x1 = min(x for _, x in art_cells), max(x for _, x in art_cells)
    cw, ch = x1 - x0 + 1, y1 - y0 + 1
    # Sub-pixels as the terminal shows them.
    sub = [[None] * (cw * sx) for _ in range(ch * sy)]
    for cy in range(ch):
        for cx in range(cw):
            c, fg, bg = rows[y0 + cy][x0 + cx]
            for j in range(sy):
                for i in range(sx):
                    sub[cy * sy + j][cx * sx + i] = fg if ink(c, (i + 0.5) / sx, (j + 0.5) / sy) else bg
    img = read_ppm(ppm)
    h, w = len(img), len(img[0])
    if kind == "quad":
        # Aspect kept (cells are twice as high as wide); each quadrant's
        # inner part in its colour (edges are blended by the scaling).
        assert abs(cw / (2 * ch) - w / h) < 0.1, f"aspect {cw}x{ch} cells for {w}x{h}"
        H, W = len(sub), len(sub[0])
        for qy in range(2):
            for qx in range(2):
                want = xterm256(img[qy * h // 2 + h // 4][qx * w // 2 + w // 4])
                for Y in range(qy * H // 2 + H // 8, qy * H // 2 + 3 * H // 8):
                    for X in range(qx * W // 2 + W // 8, qx * W // 2 + 3 * W // 8):
                        assert sub[Y][X] == want, f"sub-pixel {X},{Y}: {sub[Y][X]}, expected {want}"
        return
    # Stripes: the art is exactly the picture's size in sub-pixels, centred.
    assert (x0 - pane_x, y0 - pane_y) == ((pane_w - cw) // 2, (pane_h - ch) // 2), f"art at {x0},{y0} not centred"
    if kind == "vstripes":
        assert cw * sx == w, f"{cw} cells wide for {w} sub-pixel columns"
        want_rows = h * sy // (2 * sx)
        assert ch * sy == want_rows, f"{ch} cells high for {want_rows} sub-pixel rows"
        expect = lambda X, Y: xterm256(img[0][X])
    else:
        assert ch * sy == h, f"{ch} cells high for {h} sub-pixel rows"
        want_cols = w * 2 * sx // sy
        assert cw * sx == want_cols, f"{cw} cells wide for {want_cols} sub-pixel columns"
        expect = lambda X, Y: xterm256(img[Y][0])
    bad = [(X, Y) for Y in range(len(sub)) for X in range(len(sub[0])) if sub[Y][X] != expect(X, Y)]
    assert not bad, f"{len(bad)} sub-pixels wrong, first at {bad[0]}: {sub[bad[0][1]][bad[0][0]]}, " \
                    f"expected {expect(*bad[0])}"


if __name__ == "__main__":
    a = sys.argv
    if a[1] == "make":
        make(a[2], a[3], int(a[4]), int(a[5]), a[6])
    else:
        check(a[2], a[3], a[4], *map(int, a[5:9]), a[9])
