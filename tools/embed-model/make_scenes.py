"""A folder of scene images (112x112 PNG) and the canonical description of
each ("A red circle and a blue square."), for `make search-demo` and the
recall test. Scenes whose description another scene already has are left
out, so every query has one right answer.
    make_scenes.py --out DIR --n N --seed S   -> DIR/scene-000.png ..., DIR/queries.tsv (file TAB text)"""
import argparse
import os

import numpy as np
from PIL import Image

import prompts as P


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--n", type=int, default=40)
    ap.add_argument("--seed", type=int, default=2026)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    rng = np.random.default_rng(a.seed)
    seen, rows = set(), []
    while len(rows) < a.n:
        sc = P.make_scene(rng)
        text = P.describe(sc)
        if text in seen:
            continue
        seen.add(text)
        name = "scene-%03d.png" % len(rows)
        Image.fromarray(P.render(sc)).save(os.path.join(a.out, name))
        rows.append((name, text))
    with open(os.path.join(a.out, "queries.tsv"), "w") as f:
        for name, text in rows:
            f.write("%s\t%s\n" % (name, text))


if __name__ == "__main__":
    main()
