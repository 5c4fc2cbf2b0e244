#!/usr/bin/env bash
# InternVL's default (original) preprocessing against the authors' own rule:
# `seer encode --dump-pixels` on the internvl3-f32 mmproj (112-px tiles, 1 to
# 6) must give, for each test image, the inputs of a Pillow re-typing of
# InternVL's dynamic_preprocess (closest aspect-ratio grid, Image.resize
# bicubic, crops row by row, thumbnail unless one tile; ToTensor, ImageNet
# Normalize) to 1e-5.
set -u
SEER=${SEER:?SEER must point at the seer binary}
root="$(cd "$(dirname "$0")/../.." && pwd)"
mmproj="$root/tests/conformance/cases/internvl3-f32/mmproj.gguf"
[ -f "$mmproj" ] || { echo "SKIP: internvl3-f32 case not found"; exit 0; }
py=
for p in "${PYTHON:-python3}" /usr/bin/python3; do
  "$p" -c 'import numpy, PIL' 2>/dev/null && { py=$p; break; }
done
[ -n "$py" ] || { echo "SKIP: no python3 with numpy and Pillow"; exit 0; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$py" - "$SEER" "$mmproj" "$root/tests/conformance/images" "$tmp" <<'PY'
import subprocess, sys
import numpy as np
from PIL import Image

seer, mmproj, images, tmp = sys.argv[1:]
S, MIN, MAX = 112, 1, 6
MEAN, STD = np.array([0.485, 0.456, 0.406]), np.array([0.229, 0.224, 0.225])

def grid(w, h):
    ratios = sorted({(i, j) for n in range(MIN, MAX + 1) for i in range(1, n + 1) for j in range(1, n + 1)
                     if MIN <= i * j <= MAX}, key=lambda r: r[0] * r[1])
    best, best_diff = (1, 1), float("inf")
    for r in ratios:
        d = abs(w / h - r[0] / r[1])
        if d < best_diff:
            best, best_diff = r, d
        elif d == best_diff and w * h > 0.5 * S * S * r[0] * r[1]:
            best = r
    return best

def tiles(img):
    c, r = grid(*img.size)
    big = img.resize((S * c, S * r))
    out = [big.crop(((k % c) * S, (k // c) * S, (k % c + 1) * S, (k // c + 1) * S)) for k in range(c * r)]
    return out + ([img.resize((S, S))] if c * r > 1 else [])

fail = 0
for name in ["scene-250x170.png", "scene-90x140.png", "scene-300x200-rgba.png"]:
    path = f"{images}/{name}"
    ref = np.stack([((np.asarray(t, np.float64) / 255 - MEAN) / STD).transpose(2, 0, 1)
                    for t in tiles(Image.open(path).convert("RGB"))]).astype(np.float32)
    subprocess.run([seer, "encode", "--mmproj", mmproj, "--image", path, "-o", f"{tmp}/e.f32", "-t", "2",
                    "--dump-pixels", f"{tmp}/px.f32"], check=True, capture_output=True)
    mine = np.fromfile(f"{tmp}/px.f32", np.float32)
    if mine.size != ref.size:
        print(f"FAIL: {name}: {mine.size // (3 * S * S)} inputs, expected {len(ref)}")
        fail = 1
        continue
    err = float(np.abs(mine.reshape(ref.shape) - ref).max())
    if err > 1e-5:
        print(f"FAIL: {name}: max abs {err:.3g} from dynamic_preprocess")
        fail = 1
sys.exit(fail)
PY
[ $? -eq 0 ] || exit 1
echo ok
