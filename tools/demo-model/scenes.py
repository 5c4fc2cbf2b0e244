"""Procedural scenes for the demo VLM: 1-6 shapes anywhere, filled or
outlined, of many sizes, on plain (often white), gradient, textured or
photo-like backgrounds, in images of several sizes and aspect ratios, with the
questions and answers that describe them (both spellings of colour, and
"There is no X." for named shapes that are absent).

A scene is a continuous picture on a canvas whose longer side is CANVAS
units. It is rendered by evaluating it at sample points: render() gives the
display image, render_model_resized() what the encoder sees through seer's
default preprocessing (padded to a square with grey, Pillow's antialiased
bicubic down to 64x64), render_model() the fit into the 64x64 square without
antialiasing (llama.cpp's resize: one sample per pixel, or 2x2).
Positions ("top left", "on the left") are the quadrant of a shape's centre;
position questions are asked only when the centre is clearly off the middle
lines (clear_axes).
"""
import math

import numpy as np

CANVAS = 256          # display image side
MODEL_SIDE = 64       # encoder input side (clip.vision.image_size)
STEP = CANVAS // MODEL_SIDE

COLORS = {
    "red": (220, 40, 40), "orange": (245, 140, 20), "yellow": (240, 225, 40),
    "green": (40, 170, 60), "blue": (40, 80, 225), "purple": (140, 60, 190),
    "pink": (250, 130, 200), "cyan": (40, 210, 225), "white": (248, 248, 248),
    "black": (18, 18, 18),
}
COLOR_NAMES = list(COLORS)
SHAPES = ["circle", "square", "triangle", "star", "diamond", "cross"]
PLURAL = {"circle": "circles", "square": "squares", "triangle": "triangles", "star": "stars",
          "diamond": "diamonds", "cross": "crosses"}
QUADRANTS = ["top left", "top right", "bottom left", "bottom right"]
BACKGROUNDS = ["plain", "gradient", "stripes", "checker", "waves", "gradient2", "photo"]
BG_WEIGHTS = [0.3, 0.1, 0.07, 0.07, 0.08, 0.18, 0.2]


def _star_inside(u, v, inner=0.45):
    """Five-pointed star of outer radius 1, one point up, inner radius `inner`."""
    rho = np.hypot(u, v)
    theta = np.arctan2(u, -v)                       # 0 = straight up
    sector = 2 * math.pi / 5
    a = np.mod(theta, sector)
    a = np.minimum(a, sector - a)                   # fold onto [0, pi/5]
    px, py = rho * np.cos(a), rho * np.sin(a)
    bx, by = inner * math.cos(math.pi / 5), inner * math.sin(math.pi / 5)
    # inside when on the origin's side of the edge from (1, 0) to (bx, by)
    return (bx - 1.0) * py - by * (px - 1.0) >= 0


def _triangle_inside(u, v, base=0.7, half=0.95):
    """Upright triangle with vertices (0,-1), (+-half, base) (y grows downwards)."""
    top = -1.0
    below_top_edges = np.abs(u) <= half * (v - top) / (base - top)
    return below_top_edges & (v <= base)


# Proportions of each shape (the first generator's values). Drawings differ
# (a fatter or thinner star, an equilateral or a squat triangle, a narrow
# diamond, a thin cross), so new scenes draw them from FORM_RANGE.
FORM = {"square": 0.82, "diamond": 1.0, "triangle": (0.7, 0.95), "star": 0.45, "cross": (0.32, 0.95)}
FORM_RANGE = {"square": [(0.66, 0.86)], "diamond": [(0.62, 1.0)], "triangle": [(0.4, 0.75), (0.78, 1.0)],
              "star": [(0.36, 0.56)], "cross": [(0.2, 0.36), (0.88, 1.0)]}


def random_form(kind, rng):
    if kind not in FORM_RANGE:
        return None
    vals = [float(rng.uniform(lo, hi)) for lo, hi in FORM_RANGE[kind]]
    return vals[0] if len(vals) == 1 else tuple(vals)


def _edge_distance(kind, f):
    """Distance from the centre to the nearest edge (outer radius 1): how far
    the shape can shrink, so that growing it by g moves its edges by about g."""
    if kind == "diamond":
        a, b = 1.05 * f, 1.05
        return a * b / math.hypot(a, b)
    if kind == "triangle":
        base, half = f
        return min(base, half / math.hypot(half, base + 1.0))   # base line / side through (0,-1)
    return 0.42                                     # star: about its inner corners


def shape_mask(kind, u, v, form=None, grow=0.0):
    """Points (u, v) (outer radius 1) inside the shape; `form` = its
    proportions (FORM[kind] when None); `grow` moves every edge outwards
    (inwards when negative) by that distance, as a pen stroke's outer and
    inner sides do (exactly for circles, squares and crosses, by scaling for
    the others). A shape shrunk to nothing covers no point."""
    f = FORM.get(kind) if form is None else form
    g = grow
    if kind == "circle":
        return u * u + v * v <= max(0.0, 1.0 + g) ** 2
    if kind == "square":
        return np.maximum(np.abs(u), np.abs(v)) <= f + g
    if kind == "cross":
        t, arm = f[0] + g, f[1] + g
        au, av = np.abs(u), np.abs(v)
        return ((au <= t) & (av <= arm)) | ((av <= t) & (au <= arm))
    k = 1.0 + g / _edge_distance(kind, f)
    if k <= 0.05:
        return np.zeros(np.shape(u), bool)
    u, v = u / k, v / k
    if kind == "diamond":                           # f = width / height
        return np.abs(u) / (1.05 * f) + np.abs(v) / 1.05 <= 1.0
    if kind == "triangle":
        return _triangle_inside(u, v, *f)
    if kind == "star":
        return _star_inside(u, v, f)
    raise ValueError(kind)


# Display sizes (width, height) in pixels; the scene's canvas is the same
# shape with its longer side CANVAS units long. seer fits any image into the
# 64x64 encoder square keeping its aspect and pads the rest with grey.
SIZES = [(256, 256)] * 4 + [(128, 128), (512, 512), (320, 240), (240, 320), (400, 225), (225, 400),
                             (300, 200), (200, 300), (512, 256), (256, 512), (640, 480), (180, 180)]
PAD_GREY = (122, 116, 104)      # llama.cpp's / seer's LLaVA-1.5 padding colour
# Objects per scene: few most often (as newcomers' pictures), up to six;
# scenes of 3-6 small shapes are what counting needs.
N_WEIGHTS = [0.18, 0.2, 0.2, 0.18, 0.13, 0.11]


# Hue (degrees), saturation and value ranges each colour name covers, for
# the saturated "pure" shades drawing programs offer (pure red, navy, magenta
# purple, gold, hot pink) beside the named base colours' lighter and darker shades.
HSV_RANGE = {"red": ((-10, 8), (0.7, 1.0), (0.6, 1.0)), "orange": ((22, 40), (0.75, 1.0), (0.85, 1.0)),
             "yellow": ((47, 60), (0.6, 1.0), (0.85, 1.0)), "green": ((95, 160), (0.55, 1.0), (0.45, 0.85)),
             "cyan": ((178, 192), (0.55, 1.0), (0.75, 1.0)), "blue": ((210, 245), (0.6, 1.0), (0.55, 1.0)),
             "purple": ((262, 302), (0.5, 1.0), (0.4, 0.8)), "pink": ((315, 345), (0.3, 0.65), (0.9, 1.0))}


def _hsv_rgb(h, s, v):
    h = (h % 360) / 60.0
    c = v * s
    x = c * (1 - abs(h % 2 - 1))
    r, g, b = [(c, x, 0), (x, c, 0), (0, c, x), (0, x, c), (x, 0, c), (c, 0, x)][int(h) % 6]
    return (np.array([r, g, b]) + (v - c)) * 255


def _shade(color, rng):
    """One of the many shades a colour name covers: a bit lighter or darker
    than the base colour, or (for the chromatic names, one time in three) any
    shade in HSV_RANGE; plus per-channel jitter (black and white stay near
    their ends)."""
    rgb = np.array(COLORS[color], float)
    if color in HSV_RANGE and rng.random() < 0.35:
        rgb = _hsv_rgb(*[rng.uniform(lo, hi) for lo, hi in HSV_RANGE[color]])
    elif color not in ("black", "white"):
        if rng.random() < 0.5:
            rgb = rgb + (255 - rgb) * rng.uniform(0, 0.22)
        else:
            rgb = rgb * (1 - rng.uniform(0, 0.25))
    return np.clip(rgb + rng.uniform(-12, 12, 3), 0, 255)


def quadrant_of(cx, cy, w, h):
    return QUADRANTS[(2 if cy >= h / 2 else 0) + (1 if cx >= w / 2 else 0)]


def _background_desc(rng):
    kind = BACKGROUNDS[int(rng.choice(len(BACKGROUNDS), p=BG_WEIGHTS))]
    tone = rng.random()
    if kind == "plain" and tone < 0.45:
        level = rng.uniform(225, 255)                   # white paper
    elif tone < 0.12:
        level = rng.uniform(20, 60)                     # dark
    else:
        level = rng.uniform(85, 200)
    base = level + rng.uniform(-14, 14, 3)
    if rng.random() < 0.25:                             # a pastel tint
        base = base + rng.uniform(-30, 30, 3)
    return dict(kind=kind, base=np.clip(base, 0, 255), base2=np.clip(rng.uniform(30, 230, 3), 0, 255),
                amp=float(rng.uniform(8, 24)), angle=float(rng.uniform(0, 2 * math.pi)),
                period=float(rng.uniform(14, 48)), tint=rng.uniform(-1, 1, 3), noise=float(rng.uniform(0, 14)),
                waves=[(float(rng.uniform(0.02, 0.12)), float(rng.uniform(0, 2 * math.pi)),
                        float(rng.uniform(0, 2 * math.pi))) for _ in range(3)],
                blobs=[(rng.uniform(0, 1, 2), float(rng.uniform(30, 120)), rng.uniform(-60, 60, 3))
                       for _ in range(4)])


CLASSIC_SHARE = 0.3


def make_scene(rng):
    """Draws a random scene description (everything rendering needs): 1-6
    shapes anywhere (not overlapping), filled or outlined, of many sizes; or
    (CLASSIC_SHARE of the time) the first generator's layout, 1-4 large
    filled shapes one per quadrant of a square image, which keeps what the
    bundled weights learnt while training continues from them."""
    if rng.random() < CLASSIC_SHARE:
        return _classic_scene(rng)
    W, H = SIZES[int(rng.integers(len(SIZES)))]
    s = CANVAS / max(W, H)
    cw, ch = W * s, H * s                               # canvas units
    n = int(rng.choice(6, p=N_WEIGHTS)) + 1
    bg = _background_desc(rng)
    objects = []
    tries = 0
    while len(objects) < n and tries < 400:
        tries += 1
        color, shape = _color_and_shape(objects, rng)
        # more objects -> smaller ones; radius in canvas units
        big = min(cw, ch) * (0.22 if n <= 2 else 0.17 if n <= 4 else 0.13)
        r = float(rng.uniform(min(14.0, big), max(14.0, big)))
        if rng.random() < 0.3 and n <= 4:
            r = float(rng.uniform(26, max(27.0, min(cw, ch) * 0.24)))
        # outlines: a band inside the edge, or a pen stroke centred on it
        outline = rng.random() < 0.3
        centred = outline and rng.random() < 0.5
        # (at least about one encoder pixel: thinner lines break up when seer
        # shrinks the image, in any renderer's pictures)
        width = max(4.0, float(rng.uniform(0.15 if centred else 0.22, 0.4)) * r) if outline else 0.0
        reach = r + (width / 2 if centred else 0.0)     # outer radius
        m = reach * 1.05 + 2
        if cw - 2 * m <= 0 or ch - 2 * m <= 0:
            continue
        cx, cy = float(rng.uniform(m, cw - m)), float(rng.uniform(m, ch - m))
        if any(math.hypot(cx - o["cx"], cy - o["cy"]) < (reach + o["reach"]) * 1.1 + 4 for o in objects):
            continue
        rgb = _shade(color, rng)
        ref = _background(bg, np.array([cx]), np.array([cy]))[0]
        if np.abs(rgb - ref).sum() < 110:               # would not stand out from the background
            continue
        objects.append(dict(color=color, shape=shape, cx=cx, cy=cy, r=r, rgb=rgb, reach=reach,
                            angle=float(rng.uniform(-0.25, 0.25)) if shape != "circle" else 0.0,
                            width=width, centred=centred, form=random_form(shape, rng),
                            quadrant=quadrant_of(cx, cy, cw, ch)))
    return dict(objects=objects, background=bg, size=(W, H), canvas=(cw, ch))


def _color_and_shape(objects, rng):
    """Reuses an earlier colour / shape sometimes so that counting by colour
    or by shape has answers above one."""
    if objects and rng.random() < 0.3:
        color = objects[int(rng.integers(len(objects)))]["color"]
    else:
        color = COLOR_NAMES[int(rng.integers(len(COLOR_NAMES)))]
    if objects and rng.random() < 0.3:
        shape = objects[int(rng.integers(len(objects)))]["shape"]
    else:
        shape = SHAPES[int(rng.integers(len(SHAPES)))]
    return color, shape


def _classic_scene(rng):
    n = int(rng.integers(1, 5))
    objects = []
    for q in sorted(rng.choice(4, size=n, replace=False).tolist()):
        color, shape = _color_and_shape(objects, rng)
        half = CANVAS // 2
        r = float(rng.uniform(0.30, 0.44)) * half * 0.9
        margin = r * 1.05 + 4
        cx = (q % 2) * half + float(rng.uniform(margin, half - margin))
        cy = (q // 2) * half + float(rng.uniform(margin, half - margin))
        objects.append(dict(color=color, shape=shape, quadrant=QUADRANTS[q], cx=cx, cy=cy, r=r, width=0.0, reach=r,
                            angle=float(rng.uniform(-0.25, 0.25)) if shape != "circle" else 0.0,
                            rgb=np.clip(np.array(COLORS[color], float) + rng.uniform(-14, 14, 3), 0, 255)))
    dark_or_light = {o["color"] for o in objects} & {"black", "white"}
    lo, hi = (115.0 if "black" in dark_or_light else 85.0), (140.0 if "white" in dark_or_light else 170.0)
    bg = _background_desc(rng)
    bg.update(kind=BACKGROUNDS[int(rng.integers(5))], base=float(rng.uniform(lo, hi)) + rng.uniform(-12, 12, 3),
              amp=float(rng.uniform(8, 18)))
    return dict(objects=objects, background=bg, size=(256, 256), canvas=(float(CANVAS), float(CANVAS)))


def clear_axes(o, scene):
    """(left/right clear, top/bottom clear): the shape's centre is well away
    from the middle line, so a position answer is not a matter of opinion."""
    cw, ch = scene["canvas"]
    return abs(o["cx"] - cw / 2) > 0.07 * cw + 4, abs(o["cy"] - ch / 2) > 0.07 * ch + 4


def _background(bg, x, y):
    kind, amp = bg["kind"], bg["amp"]
    c, s = math.cos(bg["angle"]), math.sin(bg["angle"])
    t = (x * c + y * s) / CANVAS
    if kind == "plain":
        f = np.zeros_like(x)
    elif kind == "gradient":
        f = 2.0 * (t - 0.5) * 1.5
    elif kind in ("gradient2", "photo"):
        f = None
    elif kind == "stripes":
        f = np.sign(np.sin(2 * math.pi * (x * c + y * s) / bg["period"]))
    elif kind == "checker":
        p = bg["period"]
        f = np.sign(np.sin(2 * math.pi * x / p) * np.sin(2 * math.pi * y / p))
    elif kind == "waves":
        f = sum(np.sin(k * (x * math.cos(a) + y * math.sin(a)) + ph) for k, a, ph in bg["waves"]) / 2.0
    if kind == "gradient2":                             # between two colours
        tt = np.clip(t + 0.5, 0, 1)[:, None]
        return bg["base"][None, :] * (1 - tt) + bg["base2"][None, :] * tt
    if kind == "photo":                                 # soft blobs of colour + grain
        out = np.repeat(bg["base"][None, :], len(x), 0).astype(float)
        for (px, py), rad, dc in bg["blobs"]:
            d2 = ((x - px * CANVAS) ** 2 + (y - py * CANVAS) ** 2) / (rad * rad)
            out += np.exp(-d2)[:, None] * dc[None, :]
        grain = np.mod(np.sin(x * 12.9898 + y * 78.233) * 43758.5453, 1.0) - 0.5
        return out + (2 * bg["noise"] * grain)[:, None]
    out = bg["base"][None, :] + (amp * f)[:, None] * (1.0 + 0.3 * bg["tint"][None, :])
    return out


def object_masks(scene, x, y):
    """[n_objects, n_points] bool: which points each shape covers (an outline
    is a band of even width along the edge: inside it, or centred on it as a
    pen draws)."""
    out = []
    for o in scene["objects"]:
        ca, sa = math.cos(o["angle"]), math.sin(o["angle"])
        dx, dy = x - o["cx"], y - o["cy"]
        u = (dx * ca + dy * sa) / o["r"]
        v = (-dx * sa + dy * ca) / o["r"]
        form = o.get("form")
        if o["width"] > 0:
            w = o["width"] / o["r"]
            outer, inner = (w / 2, -w / 2) if o.get("centred") else (0.0, -w)
            m = shape_mask(o["shape"], u, v, form, outer) & ~shape_mask(o["shape"], u, v, form, inner)
        else:
            m = shape_mask(o["shape"], u, v, form)
        out.append(m)
    return np.array(out).reshape(len(out), len(x))


def render_points(scene, x, y):
    """Colour of the scene at canvas points (x, y) (flat arrays) -> [n, 3] float."""
    img = _background(scene["background"], x, y)
    for o, m in zip(scene["objects"], object_masks(scene, x, y)):
        img[m] = o["rgb"]
    return img


# 2x2 supersampling inside each pixel: mild anti-aliasing.
_SUB = (0.25, 0.75)


def _render_grid(scene, xs, ys, sub):
    acc = np.zeros((len(ys) * len(xs), 3))
    for oy in sub:
        for ox in sub:
            yy, xx = np.meshgrid(ys + oy, xs + ox, indexing="ij")
            acc += render_points(scene, xx.ravel(), yy.ravel())
    img = np.clip(np.floor(acc / len(sub) ** 2 + 0.5), 0, 255).astype(np.uint8)
    return img.reshape(len(ys), len(xs), 3)


def render(scene, scale=1.0):
    """The display image: scene["size"] pixels times `scale`, uint8 [h, w, 3]."""
    W, H = scene["size"]
    w, h = int(round(W * scale)), int(round(H * scale))
    cw, ch = scene["canvas"]
    return _render_grid(scene, np.arange(w) * (cw / w), np.arange(h) * (ch / h),
                        tuple(s * cw / w for s in _SUB))


def render_model(scene, sub=_SUB):
    """What the encoder sees: the image fitted into MODEL_SIDE x MODEL_SIDE
    keeping its aspect, centred, the rest PAD_GREY (as seer preprocesses a
    LLaVA-1.5 image)."""
    cw, ch = scene["canvas"]
    k = MODEL_SIDE / max(cw, ch)
    bw, bh = max(1, int(round(cw * k))), max(1, int(round(ch * k)))
    out = np.empty((MODEL_SIDE, MODEL_SIDE, 3), np.uint8)
    out[:] = PAD_GREY
    x0, y0 = (MODEL_SIDE - bw) // 2, (MODEL_SIDE - bh) // 2
    out[y0:y0 + bh, x0:x0 + bw] = _render_grid(scene, np.arange(bw) / k, np.arange(bh) / k,
                                               tuple(s / k for s in sub))
    return out


def render_model_resized(scene, fine=CANVAS // 2):
    """What the encoder sees through seer's default preprocessing (the
    authors' LLaVA-1.5 processor): the picture padded to a square with the
    CLIP-mean grey, then shrunk to MODEL_SIDE by Pillow's antialiased bicubic
    (each encoder pixel a smooth blend of a neighbourhood, with a faint
    ring at edges). The picture is drawn one sample per pixel, aliased like
    most drawings, at its display size or `fine` pixels on its longer side
    when that is smaller (a finer source changes little after the
    antialiased filter)."""
    from PIL import Image
    cw, ch = scene["canvas"]
    W, H = scene["size"]
    k = min(max(W, H), fine) / max(cw, ch)          # pixels per canvas unit
    w, h = max(1, int(round(cw * k))), max(1, int(round(ch * k)))
    side = max(w, h)
    sq = np.empty((side, side, 3), np.uint8)
    sq[:] = PAD_GREY
    x0, y0 = (side - w) // 2, (side - h) // 2
    sq[y0:y0 + h, x0:x0 + w] = _render_grid(scene, np.arange(w) / k, np.arange(h) / k, (0.5 / k,))
    return np.asarray(Image.fromarray(sq).resize((MODEL_SIDE, MODEL_SIDE), Image.BICUBIC))


def _patch_quadrant(p, grid):
    return QUADRANTS[(2 if p // grid >= grid // 2 else 0) + (1 if p % grid >= grid // 2 else 0)]


def patch_labels(scene, grid=4):
    """Per encoder patch (grid x grid, row-major): colour index and shape index
    of the shape covering most of it (len(COLOR_NAMES) / len(SHAPES) = none),
    and 1 where a shape's centre lies in the patch (one mark per object, what
    counting adds up), for the training-only patch probe."""
    cw, ch = scene["canvas"]
    k = MODEL_SIDE / max(cw, ch)
    bw, bh = cw * k, ch * k
    x0, y0 = (MODEL_SIDE - int(round(bw))) // 2, (MODEL_SIDE - int(round(bh))) // 2
    cell = MODEL_SIDE / grid
    t = (np.arange(8) + 0.5) / 8 * cell
    col = np.full(grid * grid, len(COLOR_NAMES))
    shp = np.full(grid * grid, len(SHAPES))
    centre = np.zeros(grid * grid, np.int64)
    for o in scene["objects"]:
        pr = min(grid - 1, max(0, int((y0 + o["cy"] * k) // cell)))
        pc = min(grid - 1, max(0, int((x0 + o["cx"] * k) // cell)))
        centre[pr * grid + pc] = 1
    if not scene["objects"]:
        return col, shp, centre
    # a patch no shape covers carries its quadrant's shape when that is the
    # only one there (as the first generator's labels did for every patch)
    quads = [o["quadrant"] for o in scene["objects"]]
    quad_only = {q: o for q, o in zip(quads, scene["objects"]) if quads.count(q) == 1}
    # 8x8 sample points per patch, all patches in one call: [patch row, patch
    # col, point row, point col]
    pr, pc, ty, tx = np.meshgrid(np.arange(grid), np.arange(grid), t, t, indexing="ij")
    cx, cy = ((pc * cell + tx).ravel() - x0) / k, ((pr * cell + ty).ravel() - y0) / k
    covers = object_masks(scene, cx, cy).reshape(len(scene["objects"]), grid * grid, -1).sum(2)
    for p in range(grid * grid):
        cover = covers[:, p]
        best = int(cover.argmax())
        o = scene["objects"][best] if cover[best] > 0 else quad_only.get(_patch_quadrant(p, grid))
        if o is not None:
            col[p], shp[p] = COLOR_NAMES.index(o["color"]), SHAPES.index(o["shape"])
    return col, shp, centre


# ---------------------------------------------------------------- questions

QTYPES = ["count", "count_color", "count_shape", "color_of_shape", "shape_of_color", "color_at",
          "shape_at", "where", "left_right", "top_bottom", "exists", "describe"]


def _a(text):
    return text[0].upper() + text[1:] + "."


def _article(word):
    return ("an " if word[0] in "aeiou" else "a ") + word


def reading_order(scene):
    """Objects by quadrant (top left, top right, bottom left, bottom right),
    then left to right: the order a description lists them in."""
    return sorted(scene["objects"], key=lambda o: (QUADRANTS.index(o["quadrant"]), o["cx"], o["cy"]))


def describe(scene):
    parts = [_article("%s %s" % (o["color"], o["shape"])) for o in reading_order(scene)]
    if len(parts) == 1:
        s = parts[0]
    else:
        s = ", ".join(parts[:-1]) + " and " + parts[-1]
    return _a(s)


def absent(name):
    return "There is no %s." % name


def questions(scene, rng):
    """Every question type that applies to the scene -> {qtype: [(question, answer), ...]}.
    Questions say "color"; sample_qas turns some into "colour"."""
    objs = scene["objects"]
    colors = [o["color"] for o in objs]
    shapes = [o["shape"] for o in objs]
    qa = {t: [] for t in QTYPES}
    n = len(objs)
    for q in ("How many shapes are there?", "How many shapes are in the image?", "How many objects are there?"):
        qa["count"].append((q, _a(str(n))))
    # sorted: a set's order changes from one Python process to the next
    # (string hashing is salted), and the data must not
    for c in sorted(set(colors) | {COLOR_NAMES[int(rng.integers(len(COLOR_NAMES)))]}):
        qa["count_color"].append(("How many %s shapes are there?" % c, _a(str(colors.count(c)))))
    for s in sorted(set(shapes) | {SHAPES[int(rng.integers(len(SHAPES)))]}):
        qa["count_shape"].append(("How many %s are there?" % PLURAL[s], _a(str(shapes.count(s)))))
    # a shape and a colour that are not in the picture (absent-object answers)
    missing_s = [s for s in SHAPES if s not in shapes]
    missing_c = [c for c in COLOR_NAMES if c not in colors]
    for s in sorted(set(shapes)):
        if shapes.count(s) == 1:
            o = objs[shapes.index(s)]
            qa["color_of_shape"].append(("What color is the %s?" % s, _a(o["color"])))
    if missing_s:
        s = missing_s[int(rng.integers(len(missing_s)))]
        qa["color_of_shape"].append(("What color is the %s?" % s, absent(s)))
    for c in sorted(set(colors)):
        if colors.count(c) == 1:
            qa["shape_of_color"].append(("What shape is the %s one?" % c, _a(objs[colors.index(c)]["shape"])))
    if missing_c:
        c = missing_c[int(rng.integers(len(missing_c)))]
        qa["shape_of_color"].append(("What shape is the %s one?" % c, absent(c + " shape")))
    present = {(o["color"], o["shape"]) for o in objs}
    for o in objs:
        name = "%s %s" % (o["color"], o["shape"])
        if sum(1 for p in objs if (p["color"], p["shape"]) == (o["color"], o["shape"])) != 1:
            continue
        lr, tb = clear_axes(o, scene)
        if lr and tb:
            qa["where"].append(("Where is the %s?" % name, _a(o["quadrant"])))
        if lr:
            qa["left_right"].append(("Is the %s on the left or the right?" % name, _a(o["quadrant"].split()[1])))
        if tb:
            qa["top_bottom"].append(("Is the %s at the top or the bottom?" % name, _a(o["quadrant"].split()[0])))
        qa["exists"].append(("Is there %s?" % _article(name), "Yes."))
    # a named shape that is not there: a near miss (right colour or right shape) or any
    for _ in range(20):
        r = rng.random()
        if r < 0.4:
            c, s = objs[int(rng.integers(n))]["color"], SHAPES[int(rng.integers(len(SHAPES)))]
        elif r < 0.8:
            c, s = COLOR_NAMES[int(rng.integers(len(COLOR_NAMES)))], objs[int(rng.integers(n))]["shape"]
        else:
            c, s = COLOR_NAMES[int(rng.integers(len(COLOR_NAMES)))], SHAPES[int(rng.integers(len(SHAPES)))]
        if (c, s) not in present:
            name = "%s %s" % (c, s)
            qa["where"].append(("Where is the %s?" % name, absent(name)))
            qa["left_right"].append(("Is the %s on the left or the right?" % name, absent(name)))
            qa["top_bottom"].append(("Is the %s at the top or the bottom?" % name, absent(name)))
            qa["exists"].append(("Is there %s?" % _article(name), "No."))
            break
    for s in SHAPES:
        qa["exists"].append(("Is there %s?" % _article(s), "Yes." if s in shapes else "No."))
    for c in COLOR_NAMES:
        qa["exists"].append(("Is there %s shape?" % _article(c), "Yes." if c in colors else "No."))
    # quadrant questions where exactly one shape is clearly in that quadrant
    # and none sits on its borders (or it is empty)
    for quad in QUADRANTS:
        inside = [o for o in objs if o["quadrant"] == quad]
        unclear = [o for o in inside if not all(clear_axes(o, scene))]
        if len(inside) == 1 and not unclear:
            qa["color_at"].append(("What color is the shape in the %s?" % quad, _a(inside[0]["color"])))
            qa["shape_at"].append(("What shape is in the %s?" % quad, _a(inside[0]["shape"])))
    for q in ("Describe the image.", "What is in the image?", "What shapes are in the image?"):
        qa["describe"].append((q, describe(scene)))
    return qa


# How often each question type is drawn for training. Counting, "is there
# a ...", naming a shape's colour or a colour's shape and positions of a
# named object take the longest, so they are drawn more often.
TRAIN_WEIGHT = {"count": 1.2, "count_color": 1.5, "count_shape": 1.8, "color_of_shape": 1.7,
                "shape_of_color": 1.7, "color_at": 0.4, "shape_at": 1.0, "where": 1.3,
                "left_right": 1.3, "top_bottom": 1.2, "exists": 1.6, "describe": 0.7}


def colour_spelling(q, rng):
    """Half the questions say "colour": both spellings must work."""
    return q.replace("color", "colour") if rng.random() < 0.5 else q


def pick(t, items, rng):
    """One question of type t; "is there" questions keep yes/no balanced and
    named-shape questions are about an absent shape one time in five."""
    if t == "exists":
        want = "Yes." if rng.random() < 0.5 else "No."
        items = [x for x in items if x[1] == want] or items
    elif t in ("color_of_shape", "shape_of_color", "where", "left_right", "top_bottom"):
        no = [x for x in items if x[1].startswith("There is no")]
        yes = [x for x in items if not x[1].startswith("There is no")]
        items = no if (rng.random() < 0.2 or not yes) and no else yes
    q, a = items[int(rng.integers(len(items)))]
    return colour_spelling(q, rng), a


def sample_qas(scene, rng, k):
    """k question/answer pairs of different types where possible."""
    qa = questions(scene, rng)
    types = [t for t in QTYPES if qa[t]]
    weights = np.array([TRAIN_WEIGHT[t] for t in types])
    chosen = rng.choice(len(types), size=min(k, len(types)), replace=False, p=weights / weights.sum())
    return [(types[int(i)],) + pick(types[int(i)], qa[types[int(i)]], rng) for i in chosen]
