"""Procedural scenes for the demo VLM: 1-4 shapes, one per quadrant, on plain or
textured backgrounds, with the questions and answers that describe them.

A scene is a continuous picture defined on a 256x256 canvas. It is rendered by
evaluating it at sample points, so the 256x256 display image and the 64x64
model input are two samplings of the same function: model pixel (i, j) equals
display pixel (4i, 4j). llama.cpp's bicubic downscale by exactly 4 reads
source pixel (4i, 4j) (fraction 0), so seer feeds the model what it was
trained on (checked by check_pipeline.py).
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
NUMBER_WORDS = ["zero", "one", "two", "three", "four"]
BACKGROUNDS = ["plain", "gradient", "stripes", "checker", "waves"]


def _star_inside(u, v):
    """Five-pointed star of outer radius 1, one point up."""
    rho = np.hypot(u, v)
    theta = np.arctan2(u, -v)                       # 0 = straight up
    sector = 2 * math.pi / 5
    a = np.mod(theta, sector)
    a = np.minimum(a, sector - a)                   # fold onto [0, pi/5]
    px, py = rho * np.cos(a), rho * np.sin(a)
    inner = 0.45
    bx, by = inner * math.cos(math.pi / 5), inner * math.sin(math.pi / 5)
    # inside when on the origin's side of the edge from (1, 0) to (bx, by)
    return (bx - 1.0) * py - by * (px - 1.0) >= 0


def _triangle_inside(u, v):
    """Upright triangle with vertices (0,-1), (+-0.95, 0.7) (y grows downwards)."""
    top, base, half = -1.0, 0.7, 0.95
    below_top_edges = np.abs(u) <= half * (v - top) / (base - top)
    return below_top_edges & (v <= base)


def shape_mask(kind, u, v):
    if kind == "circle":
        return u * u + v * v <= 1.0
    if kind == "square":
        return np.maximum(np.abs(u), np.abs(v)) <= 0.82
    if kind == "diamond":
        return np.abs(u) + np.abs(v) <= 1.05
    if kind == "triangle":
        return _triangle_inside(u, v)
    if kind == "star":
        return _star_inside(u, v)
    if kind == "cross":
        au, av = np.abs(u), np.abs(v)
        return ((au <= 0.32) & (av <= 0.95)) | ((av <= 0.32) & (au <= 0.95))
    raise ValueError(kind)


def make_scene(rng):
    """Draws a random scene description (everything rendering needs)."""
    n = int(rng.integers(1, 5))
    quads = sorted(rng.choice(4, size=n, replace=False).tolist())
    objects = []
    for q in quads:
        # Reuse an earlier colour / shape sometimes so that counting by colour
        # or by shape has answers above one.
        if objects and rng.random() < 0.3:
            color = objects[int(rng.integers(len(objects)))]["color"]
        else:
            color = COLOR_NAMES[int(rng.integers(len(COLOR_NAMES)))]
        if objects and rng.random() < 0.3:
            shape = objects[int(rng.integers(len(objects)))]["shape"]
        else:
            shape = SHAPES[int(rng.integers(len(SHAPES)))]
        half = CANVAS // 2
        r = float(rng.uniform(0.30, 0.44)) * half / 2 * 2 * 0.9    # radius in canvas units
        margin = r * 1.05 + 4
        cx = (q % 2) * half + float(rng.uniform(margin, half - margin))
        cy = (q // 2) * half + float(rng.uniform(margin, half - margin))
        angle = float(rng.uniform(-0.25, 0.25)) if shape != "circle" else 0.0
        rgb = np.clip(np.array(COLORS[color], float) + rng.uniform(-14, 14, 3), 0, 255)
        objects.append(dict(color=color, shape=shape, quadrant=QUADRANTS[q], cx=cx, cy=cy, r=r,
                            angle=angle, rgb=rgb))
    # Background: a neutral, slightly tinted tone; textures are low contrast so
    # that shapes of every colour stay visible.
    black_or_white = {o["color"] for o in objects} & {"black", "white"}
    lo, hi = 85.0, 170.0
    if "white" in black_or_white:
        hi = 140.0
    if "black" in black_or_white:
        lo = 115.0
    base = float(rng.uniform(lo, hi)) + rng.uniform(-12, 12, 3)
    bg = dict(kind=BACKGROUNDS[int(rng.integers(len(BACKGROUNDS)))], base=base,
              amp=float(rng.uniform(8, 18)), angle=float(rng.uniform(0, math.pi)),
              period=float(rng.uniform(14, 48)), tint=rng.uniform(-1, 1, 3),
              waves=[(float(rng.uniform(0.02, 0.12)), float(rng.uniform(0, 2 * math.pi)),
                      float(rng.uniform(0, 2 * math.pi))) for _ in range(3)])
    return dict(objects=objects, background=bg)


def _background(bg, x, y):
    kind, amp = bg["kind"], bg["amp"]
    c, s = math.cos(bg["angle"]), math.sin(bg["angle"])
    t = (x * c + y * s) / CANVAS
    if kind == "plain":
        f = np.zeros_like(x)
    elif kind == "gradient":
        f = 2.0 * (t - 0.5) * 1.5
    elif kind == "stripes":
        f = np.sign(np.sin(2 * math.pi * (x * c + y * s) / bg["period"]))
    elif kind == "checker":
        p = bg["period"]
        f = np.sign(np.sin(2 * math.pi * x / p) * np.sin(2 * math.pi * y / p))
    else:
        f = sum(np.sin(k * (x * math.cos(a) + y * math.sin(a)) + ph) for k, a, ph in bg["waves"]) / 2.0
    out = bg["base"][None, :] + (amp * f)[:, None] * (1.0 + 0.3 * bg["tint"][None, :])
    return out


def render_points(scene, x, y):
    """Colour of the scene at canvas points (x, y) (flat arrays) -> [n, 3] float."""
    img = _background(scene["background"], x, y)
    for o in scene["objects"]:
        ca, sa = math.cos(o["angle"]), math.sin(o["angle"])
        dx, dy = x - o["cx"], y - o["cy"]
        u = (dx * ca + dy * sa) / o["r"]
        v = (-dx * sa + dy * ca) / o["r"]
        m = shape_mask(o["shape"], u, v)
        img[m] = o["rgb"]
    return img


# 2x2 supersampling inside each display pixel: mild anti-aliasing.
_SUB = (0.25, 0.75)


def render(scene, side):
    """Image of side x side pixels (side = CANVAS or MODEL_SIDE), uint8 [side, side, 3].
    Pixel (i, j) of the MODEL_SIDE image samples exactly like display pixel (4i, 4j)."""
    step = CANVAS // side
    coords = np.arange(side, dtype=np.float64) * step
    acc = np.zeros((side * side, 3))
    for oy in _SUB:
        for ox in _SUB:
            yy, xx = np.meshgrid(coords + oy, coords + ox, indexing="ij")
            acc += render_points(scene, xx.ravel(), yy.ravel())
    img = np.clip(np.floor(acc / 4.0 + 0.5), 0, 255).astype(np.uint8)
    return img.reshape(side, side, 3)


# ---------------------------------------------------------------- questions

QTYPES = ["count", "count_color", "count_shape", "color_of_shape", "shape_of_color", "color_at",
          "shape_at", "where", "left_right", "top_bottom", "exists", "describe"]


def _a(text):
    return text[0].upper() + text[1:] + "."


def describe(scene):
    parts = [("an " if o["color"][0] in "aeiou" else "a ") + "%s %s" % (o["color"], o["shape"])
             for o in scene["objects"]]
    if len(parts) == 1:
        s = parts[0]
    else:
        s = ", ".join(parts[:-1]) + " and " + parts[-1]
    return _a(s)


def questions(scene, rng):
    """Every question type that applies to the scene -> {qtype: [(question, answer), ...]}."""
    objs = scene["objects"]
    colors = [o["color"] for o in objs]
    shapes = [o["shape"] for o in objs]
    by_quad = {o["quadrant"]: o for o in objs}
    qa = {t: [] for t in QTYPES}
    n = len(objs)
    qa["count"].append(("How many shapes are there?", _a(str(n))))
    qa["count"].append(("How many shapes are in the image?", _a(str(n))))
    # sorted: a set's order changes from one Python process to the next
    # (string hashing is salted), and the data must not
    for c in sorted(set(colors) | {COLOR_NAMES[int(rng.integers(len(COLOR_NAMES)))]}):
        qa["count_color"].append(("How many %s shapes are there?" % c, _a(str(colors.count(c)))))
    for s in sorted(set(shapes) | {SHAPES[int(rng.integers(len(SHAPES)))]}):
        qa["count_shape"].append(("How many %s are there?" % PLURAL[s], _a(str(shapes.count(s)))))
    for o in objs:
        if shapes.count(o["shape"]) == 1:
            qa["color_of_shape"].append(("What color is the %s?" % o["shape"], _a(o["color"])))
        if colors.count(o["color"]) == 1:
            qa["shape_of_color"].append(("What shape is the %s one?" % o["color"], _a(o["shape"])))
        unique = sum(1 for p in objs if p["color"] == o["color"] and p["shape"] == o["shape"]) == 1
        if unique:
            name = "%s %s" % (o["color"], o["shape"])
            qa["where"].append(("Where is the %s?" % name, _a(o["quadrant"])))
            qa["left_right"].append(("Is the %s on the left or the right?" % name,
                                     _a(o["quadrant"].split()[1])))
            qa["top_bottom"].append(("Is the %s at the top or the bottom?" % name,
                                     _a(o["quadrant"].split()[0])))
            qa["exists"].append(("Is there a %s?" % name, "Yes."))
    for quad, o in by_quad.items():
        qa["color_at"].append(("What color is the shape in the %s?" % quad, _a(o["color"])))
        qa["shape_at"].append(("What shape is in the %s?" % quad, _a(o["shape"])))
    # "no" answers, often near misses (right colour wrong shape or the reverse)
    present = {(o["color"], o["shape"]) for o in objs}
    tries = 0
    while len([1 for q, a in qa["exists"] if a == "No."]) < 2 and tries < 50:
        tries += 1
        r = rng.random()
        if r < 0.35:
            c, s = objs[int(rng.integers(n))]["color"], SHAPES[int(rng.integers(len(SHAPES)))]
        elif r < 0.7:
            c, s = COLOR_NAMES[int(rng.integers(len(COLOR_NAMES)))], objs[int(rng.integers(n))]["shape"]
        else:
            c, s = COLOR_NAMES[int(rng.integers(len(COLOR_NAMES)))], SHAPES[int(rng.integers(len(SHAPES)))]
        if (c, s) not in present:
            qa["exists"].append(("Is there a %s %s?" % (c, s), "No."))
    qa["describe"].append(("Describe the image.", describe(scene)))
    qa["describe"].append(("What is in the image?", describe(scene)))
    return qa


# How often each question type is drawn for training. Reading one object's
# colour or shape and counting all shapes are learnt fast; counting by colour
# or shape, "is there a ..." and positions of a named object take the longest,
# so they are drawn more often.
TRAIN_WEIGHT = {"count": 0.5, "count_color": 2.0, "count_shape": 2.0, "color_of_shape": 1.0,
                "shape_of_color": 1.0, "color_at": 0.6, "shape_at": 0.6, "where": 1.5,
                "left_right": 1.5, "top_bottom": 1.0, "exists": 1.5, "describe": 0.5}


def sample_qas(scene, rng, k):
    """k question/answer pairs of different types where possible (exists
    questions keep yes/no balanced)."""
    qa = questions(scene, rng)
    types = [t for t in QTYPES if qa[t]]
    weights = np.array([TRAIN_WEIGHT[t] for t in types])
    chosen = rng.choice(len(types), size=min(k, len(types)), replace=False, p=weights / weights.sum())
    out = []
    for i in chosen:
        t = types[int(i)]
        items = qa[t]
        if t == "exists":
            want = "Yes." if rng.random() < 0.5 else "No."
            pool = [x for x in items if x[1] == want] or items
            out.append((t,) + pool[int(rng.integers(len(pool)))])
        else:
            out.append((t,) + items[int(rng.integers(len(items)))])
    return out


def corpus_text():
    """All question and answer strings the generator can produce (for BPE training)."""
    out = []
    rng = np.random.default_rng(12345)
    for _ in range(3000):
        sc = make_scene(rng)
        for t, items in questions(sc, rng).items():
            for q, a in items:
                out.append(q)
                out.append(a)
    return out
