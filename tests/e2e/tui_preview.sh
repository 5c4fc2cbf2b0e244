#!/usr/bin/env bash
# Image preview: (1) half-block art in a 256-colour terminal shows the
# image's colours in the right places; (2) with --sixel on, the sixel bytes
# seer emits decode (libsixel's sixel2png) to the source image scaled to fit
# the pane, aspect kept.
. "$(dirname "$0")/tui_lib.bash"
make_model
make_image "$T/quad.ppm" 64 48
start 120 36 -m "$T/llm.gguf" --mmproj "$T/mmproj.gguf" --sixel off -n 2 "$T/quad.ppm"
wait_log '^image' 15
wait_screen "Image 1/1"
sleep 0.3
screen_escapes > "$T/screen.ans"
python3 - "$T/screen.ans" <<'PY' || fail "half-block colours wrong"
import re, sys
# xterm-256 colours of pure red, green, blue, white.
want = {"red": 196, "green": 46, "blue": 21, "white": 231}
rows = []
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    fg = bg = None
    cells = []
    for m in re.finditer(r"\x1b\[([0-9;]*)m|([^\x1b])", line):
        if m.group(1) is not None:
            p = [int(x) if x else 0 for x in m.group(1).split(";")]
            i = 0
            while i < len(p):
                if p[i] == 0: fg = bg = None
                elif p[i] in (38, 48) and i + 2 < len(p) and p[i + 1] == 5:
                    if p[i] == 38: fg = p[i + 2]
                    else: bg = p[i + 2]
                    i += 2
                elif p[i] == 39: fg = None
                elif p[i] == 49: bg = None
                i += 1
        else:
            cells.append((m.group(2), fg, bg))
    rows.append(cells)
art = [(y, [(x, c) for x, c in enumerate(r) if c[0] == "▀"]) for y, r in enumerate(rows)]
art = [(y, c) for y, c in art if len(c) >= 8]
assert len(art) >= 4, "no half-block art found"
top_y, top = art[0]
bot_y, bot = art[-1]
def colours(cells, which):
    return [c[1] if which == "fg" else c[2] for _, c in cells]
t = colours(top, "fg"); b = colours(bot, "bg")
n = len(t)
left, right = t[: n // 4], t[-(n // 4):]
assert all(c == want["red"] for c in left), f"top-left {left}"
assert all(c == want["green"] for c in right), f"top-right {right}"
left, right = b[: n // 4], b[-(n // 4):]
assert all(c == want["blue"] for c in left), f"bottom-left {left}"
assert all(c == want["white"] for c in right), f"bottom-right {right}"
# 64x48 image: the art keeps the 4:3 aspect (cells are two pixels high).
h = (bot_y - top_y + 1) * 2
assert abs(n / h - 64 / 48) < 0.15, f"aspect {n}x{h}"
PY
keys C-d; wait_exit 5 >/dev/null
stop_seer

command -v sixel2png >/dev/null && command -v convert >/dev/null || { echo "ok (sixel part skipped: no sixel2png/convert)"; exit 0; }
EXTRA_ENV="SEER_SIXEL_DUMP='$T/out.six'" start 120 36 -m "$T/llm.gguf" --mmproj "$T/mmproj.gguf" --sixel on -n 2 "$T/quad.ppm"
wait_log '^image' 15
for i in $(seq 50); do [ -s "$T/out.six" ] && break; sleep 0.1; done
[ -s "$T/out.six" ] || fail "no sixel output"
head -c 3 "$T/out.six" | od -c | grep -q '033   P' || fail "not a DCS sixel sequence"
sixel2png -i "$T/out.six" -o "$T/out.png" || fail "libsixel cannot decode the bytes"
dims=$(convert "$T/out.png" -format '%w %h' info:)
convert "$T/out.png" -depth 8 rgb:"$T/out.rgb"
pane=$(grep -m1 -oE '^sixel pane [0-9]+x[0-9]+' "$LOG" | cut -d' ' -f3 | tr x ' ')
[ -n "$pane" ] || fail "no sixel pane size in the event log"
$PY - "$T/out.rgb" $dims $pane <<'PY' || fail "decoded sixel does not match the image"
import sys
import numpy as np
w, h = int(sys.argv[2]), int(sys.argv[3])
px = np.fromfile(sys.argv[1], dtype=np.uint8).reshape(h, w, 3).astype(int)
pw, ph = int(sys.argv[4]), int(sys.argv[5])
# Scaled to fit the pane: aspect kept, one side touching the pane's edge.
assert abs(w / h - 64 / 48) < 0.03, f"aspect {w}x{h}"
assert w <= pw and h <= ph and (w == pw or h == ph), f"size {w}x{h} in pane {pw}x{ph}"
exp = np.zeros((h, w, 3), int)
ys, xs = np.mgrid[0:h, 0:w]
top, left = ys < h / 2, xs < w / 2
exp[top & left] = (255, 0, 0); exp[top & ~left] = (0, 255, 0)
exp[~top & left] = (0, 0, 255); exp[~top & ~left] = (255, 255, 255)
# Away from the quadrant edges (filtering blurs them) colours must match.
inner = (np.abs(ys - h / 2) > 3) & (np.abs(xs - w / 2) > 3)
err = np.abs(px - exp)[inner].mean()
assert err < 12, f"mean error {err:.1f}"
PY
echo ok
