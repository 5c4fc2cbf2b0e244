"""Writes a held-out evaluation set: scene images (PNG) plus questions.tsv with
one line per question:
    image <TAB> type <TAB> question <TAB> answer <TAB> token ids
The token ids are the Python tokenizer's ids for the text seer tokenizes after
the image (question + end of turn + assistant prefix), so the e2e test can
check that seer's tokenizer agrees with the one the model was trained on.

    make_heldout.py --out DIR --images 250 --per-image 2 --seed 77

Images come in the generator's sizes and aspect ratios. (tests/demo, the
fixed set, was written by the first generator: 128x128 scenes, one shape
per quadrant.)
"""
import argparse
import os

import numpy as np
from PIL import Image

import chatfmt
import data
import scenes

# Question types that the accuracy figure counts (colour, shape, count, position).
EVAL_TYPES = ["color_of_shape", "shape_of_color", "color_at", "shape_at", "count", "count_color",
              "count_shape", "where", "left_right", "top_bottom", "exists"]


def text_after_image(question):
    """The prompt text seer tokenizes after the image chunk."""
    prompt = chatfmt.render([("user", chatfmt.MARKER + question)])
    return prompt.split(chatfmt.MARKER)[1]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--images", type=int, default=30)
    ap.add_argument("--per-image", type=int, default=2)
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    tok = data.build_tokenizer()
    rng = np.random.default_rng(args.seed)
    turn = 0
    lines = []
    for i in range(args.images):
        sc = scenes.make_scene(rng)
        name = "scene%03d.png" % i
        Image.fromarray(scenes.render(sc)).save(os.path.join(args.out, name), optimize=True)
        qa = scenes.questions(sc, rng)
        asked = 0
        # round-robin over the types keeps the set balanced
        for _ in range(len(EVAL_TYPES)):
            t = EVAL_TYPES[turn % len(EVAL_TYPES)]
            turn += 1
            if not qa[t]:
                continue
            q, a = scenes.pick(t, qa[t], rng)
            ids = tok.encode(text_after_image(q))
            lines.append("\t".join([name, t, q, a, " ".join(map(str, ids))]))
            asked += 1
            if asked == args.per_image:
                break
    with open(os.path.join(args.out, "questions.tsv"), "w") as f:
        f.write("\n".join(lines) + "\n")
    # ids of the user-turn text before the image
    before = chatfmt.render([("user", chatfmt.MARKER)]).split(chatfmt.MARKER)[0]
    with open(os.path.join(args.out, "prefix_ids.txt"), "w") as f:
        f.write(" ".join(map(str, tok.encode(before))) + "\n")
    print("%d questions on %d images in %s" % (len(lines), args.images, args.out))


if __name__ == "__main__":
    main()
