#!/usr/bin/python3
"""Test images for seer's own conformance cases (tests/conformance/images/).

Small synthetic scenes (gradients, shapes, a little noise) whose sizes make
llama.cpp's Qwen-VL preprocessing resize and letterbox them; written as PNG
with zlib only, so the bytes do not depend on an image library's encoder.

Usage: gen_images.py OUT_DIR
"""

import struct
import sys
import zlib
from pathlib import Path

import numpy as np


def png_bytes(pixels):
    h, w, c = pixels.shape
    color_type = {3: 2, 4: 6}[c]
    raw = b"".join(b"\x00" + pixels[y].tobytes() for y in range(h))   # filter 0 on every row

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, color_type, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def scene(w, h, seed, alpha=False, noise=6):
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    img = np.zeros((h, w, 3), np.float32)
    img[..., 0] = 40 + 160 * x / w
    img[..., 1] = 60 + 120 * y / h
    img[..., 2] = 200 - 150 * (x + y) / (w + h)
    # a disc, a bar and a triangle in fixed colours
    cx, cy, r = 0.35 * w, 0.45 * h, 0.22 * min(w, h)
    img[(x - cx) ** 2 + (y - cy) ** 2 < r * r] = (230, 120, 20)
    img[(x > 0.6 * w) & (x < 0.9 * w) & (y > 0.2 * h) & (y < 0.35 * h)] = (30, 30, 160)
    tri = (y > 0.6 * h) & (y < 0.9 * h) & (np.abs(x - 0.7 * w) < (y - 0.6 * h) * 0.6)
    img[tri] = (20, 170, 60)
    if noise:
        img += rng.normal(0, noise, img.shape)
    img = np.clip(np.rint(img), 0, 255).astype(np.uint8)
    if alpha:
        a = np.clip(255 - 2 * x, 40, 255).astype(np.uint8)[..., None]   # dropped, not blended, by llama.cpp
        img = np.concatenate([img, a], axis=2)
    return img


IMAGES = {
    "scene-250x170.png": dict(w=250, h=170, seed=1),           # landscape, aspect changes when rounded to 32
    "scene-90x140.png": dict(w=90, h=140, seed=2),             # small portrait: fewer patches than the 8x8 grid
    "scene-300x200-rgba.png": dict(w=300, h=200, seed=3, alpha=True),
    # over LFM2-VL's pixel cap (tiled in 512 px tiles); no noise, so the PNGs stay small
    "scene-800x720.png": dict(w=800, h=720, seed=4, noise=0),     # 2x2 tiles (letterboxed) + thumbnail
    "scene-1200x600.png": dict(w=1200, h=600, seed=5, noise=0),   # aspect 2: 2x1 and 4x2 tie, 2x1 kept
}


def main():
    out = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    out.mkdir(parents=True, exist_ok=True)
    for name, spec in IMAGES.items():
        (out / name).write_bytes(png_bytes(scene(**spec)))


if __name__ == "__main__":
    main()
