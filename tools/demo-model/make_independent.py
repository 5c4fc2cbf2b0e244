"""A held-out set drawn by a second, independent scene renderer: none of
scenes.py's code. Shapes are PIL ImageDraw polygons and ellipses with their
own geometry (a fatter star, an equilateral triangle, a thinner cross, a
taller diamond), colours are web-style shades of the same ten names, images
come in other sizes and aspect ratios, backgrounds are white, grey, two-colour
gradients or blurred noise ("photo-like"), and 1-5 shapes sit anywhere. Only
the question wording is shared (it is what the model understands).
Writes the images and questions.tsv (image, type, question, answer, -) for
tests/demo/eval.sh.

    make_independent.py --out DIR [--images 120] [--seed 5]
"""
import argparse
import math
import os
import random

from PIL import Image, ImageDraw, ImageFilter

# Shades each name covers here (not the training generator's values).
SHADES = {
    "red": [(255, 0, 0), (200, 16, 32), (230, 50, 40), (178, 34, 34)],
    "orange": [(255, 165, 0), (255, 127, 40), (235, 120, 10)],
    "yellow": [(255, 215, 0), (250, 240, 60), (238, 210, 30)],
    "green": [(0, 160, 0), (34, 139, 34), (60, 190, 80), (0, 128, 60)],
    "blue": [(0, 0, 255), (30, 90, 200), (65, 105, 225), (20, 40, 160)],
    "purple": [(128, 0, 128), (150, 70, 200), (110, 40, 170)],
    "pink": [(255, 105, 180), (255, 150, 200), (240, 120, 170)],
    "cyan": [(0, 200, 220), (0, 230, 230), (60, 200, 210)],
    "white": [(255, 255, 255), (245, 245, 240)],
    "black": [(0, 0, 0), (30, 30, 35)],
}
PLURALS = {"circle": "circles", "square": "squares", "triangle": "triangles", "star": "stars",
           "diamond": "diamonds", "cross": "crosses"}
SIZES = [(256, 256), (300, 300), (200, 150), (480, 320), (150, 250), (400, 400), (320, 180), (224, 224)]


def outline_points(kind, cx, cy, r, turn):
    """Polygon corners of a shape centred at (cx, cy) with outer radius r."""
    def rot(pts):
        c, s = math.cos(turn), math.sin(turn)
        return [(cx + x * c - y * s, cy + x * s + y * c) for x, y in pts]
    if kind == "square":
        a = r * 0.75
        return rot([(-a, -a), (a, -a), (a, a), (-a, a)])
    if kind == "diamond":
        return rot([(0, -r), (0.75 * r, 0), (0, r), (-0.75 * r, 0)])
    if kind == "triangle":
        return rot([(r * math.cos(a), r * math.sin(a)) for a in (-math.pi / 2, math.pi / 6, 5 * math.pi / 6)])
    if kind == "star":
        pts = []
        for k in range(10):
            a = -math.pi / 2 + k * math.pi / 5
            rr = r if k % 2 == 0 else r * 0.5
            pts.append((rr * math.cos(a), rr * math.sin(a)))
        return rot(pts)
    if kind == "cross":
        t = r * 0.28
        return rot([(-t, -r), (t, -r), (t, -t), (r, -t), (r, t), (t, t), (t, r), (-t, r), (-t, t), (-r, t),
                    (-r, -t), (-t, -t)])
    raise ValueError(kind)


def draw_shape(d, kind, cx, cy, r, rgb, width, turn):
    if kind == "circle":
        box = [cx - r, cy - r, cx + r, cy + r]
        if width:
            d.ellipse(box, outline=rgb, width=width)
        else:
            d.ellipse(box, fill=rgb)
        return
    pts = outline_points(kind, cx, cy, r, turn)
    if width:
        d.line(pts + pts[:1], fill=rgb, width=width, joint="curve")
    else:
        d.polygon(pts, fill=rgb)


def background(rnd, w, h):
    kind = rnd.choice(["white", "white", "grey", "gradient", "photo"])
    if kind in ("white", "grey"):
        level = rnd.randint(238, 255) if kind == "white" else rnd.randint(110, 190)
        return Image.new("RGB", (w, h), (level, level, level)), kind
    if kind == "gradient":
        a = [rnd.randint(60, 240) for _ in range(3)]
        b = [rnd.randint(60, 240) for _ in range(3)]
        img = Image.new("RGB", (w, h))
        px = img.load()
        horizontal = rnd.random() < 0.5
        for y in range(h):
            for x in range(w):
                t = x / (w - 1) if horizontal else y / (h - 1)
                px[x, y] = tuple(int(a[i] + (b[i] - a[i]) * t) for i in range(3))
        return img, kind
    # photo-like: coarse random colour field, blurred, plus fine grain
    small = Image.new("RGB", (8, 6))
    base = [rnd.randint(70, 200) for _ in range(3)]
    small.putdata([tuple(max(0, min(255, c + rnd.randint(-50, 50))) for c in base) for _ in range(48)])
    img = small.resize((w, h), Image.BILINEAR).filter(ImageFilter.GaussianBlur(radius=max(w, h) / 30))
    grain = Image.effect_noise((w, h), 12).convert("RGB")
    return Image.blend(img, grain, 0.12), kind


def contrast(a, b):
    return sum(abs(x - y) for x, y in zip(a, b))


def make_image(rnd):
    w, h = rnd.choice(SIZES)
    img, bg_kind = background(rnd, w, h)
    n = rnd.choice([1, 1, 2, 2, 3, 3, 4, 5])
    objs = []
    for _ in range(300):
        if len(objs) == n:
            break
        r = rnd.uniform(0.07, 0.15) * max(w, h)
        if n >= 4:
            r *= 0.8
        if min(w, h) < 2 * r + 6:
            continue
        cx, cy = rnd.uniform(r + 3, w - r - 3), rnd.uniform(r + 3, h - r - 3)
        if any(math.hypot(cx - o["cx"], cy - o["cy"]) < r + o["r"] + 6 for o in objs):
            continue
        color = rnd.choice(list(SHADES))
        rgb = rnd.choice(SHADES[color])
        under = img.getpixel((int(cx), int(cy)))
        if contrast(rgb, under) < 150:
            continue
        kind = rnd.choice(list(PLURALS))
        outline = rnd.random() < 0.25
        objs.append(dict(color=color, shape=kind, cx=cx, cy=cy, r=r, rgb=rgb,
                         width=max(3, int(r * 0.25)) if outline else 0, turn=rnd.uniform(-0.2, 0.2)))
    d = ImageDraw.Draw(img)
    for o in objs:
        draw_shape(d, o["shape"], o["cx"], o["cy"], o["r"], o["rgb"], o["width"], o["turn"])
    return img, objs, (w, h)


def side(o, w, h):
    """('left'|'right'|None, 'top'|'bottom'|None): None when the centre is near the middle."""
    lr = None if abs(o["cx"] - w / 2) < 0.1 * w else ("left" if o["cx"] < w / 2 else "right")
    tb = None if abs(o["cy"] - h / 2) < 0.1 * h else ("top" if o["cy"] < h / 2 else "bottom")
    return lr, tb


def ask(rnd, objs, w, h):
    """(type, question, answer) candidates for one image; the caller picks."""
    colours = [o["color"] for o in objs]
    shapes = [o["shape"] for o in objs]
    out = []
    colour_word = rnd.choice(["color", "colour"])
    out.append(("count", rnd.choice(["How many shapes are there?", "How many shapes are in the image?"]),
                "%d." % len(objs)))
    c = rnd.choice(colours + [rnd.choice(list(SHADES))])
    out.append(("count_color", "How many %s shapes are there?" % c, "%d." % colours.count(c)))
    s = rnd.choice(shapes + [rnd.choice(list(PLURALS))])
    out.append(("count_shape", "How many %s are there?" % PLURALS[s], "%d." % shapes.count(s)))
    for o in objs:
        if shapes.count(o["shape"]) == 1:
            out.append(("color_of_shape", "What %s is the %s?" % (colour_word, o["shape"]),
                        o["color"].capitalize() + "."))
        if colours.count(o["color"]) == 1:
            out.append(("shape_of_color", "What shape is the %s one?" % o["color"], o["shape"].capitalize() + "."))
        name = o["color"] + " " + o["shape"]
        if sum(1 for p in objs if p["color"] + " " + p["shape"] == name) == 1:
            lr, tb = side(o, w, h)
            if lr:
                out.append(("left_right", "Is the %s on the left or the right?" % name, lr.capitalize() + "."))
            if tb:
                out.append(("top_bottom", "Is the %s at the top or the bottom?" % name, tb.capitalize() + "."))
            if lr and tb:
                out.append(("where", "Where is the %s?" % name, (tb + " " + lr).capitalize() + "."))
    missing = [s for s in PLURALS if s not in shapes]
    s = rnd.choice(missing)
    out.append(("absent", "What %s is the %s?" % (colour_word, s), "There is no %s." % s))
    art = lambda word: ("an " if word[0] in "aeiou" else "a ") + word
    s = rnd.choice(list(PLURALS))
    out.append(("exists", "Is there %s?" % art(s), "Yes." if s in shapes else "No."))
    o = rnd.choice(objs)
    if rnd.random() < 0.5:
        out.append(("exists", "Is there %s?" % art(o["color"] + " " + o["shape"]), "Yes."))
    else:
        c = rnd.choice([c for c in SHADES if (c, o["shape"]) not in {(p["color"], p["shape"]) for p in objs}])
        out.append(("exists", "Is there %s?" % art(c + " " + o["shape"]), "No."))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--images", type=int, default=120)
    ap.add_argument("--per-image", type=int, default=3)
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    rnd = random.Random(args.seed)
    os.makedirs(args.out, exist_ok=True)
    lines = []
    for i in range(args.images):
        objs = []
        while not objs:
            img, objs, (w, h) = make_image(rnd)
        name = "ind%03d.png" % i
        img.save(os.path.join(args.out, name))
        cands = ask(rnd, objs, w, h)
        by_type = {}
        for t, q, a in cands:
            by_type.setdefault(t, []).append((q, a))
        types = sorted(by_type)
        rnd.shuffle(types)
        for t in types[:args.per_image]:
            q, a = rnd.choice(by_type[t])
            lines.append("\t".join([name, t, q, a, "-"]))
    with open(os.path.join(args.out, "questions.tsv"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("%d questions on %d images in %s" % (len(lines), args.images, args.out))


if __name__ == "__main__":
    main()
