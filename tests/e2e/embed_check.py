"""Runs `seer embed` on one golden embedding case (conformance/embeddings/<case>)
and compares, within the case's tolerances: token ids (exact), every token's
final hidden state, the single vector and its Matryoshka cut, the
multi-vectors, MaxSim scores, and for the image the encoder's pixels against
the original processor's (its patch order). Image rows take seer's only
(M-RoPE) positions, as the golden image outputs do. Pure Python (no NumPy).
usage: embed_check.py SEER CASE_DIR TMP_DIR; prints one line per measure,
exit 1 when any is out of tolerance."""
import json
import math
import os
import struct
import subprocess
import sys
from array import array


def floats(path):
    a = array("f")
    with open(path, "rb") as f:
        a.frombytes(f.read())
    return a


def rel_l2(got, want):
    if len(got) != len(want):
        return float("inf")
    num = sum((g - w) ** 2 for g, w in zip(got, want))
    den = sum(w * w for w in want)
    return math.sqrt(num / den) if den > 0 else math.sqrt(num)


def run(seer, args):
    p = subprocess.run([seer, "embed"] + args, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("seer embed %s: %s" % (" ".join(args), p.stderr.strip()))
    return [json.loads(line) for line in p.stdout.splitlines() if line.strip()]


def normalized(v):
    n = math.sqrt(sum(x * x for x in v))
    return [x / n for x in v]


def pooled(hidden, n_embd, first, last):
    """The single vector from hidden rows first..last inclusive: mean, L2."""
    rows = [hidden[r * n_embd:(r + 1) * n_embd] for r in range(first, last + 1)]
    return normalized([sum(col) / len(rows) for col in zip(*rows)])


def maxsim(q, d):
    return sum(max(sum(a * b for a, b in zip(qr, dr)) for dr in d) for qr in q)


def patch_order(planes, h, w, patch=14, merge=2, frames=2):
    """Planes [3][h][w] in Qwen2VLImageProcessor's flattening: per merged
    block (row-major), its patches row-major, each channel, frame, row, col."""
    out = array("f")
    gh, gw = h // patch, w // patch
    for by in range(gh // merge):
        for bx in range(gw // merge):
            for dy in range(merge):
                for dx in range(merge):
                    py, px = by * merge + dy, bx * merge + dx
                    for c in range(3):
                        rows = []
                        for r in range(patch):
                            base = (c * h + py * patch + r) * w + px * patch
                            rows.append(planes[base:base + patch])
                        for _ in range(frames):
                            for row in rows:
                                out.extend(row)
    return out


def main():
    seer, case_dir, tmp = sys.argv[1:4]
    case = json.load(open(os.path.join(case_dir, "case.json")))
    tol = case["tolerance"]
    exp = os.path.join(case_dir, "expected")
    llm = os.path.join(case_dir, case["llm"])
    mmproj = os.path.join(case_dir, case["mmproj"])
    mv = os.path.join(case_dir, case["mv_proj"])
    k = case["matryoshka_dim"]
    base = ["-m", llm, "--mmproj", mmproj, "--mv-proj", mv, "--format", "jsonl", "-t", "2"]
    failed = False
    multis = {}

    def check(what, value, limit):
        nonlocal failed
        ok = value <= limit
        failed = failed or not ok
        print("%s %s: %.3g (tolerance %g)" % ("ok  " if ok else "FAIL", what, value, limit))

    for inp in case["inputs"]:
        name, kind = inp["name"], inp["kind"]
        if kind == "image":
            # The reference processor's bounds (README: max_pixels 4096·28²), not jina's 768.
            src = ["--image", os.path.join(case_dir, inp["image"]), "--image-max-tokens", "4096"]
        else:
            src = ["--role", inp["role"], "-p", inp["text"]]
        dump = os.path.join(tmp, name)
        single = run(seer, base + src + ["--dump", dump])[0]["embedding"]
        cut = run(seer, base + src + ["--dim", str(k)])[0]["embedding"]
        multi = run(seer, base + src + ["--multi"])[0]["embeddings"]
        multis[name] = multi

        ids = [int(x) for x in open(os.path.join(dump, "ids_0.txt")).read().split()]
        want_ids = json.load(open(os.path.join(exp, "ids_%s.json" % name)))
        same = ids == want_ids
        failed = failed or not same
        print("%s %s ids: %d tokens %s" % ("ok  " if same else "FAIL", name, len(ids),
                                           "equal" if same else "differ from %d expected" % len(want_ids)))
        t = "image" if kind == "image" else "text"
        # The pooling on seer's own hidden states, tighter than the golden
        # tolerance (which also carries the image's resampling).
        own = floats(os.path.join(dump, "hidden_0.f32"))
        first, last = inp.get("pooled_rows", [0, len(ids) - 1])
        check(name + " pooling of its own hidden states", rel_l2(single, pooled(own, case["n_embd"], first, last)),
              1e-5)
        check(name + " Matryoshka cut of its own single vector", rel_l2(cut, normalized(single[:k])), 1e-5)
        check(name + " hidden", rel_l2(floats(os.path.join(dump, "hidden_0.f32")),
                                       floats(os.path.join(exp, "hidden_%s.f32" % name))), tol["hidden_rel_l2_" + t])
        check(name + " single", rel_l2(single, floats(os.path.join(exp, "single_%s.f32" % name))),
              tol["single_rel_l2_" + t])
        check("%s single dim%d" % (name, k),
              rel_l2(cut, floats(os.path.join(exp, "single_%s_dim%d.f32" % (name, k)))), tol["single_rel_l2_" + t])
        flat = array("f", [v for row in multi for v in row])
        check(name + " multi", rel_l2(flat, floats(os.path.join(exp, "multi_%s.f32" % name))),
              tol["multi_rel_l2_" + t])
        if kind == "image":
            n_patches, width = case["pixels_shape"]
            _, gh, gw = case["image_grid_thw"]
            planes = floats(os.path.join(dump, "pixels_0.f32"))
            h, w = gh * 14, gw * 14
            if len(planes) != 3 * h * w:
                check("pixels size", float("inf"), 0)
            else:
                check("pixels", rel_l2(patch_order(planes, h, w), floats(os.path.join(exp, "pixels_image.f32"))),
                      tol["pixels_rel_l2"])
    for pair, want in case["maxsim"].items():
        q, d = pair.split("-")
        check("maxsim %s (%.4f)" % (pair, want), abs(maxsim(multis[q], multis[d]) - want), tol["maxsim_abs"])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
