"""Writes sample images like the bundled ones (assets/images): 256x256 scenes
from the training distribution with distinct colours and shapes. (The bundled
PNGs were written by the first generator, one shape per quadrant; the current
generator draws other scenes from the same seeds.)"""
import os
import sys

import numpy as np
from PIL import Image

import scenes


def find_scene(seed, n_shapes):
    """First scene of the seeded stream with n_shapes shapes of distinct colours and shapes."""
    rng = np.random.default_rng(seed)
    while True:
        sc = scenes.make_scene(rng)
        objs = sc["objects"]
        if (sc["size"] == (256, 256) and len(objs) == n_shapes and len({o["color"] for o in objs}) == n_shapes
                and len({o["shape"] for o in objs}) == n_shapes):
            return sc


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "assets/images"
    os.makedirs(out, exist_ok=True)
    for name, seed, n in (("demo.png", 7, 3), ("two-shapes.png", 11, 2), ("four-shapes.png", 13, 4)):
        sc = find_scene(seed, n)
        Image.fromarray(scenes.render(sc)).save(os.path.join(out, name), optimize=True)
        print(name + ": " + scenes.describe(sc) + "  (" + ", ".join(
            "%s %s %s" % (o["color"], o["shape"], o["quadrant"]) for o in sc["objects"]) + ")")


if __name__ == "__main__":
    main()
