"""Checks that seer computes what the trainer's model computes: a few scenes
and their descriptions through `seer embed` (single and multi-vectors) and
through model.py from model.pt; prints the largest relative L2 distance.
    check_seer.py SEER OUT_DIR LLM.gguf MMPROJ.gguf MV_PROJ.gguf"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import torch
from PIL import Image

import embedder as M
import prompts as P


def seer_rows(seer, args):
    out = subprocess.run([seer, "embed", "--format", "jsonl", "-t", "1"] + args, check=True,
                         capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines()]


def main():
    seer, out, llm, mmproj, mv = sys.argv[1:6]
    prompts = P.Prompts()
    net = M.EmbedVLM(M.Config(n_vocab=prompts.n_vocab))
    net.load_state_dict(torch.load(os.path.join(out, "model.pt")))
    net.eval()
    rng = np.random.default_rng(7)
    sc = [P.make_scene(rng) for _ in range(3)]
    px = np.stack([P.render(s) for s in sc])
    texts = [P.describe(s) for s in sc]
    with torch.no_grad():
        img = net.embed_batch(prompts.image_batch(M.normalise(px)))
        txt = net.embed_batch(prompts.text_batch(texts))
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i, p in enumerate(px):
            paths.append(os.path.join(tmp, "%d.png" % i))
            Image.fromarray(p).save(paths[-1])
        base = ["-m", llm, "--mmproj", mmproj]
        for multi in (False, True):
            extra = ["--mv-proj", mv, "--multi"] if multi else []
            si = seer_rows(seer, base + extra + sum((["--image", p] for p in paths), []))
            st = seer_rows(seer, ["-m", llm, "--role", "query"] + extra + sum((["-p", t] for t in texts), []))
            for rows, (single, mvec, valid) in ((si, img), (st, txt)):
                for i, r in enumerate(rows):
                    got = np.array(r["embeddings"] if multi else r["embedding"])
                    want = (mvec[i][valid[i]] if multi else single[i]).numpy()
                    if got.shape != want.shape:
                        sys.exit("shape %s from seer, %s from the model" % (got.shape, want.shape))
                    d = np.linalg.norm(got - want) / np.linalg.norm(want)
                    worst = max(worst, d)
                    print("%s %s %d: %.3g" % ("multi" if multi else "single", "image" if rows is si else "text", i, d))
    print("worst relative L2: %.3g" % worst)
    sys.exit(0 if worst < 0.02 else 1)


if __name__ == "__main__":
    main()
